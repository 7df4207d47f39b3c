"""Schema versions of the campaign file and the steps that bring old files up to date.

Each step takes the tables of version N and returns those of version N+1; steps never touch
the disk. What a step moves out of the file (schema 1's Журнал) it hands back in
:class:`Upgrade`, and the store writes it to its new home before the upgraded file.

Version history:

1. ``meta`` (one document: schema_version, name, system), ``characters``, ``log``.
2. The Журнал moves to ``<name>.log.jsonl`` (append-only, so rolls never rewrite the party);
   ``meta`` gains ``rev`` (a change counter); new tables ``docs`` (app documents such as the
   current encounter and settings) and ``history`` (the undo and redo stacks).
3. An undo or redo step may keep only the changed fields of a character or an app document
   (``{"fields": …, "unset": […]}``, see :mod:`tui.store.history`) instead of its whole
   value. The data stay as they are (whole values remain valid steps); the version changes
   because a kubik that knows only schema 2 would read such a step as "remove it".
4. Each sheet field of a character has a key of its own (``energy``, ``health``, ``dead``…,
   checked by the system's typed sheet) instead of living in its free-form ``extra``; the
   party, the bestiary's templates and the undo/redo stacks are converted
   (:mod:`tui.store.sheet_fields`).
5. Each core mark of a character (``hidden``, ``player``, ``template``, ``encounter``) has a
   key of its own, checked by the campaign schema, instead of living in ``extra``, which keeps
   only free values; the party, the bestiary's templates and the undo/redo stacks are
   converted (:mod:`tui.store.core_marks`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import core_marks, sheet_fields
from .errors import CampaignCorrupt, StoreError
from .storage import corrupt_message, russian_reason
from .tables import CHARACTERS, DOCS, HISTORY, LEGACY_LOG, META, Tables

__all__ = ["CHARACTERS", "DOCS", "HISTORY", "LEGACY_LOG", "META", "Tables", "upgrade"]

SCHEMA_VERSION = 5


@dataclass
class Upgrade:
    """The result of bringing a file's tables to :data:`SCHEMA_VERSION`."""

    tables: Tables
    from_version: int
    #: Журнал documents a schema-1 file kept inside itself, oldest first.
    moved_log: list[dict[str, Any]] = field(default_factory=list)
    #: Set when reading mended the data (a repeated name): written at the next change.
    mended: bool = False

    @property
    def changed(self) -> bool:
        return self.from_version != SCHEMA_VERSION or self.mended


def _v1_to_v2(tables: Tables, moved_log: list[dict[str, Any]]) -> Tables:
    """Move the Журнал out of the file; add the change counter, ``docs`` and ``history``."""
    log = tables.pop(LEGACY_LOG, {})
    moved_log.extend(doc for _, doc in sorted(log.items(), key=lambda kv: _doc_id(kv[0])))
    tables.setdefault(CHARACTERS, {})
    tables.setdefault(DOCS, {})
    tables.setdefault(HISTORY, {})
    for meta in tables[META].values():
        meta.setdefault("rev", 0)
    return tables


def _v2_to_v3(tables: Tables, moved_log: list[dict[str, Any]]) -> Tables:
    """Nothing to convert: steps that keep whole values are valid schema-3 steps."""
    return tables


def _v3_to_v4(tables: Tables, moved_log: list[dict[str, Any]]) -> Tables:
    """Give each sheet field of a character its own key (see :mod:`tui.store.sheet_fields`)."""
    return sheet_fields.upgrade(tables)


def _v4_to_v5(tables: Tables, moved_log: list[dict[str, Any]]) -> Tables:
    """Give each core mark of a character its own key (see :mod:`tui.store.core_marks`)."""
    return core_marks.upgrade(tables)


#: ``MIGRATIONS[n]`` turns schema ``n`` into schema ``n + 1``.
MIGRATIONS: dict[int, Callable[[Tables, list[dict[str, Any]]], Tables]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
}


def schema_version(tables: Tables, path: Path) -> int:
    """Return the file's schema version after checking ``meta``.

    Raises:
        CampaignCorrupt: no single meta document, or a version that is not a positive int.
        StoreError: the file comes from a newer kubik.
    """
    docs = list(tables.get(META, {}).values())
    if len(docs) != 1 or not isinstance(docs[0], dict):
        raise CampaignCorrupt(corrupt_message(path, "нет сведений о кампании (таблица meta)"))
    version = docs[0].get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise CampaignCorrupt(corrupt_message(path, f"неверная версия схемы {version!r}"))
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"Файл кампании {path} создан более новой версией kubik (схема {version}, "
            f"эта версия понимает до {SCHEMA_VERSION}). Обновите kubik, чтобы открыть его."
        )
    return version


def upgrade(tables: Tables, path: Path) -> Upgrade:
    """Bring ``tables`` (changed in place) to :data:`SCHEMA_VERSION`; nothing is written.

    Raises:
        CampaignCorrupt, StoreError: see :func:`schema_version`; a step met damaged data.
    """
    start = version = schema_version(tables, path)
    moved: list[dict[str, Any]] = []
    try:
        while version < SCHEMA_VERSION:
            tables = MIGRATIONS[version](tables, moved)
            version += 1
            for meta in tables[META].values():
                meta["schema_version"] = version
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise CampaignCorrupt(
            corrupt_message(path, f"не удалось обновить схему {version}: {russian_reason(err)}")
        ) from err
    return Upgrade(tables, start, moved)


def _doc_id(key: str) -> int:
    return int(key) if key.isdigit() else 0
