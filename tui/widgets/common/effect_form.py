"""The effect form: name, modifier, duration, repeat, who sees it (the Партия tab's «+», the
round tracker's «e»). It only asks: whether the effect can be added is the engine's step's
answer (``check``), shown under the fields."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rules.effects import DURATION_NAMES, DURATIONS, EffectSpec
from rules.errors import RulesError
from tui.numbers import MAX_NUMBER, read_typed_whole
from tui.present.rolls import plain
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce

SCENE = ""
REPEAT_UNIT_NAMES = [("в раундах", "round"), ("в минутах сцены", "minute")]
VISIBILITY = [("видно игрокам", False), ("скрыто от игроков", True)]


def parse_int(text: str, what: str, *, blank: int = 0) -> int:
    """Read a signed whole number the GM typed («−1», «+2», «3»); blank gives ``blank``.

    Raises:
        RulesError: anything else, with an example of what works.
    """
    text = text.replace(" ", "")
    if not text:
        return blank
    value = read_typed_whole(text)  # the digits 0–9 only: «٣» or «1_0» is no number here
    if value is None:
        raise RulesError(f"{what}: целое число, например −1 или +2 (или пусто).")
    # Bounded as the command line bounds its numbers: a 20-digit modifier was taken and the
    # check read «4dF +12345678901234567893».
    if abs(value) > MAX_NUMBER:
        raise RulesError(f"{what}: число от −{MAX_NUMBER} до {MAX_NUMBER}.")
    return value


def row(label: str, placeholder: str, id_: str) -> ComposeResult:
    """Yield one labelled text row (the label as wide as a Stepper's)."""
    with Horizontal(classes="effect-row"):
        yield Label(f"{label:<13} ")
        yield ReadyInput(placeholder=placeholder, id=id_)


class EffectForm(StyledOnce, ModalScreen[EffectSpec | None]):
    """Fill in an effect; Enter adds it (refused fields say why), Esc cancels."""

    DEFAULT_CSS = """
    EffectForm { align: center middle; }
    EffectForm > Vertical {
        width: 72; max-width: 98%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    EffectForm Input, EffectForm Input:focus { margin: 0; height: 1; border: none; padding: 0 1; }
    EffectForm Input:focus { background: $accent 30%; }
    EffectForm #effect-error { color: $error; height: auto; }
    EffectForm .effect-row { height: 1; }
    """

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Отмена", id="effect-cancel"),
        # Priority: Enter in any row adds, and never reaches the Бой table behind the form.
        Binding("enter", "add", "Добавить", id="effect-add", priority=True),
        # ↑/↓ move between the rows, as in every form (a text field has no use for them).
        Binding("down", "app.focus_next", show=False),
        Binding("up", "app.focus_previous", show=False),
    ]

    def __init__(
        self,
        targets: Sequence[tuple[str, str]],
        target: str,
        anchors: Sequence[tuple[str, str]],
        check: Callable[[EffectSpec], str],
    ) -> None:
        super().__init__()
        self.targets = [*targets, ("сцена (для всех)", SCENE)]
        self.target = target
        self.anchors = list(anchors) or [("— нет участников —", "")]
        #: Why the engine refuses the effect described ("" when it can be added).
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "[b]Новый эффект[/b]  [dim](Tab — строка, Enter — добавить, Esc — отмена)[/]"
            )
            yield Stepper("На кого", list(self.targets), id="effect-target")
            yield from row("Название", "например: Оглушён, Горит, Патруль", "effect-name")
            yield from row(
                "Модификатор", "например: −1 к проверкам (пусто — без него)", "effect-mod"
            )
            yield Stepper(
                "Длительность", [(DURATION_NAMES[d], d) for d in DURATIONS], id="effect-duration"
            )
            yield from row("Сколько", "например: 2 (раунда или минуты)", "effect-amount")
            yield Stepper("Чей ход", list(self.anchors), id="effect-anchor")
            yield from row("Каждые", "например: 1 (пусто — без повтора)", "effect-every")
            yield Stepper("Повтор", REPEAT_UNIT_NAMES, id="effect-unit")
            yield from row("Напомнить", "например: проверка Выносливости", "effect-what")
            yield Stepper("Игрокам", VISIBILITY, id="effect-hidden")
            yield Static(id="effect-error")

    def on_mount(self) -> None:
        self.query_one("#effect-target", Stepper).select(self.target)
        self.query_one("#effect-name", Input).focus()
        self._show_anchor()

    @on(Stepper.Changed, "#effect-duration")
    def _show_anchor(self) -> None:
        """«Чей ход» only for an effect that ends at someone's turn (not for N rounds)."""
        duration = self.query_one("#effect-duration", Stepper).value
        self.query_one("#effect-anchor", Stepper).display = duration in ("turn_start", "turn_end")

    def _text(self, id_: str) -> str:
        return self.query_one(f"#{id_}", Input).value

    def spec(self) -> EffectSpec:
        """Return the effect the fields describe (raises RulesError for a bad field)."""
        duration = self.query_one("#effect-duration", Stepper).value
        return EffectSpec(
            name=self._text("effect-name"),
            target=self.query_one("#effect-target", Stepper).value or SCENE,
            modifier=parse_int(self._text("effect-mod"), "Модификатор"),
            duration=duration,
            amount=parse_int(self._text("effect-amount"), "Сколько"),
            anchor=self.query_one("#effect-anchor", Stepper).value or "",
            repeat_every=parse_int(self._text("effect-every"), "Повтор"),
            repeat_unit=self.query_one("#effect-unit", Stepper).value,
            repeat_text=self._text("effect-what"),
            hidden=bool(self.query_one("#effect-hidden", Stepper).value),
        )

    def action_add(self) -> None:
        """Validate and return the effect; a bad field is named, nothing is saved."""
        try:
            spec = self.spec()
        except RulesError as err:
            self.query_one("#effect-error", Static).update(plain(str(err)))
            return
        refused = self.check(spec)
        if refused:
            self.query_one("#effect-error", Static).update(plain(refused))
            return
        self.dismiss(spec)
