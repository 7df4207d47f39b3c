"""The services the app composes and lends its widgets, screens and seats.

``KubikApp`` makes one :class:`Services` as it starts: the open campaign's store (another
campaign replaces it), the session's dice, the ordered store writer (:class:`Writer`), the
Журнал (:class:`Journal`: entries stamped now, secret while secret rolls are on, their luck),
the keys held while a fight's new phase is saved (:class:`KeyHold`), the toasts, the open
check's session and the seats' hub; and in this package's modules undo and redo
(``history``), what the players are shown (``sharing``), the clipboard (``clipboard``), the
redraw's choice of panes (``redraw``) and the deferred start (``startup``). A widget or
screen declares each one it uses (``store = lent.store``: ``tui/services/lent.py``) and mypy
refuses the rest; a seat's hub is handed them (the app is never read by duck typing). None of
this imports the app, a widget or a screen.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable
from datetime import datetime
from random import Random
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from textual import events

from tui.bridge.luck_queue import LuckQueue
from tui.services.clipboard import Clipboard
from tui.services.history import History
from tui.services.redraw import CheckTables, Redraw
from tui.services.sharing import Sharing
from tui.services.startup import Startup
from tui.store import LogEntry, Store, StoreError

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.message import Message

    from tui.store.watch import CampaignWatch
    from tui.table.check.session import CheckTable

T = TypeVar("T")
Clock = Callable[[], datetime]
OnUi = Callable[[Callable[[], object]], None]


class Notify(Protocol):
    """The app's toast (always plain text: ``KubikApp.notify``)."""

    def __call__(
        self, message: str, *, severity: Any = ..., timeout: float | None = ..., **kwargs: Any
    ) -> None: ...


#: The app's ``run_worker``.
RunWorker = Callable[..., Any]


class SeatSignals(Protocol):
    """What a widget tells the seats' hub (tui/seats/hub.py) when the GM serves seats."""

    def check_changed(self) -> None:
        """The open check's offer changed: send the seats their new state."""


class Writer:
    """The app's ordered store writes: every write in a worker thread, one after another."""

    def __init__(self, run_worker: RunWorker, on_ui: OnUi, notify: Notify) -> None:
        self._run_worker = run_worker
        self._on_ui = on_ui
        self._notify = notify
        #: Set when the newest store write handed to a worker is over (see :meth:`write`).
        self._last_write: threading.Event | None = None

    def write(
        self,
        job: Callable[[], T],
        done: Callable[[T], object] | None = None,
        *,
        failed: Callable[[Exception], object] | None = None,
    ) -> None:
        """Run a store write in a worker thread; writes run one after another, in order.

        The UI never waits for the campaign's lock: while another kubik holds it, the worker
        waits (up to the store's lock timeout) and the keys keep working. The screens change
        only through the store's notification, so a write that fails (the lock not had in
        time, a full disk, a change another window made stale) changes nothing on screen:
        the GM is told why (``failed`` gets the error instead, if given). ``done`` gets the
        job's result on the UI thread.
        """
        from rules.errors import RulesError

        before, mine = self._last_write, threading.Event()
        self._last_write = mine

        def run() -> None:
            try:
                if before is not None:
                    before.wait()
                try:
                    result = job()
                except (StoreError, RulesError) as err:
                    error: Exception = err
                    if failed is not None:
                        self._on_ui(lambda: failed(error))
                    else:
                        message = str(err)
                        self._on_ui(lambda: self._notify(message, severity="error", timeout=10))
                    return
                if done is not None:
                    self._on_ui(lambda: done(result))
            finally:
                mine.set()

        self._run_worker(run, thread=True, group="store-write", exit_on_error=False)

    async def writes_done(self) -> None:
        """Wait until every write handed to :meth:`write` so far is over (tests, quitting),
        and the writes those handed on once saved (a fight's damage after its acceptance)."""
        while True:
            last = self._last_write
            while last is not None and not last.is_set():
                await asyncio.sleep(0.002)
            if self._last_write is last:
                return


class KeyHold:
    """The keys typed while a write that changes what the tab shows is pending: «n →» typed at
    once in a fight sent the → to the finished round, and the new round's form lost it."""

    def __init__(self, post: Callable[[Message], object]) -> None:
        self._post = post
        #: The keys held (see :meth:`hold_keys`); None when keys go straight on.
        self._held: list[events.Key] | None = None

    def hold_keys(self) -> None:
        """Keep the keys typed from now on until :meth:`release_keys`."""
        if self._held is None:
            self._held = []

    def hold(self, event: events.Key) -> bool:
        """Keep ``event`` for later if keys are held (Ctrl+Q and Ctrl+C never wait)."""
        if self._held is None or event.key in ("ctrl+q", "ctrl+c"):
            return False
        self._held.append(event)
        return True

    def release_keys(self) -> None:
        """Send the held keys on, in the order typed, to where the focus is now."""
        held, self._held = self._held or [], None
        for key in held:
            self._post(events.Key(key.key, key.character))


