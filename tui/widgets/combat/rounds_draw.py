"""Drawing the round tracker: the status line (system, round, whose turn, the scene clock, the
initiative rule or a write that waits), the table of combatants and the effects' list."""

from __future__ import annotations

import textwrap
from typing import Any

from textual.widgets import DataTable, Static

from rules.effects import EffectSet
from rules.rounds import Tracker
from tui import words
from tui.bridge.effects import left_text
from tui.present.rolls import plain
from tui.store import Character
from tui.widgets.combat.rounds_initiative import OUT, initiative_rule
from tui.widgets.common.text import show_markup
from tui.words import SYSTEM_NAMES

#: The widest the harm column grows at 80 columns; a longer note wraps (the effects keep room).
HARM_WIDTH = 14


class RoundsDrawing:
    """Redrawing the pane from the tracker and the effects (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    tracker: Tracker
    effects: EffectSet
    characters: dict[str, Character]
    app: Any

    def _row_ids(self) -> list[str]:
        t = self.tracker
        ids = list(t.order) if t.started else [e.id for e in t.entrants]
        return ids + [i for i in self.characters if i not in ids]

    def _redraw(self) -> None:
        t = self.tracker
        self._draw_status()
        table = self.query_one("#rounds-table", DataTable)
        current = self.highlighted_id()
        rows = [(cid, self._row(cid, n)) for n, cid in enumerate(self._row_ids(), start=1)]
        if rows != self._rows:
            table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._rows = rows
        ids = [k for k, _ in rows]
        if t.actor != self._last_actor and t.actor in ids:  # a new turn: the cursor follows
            table.move_cursor(row=ids.index(t.actor))
        elif current in ids:
            table.move_cursor(row=ids.index(current))
        self._last_actor = t.actor
        show_markup(self.query_one("#rounds-effects", Static), self._effects_text())
        self.refresh_bindings()

    def _draw_status(self) -> None:
        """The status line: the round, whose turn, the clock, the rule or the write's state."""
        t = self.tracker
        clock = f"время сцены: {self.effects.minute} мин"
        system = SYSTEM_NAMES.get(self.system, self.system)
        if t.started:
            actor = self.characters.get(t.actor)
            who = plain(actor.name) if actor else "?"
            head = f"[b]{system} · Раунд {t.round}[/b] · ходит [b]{who}[/b] · {clock}"
        else:
            head = f"[b]{system} · Подготовка боя[/b] · {clock}"
        second = initiative_rule(self.system)
        if self._pending is not None and self._waiting:  # where the write stands (_save)
            second = f"[$warning]Сохраняется: «{plain(self._pending)}»…[/]"
        elif self._failed:
            second = f"[$error]{plain(self._failed)}[/]"
        show_markup(self.query_one("#rounds-status", Static), f"{head}\n{second}")

    def _row(self, cid: str, n: int) -> tuple[str, ...]:
        t = self.tracker
        c = self.characters[cid]
        entrant = t.entrant(cid)
        side = entrant.side if entrant else OUT
        roll = t.rolls.get(cid) or (t.rolls.get(side) if entrant else None)
        number = ("▶ " if cid == t.actor else "") + (str(n) if cid in t.order else "")
        labels = [e.label for e in self.effects.on(cid)]
        shown = roll.text if roll else ""
        if roll and roll.rerolls:  # a tie broken by rolling again: the roll that ordered them
            shown += f" (ничья: {', '.join(str(r) for r in roll.rerolls)})"
        return (
            number,
            side,
            c.name,
            shown,
            "\n".join(textwrap.wrap(self._harm_text(c), HARM_WIDTH)),  # a note wraps, not cut
            ", ".join(labels),
        )

    def _effects_text(self) -> str:
        if not self.effects.effects:
            return "[dim]Эффектов нет · e — добавить (на участника или на сцену)[/]"
        names = self._names()
        lines = ["[b]Эффекты[/b]"]
        for e in self.effects.effects:
            whom = names.get(e.target, "?") if e.target else "сцена"
            left = left_text(e, self.tracker.round, self.effects.minute, names)
            repeat = ""
            if e.repeat_every:
                n = e.repeat_every
                every = words.rounds(n) if e.repeat_unit == "round" else f"{n} мин"
                repeat = f" · каждые {every}: {e.repeat_text or e.name}"
            hidden = " · [i]скрыт[/i]" if e.hidden else ""
            lines.append(f"• {plain(e.label)} ({plain(whom)}) — {left}{plain(repeat)}{hidden}")
        return "\n".join(lines)
