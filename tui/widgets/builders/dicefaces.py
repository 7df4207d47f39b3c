"""Dice and distributions drawn for the 2d6 and d10-pool builders (and their modifier field).

Each die of a result is shown with its fate: a d6 a boon or bane dropped is struck through in
parentheses; a d10 pool die shows success, explosion (``!``, the dice it added follow ``→``)
and a rote reroll (the replaced die struck, ``↻`` before the new one). Every function has a
markup flavour for the screen and a plain one for the log line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from textual import events
from textual.binding import Binding
from textual.widgets import Static

from tui.present.rolls import bar, percent
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.text import show_markup

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules import starately, wod


def d6_faces(dice: Sequence[starately.Die], *, markup: bool = True) -> str:
    """Return 2d6 / 3d6 dice as ``[5] [3] (1)``: a dropped die is struck and in parentheses."""
    parts = []
    for die in dice:
        if die.kept:
            parts.append(f"[b]\\[{die.value}][/b]" if markup else f"[{die.value}]")
        else:
            parts.append(f"[dim strike]({die.value})[/]" if markup else f"({die.value})")
    return " ".join(parts)


def d10_groups(dice: Sequence[wod.Die]) -> list[list[wod.Die]]:
    """Group pool dice by the pool die they came from (its rote reroll and explosions follow)."""
    groups: list[list[wod.Die]] = []
    for die in dice:
        if die.rerolled or die.added:
            if groups:
                groups[-1].append(die)
                continue
        groups.append([die])
    return groups


def _d10(die: wod.Die, markup: bool) -> str:
    text = f"{die.value}{'!' if die.exploded else ''}"
    if not die.kept:
        return f"[dim strike]({text})[/]" if markup else f"({text})"
    if markup:
        text = f"[b $success]{text}[/]" if die.success else f"[$text-muted]{text}[/]"
    return f"↻{text}" if die.rerolled else text


def d10_faces(dice: Sequence[wod.Die], *, markup: bool = True) -> str:
    """Return pool dice as ``9 10!→8 (3)↻7 2``: successes bold, explosions chained with ``→``."""
    shown = []
    for group in d10_groups(dice):
        text = ""
        for die in group:
            face = _d10(die, markup)
            text += f"→{face}" if die.added else face
        shown.append(text)
    return " ".join(shown)


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
