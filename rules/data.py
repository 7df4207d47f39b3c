"""Read kubik's packaged TOML tables (the only I/O the rules do), with per-campaign overrides.

A campaign may replace any table (RULES.md: every [default] is editable per campaign). The app
hands the replacements in with :func:`set_overrides`; the rules never read the campaign file
themselves, so they stay pure. Changing the overrides clears every cache in ``rules`` that was
built from a table.
"""

from __future__ import annotations

import copy
import sys
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files
from types import ModuleType
from typing import Any

_overrides: dict[str, dict[str, Any]] = {}
_listeners: list[Callable[[], None]] = []
#: Per ``rules`` module: the module, how many names it had, and its cached values by name,
#: as :func:`reset_caches` last found them (each check of a typed setting clears every
#: cache twice: scanning every name of every module each time cost most of the check).
_cached: dict[str, tuple[ModuleType, int, dict[str, Any]]] = {}


@cache
def packaged_text(relpath: str) -> str:
    """Return the text of the packaged TOML file ``data/<relpath>`` (comments included)."""
    return files("data").joinpath(relpath).read_text(encoding="utf-8")


@cache
def packaged_table(relpath: str) -> dict[str, Any]:
    """Return the packaged table ``data/<relpath>``, ignoring campaign overrides (cached)."""
    return tomllib.loads(packaged_text(relpath))


def load_table(relpath: str) -> dict[str, Any]:
    """Return the parsed TOML table ``data/<relpath>``, or the campaign's replacement of it.

    Args:
        relpath: path inside the ``data`` package, e.g. ``"drevo/ladder.toml"``.

    Returns:
        The table as a dict (shared; treat as read-only).
    """
    override = _overrides.get(relpath)
    return override if override is not None else packaged_table(relpath)


def overrides() -> dict[str, dict[str, Any]]:
    """Return a copy of the tables the campaign replaces, keyed by relpath."""
    return copy.deepcopy(_overrides)


def set_overrides(tables: Mapping[str, Mapping[str, Any]] | None) -> bool:
    """Replace the campaign's table overrides; return whether anything changed.

    Args:
        tables: ``{"drevo/ladder.toml": {...}, ...}``, each value a whole table with the
            shape of the packaged file; None or ``{}`` means "all packaged defaults".

    Returns:
        True if the overrides differ from before (then every table cache was cleared).
    """
    new = {str(k): copy.deepcopy(dict(v)) for k, v in (tables or {}).items()}
    if new == _overrides:
        return False
    _overrides.clear()
    _overrides.update(new)
    reset_caches()
    return True


def on_change(callback: Callable[[], None]) -> None:
    """Call ``callback()`` after each :func:`reset_caches` (for caches outside ``rules``)."""
    _listeners.append(callback)


def reset_caches() -> None:
    """Clear every ``functools`` cache in the loaded ``rules`` modules, except the file reads.

    Tables feed loaders (``ladder()``, ``bands()``) and odds tables alike, so all of them go.
    """
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "rules" or name.startswith("rules.")):
            continue
        for value in _caches_of(name, module).values():
            value.cache_clear()
    for callback in list(_listeners):
        callback()


def _caches_of(name: str, module: ModuleType) -> dict[str, Any]:
    """Return the module's values with a ``cache_clear`` (the file reads excepted), by name.

    Found once per module; found again when the module was replaced, gained or lost a name
    (a module still being imported), or one of the names found holds another value now.
    """
    names = vars(module)
    known = _cached.get(name)
    if (
        known is not None
        and known[0] is module
        and known[1] == len(names)
        and all(names.get(k) is v for k, v in known[2].items())
    ):
        return known[2]
    keep = {packaged_text, packaged_table}
    found = {
        k: v
        for k, v in list(names.items())
        if callable(getattr(v, "cache_clear", None)) and v not in keep
    }
    _cached[name] = (module, len(names), found)
    return found
