"""What a :class:`~tui.store.store.Store` holds in memory, and the checks every call makes.

The cached parse of the campaign file (tables, characters, undo stacks), the Журнал, the
mutexes that guard them; whether the store is still open and may write; calling the
subscribers. The other parts of the store (reading, changing, undo, sync, copies) build on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from . import history
from .codec import log_from_doc
from .errors import StoreError, StoreReadOnly
from .files import Loaded
from .journal import Journal, journal_path
from .migrations import META, SCHEMA_VERSION
from .models import Campaign, LogEntry
from .storage import TablesEncoder

if TYPE_CHECKING:
    import filelock


Tables = dict[str, dict[str, Any]]


def default_campaign_path() -> Path:
    """Return the per-user campaign file, e.g. ``~/.local/share/kubik/campaign.json``."""
    return platformdirs.user_data_path("kubik", appauthor=False) / "campaign.json"


class StoreState:
    """The state of an open campaign; the base of :class:`~tui.store.store.Store`."""

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
