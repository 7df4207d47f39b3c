"""The Партия tab's saved rolls: roll one of a character's named rolls («r»), save or remove one
(«b», «Название: выражение»). What a line saves and what it writes are the engine's
(:mod:`tui.table.party`).
"""

from __future__ import annotations

from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.party.writes import PartyWrites


class SavedRolls(PartyWrites):
    """The saved-roll keys of ``PartyPane``."""

    # Provided by the pane: _highlighted().

    def action_saved_roll(self) -> None:
        """Roll one of the highlighted character's saved rolls (a list when there are several)."""
        from tui.widgets.common.choice import Choice, ChoiceScreen

        c = self._highlighted()
        if c is None:
            return
        if not c.rolls:
            self.app.notify(
                f"У «{c.name}» нет сохранённых бросков — добавьте: b, «Атака: 2d6+3»",
                timeout=6,
            )
            return
        if len(c.rolls) == 1:
            self.app.query_one(QuickRoll).roll_saved(c, c.rolls[0][0])
            return

        def chosen(name: str | None) -> None:
            if name is not None:
                self.app.query_one(QuickRoll).roll_saved(c, name)

        choices = [Choice(f"{name}: {notation}", name) for name, notation in c.rolls]
        self.app.push_screen(ChoiceScreen(f"Бросок: {c.name}", choices), chosen)

    def action_save_roll(self) -> None:
        """Save a named roll on the highlighted character («Название:» alone removes it)."""
        from tui.table import party  # the engine loads with the first key
        from tui.widgets.common.prompt import TextPrompt

        c = self._highlighted()
        if c is None:
            return

        def refused(text: str) -> str:
            """Why the line is refused: said in the prompt, which stays open to fix it."""
            return party.saved_roll_refusal(c.rolls, text)

        def typed(text: str | None) -> None:
            if text is not None and not refused(text):
                self._step(c, party.save_roll, text, what="бросок не сохранён")

        self.app.push_screen(
            TextPrompt(
                f"Сохранённый бросок — {c.name}",
                "Название: выражение, например «Атака: 2d6+3»",
                check=refused,
            ),
            typed,
        )
