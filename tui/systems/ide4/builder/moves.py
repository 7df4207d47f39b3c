"""The IDE4™ builder's moves after the d100: rerolls, energy after, mastery bonuses, the
sub-roll. Each chooser lists every option from the engine's view: allowed with what it is
worth (the exact chance to improve the outcome and to worsen it) and what it costs, or the
rule that forbids it. The chosen move is the engine's step (:mod:`tui.systems.ide4.check.steps`),
written with its Журнал line as one undo step — the same step a seat's accepted request makes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import ide4
from tui.systems.ide4.builder.dialogs import Choice, ChooserScreen
from tui.systems.ide4.builder.part import Ide4Part
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.view import Offer


def choice(offer: Offer, label: str = "") -> Choice:
    """A chooser line for an engine offer: its name, and its odds or the rule against it."""
    if not offer.allowed:
        return Choice(offer.source, label or offer.name, False, offer.reason)
    worth = offer.odds_text
    if offer.kind == "energy_after":  # what it costs; a choice that changes nothing says why
        worth = offer.reason if "⚠" in offer.reason else f"{worth}; {offer.reason}"
    return Choice(offer.source, label or offer.name, True, worth)


class MovesMixin(Ide4Part):
    """The after-roll actions of ``Ide4Builder``, split out to keep each file readable."""

    def _offers(self, kind: str) -> list[Offer]:
        return [o for o in self.shown.offers() if o.kind == kind]

    def action_reroll(self) -> None:
        """Choose a reroll source: each allowed one with its odds, or the rule against it."""

        def chosen(source: str | None) -> None:
            if source:
                self.step(steps.reroll, source)

        choices = [choice(o) for o in self._offers("reroll")]
        self.app.push_screen(ChooserScreen("Переброс d100: источник", choices), chosen)

    def action_energy_after(self) -> None:
        """Choose energy dice after the roll: up to three, of the nominal or smaller, each
        with its odds; a choice that cannot change the outcome says so before anything is
        spent."""
        shown = self.shown
        check = shown.check
        assert check is not None
        refusal = ide4.energy_after_refusal(check) or shown.gone()
        if refusal:
            self.app.notify(refusal, severity="error")
            return

        def chosen(picked: str | None) -> None:
            if picked:
                count, size = (int(x) for x in picked.split("x"))
                self.step(steps.energy_after, count, size)

        nominal, pool = check.input.nominal, check.pool_after
        title = f"Энергия после броска: кубы до d{nominal} (номинал), в запасе {pool}"
        futile = ide4.energy_after_futile(check, ide4.energy_rules().after_max_dice, nominal)
        if futile:
            title += f"\n⚠ {futile}"
        choices = [choice(o) for o in shown.energy_offers()]
        self._energy_chooser = ChooserScreen(title, choices)
        self.app.push_screen(self._energy_chooser, chosen)

    _energy_chooser: ChooserScreen | None = None

    def _follow_energy_chooser(self, shown: Any) -> None:
        """The energy dialog open and its character removed in another window: it stays open,
        says so and refuses Enter (nothing is spent, shown or logged); back (an undo there),
        it works again."""
        screen = self._energy_chooser
        if screen is None or screen not in self.app.screen_stack:
            self._energy_chooser = None
            return
        if shown.gone() and shown.check is not None:
            if not screen.withdrawn:
                rolled = shown.state.rolled
                who = rolled.character if rolled is not None else ""
                gone = shown.world.removed(who, shown.check.input.actor)
                screen.withdraw(
                    f"{gone}: Enter ничего не потратит, Esc — закрыть.",
                    f"{gone} — энергия не потрачена. Esc — закрыть.",
                )
        elif screen.withdrawn:
            screen.withdraw(None)

    def action_bonus(self) -> None:
        """Choose a mastery bonus: the enabled ones first (each with its odds), then the
        skill reroll (a new d100: it may also worsen the outcome)."""
        rerolls = {o.source: o for o in self._offers("reroll")}
        bonuses = [choice(o) for o in self._offers("bonus")]
        skill = rerolls.get("skill")
        if skill is not None:
            bonuses.append(choice(replace(skill, source="reroll"), "переброс от навыка"))

        def chosen(kind: str | None) -> None:
            if kind:
                self.step(steps.bonus, kind)

        self.app.push_screen(ChooserScreen("Бонус мастерства", bonuses), chosen)

    def action_subroll(self) -> None:
        """Roll the sub-roll d6: the strength of the consequence, never the outcome."""
        self.step(steps.subroll)
