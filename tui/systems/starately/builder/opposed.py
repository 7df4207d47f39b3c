"""The Старатели opposed roll (встречный бросок) in the builder, outside fights as well.

The first side is what the builder's rows hold; this screen sets the opponent: character,
characteristic, skill (or none, −3), +d6 / −d6 counters and modifiers, and who started the
contest. The exact chances of each side winning are redrawn on every change; Enter rolls both.
[seed] «у такого броска нет сложности, кто бросит выше, тот и победил. В случае ничьёй
побеждает инициатор проверки, если такого нельзя определить однозначно – то персонаж игрока».
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from rules import starately
from rules.errors import RulesError
from tui.present.rolls import plain, signed
from tui.systems.starately.builder.other import OtherSideDialog
from tui.systems.starately.builder.parts import Row
from tui.systems.starately.check import other as so
from tui.widgets.builders.base import mods_hint
from tui.widgets.builders.dicefaces import ModsInput, StyledOddsBars
from tui.widgets.common.text import show_markup

OPPOSED_STYLE = {"a": "$success", "b": "$error"}


class OpposedScreen(OtherSideDialog):
    """Set the opponent of a встречный бросок; exact odds; Enter rolls both sides."""

    DEFAULT_CSS = """
    OpposedScreen { align: center middle; }
    OpposedScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    OpposedScreen #opp-mods-row { height: 1; }
    OpposedScreen #opp-mods-row Label { width: auto; }
    OpposedScreen #opp-mods { width: 1fr; }
    """
    PREFIX = "opp"
    BINDINGS = [
        Binding("enter", "go", "Бросить", id="opposed-go"),
        Binding("escape", "cancel", "Отмена", id="opposed-cancel"),
    ]

    def compose(self) -> ComposeResult:
        main = self.shown.main
        head = (
            f"{plain(main.side.name)} ({plain(main.side.characteristic)}, "
            f"{signed(main.side.bonus)})"
            if main is not None
            else "первая сторона"
        )
        with Vertical():
            yield Static(
                f"[b]Встречный бросок[/b]: {head} против соперника. "
                "Сложности нет: выше итог — победа."
            )
            yield Row("Соперник", id="opp-character")
            yield Row("Характеристика", id="opp-characteristic")
            yield Row("Навык", id="opp-skill")
            yield Row("+d6", so.COUNTS, id="opp-boons")
            yield Row("−d6", so.COUNTS, id="opp-banes")
            with Horizontal(id="opp-mods-row"):
                yield Label("Модификаторы   ")
                yield ModsInput(placeholder=mods_hint("−1 ветер"), id="opp-mods", compact=True)
            yield Row("Инициатор", id="opp-initiator")
            yield Static(id="opp-formula")
            yield StyledOddsBars(OPPOSED_STYLE, id="opp-odds")
            yield Static(id="opp-tie")
            yield Static("[dim]Enter — бросить обоих · Esc — отмена[/]")

    def opposed(self) -> Any:
        """The ``Opposed`` the rows describe (raises RulesError)."""
        return self.shown.opposed()

    def draw_odds(self, shown: so.OtherView) -> None:
        lines = shown.lines()
        show_markup(self.query_one("#opp-formula", Static), lines[0])
        show_markup(self.query_one("#opp-tie", Static), "\n".join(lines[1:]))
        bars = self.query_one("#opp-odds", StyledOddsBars)
        try:
            check = shown.opposed()
            odds = starately.opposed_odds(check)
        except RulesError:
            show_markup(bars, "")
            return
        names = {"a": plain(check.a.name), "b": plain(check.b.name)}  # OddsBars reads markup
        bars.show({"a": odds.a, "b": odds.b}, names, ("a", "b"))
