"""The IDE4™ builder's form: one row per step of the procedure, drawn from the engine's view.

The form keeps nothing: every stepper's options and value, every row's visibility come from
:class:`~tui.systems.ide4.check.view.Ide4View` (:meth:`Ide4Form.show`); a key that changes a row
is turned into an engine step by the builder, and the form is drawn again from the new view.
A text row hidden at the first build gets its label and field when it is first shown
(:class:`TextRow`).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Label

from tui.store import Character
from tui.systems.ide4.check import text as txt
from tui.systems.ide4.check.view import STEPPERS, Ide4View
from tui.widgets.builders.base import mods_hint
from tui.widgets.common.lazy import BuiltWhenShown
from tui.widgets.common.oddsbars import OddsBars
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper

#: The steppers whose options are numbers: typing a digit there picks the option.
NUMERIC = {"base", "open", "energy"}


class FieldInput(ReadyInput):
    """A one-line text field that lets ↑/↓ move between the rows like a Stepper."""

    BINDINGS = [
        Binding("enter", "submit", "Бросить d100", id="ide4-field-submit"),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]


class Ide4OddsBars(OddsBars):
    """OddsBars coloured by the IDE4 outcome styles, or a sentence when there is no roll (at
    [0] or [00], a rule refusing the inputs)."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(txt.IDE4_STYLE, id=id)


class TextRow(BuiltWhenShown, Horizontal):
    """A labelled text field ``#ide4-<name>`` in the row ``#ide4-row-<name>``.

    A ``lazy`` row gets its label and field only when :meth:`show` first shows it: most text
    rows are hidden at the standard level, and their widgets were most of the form's first
    build. Never shown, its field does not exist; the text is the engine's either way.
    """

    def __init__(self, label: str, name: str, placeholder: str, *, lazy: bool = True) -> None:
        super().__init__(classes="ide4-field", id=f"ide4-row-{name}")
        self._parts = (label, name, placeholder)
        self.built = not lazy

    def children_to_build(self) -> list[Label | FieldInput]:
        label, name, placeholder = self._parts
        return [
            Label(f"{label:<13} "),
            FieldInput(id=f"ide4-{name}", placeholder=placeholder, compact=True),
        ]

    def show(self, visible: bool, text: str) -> None:
        """Show or hide the row (built the first time it is shown), its field holding
        ``text`` (set only when it differs: the cursor of a field being typed in stays)."""
        if visible:
            self.build()
        if self.display != visible:
            self.display = visible
        if self.built:
            self.query_one(ReadyInput).follow(text)

    @property
    def text(self) -> str:
        """Return the field's stripped text ("" while the row was never shown)."""
        return self.query_one(Input).value.strip() if self.built else ""


def _field(label: str, name: str, placeholder: str, *, lazy: bool = True) -> TextRow:
    return TextRow(label, name, placeholder, lazy=lazy)


class Ide4Form(VerticalScroll, can_focus=False):
    """Steppers and text fields in the seed's order; ↑/↓ move, ←/→ change, the view scrolls."""

    STEPPER_FORM = True  # its steppers' Changed messages come here directly

    DEFAULT_CSS = """
    Ide4Form .ide4-field { height: 1; }
    Ide4Form .ide4-field Label { width: auto; }
    Ide4Form .ide4-field Input { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.shown: Ide4View | None = None

    def compose(self) -> ComposeResult:
        yield Stepper("Персонаж", id="ide4-character")
        yield Stepper("Уровень", txt.level_options(), id="ide4-level")
        yield _field("Намерение", "intent", "чего хочет персонаж")
        yield Stepper("Действие", txt.action_options(), id="ide4-action")
        yield Stepper("Атрибут", id="ide4-attribute")
        yield Stepper("Навык", id="ide4-skill")
        yield Stepper("Дистанция", txt.distance_options(), id="ide4-distance")
        yield Stepper("Сложность", txt.BASE_OPTIONS, id="ide4-base", wrap=False)
        yield _field(
            "Модификаторы", "mods", mods_hint("+1 темнота, −1 инструменты", empty=False), lazy=False
        )
        yield Stepper("Скрытый риск", txt.HIDDEN_OPTIONS, id="ide4-hidden")
        yield _field("Почему [00]", "reason", "обязательно: почему этим способом нельзя")
        yield _field("Другой путь", "alternative", "если он очевиден из сцены")
        yield _field("Особ. правило", "special", "правило, которое открывает [00]")
        yield Stepper("Новая сложн.", txt.OPEN_OPTIONS, id="ide4-open", wrap=False)
        yield Stepper("Куб энергии", id="ide4-die")
        yield Stepper("Энергия до", id="ide4-energy")
        yield Stepper("Помощь", txt.HELP_OPTIONS, id="ide4-help")
        yield _field("Часть риска", "helpnote", "какую часть риска берёт союзник")
        yield _field("Техника", "technique", "именованная техника (бонус 20)")
        yield _field("Обстановка", "circumstances", "очевидные обстоятельства сцены")
        yield _field("Риск", "risk", "что может случиться при неудаче")

    def on_mount(self) -> None:
        for name in NUMERIC:
            self.query_one(f"#ide4-{name}", Stepper).typed_digits = True

    def show(self, shown: Ide4View) -> None:
        """Draw every row from the engine's view (no Changed message: nothing to dispatch)."""
        self.shown = shown
        for name in STEPPERS:
            row = shown.rows[name]
            stepper = self.query_one(f"#ide4-{name}", Stepper)
            if stepper.options != list(row.options) or stepper.value != row.value:
                stepper.set_options(row.options, row.value)
            if stepper.display != row.shown:
                stepper.display = row.shown
        for name, visible in shown.texts.items():
            self.query_one(f"#ide4-row-{name}", TextRow).show(visible, shown.text(name))

    # -- what the tests and the seats read ---------------------------------------------------

    def value(self, name: str) -> Any:
        """The value the row ``name`` shows."""
        return self.query_one(f"#ide4-{name}", Stepper).value

    def text(self, name: str) -> str:
        """The stripped text of the field ``name``."""
        return self.query_one(f"#ide4-row-{name}", TextRow).text

    @property
    def level(self) -> str:
        """The level of detail chosen."""
        return self.value("level") or "standard"

    @property
    def characters(self) -> dict[str, Character]:
        """The party by id."""
        return dict(self.shown.world.characters) if self.shown is not None else {}

    @property
    def character(self) -> Character | None:
        """The chosen character."""
        return self.shown.character if self.shown is not None else None
