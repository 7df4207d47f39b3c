"""The campaign store: the one place that turns TinyDB documents into domain objects.

Files of a campaign ``campaign.json``::

    campaign.json          TinyDB JSON: meta, characters, docs, history (undo/redo)
    campaign.json.lock     the lock every writer holds for one read-modify-write
    campaign.log.jsonl     the Журнал, append-only (see :mod:`tui.store.journal`)
    campaign.backups/      the last 10 versions of campaign.json, and the copy before each
                           migration, never pruned (see :mod:`tui.store.backups`)

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

import os
from pathlib import Path

from .changes import Changes, Edit
from .copies import Copies
from .errors import StoreError, os_reason
from .files import load, locked, new_campaign_tables, write_file
from .migrations import SCHEMA_VERSION
from .state import Tables, default_campaign_path  # noqa: F401 - Tables: the old name
from .storage import check_campaign_path, private_mkdir, remove_stale_temp_files, write_target
from .undo import Undo
from .writes import LOCK_TIMEOUT, UI_LOCK_WAIT  # noqa: F401 - UI_LOCK_WAIT: the old name

__all__ = [
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "Edit",
    "Store",
    "StoreError",
    "default_campaign_path",
]


class Store(Changes, Undo, Copies):
    """A campaign: characters, app documents, undo history and the Журнал.

    Use :meth:`open`. Reads come from memory; :meth:`refresh` re-reads what other processes
    wrote. Every change is one undo step with a Russian label, except :meth:`append_log`:
    the Журнал is history, and undo never removes a roll from it.

    The parts are mixed in by concept: :mod:`~tui.store.state` (what it holds),
    :mod:`~tui.store.reads`, :mod:`~tui.store.changes`, :mod:`~tui.store.undo`,
    :mod:`~tui.store.copies`, on :mod:`~tui.store.writes` and :mod:`~tui.store.sync`.
    """

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path | None = None,
        *,
        system: str = "drevo",
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT,
        through_dangling_link: bool = False,
        window: str = "app",
    ) -> Store:
        """Open the campaign at ``path`` (default: :func:`default_campaign_path`).

        A file that does not exist yet is created with the demo party of ``system``
        (``drevo``, ``ide4``, ``starately`` or ``wod``); an existing file keeps its own system
        and is migrated to the current schema (the file as the older kubik wrote it is kept in the
        backups folder, never pruned: :func:`tui.store.backups.keep_before_migration`).
        ``read_only=True`` never writes (a missing file is an error); a folder kubik cannot
        write to also opens read-only, with :attr:`read_only_reason` saying why. A symbolic
        link to a file that does not exist is refused unless ``through_dangling_link`` (the
        GM agreed to a new campaign at its target). ``window``: what opens it — ``"app"`` (a
        window that takes back the steps of the windows gone before it) or ``"cli"`` (a
        command: its steps are nobody else's to undo).

        Raises:
            CampaignCorrupt: the file is damaged; ``err.backups`` lists good backups.
            DanglingLink: ``path`` is a symbolic link to nothing (``err.target``).
            NotRegularFile: a FIFO, a device or a socket.
            StoreBusy: another kubik holds the lock longer than ``lock_timeout`` seconds.
            StoreError: the file is from a newer kubik or cannot be read or created.
        """
        path = Path(path).expanduser() if path is not None else default_campaign_path()
        # A FIFO, a device, a loop of links: refused before anything opens it (a FIFO's open
        # waits for ever); a link to nothing makes a campaign at its target only when asked.
        check_campaign_path(path, through_dangling_link=through_dangling_link)
        # A symlinked campaign is its target: the lock, the Журнал and the backups live
        # beside it, so a kubik opening the link and one opening the target share them.
        path = write_target(path)
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
            store._start_window(window)
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
        store._start_window(window)
        return store

    # -- lifetime -------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Forget the campaign. Further calls raise :class:`StoreError`."""
        with self._mutex:
            self._closed = True
            self._subscribers.clear()
        self._end_window()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