class FileWatch:
    """The open campaign's file followed: what other kubiks write shows here within
    milliseconds. The watch thread (``tui.store.watch``) reads the file itself
    (:meth:`Store.refresh` is thread-safe), so a big campaign is parsed off the UI thread; the
    store then notifies and the app redraws. A timer's :meth:`refresh` is the fallback."""

    def __init__(self, campaign: Callable[[], Store], on_ui: OnUi, notify: Notify) -> None:
        self._campaign = campaign
        self._on_ui = on_ui
        self._notify = notify
        #: The watch thread while the file is followed, else None.
        self.current: CampaignWatch | None = None

    def refresh(self) -> None:
        """Pick up what other kubiks wrote to the campaign file (on the UI thread)."""
        try:
            self._campaign().refresh()
        except StoreError as err:
            self._notify(str(err), severity="error", timeout=15)

    def start(self) -> None:
        """Follow the open campaign's file (again, after another campaign was opened)."""
        from tui.store.watch import CampaignWatch

        self.stop()
        store = self._campaign()

        def changed() -> None:
            if store.closed:  # another campaign was opened meanwhile
                return
            try:
                store.refresh()
            except StoreError as err:
                if store.closed:
                    return
                message = str(err)
                self._on_ui(lambda: self._notify(message, severity="error", timeout=15))

        self.current = CampaignWatch(store.path, changed).start()

    def stop(self) -> None:
        """Stop following the campaign's file (before it is closed or another is opened)."""
        if self.current is not None:
            self.current.stop()
            self.current = None


