"""The check of whoever acts, opened in the system's builder: Enter on a row (on the actor's
turn its opposed check faces the first opponent), ``o`` against the highlighted one."""

from __future__ import annotations

from typing import Any

from tui.table.rounds.view import RoundsView
from tui.widgets.builders.base import Turn, open_turn
from tui.widgets.common.choice import Choice, ChoiceScreen


class RoundsTurns:
    """The actor's check (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    shown: RoundsView
    characters: dict[str, Any]
    system: str
    app: Any

    async def action_check(self) -> None:
        """Open the highlighted one's check in this system's builder; on the actor's turn its
        opposed check faces the first opponent in the order (``o`` names another)."""
        view = self.shown
        actor = view.tracker.actor
        cid = self.highlighted_id() or actor  # type: ignore[attr-defined]
        if cid not in self.characters:
            return
        opponents = view.opponents if cid == actor else ()
        await self._open_turn(Turn(cid, opponents[0] if opponents else None))

    def action_against(self) -> None:
        """The actor's opposed check against the highlighted combatant (else one chosen)."""
        view = self.shown
        opponents = view.opponents
        if not opponents:
            return
        actor = view.tracker.actor
        target = self.highlighted_id()  # type: ignore[attr-defined]
        if target in opponents:
            self.run_worker(self._open_turn(Turn(actor, target), opposed=True))  # type: ignore[attr-defined]
            return
        if len(opponents) == 1:
            self.run_worker(self._open_turn(Turn(actor, opponents[0]), opposed=True))  # type: ignore[attr-defined]
            return

        def chosen(target: str | None) -> None:
            if target is not None:
                self.run_worker(self._open_turn(Turn(actor, target), opposed=True))  # type: ignore[attr-defined]

        names = {r.id: r.name for r in view.rows}
        choices = [Choice(names.get(cid, "?"), cid) for cid in opponents]
        title = f"{names.get(actor, '?')}: против кого?"
        self.app.push_screen(ChoiceScreen(title, choices), chosen)

    async def _open_turn(self, turn: Turn, *, opposed: bool = False) -> None:
        builder = await self.app.ensure_pane("check")
        self.app.query_one("#tabs").active = "check"
        open_turn(builder, self.system, turn, opposed=opposed)
