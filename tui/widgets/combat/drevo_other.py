"""An exchange of the Бой tab in another system than Древо: each side's trait chosen, its
opposed check rolled (``tui.bridge.combat_other``); the damage is the GM's. Not stored: only
its Журнал line and the exchange marked resolved are."""

from __future__ import annotations

from typing import Any

from rules.encounter import Pairing
from rules.errors import RulesError
from tui.bridge import combat_other as other
from tui.bridge.combat_other import SYSTEM_NOTES
from tui.present.combat import declaration_text
from tui.present.rolls import plain
from tui.store import Character
from tui.widgets.combat.drevo_draw import ExchangeView
from tui.widgets.combat.drevo_exchange import plain_text
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.text import show_markup


class OtherExchange:
    """Another system's opposed check as the exchange (mixed into ``CombatPane``)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any

    def _reset_exchange(self) -> None:
        self._other, self._other_refusal = None, ""

    def _draw_other(self, pairing: Pairing) -> None:
        """An exchange of another system: choose each side's trait, roll its opposed check."""
        names = self._names()
        total = len(self.encounter.pairings())
        number = total - len(self.encounter.pending()) + 1
        attacker = self.characters.get(pairing.attack.actor)
        defender = self.characters.get(pairing.attack.target or "")
        lines = [
            f"[b]Схватка {number} из {total}:[/b] {plain(names.get(pairing.attack.actor, '?'))}: "
            f"{plain(declaration_text(pairing.attack, names))}",
            f"[dim]{SYSTEM_NOTES[self.store.campaign.system]}[/dim]",
        ]
        if attacker is None or defender is None:
            lines.append("[$error]Участник схватки больше не в партии — s: пропустить.[/]")
            self._other_refusal = "участник выбыл"
        elif self._other is None:
            for prefix, c in (("a", attacker), ("b", defender)):
                stat = self.query_one(f"#other-{prefix}-stat", Stepper)
                skill = self.query_one(f"#other-{prefix}-skill", Stepper)
                if getattr(stat, "_owner", None) != c.id:
                    stat.set_options(other.stat_options(c))
                    skill.set_options(other.skill_options(c))
                    stat._owner = c.id  # type: ignore[attr-defined]
            lines.append("Выберите черты сторон (↑/↓, ←/→) — Enter: бросить.")
        else:
            lines += self._other.lines
            lines.append("Урон — на усмотрение ведущего. Enter — дальше.")
        show_markup(self.query_one(ExchangeView), "\n".join(lines))

    def _roll_other(self) -> None:
        pairing = self.encounter.pending()[0]
        attacker = self.characters[pairing.attack.actor]
        defender = self.characters[pairing.attack.target or ""]

        def spec(prefix: str, c: Character) -> tuple[Character, str, str]:
            return (
                c,
                self.query_one(f"#other-{prefix}-stat", Stepper).value or "",
                self.query_one(f"#other-{prefix}-skill", Stepper).value or "",
            )

        try:
            self._other = other.opposed(
                self.store.campaign.system,
                spec("a", attacker),
                spec("b", defender),
                self.app.rng,  # type: ignore[attr-defined]
            )
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        text = " / ".join(plain_text(line) for line in self._other.lines)
        self._log(attacker.name, f"Схватка: {text}", self._other.data)
        self._redraw()

    def _finish_other(self) -> None:
        pairing = self.encounter.pending()[0]
        enc = self.encounter.mark_resolved(pairing)
        self._reset_exchange()
        self._save(enc, "Бой: схватка разрешена")
