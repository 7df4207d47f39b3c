"""The IDE4™ builder's moves after the d100: rerolls, energy after, mastery bonuses, the
sub-roll. Each chooser lists every option with the rule that allows or forbids it; a move the
rules refuse is explained and changes nothing; every applied move reaches the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.widgets.builders import ide4_text as txt
from tui.widgets.builders.base import CheckRolled, SpendTrail
from tui.widgets.builders.ide4_dialogs import Choice, ChooserScreen


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
        was = self.check
        before = len(self.check.steps)
        try:
            self.check = move(self.check)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        for step in self.check.steps[before:-1]:  # a level raised on the way: on record
            if step.kind == "level":
                self._record("level", step)
                self.app.notify(f"Уровень проверки: {step.note}.", timeout=4)
        self._record(event, before=was)
        self._show_result()

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
        refusal = ide4.energy_after_refusal(check)
        if refusal:
            self.app.notify(refusal, severity="error")
            return
        rng = self.app.rng  # type: ignore[attr-defined]
        nominal, pool = check.input.nominal, check.pool_after
        sizes = [s for s in sorted(ide4.energy_rules().sizes, reverse=True) if s <= nominal]
        choices = []
        for size in sizes:
            for k in range(1, ide4.energy_rules().after_max_dice + 1):
                why = ide4.energy_after_refusal(check, k, size)
                does = f"стоит {k * size}, останется {pool - k * size}"
                futile = ide4.energy_after_futile(check, k, size) if why is None else None
                if futile:
                    does += f"; ⚠ {futile}"
                choices.append(Choice(f"{k}x{size}", f"{k}×d{size}", why is None, why or does))

        def chosen(choice: str | None) -> None:
            if choice:
                count, size = (int(x) for x in choice.split("x"))
                self._apply(lambda c: ide4.energy_after(c, count, size, rng=rng), "energy_after")

        title = f"Энергия после броска: кубы до d{nominal} (номинал), в запасе {pool}"
        futile = ide4.energy_after_futile(check, ide4.energy_rules().after_max_dice, nominal)
        if futile:
            title += f"\n⚠ {futile}"
        self.app.push_screen(ChooserScreen(title, choices), chosen)

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

    def _record(
        self, event: str, step: ide4.Step | None = None, before: ide4.Check | None = None
    ) -> None:
        """Post the log entry of this step (the last one unless given) and write spent energy /
        the daily cap to the sheet.

        A step that pays from the sheet (energy before the roll with the roll, a move after
        it) is one undo step with its log line. ``before``: the check before a move after the
        roll, which then follows that step's undo and redo."""
        check = self.check
        assert check is not None
        data = {**check.to_dict(), "event": event}
        text = txt.log_text(check, event, step)
        actor = check.input.actor or None
        c = self.form.characters.get(self._check_character_id or "")
        extra = dict(c.extra) if c is not None else {}
        if c is not None:
            if check.energy_spent and extra.get("energy", 100) != check.pool_after:
                extra["energy"] = check.pool_after
            if check.daily_triumph_spent:
                extra["daily_triumph_used"] = True
        if c is None or extra == c.extra or step is not None:  # a level raised on the way:
            # its line only; the move's own step pays, one undo step with the move's line
            self.post_message(CheckRolled(actor, text, data))
        else:  # the sheet and the line: one undo step (undone, the line is «отменено»)
            message = CheckRolled(actor, text, data, spend=replace(c, extra=extra))
            if before is not None:  # a move after the roll: the check follows its undo
                self._trail.add(self.app, message.entry_id, before, check)
            # (energy before the roll: the check goes on from the energy the undo gave back,
            # see Ide4Builder._follow_energy)
            self.post_message(message)
