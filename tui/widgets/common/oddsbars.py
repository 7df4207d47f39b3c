"""Exact odds drawn as horizontal bars, one line per outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from textual import events
from textual.content import Content
from textual.widgets import Static

from tui.present.rolls import OUTCOME_STYLE, bar, percent
from tui.widgets.common.text import show_markup


class OddsBars(Static):
    """Show ``{outcome: probability}`` as labelled bars with percentages, sized to fit, or a
    sentence in their place."""

    DEFAULT_CSS = """
    OddsBars { height: auto; }
    """

    _data: tuple[Mapping[str, Fraction], Mapping[str, str], Sequence[str]] | None = None

    def __init__(
        self,
        styles: Mapping[str, str] | None = None,
        *,
        id: str | None = None,  # noqa: A002 - Textual's name
    ) -> None:
        super().__init__(id=id)
        #: outcome id → theme colour; the shared map covers Древо and the combat exchanges.
        self.outcome_styles = dict(OUTCOME_STYLE if styles is None else styles)

    def show(
        self, odds: Mapping[str, Fraction], names: Mapping[str, str], order: Sequence[str]
    ) -> None:
        """Redraw the bars for ``odds`` in ``order`` with Russian ``names``."""
        self._data = (odds, names, order)
        self._redraw()

    def show_message(self, text: str) -> None:
        """Replace the bars with a sentence (markup): no odds for the inputs as they are, so
        none of earlier inputs stays on screen."""
        self._data = None
        show_markup(self, text)

    def on_resize(self, event: events.Resize) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if self._data is None:
            return
        odds, names, order = self._data
        lines = bar_lines(odds, names, order, self.size.width or 80, self.outcome_styles)
        show_markup(self, "\n".join(lines))


def bar_lines(
    odds: Mapping[str, Fraction],
    names: Mapping[str, str],
    order: Sequence[str],
    width: int,
    styles: Mapping[str, str],
) -> list[str]:
    """The bars' lines (markup) at ``width``: each name (markup) padded to the widest as it
    shows («\\[» is one cell: a name with «[» was padded short, its bar out of line)."""
    shown = {k: Content.from_markup(names[k]).cell_length for k in order}
    label_width = max(shown.values())
    bar_width = max(8, width - label_width - 10)
    lines = []
    for key in order:
        p = odds.get(key, Fraction(0))
        style = styles.get(key, "$primary")
        label = names[key] + " " * (label_width - shown[key])
        lines.append(f"{label} [{style}]{bar(p, bar_width):<{bar_width}}[/] {percent(p):>7}")
    return lines
