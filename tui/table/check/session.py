"""The campaign's open check: the form in memory, the rolled check in the campaign.

The Проверка tab, the players' seats and the tests make the same steps through one
:class:`CheckTable`: a step on the form (a choice) changes the check at once; a step with
Журнал lines (the roll, each move, a player's demand) is written with the check as one undo
step — the app hands :meth:`CheckTable.make`'s job to its ordered writer, the others call
:meth:`CheckTable.run` — and the check shown is then the one the store has
(:meth:`CheckTable.follow`). So a rolled check survives a restart, a crash or Ctrl+Q, is never
rolled twice, and an undo or a redo puts it exactly where the store has it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from tui import registry
from tui.store import Store
from tui.table.check.base import CLOSED, DOC, NOT_SAVED, ROLLED, Offer
from tui.table.commit import MakeEntry, commit, plain_entry
from tui.table.core import Dice, Outcome, World
from tui.table.world import world_of

#: Offer ids the seats may still ask about (a request about an older one is told it closed).
KEEP_IDS = 50
#: How many of this window's writes Ctrl+Z gives back the form of (:meth:`CheckTable.follow`).
BEFORE_KEPT = 20


def engine_for(system: str) -> Any:
    """The engine module of ``system``'s open check (its ``System.check_engine``; None: not
    on the engine yet)."""
    name = registry.get(system).check_engine
    return importlib.import_module(name) if name else None


def _is_open(stored: Any) -> bool:
    """Whether a stored check is open: rolled, its moves not concluded — or an IDE4 opposed
    check on it."""
    return stored.phase == "result" or bool(getattr(stored, "opposed_open", False))


def writes(outcome: Outcome[Any]) -> bool:
    """Whether a step's outcome is written to the campaign (it has lines or sheets)."""
    return bool(outcome.log or outcome.sheets or outcome.docs)


