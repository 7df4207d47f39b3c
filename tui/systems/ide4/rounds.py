"""IDE4's part of the round tracker: harm is a note on its sheet; the fighter's energy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.ide4.sheet import Ide4Sheet
from tui.registry.rounds import NoteHarm, RoundsHook

if TYPE_CHECKING:
    from tui.store import Character


class Ide4Rounds(NoteHarm):
    """The harm note on the IDE4 sheet; its energy for the initiative rules."""

    def harm(self, c: Character) -> str:
        return c.ide4.harm

    def with_harm(self, c: Character, note: str) -> Character:
        return c.edit_sheet(Ide4Sheet, harm=note)

    def energy(self, c: Character) -> int:
        return c.ide4.energy


ROUNDS: RoundsHook = Ide4Rounds()  # mypy checks it against the protocol
