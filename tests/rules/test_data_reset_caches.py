"""``rules.data.reset_caches`` finds the caches of each module once, and still clears every one.

Each value the GM types on the settings screen is checked with the table in place and then
without it: two clears of every cache in ``rules``. The caches of a module are now found once
(scanning every name of every module was most of a check); these tests hold that a cache is
still cleared when the module changed since: a new cached name, a name given another cached
value, a module imported anew.
"""

from __future__ import annotations

import sys
import types
from functools import cache

import pytest

from rules import data
from rules.drevo.ladder import ladder


@pytest.fixture
def module():
    """A module ``rules.zz_reset_probe`` with one cached function and a number, gone after
    the test."""
    name = "rules.zz_reset_probe"
    probe = types.ModuleType(name)
    probe.first = cache(lambda: object())
    probe.third = 3
    sys.modules[name] = probe
    yield probe
    del sys.modules[name]
    data._cached.pop(name, None)


def test_a_cache_of_the_rules_is_cleared() -> None:
    """A loader's cache (the ladder) is emptied by a reset, and filled again on use."""
    ladder()
    assert ladder.cache_info().currsize == 1
    data.reset_caches()
    assert ladder.cache_info().currsize == 0, "the ladder's cache cleared"


def test_the_file_reads_are_kept() -> None:
    data.packaged_table("drevo/ladder.toml")
    data.reset_caches()
    assert data.packaged_table.cache_info().currsize >= 1, "the packaged files stay read"


def test_a_module_changed_since_its_caches_were_found_has_them_cleared(module) -> None:
    data.reset_caches()  # the probe's caches found: ``first``
    module.first()
    data.reset_caches()
    assert module.first.cache_info().currsize == 0, "found once, cleared again"

    module.second = cache(lambda: object())  # a name more (a module still being imported)
    module.second()
    data.reset_caches()
    assert module.second.cache_info().currsize == 0, "a new cached name is cleared"

    module.first = cache(lambda: object())  # the same names, another value under one
    module.first()
    data.reset_caches()
    assert module.first.cache_info().currsize == 0, "a name given another cache is cleared"

    anew = types.ModuleType(module.__name__)  # imported anew: the same names and caches, …
    anew.first, anew.second = module.first, module.second
    anew.third = cache(lambda: object())  # … but a cache where the number was
    sys.modules[module.__name__] = anew
    anew.third()
    data.reset_caches()
    assert anew.third.cache_info().currsize == 0, "a module imported anew is scanned anew"
