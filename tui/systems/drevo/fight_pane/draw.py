"""Drawing the Бой tab from the fight: the phase shown, the status line (round, order,
initiative, a write that waits or failed) and the exchange with its odds — every line from the
engine's view of the fight (:mod:`tui.systems.drevo.fight.text`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.containers import VerticalScroll
from textual.widgets import Static

from rules import drevo
from rules.encounter import Encounter
from tui.present.rolls import plain
from tui.store import Character
from tui.systems.drevo.fight.text import exchange_lines, header, round_summary, status_lines
from tui.systems.drevo.fight.view import ExchangeView
from tui.table.core import World
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.part import WidgetPart
from tui.widgets.common.text import TIE, show_markup


class ExchangeBox(Static, can_focus=True):
    """The current exchange: who, with what, the odds, then the dice and the damage."""

    def on_resize(self, event: events.Resize) -> None:
        """Break the lines again for the new width (a side's terms stay whole)."""
        shown = getattr(self, "_shown_markup", None)
        if isinstance(shown, tuple):
            show_markup(self, shown[0], whole=True)


class FightDrawing(WidgetPart):
    """Redrawing the pane from the fight (mixed into ``CombatPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)
        _pending: str | None
        _waiting: bool
        _failed: str
        _editing: str | None

        def _draw_roster(self) -> None: ...
        def _draw_order(self) -> None: ...
        def view(self) -> ExchangeView | None: ...
        def _may_change(self) -> bool: ...
        def world(self) -> World: ...

    # Provided by CombatPane.
    encounter: Encounter
    characters: dict[str, Character]

    def _redraw(self) -> None:
        enc = self.encounter
        editing = getattr(self, "_editing", None)
        if editing and not (enc.combatant(editing) and self._may_change()):
            self._editing = editing = None  # undone, or the dice fell meanwhile
        phase = "declare" if editing else enc.phase
        for part in ("setup", "declare", "resolve"):
            self.query_one(f"#combat-{part}").display = phase == part
        self._draw_status()
        if enc.phase == "setup":
            self._draw_roster()
        elif phase == "declare":
            self._draw_order()
        else:
            self._draw_exchange()
        self._drawn_phase = enc.phase
        self.refresh_bindings()

    def _draw_status(self) -> None:
        status = self.query_one("#combat-status", Static)
        waiting = self._pending is not None and self._waiting
        if waiting or self._failed:
            # Where the pane's write stands: the store (and the screen) change only once saved.
            show_markup(
                status,
                f"[$warning]Сохраняется: «{plain(self._pending or '')}»…[/]"
                if waiting
                else f"[$error]{plain(self._failed)}[/]",
            )
            return
        enc = self.encounter
        world = self.world() if enc.phase == "setup" else None  # an undone initiative?
        show_markup(status, "\n".join(status_lines(enc, world)))

    def _draw_exchange(self) -> None:
        box = self.query_one(ExchangeBox)
        odds = self.query_one("#combat-odds", OddsBars)
        view = self.view()
        if view is None:
            odds.display = False
            lines = round_summary(self.encounter, self.characters)
            lines.append("n — следующий раунд (порядок заявок меняется), x — завершить бой.")
            show_markup(box, "\n".join(lines))
            self._show_the_end()
            return
        plan = view.plan if view.result is None and not view.refusal else None
        odds.display = plan is not None
        if plan is not None:
            odds.show(
                view.odds(),  # against a roll already made this round, when there is one
                drevo.EXCHANGE_OUTCOME_NAMES,
                drevo.EXCHANGE_OUTCOMES[plan.kind],
            )
        lines = exchange_lines(view, tie=TIE)  # «Кинжал МУ 0» never split at 80 columns
        show_markup(box, "\n".join([header(view, self.encounter), *lines]), whole=True)
        self._show_the_end()

    def _show_the_end(self) -> None:
        """Scroll the exchange to its last lines (what Enter does next), once laid out."""
        box = self.query_one("#combat-resolve", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False, immediate=True)
