"""``rules.drevo`` loads its submodules on first use and still offers every public name."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import rules.drevo as drevo
from tests.every_case import assert_every_case
from tests.zygote import Zygote

SUBMODULES = sorted(set(drevo._WHERE.values()) | {"ladder", "settings", "weapons"})


def first_import(first: str) -> str:
    """The check of one case: ``first`` loads before anything else of ``rules.drevo``."""
    return (
        f"import importlib, rules.drevo as d; importlib.import_module('rules.drevo.{first}');"
        "from rules.drevo import *;"
        "import types;"
        "bad = [n for n in ('ladder', 'settings', 'weapons') "
        "if isinstance(getattr(d, n), types.ModuleType)];"
        "print(bad); raise SystemExit(1 if bad else 0)"
    )


WOUND_TRACK = (
    "import sys, rules.drevo as d; d.WoundTrack;"
    "heavy = [m for m in ('rules.drevo.exchange', 'rules.drevo.odds', 'rules.drevo.check') "
    "if m in sys.modules]; print(heavy); raise SystemExit(1 if heavy else 0)"
)


@pytest.fixture(scope="module")
def fresh() -> Iterator[Zygote]:
    """Each case runs in a fork of one fresh interpreter that has imported only the standard
    library modules the rules use (tests/zygote.py), so its ``sys.modules`` holds no
    ``rules`` module, as a fresh interpreter's does: ~5 ms a case instead of ~70 ms."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    zygote = Zygote(
        "import ast, dataclasses, datetime, decimal, enum, fractions, functools, importlib,"
        " importlib.resources, inspect, itertools, math, pathlib, random, re, tempfile,"
        " tomllib, types, typing, zipfile"
    )
    yield zygote
    zygote.close()


def test_every_public_name_resolves_to_its_submodule_object() -> None:
    import importlib

    for name in drevo.__all__:
        value = getattr(drevo, name)
        home = drevo._WHERE.get(name)
        if home is not None:
            assert value is getattr(importlib.import_module(f"rules.drevo.{home}"), name)
    assert set(drevo.__all__) <= set(dir(drevo))
    with pytest.raises(AttributeError):
        drevo.no_such_name  # noqa: B018


def test_functions_named_like_their_module_stay_functions(fresh) -> None:
    """Whichever submodule loads first, drevo.ladder/settings/weapons are the functions."""

    def check(first: str) -> None:
        done = fresh.run(first_import(first))
        assert done.returncode == 0, done.stdout + done.stderr

    assert_every_case(SUBMODULES, check, star=False)


def test_the_wound_track_loads_without_combat_or_odds(fresh) -> None:
    done = fresh.run(WOUND_TRACK)
    assert done.returncode == 0, done.stdout + done.stderr
