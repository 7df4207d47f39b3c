"""The campaign store: the one place that turns TinyDB documents into domain objects.

File layout (TinyDB JSON, one table per key)::

    meta        one document {"schema_version", "name", "system"}
    characters  one document per character, ``id`` is the stable key
    log         one document per Журнал entry, in the order they were appended

Every change is one TinyDB operation, which rewrites the whole file atomically
(see :mod:`tui.store.storage`), so a crash leaves the previous or the next state.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import platformdirs
from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

from .demo import demo_campaign
from .models import Campaign, Character, LogEntry, Skill
from .storage import AtomicJSONStorage, StoreError, remove_stale_temp_files

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "default_campaign_path"]

SCHEMA_VERSION = 1

META, CHARACTERS, LOG = "meta", "characters", "log"


def default_campaign_path() -> Path:
    """Return the per-user campaign file, e.g. ``~/.local/share/kubik/campaign.json``."""
    return platformdirs.user_data_path("kubik", appauthor=False) / "campaign.json"


class Store:
    """A campaign file: characters and the Журнал. Use :meth:`open` to get one."""

    def __init__(self, path: Path, db: TinyDB, campaign: Campaign) -> None:
        self.path = path
        self._db = db
        self._campaign = campaign
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[], None]] = []
        self._closed = False

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | None = None, *, system: str = "drevo") -> Store:
        """Open the campaign at ``path`` (default: :func:`default_campaign_path`).

        A file that does not exist yet is created with the demo party of ``system``
        (``drevo``, ``ide4``, ``starately`` or ``wod``); an existing file keeps its own system.

        Raises:
            StoreError: the file is corrupt, from a newer kubik, or cannot be read or written.
        """
        path = Path(path).expanduser() if path is not None else default_campaign_path()
        if path.is_dir():
            raise StoreError(f"{path} — это папка, а не файл кампании. Укажите путь к файлу.")
        if not path.exists():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise StoreError(
                    f"Не удалось создать папку {path.parent}: {err.strerror or err}. "
                    "Проверьте права доступа или укажите другой путь."
                ) from err
            AtomicJSONStorage(path).write(_new_campaign_data(system))
        remove_stale_temp_files(path)
        db = TinyDB(path, storage=AtomicJSONStorage)
        try:
            campaign = _read_meta(path, db)
            # Convert every character now, so a damaged file fails here, not mid-session.
            for doc in db.table(CHARACTERS).all():
                _character_from_doc(doc)
        except StoreError:
            db.close()
            raise
        except (KeyError, TypeError, ValueError) as err:
            db.close()
            raise StoreError(_damaged(path, err)) from err
        return cls(path, db, campaign)

    # -- reading --------------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        """Name, system and schema version of the open campaign."""
        return self._campaign

    def characters(self) -> list[Character]:
        """Return all characters: PCs first, then NPCs, each sorted by name."""
        with self._lock:
            docs = self._table(CHARACTERS).all()
            chars = [self._convert(_character_from_doc, doc) for doc in docs]
        return sorted(chars, key=lambda c: (c.kind != "pc", c.name.casefold(), c.name))

    def character(self, id: str) -> Character | None:  # noqa: A002 - the API's name
        """Return the character with this id, or None."""
        with self._lock:
            doc = self._table(CHARACTERS).get(Query().id == id)
        if doc is None:
            return None
        return self._convert(_character_from_doc, doc)

    def log(self, limit: int | None = None) -> list[LogEntry]:
        """Return Журнал entries, newest (last appended) first, at most ``limit`` of them."""
        with self._lock:
            docs = self._table(LOG).all()
        docs.sort(key=lambda d: d.doc_id, reverse=True)
        if limit is not None:
            docs = docs[: max(limit, 0)]
        return [self._convert(_log_from_doc, doc) for doc in docs]

    # -- writing --------------------------------------------------------------------------

    def upsert_character(self, c: Character) -> None:
        """Insert the character, or replace the stored one with the same id."""
        with self._lock:
            self._table(CHARACTERS).upsert(_character_to_doc(c), Query().id == c.id)
        self._notify()

    def delete_character(self, id: str) -> bool:  # noqa: A002 - mirrors character()
        """Remove the character with this id; return whether there was one."""
        with self._lock:
            removed = self._table(CHARACTERS).remove(Query().id == id)
        if removed:
            self._notify()
        return bool(removed)

    def append_log(self, entry: LogEntry) -> None:
        """Add an entry to the end of the Журнал."""
        with self._lock:
            self._table(LOG).insert(_log_to_doc(entry))
        self._notify()

    # -- notifications and lifetime -------------------------------------------------------

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change made through this store."""
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        """Stop calling ``callback``; unknown callbacks are ignored."""
        if callback in self._subscribers:
            self._subscribers.remove(callback)

    def close(self) -> None:
        """Release the file. Further calls raise :class:`StoreError`."""
        with self._lock:
            if not self._closed:
                self._db.close()
                self._closed = True
                self._subscribers.clear()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers --------------------------------------------------------------------------

    def _table(self, name: str) -> Any:
        if self._closed:
            raise StoreError("Кампания уже закрыта: откройте файл заново.")
        return self._db.table(name)

    def _convert(self, fn: Callable[[dict[str, Any]], Any], doc: dict[str, Any]) -> Any:
        try:
            return fn(doc)
        except (KeyError, TypeError, ValueError) as err:
            raise StoreError(_damaged(self.path, err)) from err

    def _notify(self) -> None:
        for callback in list(self._subscribers):
            callback()


