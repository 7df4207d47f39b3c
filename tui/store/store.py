"""The campaign store: the one place that turns TinyDB documents into domain objects.

Files of a campaign ``campaign.json``::

    campaign.json          TinyDB JSON: meta, characters, docs, history (undo/redo)
    campaign.json.lock     the lock every writer holds for one read-modify-write
    campaign.log.jsonl     the Журнал, append-only (see :mod:`tui.store.journal`)
    campaign.backups/      the last 10 versions of campaign.json (see :mod:`tui.store.backups`)

Every state change is one locked read-modify-write: take the lock, read the file fresh (never
a stale cache; bytes identical to the version in memory are not parsed again), apply the
change as one undo step, write a new file atomically (the old one becomes a backup), release.
Several kubiks can therefore share a campaign: each one's writes are whole, and
:meth:`Store.refresh` picks up the others'.

A change is a delta against what it read, never a stale copy written back. A character a
screen changed (``dataclasses.replace`` of one the store handed out) remembers the document
it was read from (:attr:`Character.origin`): saving it applies only the fields the screen
changed to the document as it is *now*, and refuses with a Russian message
(:class:`StaleWrite`) when the character was removed meanwhile or a field was changed both
here and there. :meth:`Store.update_character` goes further: its function is run on the
current character under the lock (a wound is added to the track as it is now).

Reads never wait for the campaign's lock: a write holds the store's read mutex only to swap
the cached state, so a write waiting in a worker thread for another kubik leaves the UI free.
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import platformdirs
from tinydb import TinyDB
from tinydb.storages import MemoryStorage

from tui.sanitize import clean_json, clean_line

from . import backups as bk
from . import history
from .codec import character_from_doc, character_to_doc, log_from_doc
from .errors import (
    CampaignCorrupt,
    ChangeRefused,
    StaleWrite,
    StoreBusy,
    StoreError,
    StoreReadOnly,
    os_reason,
    write_error_message,
)
from .files import (
    Loaded,
    check_tables,
    decode,
    file_lock,
    good_backups,
    import_campaign,
    load,
    locked,
    new_campaign_tables,
    restore_backup,
    write_file,
)
from .journal import Journal, journal_path
from .merge import field_list, merge3
from .migrations import DOCS, META, SCHEMA_VERSION, Upgrade
from .models import Campaign, Character, LogEntry, new_id
from .storage import (
    TablesEncoder,
    atomic_write_bytes,
    file_sig,
    private_mkdir,
    read_bytes,
    remove_stale_temp_files,
    write_target,
)
from .transfer import Imported, export_payload, log_markdown, read_export

if TYPE_CHECKING:
    import filelock

__all__ = [
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "Edit",
    "Store",
    "StoreError",
    "default_campaign_path",
]

#: Seconds a change waits for another kubik's write before :class:`StoreBusy`.
LOCK_TIMEOUT = 3.0
#: Seconds a write made on the UI thread waits at most (:meth:`Store.waiting_at_most`).
UI_LOCK_WAIT = 0.25

T = TypeVar("T")
Tables = dict[str, dict[str, Any]]


class Edit(NamedTuple):
    """What :meth:`Store.update_character`'s function makes of the current character."""

    character: Character
    #: The undo step's Russian label («Горан: Царапина»).
    label: str
    #: Журнал entries the change writes; they are marked «отменено» while it is undone.
    log: Sequence[LogEntry] = ()


def default_campaign_path() -> Path:
    """Return the per-user campaign file, e.g. ``~/.local/share/kubik/campaign.json``."""
    return platformdirs.user_data_path("kubik", appauthor=False) / "campaign.json"


