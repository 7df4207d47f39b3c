"""Старатели's part of the round tracker: harm is a note on its sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.starately.sheet import StaratelySheet
from tui.registry.rounds import NoteHarm, RoundsHook

if TYPE_CHECKING:
    from tui.store import Character


class StaratelyRounds(NoteHarm):
    """The harm note on the Старатели sheet."""

    def harm(self, c: Character) -> str:
        return c.starately.harm

    def with_harm(self, c: Character, note: str) -> Character:
        return c.edit_sheet(StaratelySheet, harm=note)


ROUNDS: RoundsHook = StaratelyRounds()  # mypy checks it against the protocol
