"""The IDE4™ builder's moves after the d100: rerolls, energy after, mastery bonuses, the
sub-roll. Each chooser lists every option with the rule that allows or forbids it; a move the
rules refuse is explained and changes nothing; every applied move reaches the log as one undo
step, the same step a seat's accepted request makes (:meth:`MovesMixin._move_step`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.widgets.builders import ide4_text as txt
from tui.widgets.builders.base import CheckRolled, SpendTrail
from tui.widgets.builders.ide4_dialogs import Choice, ChooserScreen, energy_after_choices

#: The undo list's names of the steps after the roll.
STEP_NAMES = {
    "reroll": "переброс d100",
    "energy_after": "энергия после броска",
    "bonus": "бонус мастерства",
    "subroll": "подбросок d6",
    "level": "уровень проверки",
    "demand_expanded": "игрок требует развёрнутую проверку",
}


class MovesMixin:
    """The after-roll actions of ``Ide4Builder``, split out to keep each file readable."""

    check: ide4.Check | None
    app: Any
    form: Any
    _check_character_id: str | None
    _trail: SpendTrail
    # Provided by the builder (and Textual): _show_result(), post_message().

    def _apply(self, move: Callable[[ide4.Check], ide4.Check], event: str) -> None:
        """Apply one move; a move the rules refuse is explained and changes nothing."""
        assert self.check is not None
        try:
            after = move(self.check)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self.post_message(self._move_step(after, event))

    def _move_step(self, after: ide4.Check, event: str, text: str = "") -> CheckRolled:
        """Make ``after`` (a move on the open check) the check; return its line as one undo
        step with the sheet it pays (energy after, the day's Успех → Триумф) and the level it
        raised on the way. The GM's key posts it; a seat's accepted request is written by the
        seats' hub (:mod:`tui.seats.check`). Ctrl+Z puts the check back (the dice rolled
        stay, the line is marked «отменено»), Ctrl+Y brings the same step again. ``text``: the
        line, when it is not the last step's (the player's demand on an expanded check)."""
        was = self.check
        assert was is not None
        self.check = after
        lines = []
        for step in after.steps[len(was.steps) : -1]:  # a level raised on the way: on record
            if step.kind == "level":
                data = {**after.to_dict(), "event": "level"}
                lines.append((txt.log_text(after, "level", step), data))
                self.app.notify(f"Уровень проверки: {step.note}.", timeout=4)
        actor = after.input.actor or None
        data = {**after.to_dict(), "event": event}
        text = text or txt.log_text(after, event)
        message = CheckRolled(actor, text, data, self._sheet_paid(after))
        message.step = f"Проверка ({actor or 'без имени'}): {STEP_NAMES.get(event, event)}"
        message.lines = tuple(lines)
        self._trail.add(self.app, message.entry_id, was, after)
        self._show_result()  # type: ignore[attr-defined]
        self.seat.changed(self)  # type: ignore[attr-defined]
        return message

    def _sheet_paid(self, check: ide4.Check) -> Any:
        """The character's sheet once ``check`` has paid (None: nothing to pay, or gone)."""
        c = self.form.characters.get(self._check_character_id or "")
        if c is None:
            return None
        extra = dict(c.extra)
        if check.energy_spent and extra.get("energy", 100) != check.pool_after:
            extra["energy"] = check.pool_after
        if check.daily_triumph_spent:
            extra["daily_triumph_used"] = True
        return replace(c, extra=extra) if extra != c.extra else None

    def _choices(self, kind: str, names: dict[str, str]) -> list[Choice]:
        assert self.check is not None
        moves = [m for m in ide4.allowed_moves(self.check) if m.kind == kind]
        return [Choice(m.source, names[m.source], m.allowed, m.reason) for m in moves]

    def action_reroll(self) -> None:
        """Choose a reroll source: each one allowed, or the rule that forbids it."""
        rng = self.app.rng  # type: ignore[attr-defined]

        def chosen(source: str | None) -> None:
            if source:
                self._apply(lambda c: ide4.reroll(c, source, rng), "reroll")

        choices = self._choices("reroll", ide4.REROLL_SOURCES)
        self.app.push_screen(ChooserScreen("Переброс d100: источник", choices), chosen)

    def action_energy_after(self) -> None:
        """Choose energy dice after the roll: up to three, of the nominal or smaller; a choice
        that cannot change the outcome says so before anything is spent."""
        check = self.check
        assert check is not None
        refusal = ide4.energy_after_refusal(check) or self._gone_refusal()
        if refusal:
            self.app.notify(refusal, severity="error")
            return
        rng = self.app.rng  # type: ignore[attr-defined]
        nominal, pool = check.input.nominal, check.pool_after
        choices = energy_after_choices(check)

        def chosen(choice: str | None) -> None:
            if choice:
                count, size = (int(x) for x in choice.split("x"))
                self._apply(lambda c: ide4.energy_after(c, count, size, rng=rng), "energy_after")

        title = f"Энергия после броска: кубы до d{nominal} (номинал), в запасе {pool}"
        futile = ide4.energy_after_futile(check, ide4.energy_rules().after_max_dice, nominal)
        if futile:
            title += f"\n⚠ {futile}"
        self._energy_chooser = ChooserScreen(title, choices)
        self.app.push_screen(self._energy_chooser, chosen)

    _energy_chooser: ChooserScreen | None = None

    def _gone_refusal(self) -> str:
        """Why energy cannot be spent now: the check's character was removed ("" if not)."""
        cid = self._check_character_id
        if cid is None or cid in self.form.characters or self.check is None:
            return ""
        name = self.check.input.actor
        return f"Персонаж {name} удалён в другом окне — энергию тратить не из чего."

    def _follow_energy_chooser(self) -> None:
        """The energy dialog open and its character removed in another window: it stays open,
        says so and refuses Enter (nothing is spent, shown or logged); back (an undo there),
        it works again."""
        screen = self._energy_chooser
        if screen is None or screen not in self.app.screen_stack:
            self._energy_chooser = None
            return
        if self._gone_refusal() and self.check is not None:
            if not screen.withdrawn:
                name = self.check.input.actor
                screen.withdraw(
                    f"Персонаж {name} удалён в другом окне: Enter ничего не потратит, "
                    "Esc — закрыть.",
                    f"Персонаж {name} удалён в другом окне — энергия не потрачена. Esc — закрыть.",
                )
        elif screen.withdrawn:
            screen.withdraw(None)

    def action_bonus(self) -> None:
        """Choose a mastery bonus: skill reroll, softening, Успех → Триумф, technique."""
        assert self.check is not None
        rng = self.app.rng  # type: ignore[attr-defined]
        skill = next(m for m in ide4.allowed_moves(self.check) if m.source == "skill")
        choices = [Choice("reroll", "переброс от навыка", skill.allowed, skill.reason)]
        choices += self._choices("bonus", ide4.AFTER_BONUSES)

        def chosen(kind: str | None) -> None:
            if kind:
                self._apply(lambda c: ide4.bonus(c, kind, rng), "bonus")

        self.app.push_screen(ChooserScreen("Бонус мастерства", choices), chosen)

    def action_subroll(self) -> None:
        """Roll the sub-roll d6: the strength of the consequence, never the outcome."""
        rng = self.app.rng  # type: ignore[attr-defined]
        self._apply(lambda c: ide4.subroll(c, rng), "subroll")

    def _record(self, event: str) -> None:
        """Post the log entry of the roll or the conclusion and write spent energy to the
        sheet: energy before the roll is one undo step with the roll's line (undone, the
        check goes on from the energy the undo gave back, see Ide4Builder._follow_energy).
        A move after the roll is :meth:`_move_step`."""
        check = self.check
        assert check is not None
        data = {**check.to_dict(), "event": event}
        text = txt.log_text(check, event)
        spend = self._sheet_paid(check)
        self.post_message(CheckRolled(check.input.actor or None, text, data, spend))