class Store:
    """A campaign: characters, app documents, undo history and the Журнал.

    Use :meth:`open`. Reads come from memory; :meth:`refresh` re-reads what other processes
    wrote. Every change is one undo step with a Russian label, except :meth:`append_log`:
    the Журнал is history, and undo never removes a roll from it.
    """

    def __init__(
        self,
        path: Path,
        loaded: Loaded,
        *,
        read_only: bool,
        read_only_reason: str | None,
        lock_timeout: float,
    ) -> None:
        self.path = path
        self.read_only = read_only
        #: Why the campaign is read-only, in Russian, for a banner (None if asked for).
        self.read_only_reason = read_only_reason
        self._lock_timeout = lock_timeout
        self._file_lock: filelock.BaseFileLock | None = None  # made by the first write
        #: Guards the cached state; held only for short reads and swaps, never across I/O waits.
        self._mutex = threading.RLock()
        #: Serialises this store's writes (and refreshes) while they hold the campaign's lock.
        self._write_mutex = threading.RLock()
        #: Per thread: the id of the newest undo step it wrote (see :meth:`take_last_step`).
        self._local = threading.local()
        self._subscribers: list[Callable[[], None]] = []
        self._closed = False
        self._journal = Journal(journal_path(path))
        self._legacy_log: list[LogEntry] = []
        self._encoder = TablesEncoder()
        self._set_cache(loaded)

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path | None = None,
        *,
        system: str = "drevo",
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT,
    ) -> Store:
        """Open the campaign at ``path`` (default: :func:`default_campaign_path`).

        A file that does not exist yet is created with the demo party of ``system``
        (``drevo``, ``ide4``, ``starately`` or ``wod``); an existing file keeps its own system
        and is migrated to the current schema (the old version stays among the backups).
        ``read_only=True`` never writes (a missing file is an error); a folder kubik cannot
        write to also opens read-only, with :attr:`read_only_reason` saying why.

        Raises:
            CampaignCorrupt: the file is damaged; ``err.backups`` lists good backups.
            StoreBusy: another kubik holds the lock longer than ``lock_timeout`` seconds.
            StoreError: the file is from a newer kubik or cannot be read or created.
        """
        path = Path(path).expanduser() if path is not None else default_campaign_path()
        # A symlinked campaign is its target: the lock, the Журнал and the backups live
        # beside it, so a kubik opening the link and one opening the target share them.
        path = write_target(path)
        if path.is_dir():
            raise StoreError(f"{path} — это папка, а не файл кампании. Укажите путь к файлу.")
        reason = None
        if not read_only and path.exists() and not os.access(path.parent, os.W_OK):
            read_only = True
            reason = (
                f"Папка {path.parent} недоступна для записи: кампания открыта только для "
                "чтения, изменения сохранить нельзя."
            )
        if read_only:
            loaded = load(path)
            if loaded is None:
                raise StoreError(f"Файл кампании {path} не найден.")
            store = cls(
                path, loaded, read_only=True, read_only_reason=reason, lock_timeout=lock_timeout
            )
            store._journal.refresh()
            return store

        try:
            private_mkdir(path.parent)
        except OSError as err:
            raise StoreError(
                f"Не удалось создать папку {path.parent}: {os_reason(err)}. "
                "Проверьте права доступа или укажите другой путь."
            ) from err
        if not path.exists():
            with locked(path, lock_timeout):
                if not path.exists():
                    write_file(path, new_campaign_tables(system), old_rev=None)
        remove_stale_temp_files(path)
        loaded = load(path)
        if loaded is None:
            raise StoreError(f"Файл кампании {path} исчез во время открытия. Повторите.")
        store = cls(path, loaded, read_only=False, read_only_reason=None, lock_timeout=lock_timeout)
        if loaded.up.changed:
            store._transact(lambda db, _step: (None, False))  # writes the migrated file
        store._journal.refresh()
        return store

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
                    return copy.deepcopy(doc.get("value"))
        return None

    def log(self, limit: int | None = None) -> list[LogEntry]:
        """Return Журнал entries, newest (last appended) first, at most ``limit`` of them."""
        with self._mutex:
            self._check_open()
            entries = self._all_log()
            undone = set(self._stacks["undone"])
        entries.reverse()
        entries = entries if limit is None else entries[: max(limit, 0)]
        if undone:
            entries = [_marked(e, undone) for e in entries]
        return entries

    # -- changing (each one undo step) ----------------------------------------------------

    def apply(
        self,
        label: str,
        *,
        upsert: Iterable[Character] = (),
        delete: Iterable[str] = (),
        docs: Mapping[str, dict[str, Any] | None] | None = None,
        bases: Mapping[str, dict[str, Any] | None] | None = None,
        log: Iterable[LogEntry] = (),
        what: str = "изменение не записано",
    ) -> bool:
        """Make several changes as one write and one undo step; return whether any changed.

        Args:
            label: a short Russian description for the undo list («Конец раунда»).
            upsert: characters to insert, or changed copies of stored ones: a copy is merged
                into the current document (see the module's doc); a character without
                :attr:`~Character.origin` replaces the stored one whole (import, the CLI).
            delete: ids of characters to remove.
            docs: app documents to set; None as a value removes the document.
            bases: for documents in ``docs``, the value the screen read: then only what it
                changed is applied to the current document (key by key), and a key another
                window changed too is refused. Without a base a document is set whole.
            log: Журнал entries this change writes (appended after the file is written);
                they carry the step's id, so undoing the step marks them «отменено».
            what: what is lost when the write is refused («рана не записана»).

        Raises:
            StaleWrite: a changed character was removed or changed in the same field by
                another window since it was read; nothing was written.
            StoreReadOnly, StoreBusy, CampaignCorrupt, StoreError: nothing was changed.
        """
        upsert, deleted = list(upsert), [str(i) for i in delete]
        doc_changes = [(_doc_name(n), _doc_value(v)) for n, v in (docs or {}).items()]
        keys = [("character", c.id) for c in upsert] + [("character", i) for i in deleted]
        keys += [("doc", n) for n, _ in doc_changes]
        if len(set(keys)) != len(keys):
            raise ValueError("one change touches the same character or document twice")
        entries = list(log)

        def change(db: TinyDB, step_id: str) -> tuple[None, bool]:
            changes: list[history.Change] = [
                ("character", c.id, _merged(db, c, what)) for c in upsert
            ]
            changes += [("character", i, None) for i in deleted]
            changes += [("doc", n, _doc_merged(db, n, v, bases, what)) for n, v in doc_changes]
            return None, history.record(db, label, changes, step_id, force=bool(entries))

        return self._transact(change, entries)[1]

    def update_character(
        self,
        id: str,  # noqa: A002 - the API's name
        edit: Callable[[Character], Edit | None],
        *,
        name: str,
        what: str = "изменение не записано",
    ) -> Edit | None:
        """Run ``edit`` on the character as it is now (under the lock) and save what it makes.

        This is how a change that still makes sense on another window's version is re-applied
        to it: ``edit`` gets the current character (a wound is added to the current track, a
        point of Судьба to the current count) and returns the new one with the step's label and
        its Журнал entries, or None to change nothing. Returns what was saved.

        Raises:
            StaleWrite: the character is gone («Персонаж Богдан Сыч удалён в другом окне —
                рана не записана»); ``name`` is the name the caller knows it by.
            rules.errors.RulesError (or anything ``edit`` raises): nothing was written.
            StoreReadOnly, StoreBusy, CampaignCorrupt, StoreError: nothing was changed.
        """
        done: list[Edit] = []

        def change(db: TinyDB, step_id: str) -> tuple[None, bool]:
            doc = history.get_value(db, "character", id)
            if doc is None:
                raise StaleWrite(f"Персонаж {name} удалён в другом окне — {what}.")
            made = edit(character_from_doc(doc))
            if made is None:
                return None, False
            if made.character.id != id:
                raise ValueError("an edit must keep the character's id")
            done.append(made)
            changes = [("character", id, character_to_doc(made.character))]
            return None, history.record(db, made.label, changes, step_id, force=bool(made.log))

        self._transact(change, lambda: list(done[0].log) if done else [])
        return done[0] if done else None

    def upsert_character(
        self,
        c: Character,
        *,
        label: str | None = None,
        log: Iterable[LogEntry] = (),
        what: str = "изменение не записано",
    ) -> None:
        """Insert the character, or save a changed copy of a stored one (see :meth:`apply`)."""
        if label is None:
            verb = "Изменён" if c.id in self._characters else "Добавлен"
            label = f"{verb} персонаж «{c.name}»"
        self.apply(label, upsert=[c], log=log, what=what)

    def delete_character(self, id: str, *, label: str | None = None) -> bool:  # noqa: A002
        """Remove the character with this id; return whether there was one."""
        known = self._characters.get(id)
        label = label or f"Удалён персонаж «{known.name if known else id}»"
        return self.apply(label, delete=[id])

    def put_doc(self, name: str, value: dict[str, Any] | None, *, label: str) -> None:
        """Set (or, with None, remove) the app document ``name``; ``label`` names the step."""
        self.apply(label, docs={name: value})

    def rename(self, name: str) -> None:
        """Rename the campaign (an undo step)."""
        name = clean_line(name).strip()
        if not name:
            raise ValueError("empty campaign name")
        change = [("meta", "name", name)]
        label = f"Кампания переименована в «{name}»"
        self._transact(lambda db, step_id: (None, history.record(db, label, change, step_id)))

    def append_log(self, entry: LogEntry, *, step: str | None = None) -> None:
        """Add an entry to the end of the Журнал (appended and fsynced; never undone).

        ``step`` links the entry to the undo step that it tells of (:meth:`take_last_step`):
        while that step is undone, the entry is marked «отменено».
        """
        if step is not None:
            entry = replace(entry, data={**entry.data, "step": step})
        with self._writing():
            self._check_writable()
            with self._locked():
                self._append_journal([entry])
        self._notify()

    def take_last_step(self) -> str | None:
        """Return the id of the newest undo step this thread wrote here, and forget it.

        For a screen that writes a change and then, separately, its Журнал entry: pass the
        id to :meth:`append_log` so the entry is marked while the change is undone.
        """
        step: str | None = getattr(self._local, "step", None)
        self._local.step = None
        return step

    # -- undo -----------------------------------------------------------------------------

    def undo(self) -> str | None:
        """Undo the newest step (of any kubik on this file); return its label, None if none."""
        return self._step("undo")

    def redo(self) -> str | None:
        """Redo the newest undone step; return its label, None if none."""
        return self._step("redo")

    @property
    def can_undo(self) -> bool:
        return bool(self._stacks["undo"])

    @property
    def can_redo(self) -> bool:
        return bool(self._stacks["redo"])

    def undo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`undo` would take, newest first."""
        return [s["label"] for s in reversed(self._stacks["undo"][-n:])] if n > 0 else []

    def redo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`redo` would take, newest first."""
        return [s["label"] for s in reversed(self._stacks["redo"][-n:])] if n > 0 else []

    def _step(self, source: str) -> str | None:
        def logged() -> set[str]:  # under the lock: every entry written so far
            with self._mutex:
                self._journal.refresh()
                entries = self._journal.entries()
            return {e.data["step"] for e in entries if isinstance(e.data.get("step"), str)}

        label = self._transact(lambda db, _step_id: _with_flag(history.step(db, source, logged)))[0]
        self._local.step = None
        return label

    # -- other processes ------------------------------------------------------------------

    def refresh(self) -> bool:
        """Re-read what changed on disk since the last read; notify and return True if any.

        Cheap when nothing changed (two ``stat`` calls); meant for a timer or a file watcher.
        While this store is writing, it returns False at once (the write notifies).

        Raises:
            CampaignCorrupt: the file was damaged behind kubik's back (raised once per
                change on disk); the last good state stays in memory.
        """
        if not self._write_mutex.acquire(blocking=False):
            return False
        try:
            self._check_open()
            changed = False
            sig = file_sig(self.path)
            if sig is not None and sig != self._sig:
                self._sig = sig  # a damaged version is reported once, not on every tick
                loaded = load(self.path)
                if loaded is not None and loaded.up.tables != self._tables:
                    with self._mutex:
                        self._set_cache(loaded)
                    changed = True
                elif loaded is not None:
                    self._sig = loaded.sig
            with self._mutex:
                changed = self._journal.refresh() or changed
        finally:
            self._write_mutex.release()
        if changed:
            self._notify()
        return changed

    # -- backups, export, import ----------------------------------------------------------

    def backups(self) -> list[Path]:
        """Return the backups of this campaign, newest first."""
        return bk.list_backups(self.path)

    @staticmethod
    def restore_backup(
        path: Path, backup: Path, *, lock_timeout: float = LOCK_TIMEOUT
    ) -> Path | None:
        """Replace the campaign at ``path`` with ``backup``; return where the old file went.

        A damaged campaign file is kept aside as ``<name>.corrupt-<timestamp>`` (and that
        path is returned); a good one becomes a backup like before any write (returns None).
        Close open stores first, or let them :meth:`refresh`.

        Raises:
            StoreError: the backup itself is unusable, or the folder is not writable.
        """
        return restore_backup(Path(path), Path(backup), lock_timeout)

    def export_json(self, path: Path) -> None:
        """Write the whole campaign (meta, characters, docs, Журнал) to ``path`` as JSON.

        Raises:
            StoreError: ``path`` is this campaign's own file, or cannot be written.
        """
        import json

        path = Path(path)
        own = {self.path.resolve(), self.log_path.resolve()}
        if path.resolve() in own:
            raise StoreError(f"{path} — файл самой кампании; выберите другой путь для экспорта.")
        with self._mutex:
            self._check_open()
            docs = {
                str(d["name"]): copy.deepcopy(d.get("value"))
                for d in self._tables.get(DOCS, {}).values()
            }
            payload = export_payload(
                self._campaign,
                self.characters(),
                docs,
                list(reversed(self.log())),  # with the «отменено» marks the Журнал shows
                datetime.now().astimezone().isoformat(timespec="seconds"),
            )
        data = json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8")
        try:
            atomic_write_bytes(path, data)
        except OSError as err:
            raise StoreError(
                f"Не удалось записать экспорт {path}: {os_reason(err)}. "
                "Проверьте папку и свободное место на диске."
            ) from err

    @classmethod
    def import_json(
        cls,
        source: Path,
        target_path: Path | None = None,
        *,
        force: bool = False,
        lock_timeout: float = LOCK_TIMEOUT,
    ) -> Imported:
        """Create the campaign ``target_path`` from an export file; return its description.

        An existing campaign is replaced only with ``force=True``: its file becomes a
        backup and its Журнал is moved into the backups folder. The undo history starts
        empty, but the Журнал keeps its «отменено» marks; an export from before kubik wrote
        them imports unmarked, and :attr:`Imported.note` says so (None when nothing is lost).

        Raises:
            CampaignExists: the target exists and ``force`` is False.
            StoreError: the export is invalid (the message names why) or cannot be written.
        """
        exported = read_export(Path(source))
        target = Path(target_path).expanduser() if target_path else default_campaign_path()
        if target.is_dir():
            raise StoreError(f"{target} — это папка, а не файл кампании. Укажите путь к файлу.")
        try:
            private_mkdir(target.parent)
        except OSError as err:
            raise StoreError(write_error_message(target, err)) from err
        import_campaign(exported, target, force=force, lock_timeout=lock_timeout)
        return Imported(exported.name, exported.system, SCHEMA_VERSION, note=exported.note())

    def log_markdown(self) -> str:
        """Return the whole Журнал as Markdown, oldest first, one heading per day."""
        with self._mutex:
            self._check_open()
            name = self._campaign.name
        return log_markdown(name, list(reversed(self.log())))

    # -- notifications and lifetime -------------------------------------------------------

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change, made here or picked up by :meth:`refresh`."""
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        """Stop calling ``callback``; unknown callbacks are ignored."""
        if callback in self._subscribers:
            self._subscribers.remove(callback)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Forget the campaign. Further calls raise :class:`StoreError`."""
        with self._mutex:
            self._closed = True
            self._subscribers.clear()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the one write path ---------------------------------------------------------------

    def _transact(
        self,
        change: Callable[[TinyDB, str], tuple[T, bool]],
        log: Sequence[LogEntry] | Callable[[], Sequence[LogEntry]] = (),
    ) -> tuple[T, bool]:
        """Lock, read fresh, apply ``change(db, step_id)`` (returns ``(result, changed)``),
        write, append ``log`` (linked to the step), notify.

        ``step_id`` is the id the change gives its undo step; ``log`` may be a function,
        called once the change ran (its entries depend on what it found).
        """
        step_id = new_id()
        try:
            return self._transact_locked(change, log, step_id)
        except StaleWrite:
            self.refresh()  # the refused write read the file: show the GM what is there now
            raise

    def _transact_locked(
        self,
        change: Callable[[TinyDB, str], tuple[T, bool]],
        log: Sequence[LogEntry] | Callable[[], Sequence[LogEntry]],
        step_id: str,
    ) -> tuple[T, bool]:
        with self._writing():
            self._check_writable()
            with self._locked():
                loaded = self._read_locked()
                if loaded.up.moved_log:
                    self._move_legacy_log(loaded.up.moved_log)
                base = loaded.up.tables
                db = TinyDB(storage=MemoryStorage)
                db.storage.write(_copy_docs(base))  # TinyDB updates documents in place
                result, changed = change(db, step_id)
                if not changed and not loaded.up.changed and loaded.sig is not None:
                    return result, False  # nothing to write; refresh() reports others' changes
                rev = loaded.rev
                db.table(META).update({"rev": (rev or 0) + 1})
                tables = _share_unchanged(db.storage.read() or {}, base)
                # Documents checked when the file was read (by this store, or just now when
                # another process wrote it) are not checked again.
                known = (base, loaded.characters)
                try:  # never write what could not be read back
                    fresh = check_tables(tables, self.path, known=known)
                except CampaignCorrupt as err:
                    if err.reason and (known is not None or _loads(base, self.path)):
                        # The file was good before the change: the change is what is refused.
                        raise ChangeRefused(
                            f"Изменение не сохранено: {err.reason}. Кампания не изменилась."
                        ) from err
                    raise CampaignCorrupt(str(err), backups=good_backups(self.path)) from err
                try:
                    fresh.raw = write_file(
                        self.path,
                        tables,
                        old_rev=rev if loaded.sig else None,
                        encode=self._encoder.encode,
                    )
                except OSError as err:
                    raise StoreError(write_error_message(self.path, err)) from err
                fresh.sig = file_sig(self.path)
                with self._mutex:
                    self._set_cache(fresh)
                if changed:
                    self._local.step = step_id
                entries = log() if callable(log) else log
                if changed and entries:
                    # After the file: an entry is never there for a change that is not.
                    marked = [replace(e, data={**e.data, "step": step_id}) for e in entries]
                    self._append_journal(marked)
        self._notify()
        return result, changed

    def _append_journal(self, entries: list[LogEntry]) -> None:
        """Append entries to the Журнал file and read them in; the caller holds the lock."""
        try:
            self._journal.append(entries)
        except OSError as err:
            raise StoreError(write_error_message(self._journal.path, err)) from err
        with self._mutex:
            self._journal.refresh()

    def _read_locked(self) -> Loaded:
        """Return the file as it is now on disk; the caller holds the lock.

        The bytes are always read. When they are exactly the ones this store last read or
        wrote, the cache *is* their parse, so they are not parsed again; any other version
        (another kubik's write, a restored backup, a hand edit) is parsed and upgraded. The
        comparison is on content, not on ``stat``: a file rewritten in place within the
        timestamp granularity, or a new file that got a freed inode number, can keep device,
        inode, size and mtime.
        """
        got = read_bytes(self.path)
        if got is None:
            # The file vanished while open: the state in memory is the best there is.
            return Loaded(Upgrade(self._tables, SCHEMA_VERSION), None, self._characters)
        raw, sig = got
        if self._raw is not None and raw == self._raw:
            return Loaded(Upgrade(self._tables, SCHEMA_VERSION), sig, self._characters, raw)
        # Checked before the change too: a change that replaces the one bad document would
        # otherwise pass the check after it, and a file that fails would be overwritten.
        return decode(raw, sig, self.path)

    def _move_legacy_log(self, docs: list[dict[str, Any]]) -> None:
        """Append a schema-1 file's Журнал to the JSONL file, skipping what is there already.

        Runs under the lock before the migrated file is written, so a crash in between only
        means the next open moves the log again, and the id check makes that harmless.
        """
        self._journal.refresh()
        have = self._journal.ids()
        entries = [e for e in (log_from_doc(d) for d in docs) if e.id not in have]
        try:
            self._journal.append(entries)
        except OSError as err:
            raise StoreError(write_error_message(self._journal.path, err)) from err
        self._legacy_log = []

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if self._file_lock is None:
            self._file_lock = file_lock(self.path, self._lock_timeout)
        with locked(self.path, self._wait(), self._file_lock):
            yield

    def _wait(self) -> float:
        wait: float | None = getattr(self._local, "wait", None)
        return self._lock_timeout if wait is None else wait

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold this store's write mutex, waiting no longer than for the campaign's lock."""
        wait = self._wait()
        if not self._write_mutex.acquire(timeout=wait):
            raise StoreBusy(
                f"Кампанию {self.path.name} сейчас сохраняет предыдущее изменение этого окна "
                "(оно ждёт другую копию kubik). Повторите через несколько секунд."
            )
        try:
            yield
        finally:
            self._write_mutex.release()

    @contextmanager
    def waiting_at_most(self, seconds: float = UI_LOCK_WAIT) -> Iterator[None]:
        """Let this thread's writes wait at most ``seconds`` for the campaign's lock.

        For a screen that must write from the UI thread and know the outcome at once: a
        write that cannot get the lock that fast raises :class:`StoreBusy` (nothing changed)
        instead of freezing the screen for the whole :data:`LOCK_TIMEOUT`.
        """
        before = getattr(self._local, "wait", None)
        self._local.wait = seconds
        try:
            yield
        finally:
            self._local.wait = before

    # -- helpers --------------------------------------------------------------------------

    def _set_cache(self, loaded: Loaded) -> None:
        # The cached tables are never changed in place (a write copies what it changes), so
        # they stay exactly the parse of ``_raw``, the bytes of the version they came from.
        self._tables = loaded.up.tables
        self._sig = loaded.sig
        self._raw = loaded.raw
        self._characters = loaded.characters
        (meta,) = self._tables[META].values()
        self._campaign = Campaign(str(meta["name"]), str(meta["system"]), SCHEMA_VERSION)
        self._stacks = history.stacks(self._tables)
        # A read-only view of a schema-1 file keeps its Журнал here until a writer moves it.
        self._legacy_log = [log_from_doc(d) for d in loaded.up.moved_log]

    def _all_log(self) -> list[LogEntry]:
        entries = self._journal.entries()
        if self._legacy_log:
            have = self._journal.ids()
            entries = [e for e in self._legacy_log if e.id not in have] + entries
        return entries

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("Кампания уже закрыта: откройте файл заново.")

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only:
            raise StoreReadOnly(
                self.read_only_reason
                or f"Кампания {self.path} открыта только для чтения: изменения не сохраняются."
            )

    def _notify(self) -> None:
        for callback in list(self._subscribers):
            callback()


def _loads(tables: Tables, path: Path) -> bool:
    """Return whether ``tables`` pass the checks of a load."""
    try:
        check_tables(tables, path)
    except CampaignCorrupt:
        return False
    return True


def _copy_docs(tables: Tables) -> Tables:
    """Return ``tables`` with fresh table and document dicts; values inside stay shared.

    TinyDB changes a document by updating its dict in place, and the tables handed to it may
    be the store's cache: a write that fails must leave the cache as it was.
    """
    return {
        name: {key: dict(doc) if isinstance(doc, dict) else doc for key, doc in docs.items()}
        for name, docs in tables.items()
    }


def _share_unchanged(tables: Tables, before: Tables) -> Tables:
    """Put back the very document objects of ``before`` wherever a document is unchanged.

    What a change did not touch then stays the object the store already checked, which
    :func:`check_tables` recognises without comparing its contents.
    """
    for name, docs in tables.items():
        old_docs = before.get(name, {})
        for key, doc in docs.items():
            old = old_docs.get(key)
            if old is not None and old is not doc and old == doc:
                docs[key] = old
    return tables


def _merged(db: TinyDB, c: Character, what: str) -> dict[str, Any]:
    """Return the document to store for ``c``: its changes applied to the current document.

    Raises:
        StaleWrite: ``c`` was read from a document that is gone now, or a field it changed
            was changed to something else by another window.
    """
    new = character_to_doc(c)
    if c.origin is None or c.origin.get("id") != c.id:
        return new  # a new character (a copy too), or a whole replace (import, the CLI)
    current = history.get_value(db, "character", c.id)
    if current is None:
        raise StaleWrite(f"Персонаж {c.name} удалён в другом окне — {what}.")
    base = character_to_doc(character_from_doc(c.origin))
    now = character_to_doc(character_from_doc(current))
    merged, conflicts = merge3(base, new, now)
    if conflicts:
        raise StaleWrite(
            f"Персонаж {c.name} изменён в другом окне ({field_list(conflicts)}) — {what}. "
            "Откройте его заново."
        )
    return dict(merged)


def _doc_merged(
    db: TinyDB,
    name: str,
    value: dict[str, Any] | None,
    bases: Mapping[str, dict[str, Any] | None] | None,
    what: str,
) -> dict[str, Any] | None:
    """Return the document to store: ``value``'s changes from its base applied to the current one.

    Raises:
        StaleWrite: a key the screen changed was changed to something else meanwhile.
    """
    if bases is None or name not in bases:
        return value
    current = history.get_value(db, "doc", name)
    merged, conflicts = merge3(bases[name] or {}, value or {}, current or {})
    if conflicts:
        raise StaleWrite(
            f"В другом окне изменили то же самое ({', '.join(conflicts)}) — {what}. "
            "Откройте заново."
        )
    return dict(merged) or None


def _marked(entry: LogEntry, undone: set[str]) -> LogEntry:
    step = entry.data.get("step")
    return replace(entry, undone=True) if isinstance(step, str) and step in undone else entry


def _with_flag(label: str | None) -> tuple[str | None, bool]:
    return label, label is not None


def _doc_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"bad document name {name!r}")
    return name


def _doc_value(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """Copy a document through JSON, so only JSON-ready values are stored."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"a document is a dict, not {type(value).__name__}")
    import json

    return clean_json(json.loads(json.dumps(value, ensure_ascii=False)))
