"""What the Бой tab shows of a Древо exchange: its lines (the plan, the dice, the damage, the
final wounds) and the summary of the round once every exchange is resolved."""

from __future__ import annotations

from typing import Any

from rules import drevo
from tui import words
from tui.bridge import combat as bridge
from tui.bridge.sheets import wounds_text
from tui.present.combat import result_lines
from tui.present.rolls import plain
from tui.store import Character
from tui.widgets.combat.drevo_exchange import ExchangeState, plain_text


class ExchangeText(ExchangeState):
    """The lines of the current exchange and the round's summary (mixed into ``CombatPane``)."""

    def exchange_lines(self) -> tuple[list[str], drevo.ExchangePlan | None, frozenset[str]]:
        """Return the lines under the header, the plan (for the odds) and the Судьба roles."""
        plan, refusal, result = self._derive()
        ex = self._ex()
        if refusal:
            return (
                [f"[$error]Нельзя: {plain(refusal)}[/]", "s или Enter — пропустить схватку."],
                None,
                frozenset(),
            )
        assert plan is not None
        lines = plan_lines_of(plan)
        fate = frozenset(ex.get("fate_before", ()))
        if fate:
            who = ", ".join(plain(plan.side(r).fighter.name) for r in sorted(fate))
            lines.append(f"[$accent]Судьба до броска: {who} — «+4 без броска».[/]")
        if result is None:
            if self._earlier_dice(self._exchange_id(ex.get("attempt", 1))):
                lines.append("[dim]Кубики этой схватки уже брошены — Enter покажет те же.[/dim]")
            return lines, plan, fate
        lines.append("")
        lines += result_lines(result, self._shift_names(ex))
        stage = self._exchange_stage()
        if stage == "damage":
            lines.append(self._damage_prompt(result, ex))
        elif stage == "done":
            lines += self._final_lines(ex)
        elif stage == "rolled":
            keys = "Enter — принять"
            if self._shift_choices():
                keys += ", p — Судьба ±1"
            if result.tie:
                keys += ", r — перебросить ничью"
            lines.append(f"[dim]{keys}.[/dim]")
        return lines, None, fate

    def _shift_names(self, ex: dict[str, Any]) -> dict[str, list[tuple[int, str]]]:
        names: dict[str, list[tuple[int, str]]] = {}
        for role, points, who in ex.get("shifts", ()):
            c = self.characters.get(who)
            names.setdefault(role, []).append((points, c.name if c else "?"))
        return names

    def _damage_prompt(self, result: drevo.ExchangeResult, ex: dict[str, Any]) -> str:
        hit = result.hits[len(ex.get("damage", ()))]
        c = self._character_of(hit.target)
        name = plain(c.name) if c else "?"
        text = f"[b]Урон: {name} — {words.wound(hit.level)}.[/b] "
        options = self._reduce_options()
        if options:
            fate = c.fate if c else 0
            text += f"Судьба ({words.points(fate)}): "
            text += ", ".join(self._reduce_label(c, hit.level, lvl, cost) for lvl, cost in options)
            text += "; Enter — принять урон."
        else:
            text += "Enter — записать урон."
        return text

    def _reduce_label(self, c: Character | None, rolled: str, level: str, cost: int) -> str:
        """One Судьба option, saying whether it still saves the character."""
        label = f"{cost} — до {words.wound(level, 'gen')}"
        if c is None:
            return label
        track = bridge.track_of(c)
        after, unreduced = track.take(level), track.take(rolled)
        if after.dead:
            return label + " (всё равно смерть)"
        if not after.can_act:
            return label + (" (спасает жизнь, но тяжело ранен)" if unreduced.dead else "")
        if not unreduced.can_act:
            return label + " (остаётся в строю)"
        return label

    def _final_lines(self, ex: dict[str, Any]) -> list[str]:
        lines = []
        for d in ex.get("damage", ()):
            c = self.characters.get(d.get("cid", ""))
            if c is None:
                continue
            note = ""
            if d.get("reduced"):
                note = f" (Судьба −{d['reduced']}: было «{words.wound(d['level'])}»)"
            state = words.wound_state(bridge.track_of(c))
            lines.append(
                f"[b]Итог:[/b] {plain(c.name)} получает {words.wound(d['final'], 'acc')}{note}. "
                f"Раны: {wounds_text(c.wounds)}" + (f" — [b]{state}[/b]" if state else "")
            )
        lines.append("[dim]Enter — следующая схватка.[/dim]")
        return lines

    def round_summary(self) -> list[str]:
        """«Раунд N разрешён»: who was hurt how, which exchanges were skipped."""
        hurt: dict[str, list[str]] = {}
        skipped = 0
        for outcome in self.encounter.outcomes:
            if outcome.get("skipped"):
                skipped += 1
            for cid, level in outcome.get("hurt", ()):
                hurt.setdefault(cid, []).append(level)
        lines = [f"[b]Раунд {self.encounter.round} разрешён.[/b]"]
        for cid, levels in hurt.items():
            c = self.characters.get(cid)
            name = plain(c.name) if c else "?"
            taken = ", ".join(words.wound(level).lower() for level in levels)
            state = words.wound_state(bridge.track_of(c)) if c else ""
            lines.append(f"{name}: {taken}" + (f" — [b]{state}[/b]" if state else ""))
        if not hurt:
            lines.append("Никто не ранен.")
        if skipped:
            lines.append(f"Пропущено схваток: {skipped}.")
        return lines

    def summary_text(self) -> str:
        """The round's summary as one plain line, for the Журнал."""
        return " / ".join(plain_text(line) for line in self.round_summary())


def plan_lines_of(plan: drevo.ExchangePlan) -> list[str]:
    from tui.present.combat import plan_lines

    return plan_lines(plan)
