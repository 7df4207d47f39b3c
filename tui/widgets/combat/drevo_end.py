"""The end of a round and of the fight in the Бой tab: the next round (the order reverses,
Древо's effects tick with it), the fight ended, a fallen combatant taken out of the order."""

from __future__ import annotations

from typing import Any

from rules.encounter import Combatant
from tui import words
from tui.bridge import combat as bridge
from tui.store import Character
from tui.widgets.common.choice import Choice, ChoiceScreen


class FightEnd:
    """Ending rounds, the fight, a fallen one's part in it (mixed into ``CombatPane``)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any

    def action_next_round(self) -> None:
        """Start the next round; the declaration order reverses."""
        self._reset_exchange()
        finished = self.encounter.round
        enc = self.encounter.next_round()
        notices: list[Any] = []
        effects: dict[str, Any] = {}
        if self.drevo:  # the effects' round ends with the fight's (one undo step)
            from tui.bridge.effects import tick_round

            order = [c.character_id for c in enc.combatants]
            effects, notices = tick_round(self.store, finished, order)

        def saved(step: str) -> None:  # every line tells of the one step
            self._log(
                None, f"Раунд {enc.round}: заявляют " + " → ".join(enc.side_order()), step=step
            )
            if notices:
                from tui.bridge.effects import notice_lines

                names = {c.id: c.name for c in self.characters.values()}
                for actor, text in notice_lines(notices, names):
                    self._log(actor, text, step=step)
            self._focus_phase()

        self._save(enc, f"Бой: раунд {enc.round}", docs=effects, then=saved)

    def action_end_fight(self) -> None:
        """End the fight; wounds stay on the characters."""
        self._reset_exchange()
        done = self.encounter.round

        def saved(step: str) -> None:
            self._log(None, f"Бой завершён после {words.rounds(done, 'gen')}", step=step)
            self._focus_phase()

        self._put(None, "Бой завершён", then=saved)

    def _fallen(self) -> list[Combatant]:
        return [
            c
            for c in self.encounter.combatants
            if not bridge.can_act(self.characters.get(c.character_id))
        ]

    def action_remove_fallen(self) -> None:
        """Take a heavily wounded or dead combatant out of the order."""

        def chosen(cid: str | None) -> None:
            c = self.encounter.combatant(cid) if cid else None
            if c is None:
                return
            enc = self.encounter.remove_fallen(c.character_id)
            text = f"{c.name} выбывает из боя (решение ведущего)"
            self._save(
                enc, f"Бой: {c.name} выбывает", then=lambda step: self._log(None, text, step=step)
            )

        choices = [
            Choice(
                f"{c.name} — {words.wound_state(bridge.track_of(self.characters[c.character_id]))}",
                c.character_id,
            )
            for c in self._fallen()
            if c.character_id in self.characters
        ]
        self.app.push_screen(ChoiceScreen("Убрать из боя", choices), chosen)