class CheckTable:
    """The open check of one campaign, and every step on it."""

    def __init__(self, store: Store, dice: Dice, make: MakeEntry = plain_entry) -> None:
        self.store = store
        self.dice = dice
        self.make_entry = make
        self.system = store.campaign.system
        self.engine = engine_for(self.system)
        if self.engine is None:
            raise ValueError(f"no check engine for {self.system!r}")
        self._seen: dict[str, Any] | None = store.get_doc(DOC)
        #: The check whose state the campaign holds (written here or adopted from the store).
        self._written: str | None = None
        #: The check a write on its way is of (the store's notification may come first).
        self._coming: str | None = None
        self.notices: list[str] = []
        #: The GM has had the check on screen (a tab built ahead of time opens no check).
        self.opened = False
        self._offered: list[str] = []
        self.state = self._restored()
        self._unwritten = self.engine.unrolled(self.state) if self._written else self.state
        #: (the stored check before a write made here, the check in memory then), newest
        #: last: Ctrl+Z of the write gives back the form as the step had it (its rows).
        self._before: list[tuple[dict[str, Any] | None, Any]] = []
        #: This window's undone steps when the store was last followed (its Ctrl+Z adds one).
        self._undone = store.own_depth[1]

    # -- reading -------------------------------------------------------------------------------

    def world(self) -> World:
        """What a step may read now: the party, the effects, the Журнал, the dice."""
        return world_of(self.store, self.dice)

    def view(self, world: World | None = None) -> Any:
        """What the Проверка tab shows of the open check (derived, never kept)."""
        return self.engine.view(self.state, world or self.world())

    def _restored(self) -> Any:
        """The stored check when it is open (rolled, its moves not concluded — or an IDE4
        opposed check on it), else a new form (for the stored check's character, when there
        is one)."""
        doc, engine = self._seen, self.engine
        world = self.world()
        if doc and doc.get("system") == self.system:
            try:
                stored = engine.from_doc(doc)
            except RulesError as err:
                self.notices.append(str(err))
            else:
                if _is_open(stored):
                    self._written = stored.id
                    return stored
                return engine.after(stored, world)
        return engine.new(world)

    # -- stepping ------------------------------------------------------------------------------

    def make(
        self, step: Callable[..., Outcome[Any]], *args: Any, **kwargs: Any
    ) -> tuple[Outcome[Any], Callable[[], str] | None]:
        """Make ``step`` on the open check. A step on the form changes it now (no job); a
        step with lines returns the job that writes it (the check changes when the store
        has it, :meth:`follow`). A refused step changes nothing."""
        before, world = self.state, self.world()
        outcome = step(before, world, *args, **kwargs)
        if not outcome.ok:
            return outcome, None
        if not writes(outcome):
            self.state = outcome.state
            return outcome, None
        made = outcome.state
        if self._written != made.id:  # its first write: what an undo of it all gives back
            # (a step written under another id than the one it was made on gives back that
            # check's form, so rolled again it takes the same dice; a roll never opens a new
            # check — a rolled one is refused)
            self._unwritten = before if made.id == before.id else self.engine.unrolled(made)
        self._coming = made.id
        store, base, make = self.store, self._seen, self.make_entry
        if base is not None and base.get("id") == before.id:
            self._before = [*self._before, (base, before)][-BEFORE_KEPT:]
        docs: Mapping[str, dict[str, Any] | None] = {}
        if outcome.state != before:
            docs = {DOC: outcome.state.to_doc()}

        def job() -> str:
            bases = {DOC: base} if docs else None
            return commit(store, outcome, docs, bases=bases, make=make, what=NOT_SAVED)

        return outcome, job

    def run(self, step: Callable[..., Outcome[Any]], *args: Any, **kwargs: Any) -> Outcome[Any]:
        """Make ``step`` and write it now (the seats' worker, the tests); raises the store's
        error when the write is refused (nothing changed then)."""
        outcome, job = self.make(step, *args, **kwargs)
        if job is not None:
            job()
            self.follow()
        return outcome

    def follow(self) -> tuple[str, ...]:
        """The store changed: take the check as the store has it now.

        The stored check is this one (a step written here, Ctrl+Z / Ctrl+Y of one of its
        moves, another window): it is the check — back where one of this window's writes
        began (its Ctrl+Z), it is the check as that step had it, with the form's rows then (an
        extended action's next roll rolled with a row changed for it). This check's every
        write undone (the roll itself, a player's demand before it — its Журнал lines all
        «отменено»): back to the form as it was before its first write, the same id (rolled
        again, it takes its own dice from the Журнал). This check's lines standing and another
        rolled check stored (Ctrl+Y of a later roll, another window's roll): that check is the
        open one now. This form never written (or its writes all undone) and the stored check
        back where one of this window's writes began (Ctrl+Z into a check left for another
        character, or with «n»): that check as the step had it — after a restart, when this
        window's own Ctrl+Z put an open check back, that check as stored. Another check stored
        while this one was never written (an older one, another window's): ignored.
        """
        doc = self.store.get_doc(DOC)
        undone, self._undone = self._undone, self.store.own_depth[1]
        if doc == self._seen:
            return ()
        self._seen = doc
        mine = doc is not None and doc.get("id") in (self.state.id, self._coming)
        kept = next((state for base, state in reversed(self._before) if base == doc), None)
        if kept is None and not mine and doc is not None and self._written is None:
            if self._undone > undone and self.store.last_undone_changed("doc", DOC):
                kept = self._open(doc)  # its Ctrl+Z after a restart: the check as stored
        if mine and doc is not None:
            try:
                self.state = kept if kept is not None else self.engine.from_doc(doc)
            except RulesError as err:
                return (str(err),)
            self._written = self.state.id
            return ()
        if kept is not None and self._written is None:
            # Ctrl+Z back into a check this window left unconcluded (another character picked,
            # «n»), this form's own writes all undone: that check as the step had it.
            self.state, self._written = kept, kept.id
            self._unwritten = self.engine.unrolled(kept)
            return ()
        if self._written != self.state.id:
            return ()
        if doc is not None and doc.get("rolled") and self._stands(self.state.id):
            try:
                self.state = self.engine.from_doc(doc)
            except RulesError as err:
                return (str(err),)
            # adopted: its every write undone, the open check is its own form again (never
            # the one before it, whose roll may still stand)
            self._written, self._unwritten = self.state.id, self.engine.unrolled(self.state)
            return ()
        self.state, self._written = self._unwritten, None
        return ()

    def _open(self, doc: dict[str, Any]) -> Any:
        """The stored check when it is open (:func:`_is_open`), else None."""
        if doc.get("system") != self.system:
            return None
        try:
            stored = self.engine.from_doc(doc)
        except RulesError:
            return None
        return stored if _is_open(stored) else None

    def _stands(self, check_id: str) -> bool:
        """Whether a Журнал line of the check stands (not «отменено»)."""
        return any(
            e.data.get("check") == check_id and not e.undone for e in self.store.log(limit=300)
        )

    def new(self) -> None:
        """Leave the open check for a new one (the same character, who and how kept)."""
        self.make(self.engine.new_check)

    # -- the players' seats --------------------------------------------------------------------

    def offer_id(self) -> str:
        """The id the seats know the check by: it changes when the check is rolled or
        another one begins, so a request about the old one is refused with what happened."""
        state = self.state
        return f"{state.id}-r" if state.rolled is not None else state.id

    def offer(self) -> Offer | None:
        """The open check as its character's seat sees it (None: nothing open for seats)."""
        if not self.opened and self.state.rolled is None:
            return None
        found: Offer | None = self.engine.offer(self.state, self.world())
        if found is None:
            return None
        oid = self.offer_id()
        if oid not in self._offered:
            self._offered = [*self._offered, oid][-KEEP_IDS:]
        return replace(found, id=oid)

    def closed(self, check_id: str) -> str:
        """What became of a check the seats were offered ("" when it is the open one or
        never was offered here)."""
        if check_id == self.offer_id():
            return ""
        if check_id == self.state.id and self.state.rolled is not None:
            return ROLLED
        return CLOSED if check_id in self._offered else ""
