"""Древо's keys of the Партия tab (its :attr:`~tui.registry.System.party_keys`): give a
wound (the cascade applies), heal one (each option says what it needs), the GM's +1 Судьба,
Судьба spent on a favourable circumstance. The keys open their dialogs and dispatch: when a key
applies, what a dialog offers and what each step writes are the engine's
(``tui/systems/drevo/party/``: ``view.py`` and ``steps.py``).

The party pane names no system: ``tui.widgets.party.pane.party_pane`` mixes this class into the
pane of a Древо campaign, its :attr:`DrevoKeys.BINDINGS` where the pane keeps a system's keys.
"""

from __future__ import annotations

from textual.binding import Binding

from tui.systems.drevo.party import view
from tui.widgets.party.writes import PartyWrites


class DrevoKeys(PartyWrites):
    """The wound and Судьба keys of ``PartyPane`` (mixed into a Древо campaign's only)."""

    BINDINGS = [
        Binding("w", "wound", "Рана", id="party-wound", tooltip="Нанести рану (Древо)"),
        Binding("h", "heal", "Лечить", id="party-heal", tooltip="Вылечить рану (Древо)"),
        Binding(
            "g", "grant_fate", "+Судьба", id="party-fate-grant", tooltip="Ведущий даёт очко Судьбы"
        ),
        Binding(
            "o",
            "fate_circumstance",
            "Судьба: обстоятельство",
            id="party-fate-note",
            tooltip="Потратить очко Судьбы на благоприятное стечение обстоятельств",
            show=False,
        ),
    ]
    #: The actions of :attr:`BINDINGS`.
    ACTIONS = ("wound", "heal", "grant_fate", "fate_circumstance")

    # Provided by the pane: _highlighted() (typed in PartyWrites).

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key on nobody does nothing; healing needs a wound, the circumstance a Судьба."""
        if action in self.ACTIONS:
            c = self._highlighted()
            if c is None:
                return False
            if action == "heal":
                return view.can_heal(c)
            if action == "fate_circumstance":
                return view.can_spend_circumstance(c)
        return super().check_action(action, parameters)

    def action_wound(self) -> None:
        """Give the highlighted character a wound (the cascade applies)."""
        from tui.systems.drevo.party import steps
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return

        def chosen(level: str | None) -> None:
            if level is not None:
                self._step(c, steps.wound, level, what="рана не записана")

        choices = [Choice(name, level) for name, level in view.wound_choices()]
        screen = ChoiceScreen(f"Рана — {c.name}", choices)
        now = "рана добавится к текущим ранам"
        self._open_dialog(c, screen, chosen, "рана не записана", changed=now)

    def action_heal(self) -> None:
        """Heal one wound of the highlighted character; each option says what it needs."""
        from tui.systems.drevo.party import steps
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return

        def chosen(level: str | None) -> None:
            if level is not None:
                self._step(c, steps.heal, level, what="лечение не записано")

        choices = [Choice(text, level) for text, level in view.heal_choices(c)]
        screen = ChoiceScreen(f"Лечить {c.name}", choices)
        self._open_dialog(c, screen, chosen, "лечение не записано", reopen=self._reopen_heal)

    def _reopen_heal(self) -> None:
        if len(self.app.screen_stack) == 1 and self.check_action("heal", ()):
            self.action_heal()

    def action_grant_fate(self) -> None:
        """The GM gives the highlighted character one point of Судьба."""
        from tui.systems.drevo.party import steps

        c = self._highlighted()
        if c is not None:
            self._step(c, steps.grant_fate, what="очко Судьбы не записано")

    def action_fate_circumstance(self) -> None:
        """Spend one Судьба on a favourable circumstance, with the GM's consent and a note."""
        from tui.systems.drevo.party import steps
        from tui.widgets.common.prompt import TextPrompt  # lazy: not needed for the first screen

        c = self._highlighted()
        if c is None:
            return

        def noted(note: str | None) -> None:
            if note:
                self._step(c, steps.fate_circumstance, note, what="очко Судьбы не потрачено")

        prompt = TextPrompt(
            f"{c.name}: что складывается в пользу персонажа?", "с согласия ведущего"
        )
        now = "очко спишется с текущей Судьбы"
        self._open_dialog(c, prompt, noted, "очко Судьбы не потрачено", changed=now)
