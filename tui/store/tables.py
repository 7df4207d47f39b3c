"""The tables of a campaign file, by name (what every part of the store reads them by)."""

from __future__ import annotations

from typing import Any

META, CHARACTERS, DOCS, HISTORY = "meta", "characters", "docs", "history"
#: Schema 1 kept the Журнал in the file.
LEGACY_LOG = "log"

Tables = dict[str, dict[str, Any]]
