"""Drawing the round tracker from the engine's view (:mod:`tui.table.rounds.view`): the status
line (system, round, whose turn, the scene clock, the initiative rule or a write that waits),
the table of combatants and the effects' list. Nothing here is worked out, only shown."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from textual.widgets import DataTable, Static

from tui.present.rolls import plain
from tui.sanitize import cell
from tui.table.rounds.view import RoundsView, Row
from tui.widgets.common.part import WidgetPart
from tui.widgets.common.text import show_markup

#: The widest the harm column grows at 80 columns; a longer note wraps (the effects keep room).
HARM_WIDTH = 14


def cells(r: Row) -> tuple[str, ...]:
    """A row's cells (a long harm note wraps, never cut; a name is cut as the party's: a
    10,000-letter one pushed Инициатива, Вред and Эффекты off the screen)."""
    harm = "\n".join(textwrap.wrap(r.harm, HARM_WIDTH))
    return (r.number, r.side, cell(r.name), r.initiative, harm, r.effects)


def effects_markup(view: RoundsView) -> str:
    """The effects' list under the table."""
    if not view.effect_lines:
        return "[dim]Эффектов нет · e — добавить (на участника или на сцену)[/]"
    lines = ["[b]Эффекты[/b]"]
    for e in view.effect_lines:
        repeat = f" · {e.repeat}" if e.repeat else ""
        hidden = " · [i]скрыт[/i]" if e.hidden else ""
        lines.append(
            f"• {plain(e.label)} ({plain(e.whom)}) — {plain(e.left)}{plain(repeat)}{hidden}"
        )
    return "\n".join(lines)


class RoundsDrawing(WidgetPart):
    """Redrawing the pane from its view (mixed into ``RoundsPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def highlighted_id(self) -> str | None: ...

    # Provided by RoundsPane.
    shown: RoundsView
    _pending: str | None
    _waiting: bool
    _failed: str
    _rows: list[Any]
    _last_actor: str

    def _redraw(self) -> None:
        view = self.shown
        actor = view.tracker.actor
        self._draw_status()
        table = self.query_one("#rounds-table", DataTable)
        current = self.highlighted_id()
        rows = [(r.id, cells(r)) for r in view.rows]
        if rows != self._rows:
            table.clear()
            for key, shown in rows:
                table.add_row(*shown, key=key)
            self._rows = rows
        ids = [k for k, _ in rows]
        if actor != self._last_actor and actor in ids:  # a new turn: the cursor follows
            table.move_cursor(row=ids.index(actor))
        elif current in ids:
            table.move_cursor(row=ids.index(current))
        self._last_actor = actor
        effects = self.query_one("#rounds-effects", Static)
        show_markup(effects, effects_markup(view))
        self.refresh_bindings()

    def _draw_status(self) -> None:
        """The status line: the round, whose turn, the clock, the rule or the write's state."""
        view = self.shown
        clock = f"время сцены: {view.effects.minute} мин"
        if view.started:
            who = plain(view.actor_name)
            head = f"[b]{view.system_name} · Раунд {view.tracker.round}[/b] · ходит [b]{who}[/b]"
            head += f" · {clock}"
        else:
            head = f"[b]{view.system_name} · Подготовка боя[/b] · {clock}"
        rule = view.rule
        second = f"[$error]{plain(rule.text)}[/]" if rule.refused else f"[dim]{plain(rule.text)}[/]"
        if self._pending is not None and self._waiting:  # where the write stands
            second = f"[$warning]Сохраняется: «{plain(self._pending)}»…[/]"
        elif self._failed:
            second = f"[$error]{plain(self._failed)}[/]"
        status = self.query_one("#rounds-status", Static)
        show_markup(status, f"{head}\n{second}")
