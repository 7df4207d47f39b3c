"""Dice and distributions drawn for the 2d6 and d10-pool builders (and their modifier field).

Each die of a result is shown with its fate: a d6 a boon or bane dropped is struck through in
parentheses; a d10 pool die shows success, explosion (``!``, the dice it added follow ``→``)
and a rote reroll (the replaced die struck, ``↻`` before the new one). Every function has a
markup flavour for the screen and a plain one for the log line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from textual import events
from textual.binding import Binding
from textual.widgets import Static

from tui.present.faces import d6_faces, d10_faces, d10_groups
from tui.present.rolls import bar, percent
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.text import show_markup

__all__ = ["DistributionBars", "ModsInput", "StyledOddsBars", "d10_faces", "d10_groups", "d6_faces"]


class StyledOddsBars(OddsBars):
    """Odds bars whose colours come from a map of the builder's own outcome ids."""

    def __init__(self, styles: Mapping[str, str], *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(styles, id=id)


class DistributionBars(Static):
    """A small histogram: one line per value with a bar scaled to the likeliest value."""

    DEFAULT_CSS = """
    DistributionBars { height: auto; }
    """

    _rows: tuple[str, Sequence[tuple[str, Fraction, str]]] | None = None

    def show(self, title: str, rows: Sequence[tuple[str, Fraction, str]]) -> None:
        """Redraw for ``rows`` of ``(label, probability, style)`` under ``title``."""
        self._rows = (title, list(rows))
        self._redraw()

    def on_resize(self, event: events.Resize) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if self._rows is None:
            return
        title, rows = self._rows
        if not rows:
            show_markup(self, title)
            return
        label_width = max(len(label) for label, _, _ in rows)
        bar_width = max(4, (self.size.width or 24) - label_width - 9)
        top = max(p for _, p, _ in rows) or Fraction(1)
        lines = [title]
        for label, p, style in rows:
            lines.append(
                f"{label:>{label_width}} [{style}]{bar(p / top, bar_width):<{bar_width}}[/] "
                f"{percent(p):>7}"
            )
        show_markup(self, "\n".join(lines))


class ModsInput(ReadyInput):
    """The builders' modifier field: ↑/↓ move between rows as on the steppers around it."""

    BINDINGS = [
        Binding("up", "app.focus_previous", "Выше", show=False),
        Binding("down", "app.focus_next", "Ниже", show=False),
    ]