class Journal:
    """The Журнал entries the app records: stamped now, secret while secret rolls are on, each
    linked to the undo step of the change it tells of, their luck computed (a slow roll's in a
    worker, the entries after it waiting behind it), written through the ordered writer. It is
    the luck ledger's host (``tui.bridge.luck.LuckHost``)."""

    def __init__(
        self,
        campaign: Callable[[], Store],
        clock: Clock,
        writer: Writer,
        run_worker: RunWorker,
        call_from_thread: Callable[..., Any],
    ) -> None:
        self._campaign = campaign
        self.clock = clock
        self._writer = writer
        self._run_worker = run_worker
        self._call_from_thread = call_from_thread
        #: While True, every new Журнал entry is a secret roll (``data["hidden"]``).
        self.secret = False
        #: The entries waiting for a slow roll's odds (the luck ledger keeps their order).
        self.luck_queue = LuckQueue()
        #: The entries handed to the writer and not yet written (its thread takes them off).
        self._unwritten: list[LogEntry] = []

    @property
    def store(self) -> Store:
        """The open campaign."""
        return self._campaign()

    def run_worker(self, work: Any, *, thread: bool, group: str, exit_on_error: bool) -> Any:
        """Run the ledger's odds in a worker thread."""
        return self._run_worker(work, thread=thread, group=group, exit_on_error=exit_on_error)

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        """Run ``callback`` on the UI thread (from the ledger's worker)."""
        return self._call_from_thread(callback, *args)

    def entry(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> LogEntry:
        """Return a new Журнал entry stamped now (secret while secret rolls are on)."""
        if self.secret and "hidden" not in data:
            data = {**data, "hidden": True}
        return LogEntry(
            id=uuid.uuid4().hex,
            at=self.clock().isoformat(timespec="seconds"),
            kind=kind,
            actor=actor,
            text=text,
            data=data,
        )

    def record(
        self, kind: str, actor: str | None, text: str, data: dict[str, Any], step: str = ""
    ) -> None:
        """Append one entry to the campaign's log (the store notifies the panes).

        An entry recorded right after a change made in the same key press tells of that
        change: it is linked to its undo step and marked «отменено» while the step is undone.
        ``step`` names that step instead (for the second entry of one change).
        """
        from tui.bridge.luck import stamp  # the luck ledger: each roll's percentile, computed once

        stamped = stamp(self, kind, actor, text, data)
        if stamped is None:
            return  # a worker computes the odds of this dice notation, then records it
        entry = self.entry(kind, actor, text, stamped)
        store = self.store
        linked = step or store.take_last_step()  # this thread's: a worker's are its own
        self._unwritten.append(entry)

        def append() -> None:
            try:
                store.append_log(entry, step=linked)
            finally:
                self._unwritten.remove(entry)

        self._writer.write(append)

    def entries_ahead(self) -> list[LogEntry]:
        """Return the Журнал as it will be, oldest first: what the campaign has, then what
        the writer has still to write, then the entries waiting for a slow roll's odds
        (stamped now). What a key decides from the Журнал (a new session's number) counts
        the rolls made before it, though their writes wait."""
        waiting = list(self._unwritten)  # before the log: a write done meanwhile is in both
        written = list(reversed(self.store.log()))
        seen = {e.id for e in written}
        queued = [self.entry(i.kind, i.actor, i.text, i.data) for i in self.luck_queue.items]
        return [*written, *(e for e in waiting if e.id not in seen), *queued]


class Services:
    """What the app lends: the campaign, the dice, the writer, the Журнал, the held keys, the
    toasts, undo and redo, the clipboard, what the players are shown, the open check and the
    seats' hub. Made once by the app (``KubikApp.__init__``)."""

    def __init__(
        self,
        store: Store,
        *,
        rng: Random,
        clock: Clock,
        notify: Notify,
        run_worker: RunWorker,
        on_ui: OnUi,
        call_from_thread: Callable[..., Any],
        post: Callable[[Message], object],
        copy: Callable[[str], None],
        check_tables: CheckTables,
        view_only: bool = False,
    ) -> None:
        #: The open campaign (opening another replaces it: ``tui.screens.actions``).
        self.store = store
        #: The session's dice.
        self.rng = rng
        #: A window opened without the keys that change state (``kubik --view-only``).
        self.view_only = view_only
        self.clock = clock
        #: The GM's toasts, as plain text.
        self.notify = notify
        #: Run a callback on the UI thread (now if this is it): a store's subscriber's redraw.
        self.on_ui = on_ui
        self.writer = Writer(run_worker, on_ui, notify)
        self.journal = Journal(lambda: self.store, clock, self.writer, run_worker, call_from_thread)
        self.keys = KeyHold(post)
        self.watch = FileWatch(lambda: self.store, on_ui, notify)
        self.startup = Startup()
        self.redraw = Redraw(lambda: self.store, notify, check_tables)
        self.history = History(lambda: self.store, self.writer, notify)
        self.clipboard = Clipboard(copy, lambda: self.store, notify, run_worker, call_from_thread)
        self.sharing = Sharing(
            lambda: self.store, self.journal, self.writer, self.clipboard, notify
        )
        #: The seats' hub while the GM serves seats (``tui.seats.gm.attach``), else None.
        self.seat_hub: SeatSignals | None = None
        self._check_table: CheckTable | None = None

    # The verbs every user of the services needs, named once here.

    def write(
        self,
        job: Callable[[], T],
        done: Callable[[T], object] | None = None,
        *,
        failed: Callable[[Exception], object] | None = None,
    ) -> None:
        """Hand a store write to the ordered writer (:meth:`Writer.write`)."""
        self.writer.write(job, done, failed=failed)

    async def writes_done(self) -> None:
        """Wait until every write handed so far is over (:meth:`Writer.writes_done`)."""
        await self.writer.writes_done()

    def entry(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> LogEntry:
        """Return a new Журнал entry stamped now (:meth:`Journal.entry`)."""
        return self.journal.entry(kind, actor, text, data)

    def record(
        self, kind: str, actor: str | None, text: str, data: dict[str, Any], step: str = ""
    ) -> None:
        """Append one entry to the Журнал (:meth:`Journal.record`)."""
        self.journal.record(kind, actor, text, data, step)

    @property
    def check_table(self) -> CheckTable | None:
        """The campaign's open check (:class:`~tui.table.check.session.CheckTable`): the
        Проверка tab draws it, the players' seats ask about it; made anew for another
        campaign. None for a system whose check is not on the table engine yet."""
        from tui.table.check.session import CheckTable, engine_for

        table = self._check_table
        if table is None or table.store is not self.store:
            if engine_for(self.store.campaign.system) is None:
                return None
            from tui.table.core import Dice

            table = CheckTable(self.store, Dice(self.rng), make=self.entry)
            self._check_table = table
            for notice in table.notices:
                self.notify(notice, severity="error", timeout=10)
        return table


class Lends(Protocol):
    """An app that lends :class:`Services` (``KubikApp``)."""

    services: Services


def services(node: DOMNode) -> Services:
    """Return the services of the app ``node`` is in (a widget's, a screen's), or of ``node``
    itself when it is the app: the app it is mounted in, found up its ancestors (a test may
    have another app active), else the active app. Widgets and screens do not call it: they
    declare what they use (``tui.services.lent``)."""
    from textual.app import App

    app = next((n for n in node.ancestors_with_self if isinstance(n, App)), None) or node.app
    # An attribute read and a class check: a runtime-checkable Protocol's isinstance walked
    # the protocol's members on every lent service read (~1 % of a pilot test's CPU).
    try:
        lent = cast(Lends, app).services
    except AttributeError:
        lent = None
    if not isinstance(lent, Services):
        raise TypeError(f"{type(app).__name__} lends no services: kubik's widgets need KubikApp")
    return lent