# -- documents <-> domain objects -------------------------------------------------------------


def _new_campaign_data(system: str) -> dict[str, dict[str, Any]]:
    """Build the whole new file in memory, so it reaches disk in one atomic write."""
    name, system, characters = demo_campaign(system)
    mem = TinyDB(storage=MemoryStorage)
    mem.table(META).insert({"schema_version": SCHEMA_VERSION, "name": name, "system": system})
    mem.table(CHARACTERS).insert_multiple(_character_to_doc(c) for c in characters)
    data = mem.storage.read() or {}
    data.setdefault(LOG, {})  # an empty Журнал, present so the layout is complete
    return data


def _read_meta(path: Path, db: TinyDB) -> Campaign:
    docs = db.table(META).all()
    if len(docs) != 1:
        raise StoreError(_damaged(path, "нет сведений о кампании (таблица meta)"))
    meta = docs[0]
    version = meta.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise StoreError(_damaged(path, f"неверная версия схемы {version!r}"))
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"Файл кампании {path} создан более новой версией kubik (схема {version}, "
            f"эта версия понимает до {SCHEMA_VERSION}). Обновите kubik, чтобы открыть его."
        )
    # Older schemas would be migrated here; version 1 is the first one.
    return Campaign(name=str(meta["name"]), system=str(meta["system"]), schema_version=version)


def _damaged(path: Path, detail: object) -> str:
    return (
        f"Файл кампании {path} повреждён ({detail}). kubik не будет его перезаписывать. "
        "Восстановите файл из резервной копии или укажите другой путь."
    )


def _character_to_doc(c: Character) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "kind": c.kind,
        "qualities": dict(c.qualities),
        "skills": [asdict(s) for s in c.skills],
        "weapons": list(c.weapons),
        "fate": c.fate,
        "wounds": dict(c.wounds),
        "notes": c.notes,
        "extra": dict(c.extra),
    }


def _character_from_doc(doc: dict[str, Any]) -> Character:
    return Character(
        id=str(doc["id"]),
        name=str(doc["name"]),
        kind=doc["kind"],
        qualities={str(k): int(v) for k, v in doc.get("qualities", {}).items()},
        skills=tuple(
            Skill(
                str(s["name"]),
                int(s["value"]),
                s.get("parent"),
                tuple(str(d) for d in s.get("distances", ())),
            )
            for s in doc.get("skills", [])
        ),
        weapons=tuple(str(w) for w in doc.get("weapons", [])),
        fate=int(doc.get("fate", 0)),
        wounds={str(k): int(v) for k, v in doc.get("wounds", {}).items()},
        notes=str(doc.get("notes", "")),
        extra=dict(doc.get("extra") or {}),
    )


def _log_to_doc(e: LogEntry) -> dict[str, Any]:
    return {
        "id": e.id,
        "at": e.at,
        "kind": e.kind,
        "actor": e.actor,
        "text": e.text,
        "data": e.data,
    }


def _log_from_doc(doc: dict[str, Any]) -> LogEntry:
    return LogEntry(
        id=str(doc["id"]),
        at=str(doc["at"]),
        kind=str(doc["kind"]),
        actor=doc.get("actor"),
        text=str(doc["text"]),
        data=dict(doc.get("data") or {}),
    )
