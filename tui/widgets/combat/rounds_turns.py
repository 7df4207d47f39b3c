"""The check of whoever acts, opened in the system's builder: Enter on a row (on the actor's
turn its opposed check faces the first opponent), ``o`` against the highlighted one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.table.rounds.view import RoundsView
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.part import WidgetPart
from tui.widgets.common.turn import Turn, TurnCheck


class RoundsTurns(WidgetPart):
    """The actor's check (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    shown: RoundsView
    characters: dict[str, Any]
    system: str

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def highlighted_id(self) -> str | None: ...

    def action_check(self) -> None:
        """Open the highlighted one's check in this system's builder; on the actor's turn its
        opposed check faces the first opponent in the order (``o`` names another)."""
        view = self.shown
        actor = view.tracker.actor
        cid = self.highlighted_id() or actor
        if cid not in self.characters:
            return
        opponents = view.opponents if cid == actor else ()
        self.post_message(TurnCheck(Turn(cid, opponents[0] if opponents else None)))

    def action_against(self) -> None:
        """The actor's opposed check against the highlighted combatant (else one chosen)."""
        view = self.shown
        opponents = view.opponents
        if not opponents:
            return
        actor = view.tracker.actor
        target = self.highlighted_id()
        if target in opponents:
            self.post_message(TurnCheck(Turn(actor, target), opposed=True))
            return
        if len(opponents) == 1:
            self.post_message(TurnCheck(Turn(actor, opponents[0]), opposed=True))
            return

        def chosen(target: str | None) -> None:
            if target is not None:
                self.post_message(TurnCheck(Turn(actor, target), opposed=True))

        names = {r.id: r.name for r in view.rows}
        choices = [Choice(names.get(cid, "?"), cid) for cid in opponents]
        title = f"{names.get(actor, '?')}: против кого?"
        self.app.push_screen(ChoiceScreen(title, choices), chosen)
