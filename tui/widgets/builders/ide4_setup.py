"""The IDE4™ builder before the roll: the status line and the live exact odds from the form,
Enter (roll the d100, or record [0] / [00]), the need-a-roll checklist, the clear-risk card, and
an opposed check (the form is the first side; both are rolled and logged).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.widgets import Input, Static

from rules import ide4
from rules.errors import RulesError
from tui.bridge.effects import ide4_note
from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.widgets.builders import ide4_text as txt
from tui.widgets.builders.base import CheckRolled, turn_opponent
from tui.widgets.builders.ide4_dialogs import CardScreen, ChecklistScreen
from tui.widgets.builders.ide4_form import Ide4OddsBars
from tui.widgets.common.text import show_markup


class SetupMixin:
    """The ``setup`` phase of ``Ide4Builder``, split out to keep each file readable."""

    check: ide4.Check | None
    app: Any
    form: Any
    reasons: tuple[str, ...]
    player_demand: bool
    checklist_seen: bool
    view: str
    _check_character_id: str | None
    _difficulty_kind: str
    _level_shown: str
    # Provided by the builder (and Textual): phase, current_input(), _record(), _set_phase(),
    # action_conclude(), action_demand_expanded(), query_one(), post_message().

    def _recompute(self) -> None:
        """Redraw the status line and the live odds from the form."""
        if not self.is_mounted or self.phase != "setup":
            return
        status = self.query_one("#ide4-status", Static)
        odds = self.query_one("#ide4-odds", Ide4OddsBars)
        try:
            inp = self.current_input()
            difficulty = ide4.resolve_difficulty(inp)
        except RulesError as err:
            self.form.show_rows(None)
            show_markup(status, f"[$error]{escape(str(err))}[/]")
            odds.show_message("")
            return
        self.form.show_rows(difficulty)
        if (difficulty.kind, inp.level) != (self._difficulty_kind, self._level_shown):
            self._difficulty_kind, self._level_shown = difficulty.kind, inp.level
            self.refresh_bindings()  # Enter's words and «p» on the key bar
        lines = [txt.difficulty_line(difficulty)]
        lines += [note for note in [ide4_note(self, inp)] if note]  # active effects
        problem = None
        try:
            ide4.validate(inp)
        except RulesError as err:
            problem = str(err)
        if inp.always_expanded and inp.level != "expanded":
            lines.append("[$warning]Игрок всегда требует развёрнутую проверку (p).[/]")
        elif inp.level != "expanded":
            lines.append(
                "[$text-muted]Право игрока: [b]p[/b] — развёрнутая проверка по требованию.[/]"
            )
        seven = txt.seven_line(difficulty)
        if seven:
            lines.append(seven)
        need = ide4.roll_need(self.reasons, self.player_demand)
        verdict = txt.need_line(need, self.checklist_seen)
        if problem:
            lines.append(f"[$error]{escape(problem)}[/]")
        elif difficulty.kind == "auto":
            lines.append(f"{verdict} · [b]Enter[/b] — записать автоматический успех")
        elif difficulty.kind == "impossible":
            lines.append(f"{verdict} · [b]Enter[/b] — записать «невозможно»")
        else:
            lines.append(f"{verdict} · [b]Enter[/b] — бросить d100")
        show_markup(status, "\n".join(lines))
        self.seat.changed(self)  # type: ignore[attr-defined]  # what the seats are offered
        if difficulty.kind == "auto":
            odds.show_message(
                "\\[0] — автоматический успех: кубик не бросается. "
                "Скрытый риск (ловушка, засада, яд, давление) оставит \\[1]."
            )
        elif difficulty.kind == "impossible":
            odds.show_message(
                "\\[00] — «этим способом это сейчас невозможно»: броска нет. Открывает его "
                "только исключение: помощь «сделать действие возможным» (развёрнутая "
                "проверка) или особое правило."
            )
        else:
            try:
                odds.show(ide4.check_odds(inp), ide4.OUTCOME_NAMES, ide4.OUTCOMES)
            except RulesError as err:
                odds.show_message(f"[$error]{escape(str(err))}[/]")

    def action_roll(self) -> None:
        """Open the check: roll the d100 (after energy before), or record [0] / [00]."""
        if self.phase != "setup":
            if self.phase == "result":
                self.action_conclude()
            return
        try:
            check = ide4.start(self.current_input())
            if check.status == "ready":
                check = ide4.roll(check, self.app.rng)  # type: ignore[attr-defined]
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            if self.query_one("#ide4-row-reason").display and not self.form.text("reason"):
                self.query_one("#ide4-reason", Input).focus()
            return
        self._trail.clear()  # a new check: the steps of the last one no longer move it
        self._seat_trail.clear()  # type: ignore[attr-defined]
        self.seat.renew(self.seat.ROLLED)  # type: ignore[attr-defined]
        self.check = check
        self._check_character_id = self.form.value("character")
        self.view = "moves"
        self._record("roll")
        self._set_phase("result")

    def action_opposed(self) -> None:
        """Set the second side of an opposed check (the form is the first), then roll both."""
        from tui.widgets.builders.ide4_opposed import OpposedSetupScreen

        try:
            first = self.current_input()
            ide4.validate(first)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        first_id = self.form.value("character")
        others = [c for c in self.form.characters.values() if c.id != first_id]
        default = turn_opponent(self, first_id, others) or first_id
        screen = OpposedSetupScreen(list(self.form.characters.values()), first, default)

        def rolled(second: ide4.CheckInput | None) -> None:
            if second is not None:
                self._roll_opposed(first, first_id, second, screen.character)

        self.app.push_screen(screen, rolled)

    def _roll_opposed(
        self, first: ide4.CheckInput, first_id: str, second: ide4.CheckInput, other: Any
    ) -> None:
        from tui.widgets.builders.ide4_opposed import opposed_text
        from tui.widgets.builders.ide4_opposed_result import OpposedResultScreen

        rng = self.app.rng  # type: ignore[attr-defined]
        try:
            checks = []
            for inp in (first, second):
                check = ide4.start(inp)
                checks.append(ide4.roll(check, rng) if check.status == "ready" else check)
            result = ide4.opposed(*checks)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        ids = (first_id, other.id if other is not None else None)
        paid: dict[str, Any] = {}  # the sheets energy before pays: one undo step with the line
        for cid, check in zip(ids, checks, strict=True):
            c = self.form.characters.get(cid or "")
            if c is not None and check.energy_spent:
                paid[c.id] = replace(c, extra={**c.extra, "energy": check.pool_after})
        data = {**result.to_dict(), "event": "roll"}
        message = CheckRolled(first.actor or None, opposed_text(result), data)
        if paid:  # undone, both sheets get their energy back and the line is «отменено»
            message.also_pays = tuple(paid.values())
            message.step = f"Противоборство: {first.actor or 'без имени'}"
        self.post_message(message)

        def done(final: ide4.OpposedResult | None) -> None:
            if final is None:
                return
            if final.to_dict() != result.to_dict():  # moves taken or a tie decided: the outcome
                data = {**final.to_dict(), "event": "conclude"}  # (the roll is logged above)
                self.post_message(CheckRolled(first.actor or None, opposed_text(final), data))
            self.app.notify(opposed_text(final), timeout=6)

        screen = OpposedResultScreen(*checks, ids, lambda: self.form.characters)
        self.app.push_screen(screen, done)

    def action_checklist(self) -> None:
        """Open the need-a-roll checklist."""

        def done(result: tuple[tuple[str, ...], bool] | None) -> None:
            if result is not None:
                demanded = result[1] and not self.player_demand
                self.reasons, self.player_demand = result
                self.checklist_seen = True
                if demanded:
                    self.action_demand_expanded()
                self._recompute()

        self.app.push_screen(ChecklistScreen(self.reasons, self.player_demand), done)

    def action_card(self) -> None:
        """Show the clear-risk card to read aloud."""
        try:
            inp = self.check.input if self.check else self.current_input()
            card = ide4.clear_risk(inp)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.app.push_screen(CardScreen(card))
