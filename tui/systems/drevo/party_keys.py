"""Древо's keys of the Партия tab (its :attr:`~tui.registry.System.party_keys`): give a
wound (the cascade applies), heal one (each option says what it needs), the GM's +1 Судьба,
Судьба spent on a favourable circumstance.

The party pane names no system: ``tui.widgets.party.pane.party_pane`` mixes this class into the
pane of a Древо campaign, its :attr:`DrevoKeys.BINDINGS` where the pane keeps a system's keys.
"""

from __future__ import annotations

from textual.binding import Binding

from rules import drevo  # loads each part on first use (PEP 562)
from rules.drevo.sheet import DrevoSheet
from tui import words
from tui.store import Character
from tui.systems.drevo.sheet import track_of, wounds_text
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
                return any(c.drevo.wounds.values()) or c.drevo.dead
            if action == "fate_circumstance":
                return c.drevo.fate > 0 and drevo.fate_rules().allows("circumstance")
        return super().check_action(action, parameters)

    def action_wound(self) -> None:
        """Give the highlighted character a wound (the cascade applies)."""
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return

        def wounded(current: Character, level: str) -> tuple[Character, str, str]:
            track = track_of(current).take(level)
            state = f" — {words.wound_state(track)}" if not track.can_act else ""
            return (
                current.edit_sheet(DrevoSheet, wounds=dict(track.counts), dead=track.dead),
                f"{current.name}: {drevo.level_name(level)}",
                f"Рана: {drevo.level_name(level)}. Раны: {wounds_text(track.counts)}{state}",
            )

        def chosen(level: str | None) -> None:
            if level is not None:
                self._edit(c, lambda current: wounded(current, level), "рана не записана")

        choices = [Choice(drevo.level_name(level), level) for level in drevo.LEVELS]
        screen = ChoiceScreen(f"Рана — {c.name}", choices)
        now = "рана добавится к текущим ранам"
        self._open_dialog(c, screen, chosen, "рана не записана", changed=now)

    def action_heal(self) -> None:
        """Heal one wound of the highlighted character; each option says what it needs."""
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return
        track = track_of(c)

        def healed(current: Character, level: str) -> tuple[Character, str, str]:
            after = track_of(current).heal(level)
            return (
                current.edit_sheet(DrevoSheet, wounds=dict(after.counts), dead=after.dead),
                f"{current.name}: вылечено — {drevo.level_name(level)}",
                f"Вылечено: {drevo.level_name(level)}. Раны: {wounds_text(after.counts)}",
            )

        def chosen(level: str | None) -> None:
            if level is not None:
                self._edit(c, lambda current: healed(current, level), "лечение не записано")

        choices = [
            Choice(f"{drevo.level_name(level)} — {need}", level) for level, need in track.needs()
        ]
        screen = ChoiceScreen(f"Лечить {c.name}", choices)
        self._open_dialog(c, screen, chosen, "лечение не записано", reopen=self._reopen_heal)

    def _reopen_heal(self) -> None:
        if len(self.app.screen_stack) == 1 and self.check_action("heal", ()):
            self.action_heal()

    def action_grant_fate(self) -> None:
        """The GM gives the highlighted character one point of Судьба."""
        c = self._highlighted()
        if c is not None:
            self._edit(
                c,
                lambda current: (
                    current.edit_sheet(DrevoSheet, fate=current.drevo.fate + 1),
                    f"{current.name}: +1 Судьба",
                    f"Ведущий даёт очко Судьбы: теперь {current.drevo.fate + 1}",
                ),
                "очко Судьбы не записано",
            )

    def action_fate_circumstance(self) -> None:
        """Spend one Судьба on a favourable circumstance, with the GM's consent and a note."""
        from tui.widgets.common.prompt import TextPrompt  # lazy: not needed for the first screen

        c = self._highlighted()
        if c is None:
            return

        def spent(current: Character, note: str) -> tuple[Character, str, str]:
            left = drevo.spend_fate("circumstance", current.drevo.fate)
            return (
                current.edit_sheet(DrevoSheet, fate=left),
                f"{current.name}: Судьба на обстоятельство",
                f"Судьба на благоприятное обстоятельство: {note} (осталось {left})",
            )

        def noted(note: str | None) -> None:
            if note:
                self._edit(
                    c,
                    lambda current: spent(current, note),
                    "очко Судьбы не потрачено",
                    {"fate_spent": 1},  # one point: spend_fate's cost below
                )

        prompt = TextPrompt(
            f"{c.name}: что складывается в пользу персонажа?", "с согласия ведущего"
        )
        now = "очко спишется с текущей Судьбы"
        self._open_dialog(c, prompt, noted, "очко Судьбы не потрачено", changed=now)
