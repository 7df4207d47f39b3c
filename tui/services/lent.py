"""What a widget or screen declares it uses of the services, one class attribute a service.

A widget names each service it uses in its class body, and reads it as its own attribute::

    class PartyPane(Vertical):
        store = lent.store      # the open campaign
        writer = lent.writer    # the ordered store writes

        def _save(self) -> None:
            self.writer.write(lambda: self.store.put_character(c))

Each name below is a :class:`Lent` descriptor: typed (``self.store`` is a
:class:`~tui.store.Store`), looked up in the services of the app the widget is mounted in
(:func:`tui.services.services`) at each read, so a campaign opened later is the one read. A
service the class does not declare is not an attribute of it: ``self.rng`` in a class that
declares only ``store`` is a mypy error (tests/test_tooling.py proves it on a snippet), and
no widget, screen or system module calls :func:`~tui.services.services` itself (an AST test,
tests/tui/test_no_duck_typing.py). A pane's mixin declares its own, as the pane does.

A function handed what it uses (``run_step``, the seats' requests) names it as a
:class:`~typing.Protocol` of these attributes (``tui.services.needs``): a widget that declares
them and the :class:`~tui.services.Services` itself both fulfil it.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tui.services import Journal, KeyHold, SeatSignals, Services, Writer
    from tui.services.history import History
    from tui.store import Store
    from tui.table.check.session import CheckTable

T = TypeVar("T")


class StepServices(Protocol):
    """What a table step made outside a pane's own writes uses: the campaign, the dice, the
    Журнал and the writer (``run_step``'s, a seat's request in the fight). A widget that
    declares the four fulfils it, as do the services themselves."""

    @property
    def store(self) -> Store: ...
    @property
    def rng(self) -> Random: ...
    @property
    def journal(self) -> Journal: ...
    @property
    def writer(self) -> Writer: ...


class Lent(Generic[T]):
    """One service, lent to the widget or screen whose class names it (read-only)."""

    def __init__(self, pick: Callable[[Services], T]) -> None:
        self._pick = pick

    @overload
    def __get__(self, node: None, owner: type | None = None) -> Lent[T]: ...

    @overload
    def __get__(self, node: DOMNode, owner: type | None = None) -> T: ...

    def __get__(self, node: DOMNode | None, owner: type | None = None) -> T | Lent[T]:
        if node is None:
            return self
        from tui.services import services

        return self._pick(services(node))


#: The open campaign (opening another replaces it; each read is the one open now).
store: Lent[Store] = Lent(lambda s: s.store)
#: The session's dice.
rng: Lent[Random] = Lent(lambda s: s.rng)
#: The ordered store writes (``writer.write(job, done, failed=…)``).
writer: Lent[Writer] = Lent(lambda s: s.writer)
#: The Журнал: ``journal.record(…)``, ``journal.entry`` (an entry stamped now, secret while
#: secret rolls are on).
journal: Lent[Journal] = Lent(lambda s: s.journal)
#: The keys held while a fight's new phase is saved.
keys: Lent[KeyHold] = Lent(lambda s: s.keys)
#: Undo and redo.
history: Lent[History] = Lent(lambda s: s.history)
#: The campaign's open check (None for a system whose check is not on the table engine).
check_table: Lent[CheckTable | None] = Lent(lambda s: s.check_table)
#: The seats' hub while the GM serves seats, else None.
seat_hub: Lent[SeatSignals | None] = Lent(lambda s: s.seat_hub)
#: A window opened without the keys that change state (``kubik --view-only``).
view_only: Lent[bool] = Lent(lambda s: s.view_only)
#: Run a callback on the UI thread (now if this is it): a store subscriber's redraw.
on_ui: Lent[Callable[[Callable[[], object]], None]] = Lent(lambda s: s.on_ui)
