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
from tui.widgets import ide4_text as txt
from tui.widgets.builder import CharacterChanged, CheckRolled
from tui.widgets.ide4_dialogs import Choice, ChooserScreen


class MovesMixin:
    """The after-roll actions of ``Ide4Builder``, split out to keep each file readable."""

    check: ide4.Check | None
    app: Any
    form: Any
    _check_character_id: str | None
    # Provided by the builder (and Textual): _show_result(), post_message().

    def _apply(self, move: Callable[[ide4.Check], ide4.Check], event: str) -> None:
        """Apply one move; a move the rules refuse is explained and changes nothing."""
        assert self.check is not None
        try:
            self.check = move(self.check)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        self._record(event)
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
        """Choose how many energy dice to add after the roll (up to three, of the nominal)."""
        check = self.check
        assert check is not None
        refusal = ide4.energy_after_refusal(check)
        if refusal:
            self.app.notify(refusal, severity="error")
            return
        rng = self.app.rng  # type: ignore[attr-defined]
        nominal, pool = check.input.nominal, check.pool_after
        choices = []
        for k in range(1, ide4.energy_rules().after_max_dice + 1):
            why = ide4.energy_after_refusal(check, k)
            does = f"стоит {k * nominal}, останется {pool - k * nominal}"
            choices.append(Choice(str(k), f"{k}×d{nominal}", why is None, why or does))

        def chosen(count: str | None) -> None:
            if count:
                self._apply(lambda c: ide4.energy_after(c, int(count), rng=rng), "energy_after")

        title = f"Энергия после броска: сколько кубов d{nominal}? (в запасе {pool})"
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

    def _record(self, event: str) -> None:
        """Post the log entry of this step and write spent energy / the daily cap to the sheet."""
        check = self.check
        assert check is not None
        data = {**check.to_dict(), "event": event}
        self.post_message(CheckRolled(check.input.actor or None, txt.log_text(check, event), data))
        c = self.form.characters.get(self._check_character_id or "")
        if c is None:
            return
        extra = dict(c.extra)
        if check.energy_spent and extra.get("energy", 100) != check.pool_after:
            extra["energy"] = check.pool_after
        if check.daily_triumph_spent:
            extra["daily_triumph_used"] = True
        if extra != c.extra:
            self.post_message(CharacterChanged(replace(c, extra=extra)))
