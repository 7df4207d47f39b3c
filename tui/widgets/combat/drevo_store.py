"""The Бой tab's fight as the store has it: read on every change, written back as one step.

The pane shows the encounter document (``encounter``) and the party, and keeps no copy: a
write is a delta against the fight it showed, handed to the app's writer (a worker), and the
pane changes only through the store's notification. Here too: the Журнал lines of the fight,
and the names and wound marks the phases show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.encounter import Combatant, Encounter
from rules.errors import RulesError
from tui import words
from tui.bridge import combat as bridge
from tui.store import Character
from tui.widgets.combat.pending import PendingWrites

DOC = "encounter"
FIGHT_NOT_SAVED = "ход боя не записан"


class FightStore(PendingWrites):
    """Reading and writing the stored fight (mixed into ``CombatPane``)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any

    @property
    def store(self) -> Any:
        return self.app.store  # type: ignore[attr-defined]

    @property
    def drevo(self) -> bool:
        """Whether exchanges follow Древо (else the campaign system's opposed check)."""
        return bool(self.store.campaign.system == "drevo")

    def show(self, characters: list[Character]) -> None:
        """Redraw from the store: the party and the saved encounter."""
        self.characters = {c.id: c for c in characters}
        saved = self.store.get_doc(DOC)
        self._read = saved
        if saved:
            try:
                self.encounter = Encounter.from_dict(saved)
            except (RulesError, TypeError, KeyError, ValueError):
                self.app.notify("Сохранённый бой повреждён — начните новый (x).", severity="error")
                self.encounter = Encounter()
        else:
            self.encounter = self._default_encounter(characters)
        phase = getattr(self, "_drawn_phase", None)
        self._prune()
        self._settle()
        self._redraw()
        self._refocus(phase != self.encounter.phase)

    def _refocus(self, phase_changed: bool) -> None:
        """After an undo, a redo or another kubik: keep the keys working on the shown phase."""
        try:
            active = self.app.query_one("TabbedContent").active == "combat"
        except Exception:  # noqa: BLE001 - no tabs (a test mounting the pane alone)
            return
        if not active or len(self.app.screen_stack) > 1:
            return
        focused = self.app.focused
        hidden = focused is None or not all(
            n.display for n in focused.ancestors_with_self if hasattr(n, "display")
        )
        if phase_changed or hidden:
            self._focus_phase()

    def _default_encounter(self, characters: list[Character]) -> Encounter:
        side = {"pc": "Отряд", "npc": "Противники"}
        fighters = [Combatant(c.id, c.name, side[c.kind]) for c in characters if bridge.can_act(c)]
        return Encounter().with_combatants(fighters)  # one step (5,000 one by one: seconds)

    def _prune(self) -> None:
        """Drop combatants whose characters were deleted from the party (setup only)."""
        if self.encounter.phase != "setup":
            return
        for c in self.encounter.combatants:
            if c.character_id not in self.characters:
                self.encounter = self.encounter.without(c.character_id)

    def _settle(self) -> None:
        """Everyone left has declared (a fighter was removed, here or in another window): show
        the dice at once, as the last declaration would have. Derived, not written: the
        fight's next step saves the phase with it, so two windows never race to write it."""
        enc = self.encounter
        can_act = self._can_act()
        if enc.phase != "declare" or enc.next_declarer(can_act) is not None:
            return
        try:
            self.encounter = enc.start_resolution(can_act)
        except RulesError:
            return  # the rules say no: the declarations stay on screen
        if getattr(self, "_drawn_phase", None) != "resolve":
            self._reset_exchange()  # as the move to the dice does (another system's roll)

    def _save(
        self,
        encounter: Encounter,
        label: str,
        upsert: tuple[Character, ...] = (),
        docs: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
    ) -> bool:
        """Save the encounter (and characters it changed) as one step, in the app's writer.

        See :meth:`_write`: the pane shows the new state once the store has it, then
        ``then(step)`` runs with the id of the step written (for its Журнал lines).
        """
        return self._put(encounter.to_dict(), label, upsert, docs, then, failed)

    def _put(
        self,
        doc: dict[str, Any] | None,
        label: str,
        upsert: tuple[Character, ...] = (),
        docs: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
    ) -> bool:
        """Write the fight as a delta against the one this pane showed (see :meth:`show`):
        what another window changed meanwhile stays, and a step made on a part of the fight
        it changed too is refused («В другом окне изменили то же самое …»)."""
        store, changes, bases = self.store, {**(docs or {}), DOC: doc}, {DOC: self._read}

        def job() -> None:
            store.apply(label, upsert=upsert, docs=changes, bases=bases, what=FIGHT_NOT_SAVED)

        shown = (self.encounter.phase, self.encounter.round)
        new = (doc.get("phase"), doc.get("round")) if doc else None
        return self._write(job, label, then, failed, hold=new != shown)

    def _log(
        self, actor: str | None, text: str, data: dict[str, Any] | None = None, step: str = ""
    ) -> None:
        """Log a line of the fight; ``step``: the undo step it tells of, for a change that
        writes more than one line (else the change just made)."""
        payload = {"round": self.encounter.round, **(data or {})}
        self.app.record("combat", actor, text, payload, step)  # type: ignore[attr-defined]

    def _can_act(self) -> Callable[[str], bool]:
        return lambda cid: bridge.can_act(self.characters.get(cid))

    def _marked(self, name: str, character_id: str) -> str:
        """A name with «тяжело ранен» / «погиб» when the character is down."""
        c = self.characters.get(character_id)
        state = words.wound_state(bridge.track_of(c)) if c else ""
        return f"{name} ({state})" if state else name

    def _names(self) -> dict[str, str]:
        return {c.character_id: c.name for c in self.encounter.combatants}
