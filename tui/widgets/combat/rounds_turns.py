"""The round tracker's turns: the next turn (effects tick, a new round after the last), the
end of the fight, and the check of whoever acts — opened in the system's builder."""

from __future__ import annotations

from typing import Any

from rules.effects import EffectSet, Notice, tick_all
from rules.errors import RulesError
from rules.rounds import Tracker
from tui.store import Character
from tui.widgets.builders.base import Turn, open_turn
from tui.widgets.common.choice import Choice, ChoiceScreen

COMBAT_DURATIONS = ("rounds", "turn_start", "turn_end")


class RoundsTurns:
    """Turns, the end of the fight and the actor's check (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    tracker: Tracker
    effects: EffectSet
    characters: dict[str, Character]
    app: Any

    def action_next_turn(self) -> None:
        """End the current turn; effects tick; a new round after the last one."""
        try:
            tracker, events = self.tracker.next_turn()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        effects, notices = tick_all(self.effects, events, tracker.order)
        who = self._names().get(tracker.actor, "?")
        label = f"Раунд {tracker.round}, ход: {who}"
        new_round = tracker.round != self.tracker.round  # before the save redraws the pane

        def saved(step: str) -> None:
            if new_round:
                self._log(None, f"Раунд {tracker.round}", step=step)
            self._announce(notices, step)

        self._save(label, tracker=tracker, effects=effects, then=saved)

    def action_end_fight(self) -> None:
        """End the fight; the effects counted in rounds and turns end with it."""
        ended = [e for e in self.effects.effects if e.duration in COMBAT_DURATIONS]
        effects = self.effects
        for e in ended:
            effects = effects.without(e.id)

        def saved(step: str) -> None:
            self._log(None, "Конец боя", step=step)
            self._announce([Notice("expired", e) for e in ended], step)

        self._save("Конец боя", tracker=self.tracker.end(), effects=effects, then=saved)

    async def action_check(self) -> None:
        """Open the highlighted one's check in this system's builder; on the actor's turn its
        opposed check faces the first opponent in the order (``o`` names another)."""
        cid = self.highlighted_id() or self.tracker.actor
        if cid not in self.characters:
            return
        opponents = self._opponents() if cid == self.tracker.actor else []
        await self._open_turn(Turn(cid, opponents[0] if opponents else None))

    def action_against(self) -> None:
        """The actor's opposed check against the highlighted combatant (else one chosen)."""
        opponents = self._opponents()
        if not opponents:
            return
        actor = self.tracker.actor
        target = self.highlighted_id()
        if target in self.characters and target != actor and self.tracker.entrant(target or ""):
            self.run_worker(self._open_turn(Turn(actor, target), opposed=True))
            return
        if len(opponents) == 1:
            self.run_worker(self._open_turn(Turn(actor, opponents[0]), opposed=True))
            return

        def chosen(target: str | None) -> None:
            if target is not None:
                self.run_worker(self._open_turn(Turn(actor, target), opposed=True))

        names = self._names()
        choices = [Choice(names.get(cid, "?"), cid) for cid in opponents]
        title = f"{names.get(actor, '?')}: против кого?"
        self.app.push_screen(ChoiceScreen(title, choices), chosen)

    def _opponents(self) -> list[str]:
        """The actor's opponents in the order: entrants of the other sides, then of its own."""
        t = self.tracker
        me = t.entrant(t.actor) if t.started else None
        if me is None:
            return []
        ids = [i for i in t.order if i != t.actor and i in self.characters and t.entrant(i)]
        return sorted(ids, key=lambda i: t.entrant(i).side == me.side)  # type: ignore[union-attr]

    async def _open_turn(self, turn: Turn, *, opposed: bool = False) -> None:
        builder = await self.app.ensure_pane("check")  # type: ignore[attr-defined]
        self.app.query_one("#tabs").active = "check"
        open_turn(builder, self.system, turn, opposed=opposed)
