"""The Партия tab's saved rolls: roll one of a character's named rolls («r»), save or remove one
(«b», «Название: выражение»), and the pure list edit they share.
"""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from tui.store import Character
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
        from tui.widgets.common.prompt import TextPrompt

        c = self._highlighted()
        if c is None:
            return

        def refused(text: str) -> str:
            """Why the line is refused: said in the prompt, which stays open to fix it."""
            try:
                with_saved_roll(c.rolls, text)  # refuse a bad line before anything is written
            except RulesError as err:
                return str(err)
            return ""

        def typed(text: str | None) -> None:
            if text is None or refused(text):
                return
            name = text.partition(":")[0].strip()

            def saved(current: Character) -> tuple[Character, str, str]:
                rolls = with_saved_roll(current.rolls, text)  # onto the rolls as they are now
                gone = len(rolls) < len(current.rolls)
                return (
                    replace(current, rolls=rolls),
                    f"{current.name}: бросок «{name}»",
                    f"Бросок «{name}» {'удалён' if gone else 'сохранён'}",
                )

            self._edit(c, saved, "бросок не сохранён")

        self.app.push_screen(
            TextPrompt(
                f"Сохранённый бросок — {c.name}",
                "Название: выражение, например «Атака: 2d6+3»",
                check=refused,
            ),
            typed,
        )


def with_saved_roll(rolls: tuple[tuple[str, str], ...], text: str) -> tuple[tuple[str, str], ...]:
    """Return ``rolls`` with «Название: выражение» added or replaced («Название:» removes it).

    Raises:
        RulesError: no name, or the expression does not parse (the message says where).
    """
    from rules.dice import parse

    name, colon, notation = text.partition(":")
    name, notation = name.strip(), notation.strip()
    if not colon or not name:
        raise RulesError("напишите «Название: выражение», например «Атака топором: 2d6+3»")
    kept = tuple((n, e) for n, e in rolls if n.casefold() != name.casefold())
    if not notation:
        return kept
    try:
        parse(notation)
    except RulesError as err:
        raise RulesError(f"«{name}»: {err}") from err
    if len(kept) == len(rolls):
        return (*rolls, (name, notation))
    return tuple((name, notation) if n.casefold() == name.casefold() else (n, e) for n, e in rolls)
