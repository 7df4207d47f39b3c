"""Read kubik's packaged TOML tables (the only I/O the rules do)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load_table(relpath: str) -> dict[str, Any]:
    """Return the parsed TOML file ``data/<relpath>``.

    Args:
        relpath: path inside the ``data`` package, e.g. ``"drevo/ladder.toml"``.

    Returns:
        The TOML document as a dict (cached; treat as read-only).
    """
    resource = files("data").joinpath(relpath)
    return tomllib.loads(resource.read_text(encoding="utf-8"))
