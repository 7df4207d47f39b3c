"""Pop-ups of the IDE4™ builder: the need-a-roll checklist, the clear-risk card, a chooser of
moves (each shown allowed or with the rule that forbids it) and the conclusion."""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from rules import ide4
from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.systems.ide4.check.text import need_line
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.withdrawn import Withdrawable

PLAYER_DEMAND = "player_demand"

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 76; max-width: 100%; height: auto; max-height: 100%;
    border: round $primary; background: $surface; padding: 0 1;
}}
{name} .dialog-title {{ text-style: bold; color: $primary; }}
{name} .dialog-hint {{ color: $text-muted; }}
{name} OptionList, {name} SelectionList {{ height: auto; max-height: 16; }}
"""


@dataclass(frozen=True)
class Choice:
    """One line of a chooser: an id, its name, whether the rules allow it and why (not)."""

    id: str
    name: str
    allowed: bool
    reason: str


class ChooserScreen(StyledOnce, Withdrawable, ModalScreen[str | None]):
    """Pick one move; the ones the rules forbid are greyed out with their reason. Its
    character removed in another window, it refuses Enter (:class:`Withdrawable`)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ChooserScreen")
    BINDINGS = [Binding("escape", "dismiss(None)", "Отмена", id="ide4-chooser-cancel")]

    def __init__(self, title: str, choices: list[Choice]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title")
            options = []
            for c in self.choices:
                mark = "✓" if c.allowed else "✗ нельзя:"
                options.append(
                    Option(f"{escape(c.name)} — {mark} {escape(c.reason)}", c.id, not c.allowed)
                )
            yield OptionList(*options, id="ide4-chooser")
            yield Static("Enter — выбрать · Esc — отмена", classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        first = next((i for i, c in enumerate(self.choices) if c.allowed), None)
        options.highlighted = first
        options.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)


class TickList(SelectionList[str]):
    """A SelectionList whose box reads ticked or not without colour: «[X]» or «[ ]»
    (Textual draws «▐X▌» for both and tells them apart by colour only)."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        segments = list(strip)
        if len(segments) < 3:
            return strip
        mark = "X" if selection.value in self._selected else " "
        left, inner, right = segments[:3]
        segments[:3] = [
            Segment("[", left.style),
            Segment(mark, inner.style),
            Segment("]", right.style),
        ]
        return Strip(segments)


class ChecklistScreen(StyledOnce, ModalScreen[tuple[tuple[str, ...], bool] | None]):
    """The seed's eight conditions; space ticks one; the verdict updates as you tick."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ChecklistScreen")
    BINDINGS = [Binding("escape,c", "done", "Готово", id="ide4-checklist-done")]

    def __init__(self, reasons: tuple[str, ...], player_demand: bool) -> None:
        super().__init__()
        self.reasons = reasons
        self.player_demand = player_demand

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Нужна ли проверка? «Есть ставка — есть проверка»", classes="dialog-title")
            items = [(name, key, key in self.reasons) for key, name in ide4.ROLL_REASONS.items()]
            items.append(("игрок требует проверку", PLAYER_DEMAND, self.player_demand))
            yield TickList(*items, id="ide4-checklist")
            yield Static(id="ide4-verdict")
            yield Static(
                "Не нужна, если действие: " + ", ".join(ide4.NO_ROLL_SIGNS) + ".",
                classes="dialog-hint",
            )
            yield Static("Пробел — отметить · Esc или c — готово", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()
        self._show_verdict()

    def _picked(self) -> tuple[tuple[str, ...], bool]:
        selected = self.query_one(SelectionList).selected
        reasons = tuple(k for k in ide4.ROLL_REASONS if k in selected)
        return reasons, PLAYER_DEMAND in selected

    @on(SelectionList.SelectedChanged)
    def _show_verdict(self) -> None:
        reasons, demand = self._picked()
        verdict = need_line(ide4.roll_need(reasons, demand), reviewed=True)
        self.query_one("#ide4-verdict", Static).update(verdict)

    def action_done(self) -> None:
        """Close and hand the ticks back to the builder."""
        self.dismiss(self._picked())


class CardScreen(StyledOnce, ModalScreen[None]):
    """The clear-risk card the GM reads aloud before an important check."""

    DEFAULT_CSS = DIALOG_CSS.format(name="CardScreen")
    BINDINGS = [Binding("escape,k", "dismiss(None)", "Закрыть", id="ide4-card-close")]

    def __init__(self, card: ide4.ClearRisk) -> None:
        super().__init__()
        self.card = card

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Правило ясного риска — прочитайте вслух", classes="dialog-title")
            yield Static(escape(ide4.clear_risk_text(self.card)), id="ide4-card-text")
            if self.card.missing:
                yield Static(
                    f"[$warning]Не заполнено: {', '.join(self.card.missing)}[/] — поля "
                    "«Намерение» и «Риск» в развёрнутой проверке (l).",
                )
            yield Static(
                "Трагедия должна вытекать из риска, который существовал до броска. "
                "Esc или k — закрыть",
                classes="dialog-hint",
            )


class ConcludeScreen(StyledOnce, ModalScreen[tuple[str, str] | None]):
    """Steps 13–14: the meaning of the outcome and its consequences in the scene."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConcludeScreen")
    ENTER_TEXT = {"ide4-meaning": "Дальше", "ide4-consequence": "Записать"}  # for the key bar
    BINDINGS = [Binding("escape", "dismiss(None)", "Отмена", id="ide4-conclude-cancel")]

    def __init__(self, outcome: str) -> None:
        super().__init__()
        self.outcome = outcome

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Итог: {self.outcome}", classes="dialog-title")
            yield Static("Смысл исхода (можно оставить пустым)", classes="dialog-hint")
            yield ReadyInput(id="ide4-meaning", placeholder="что это значит для персонажа")
            yield Static("Последствия в сцене", classes="dialog-hint")
            yield ReadyInput(id="ide4-consequence", placeholder="что меняется в сцене")
            yield Static("Enter — дальше / записать · Esc — вернуться", classes="dialog-hint")

    @on(Input.Submitted, "#ide4-meaning")
    def _next(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#ide4-consequence", Input).focus()

    @on(Input.Submitted, "#ide4-consequence")
    def _done(self, event: Input.Submitted) -> None:
        event.stop()
        meaning = self.query_one("#ide4-meaning", Input).value
        self.dismiss((meaning, event.value))
