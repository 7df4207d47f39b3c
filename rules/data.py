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
from typing import Any

_overrides: dict[str, dict[str, Any]] = {}
_listeners: list[Callable[[], None]] = []


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
    keep = {packaged_text, packaged_table}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "rules" or name.startswith("rules.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and value not in keep:
                clear()
    for callback in list(_listeners):
        callback()
