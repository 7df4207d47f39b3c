"""The one write path of the store: lock, read fresh, change, check, write, notify.

Every state change goes through :meth:`WritePath._transact`: it holds this store's write
mutex and the campaign's file lock, reads the file as it is on disk now (not parsed again
when it is the version in memory), lets the change make one undo step in a TinyDB copy,
refuses what could not be read back, writes the file atomically, appends the step's Журнал
entries and notifies (a write refused as stale refreshes, :mod:`tui.store.sync`). How long a
write waits for another kubik's lock is decided here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from tinydb import TinyDB
from tinydb.storages import MemoryStorage

from .codec import log_from_doc
from .errors import (
    CampaignCorrupt,
    ChangeRefused,
    StaleWrite,
    StoreBusy,
    StoreError,
    write_error_message,
)
from .files import Loaded, check_tables, decode, file_lock, good_backups, locked, write_file
from .migrations import META, SCHEMA_VERSION, Upgrade
from .models import LogEntry, new_id
from .state import Tables
from .storage import file_sig, read_bytes
from .sync import Sync

#: Seconds a change waits for another kubik's write before :class:`StoreBusy`.
LOCK_TIMEOUT = 3.0
#: Seconds a write made on the UI thread waits at most (:meth:`Store.waiting_at_most`).
UI_LOCK_WAIT = 0.25

T = TypeVar("T")


class WritePath(Sync):
    """The locked read-modify-write every change of the store is made by."""

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
                db = scratch_db(base)
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
                        old_schema=loaded.up.from_version,
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
        with locked(self.path, self._wait(), self._file_lock, self._lock_waits):
            yield

    #: Whether a write of this store is waiting now for another kubik's lock on the campaign
    #: (any thread may read it: a screen lets the keys held for the write go on).
    waiting_for_lock = False

    def _lock_waits(self, waiting: bool) -> None:
        self.waiting_for_lock = waiting

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


def _loads(tables: Tables, path: Path) -> bool:
    """Return whether ``tables`` pass the checks of a load."""
    try:
        check_tables(tables, path)
    except CampaignCorrupt:
        return False
    return True


def scratch_db(tables: Tables) -> TinyDB:
    """A TinyDB in memory over a copy of ``tables`` (:func:`_copy_docs`): a change made in it
    leaves ``tables`` — the store's cache — as they were."""
    db = TinyDB(storage=MemoryStorage)
    db.storage.write(_copy_docs(tables))  # TinyDB updates documents in place
    return db


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
