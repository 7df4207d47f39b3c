"""The tables of a campaign file, by name (what every part of the store reads them by)."""

from __future__ import annotations

import copy
from typing import Any

META, CHARACTERS, DOCS, HISTORY = "meta", "characters", "docs", "history"
#: Schema 1 kept the Журнал in the file.
LEGACY_LOG = "log"

Tables = dict[str, dict[str, Any]]

_CONTAINERS = (dict, list)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """Return a deep copy of a stored value: what ``copy.deepcopy`` returns, ~3× faster on
    the JSON a document holds (dicts, lists, scalars; anything else is deep-copied as before).
    A fight's document is copied on every read of it."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    return value if kind in _SCALARS else copy.deepcopy(value)
