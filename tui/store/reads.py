"""The store's read side: the campaign, its characters, app documents and Журнал from memory.

Reads never wait for the campaign's lock: they hold the store's read mutex only to copy
what is cached; a Журнал entry of an undone step is marked «отменено».
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from .migrations import DOCS
from .models import Campaign, Character, LogEntry
from .state import StoreState
from .tables import copy_json


class ReadSide(StoreState):
    """What a store answers from memory."""

    # -- reading --------------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        """Name, system and schema version of the open campaign."""
        return self._campaign

    @property
    def log_path(self) -> Path:
        """The Журнал file, ``<name>.log.jsonl``."""
        return self._journal.path

    def characters(self) -> list[Character]:
        """Return all characters: PCs first, then NPCs, each sorted by name."""
        with self._mutex:
            self._check_open()
            chars = list(self._characters.values())
        return sorted(chars, key=lambda c: (c.kind != "pc", c.name.casefold(), c.name))

    def character(self, id: str) -> Character | None:  # noqa: A002 - the API's name
        """Return the character with this id, or None."""
        with self._mutex:
            self._check_open()
            return self._characters.get(id)

    def get_doc(self, name: str) -> dict[str, Any] | None:
        """Return a copy of the app document ``name`` (``"encounter"``, ``"settings"``)."""
        with self._mutex:
            self._check_open()
            for doc in self._tables.get(DOCS, {}).values():
                if doc.get("name") == name:
                    return copy_json(doc.get("value"))
        return None

    def log(self, limit: int | None = None) -> list[LogEntry]:
        """Return Журнал entries, newest (last appended) first, at most ``limit`` of them."""
        with self._mutex:
            self._check_open()
            if limit is not None and not self._legacy_log:
                entries = self._journal.tail(limit)  # the newest, read from the file's end
            else:
                entries = self._all_log()
            undone = set(self._stacks["undone"])
        entries.reverse()
        entries = entries if limit is None else entries[: max(limit, 0)]
        if undone:
            entries = [_marked(e, undone) for e in entries]
        return entries


def _marked(entry: LogEntry, undone: set[str]) -> LogEntry:
    step = entry.data.get("step")
    return replace(entry, undone=True) if isinstance(step, str) and step in undone else entry
