"""The character form: add, edit or duplicate a character, validated field by field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from tui import registry
from tui.sanitize import plain, safe_text
from tui.store import Character, new_id
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper
from tui.widgets.common.styled import StyledOnce
from tui.widgets.common.withdrawn import Withdrawable
from tui.widgets.party.fields import (
    FieldError,
    form_character,
    form_checks,
    format_skills,
    kind_switched,
    signed_text,
    system_fields,
)

KINDS = [("Игрок", "pc"), ("НИП (персонаж ведущего)", "npc")]
#: The longest text of a row of the sheet: an NPC's list of skills or a character's notes may
#: well pass a field's usual 300 characters (ordered_input.MAX_TEXT).
SHEET_TEXT = 1000
YES_NO = [("нет", False), ("да", True)]


def blank_character(system: str) -> Character:
    """Return a new character with the system's neutral values, its sheet's defaults (not yet
    in the party)."""
    fields = system_fields(system)
    return Character(
        id=new_id(),
        name="",
        kind="pc",
        qualities={name: fields.stat_default for name in fields.stats},
        skills=(),
        weapons=(),
        # The system's own sheet at its defaults (IDE4: energy 100; Древо: the campaign's
        # Судьба).
        sheet=registry.get(system).new_sheet(npc=False),
    )


class CharacterForm(StyledOnce, Withdrawable, ModalScreen[Character | None]):
    """Edit every field of a character; return it when all fields are valid, None on Esc."""

    DEFAULT_CSS = """
    CharacterForm { align: center middle; }
    CharacterForm > VerticalScroll {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    CharacterForm Input { border: none; height: 1; padding: 0 1; width: 1fr; }
    CharacterForm Input:focus { border: none; background: $accent 30%; }
    CharacterForm .row { height: 1; }
    CharacterForm .gap { margin-top: 1; }
    CharacterForm .row Label { width: 10; }
    CharacterForm .error { color: $error; height: auto; padding-left: 11; }
    CharacterForm .hint { color: $text-muted; height: auto; padding-left: 11; }
    CharacterForm #f-stats { grid-size: 3; grid-gutter: 0 1; height: auto; }
    CharacterForm #f-stats Horizontal { height: 1; }
    CharacterForm #f-stats Label { width: 1fr; }
    CharacterForm #f-stats Input { width: 6; }
    CharacterForm #form-title { height: auto; margin-bottom: 1; }
    """

    #: The name field has the focus as the form opens. Textual's default (the first focusable
    #: widget) focused the scrolling box first and restyled the whole form, then again as the
    #: name field took the focus from it: ~20 ms of an opening's CPU.
    AUTO_FOCUS = "#f-name"

    BINDINGS = [
        Binding("ctrl+s", "save", "Сохранить", id="form-save"),
        # Enter in a text field saves (its Submitted); on a selector («Кто») too, as the
        # title says — a Stepper has no Enter of its own.
        Binding("enter", "save", show=False),
        Binding("escape", "dismiss(None)", "Отмена", id="form-cancel"),
        Binding("down", "app.focus_next", show=False),
        Binding("up", "app.focus_previous", show=False),
    ]

    def __init__(
        self,
        system: str,
        character: Character,
        *,
        title: str,
        taken: Callable[[], set[str]],
        weapons: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.system = system
        self.character = character
        self.title_text = title
        #: The other characters' names as the store has them now (another window may add one
        #: while the form is open): asked on each check of the name.
        self.taken = taken
        self.known_weapons = weapons or []
        self.fields = system_fields(system)
        self.kind = registry.get(system)
        self.errors: dict[str, str] = {}
        #: Each field's check (tui/widgets/party/fields.py: the form only shows what it says).
        self.checks = form_checks(system, taken, self.known_weapons)

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        c = self.character
        with VerticalScroll():
            yield Static(
                f"[b]{plain(self.title_text)}[/b] — {registry.title(self.system)}  "
                "[dim](Enter/Ctrl+S — сохранить, Esc — отмена)[/dim]",
                id="form-title",
            )
            yield from self._row("name", "Имя", c.name, "например: Ярослав Кречет")
            stepper = Stepper("Кто", KINDS, id="f-kind")
            stepper.index = [v for _, v in KINDS].index(c.kind)
            yield stepper
            yield Label(f"[b]{self.fields.stat_label}[/b]", classes="row gap")
            with Grid(id="f-stats"):
                for i, stat in enumerate(self.fields.stats):
                    with Horizontal():
                        yield Label(stat)
                        value = c.qualities.get(stat, self.fields.stat_default)
                        yield ReadyInput(signed_text(value), id=f"f-stat-{i}", select_on_focus=True)
            yield Static(id="e-stats", classes="error")
            yield from self._row("skills", "Навыки", format_skills(self.system, c.skills), gap=True)
            yield Static(f"Формат: {self.fields.skill_hint}", classes="hint")
            if self.kind.weapons:
                yield from self._row(
                    "weapons", "Оружие", ", ".join(c.weapons), "например: Меч, Щит"
                )
            sheet = c.sheet_of(self.system).values()  # the system's own sheet's fields
            for field in self.kind.sheet_fields:
                value = sheet[field.key]
                if field.yes_no:
                    stepper = Stepper(field.label, YES_NO, id=f"f-{field.key}")
                    stepper.index = 1 if value else 0
                    yield stepper
                else:
                    yield from self._row(field.key, field.label, str(value), field.placeholder)
            yield from self._row("notes", "Заметки", c.notes, "кто это, чего хочет")

    def _row(
        self, key: str, label: str, value: str, placeholder: str = "", *, gap: bool = False
    ) -> ComposeResult:
        with Horizontal(classes="row gap" if gap else "row"):
            yield Label(label)
            yield ReadyInput(value, placeholder=placeholder, id=f"f-{key}", max_length=SHEET_TEXT)
        yield Static(id=f"e-{key}", classes="error")

    def on_mount(self) -> None:
        for error in self.query(".error"):
            error.display = False
        self.query_one("#f-name", Input).focus()

    # -- validation --------------------------------------------------------------------------

    def _text(self, key: str) -> str:
        return self.query_one(f"#f-{key}", Input).value

    def _check(self, key: str) -> Any:
        """Run one field's check; show or clear its message. Returns the value or None."""
        error = self.query_one(f"#e-{key}", Static)
        try:
            value = self.checks[key](self._text)
        except FieldError as err:
            self.errors[key] = str(err)
            error.update(safe_text(str(err)))  # a message may quote what was typed
            error.display = True
            return None
        self.errors.pop(key, None)
        error.update("")
        error.display = False
        return value

    @staticmethod
    def _key_of(input_id: str | None) -> str:
        key = (input_id or "").removeprefix("f-")
        return "stats" if key.startswith("stat-") else key

    @on(Stepper.Changed, "#f-kind")
    def _kind_changed(self, event: Stepper.Changed) -> None:
        """A new character's sheet numbers follow «Кто» — the system's start for a player or an
        NPC (Древо's Судьба: ``data/drevo/fate.toml``, as ``party add`` gives) — until the GM
        types his own; an existing character's are his, and stay."""
        for key, text in kind_switched(
            self.system, self.character, event.value == "npc", self._text
        ).items():
            self.query_one(f"#f-{key}", Input).value = text

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        key = self._key_of(event.input.id)
        if key in self.errors:
            self._check(key)  # a message goes away as soon as the value is right

    @on(Input.Blurred)
    def _left(self, event: Input.Blurred) -> None:
        key = self._key_of(event.input.id)
        if key in ("name", "skills", "weapons") and not event.value.strip():
            return  # an empty field is judged on save, not while the GM tabs through
        if self.is_attached and key in self.checks:
            self._check(key)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        """Save only when every field is valid; otherwise focus the first wrong one."""
        values = {key: self._check(key) for key in self.checks}
        if self.errors:
            first = next(k for k in self.checks if k in self.errors)
            target = "f-stat-0" if first == "stats" else f"f-{first}"
            self.query_one(f"#{target}", Input).focus()
            self.notify("Исправьте поля, отмеченные красным: ничего не сохранено.", timeout=4)
            return
        flags = {
            f.key: bool(self.query_one(f"#f-{f.key}", Stepper).value)
            for f in self.kind.sheet_fields
            if f.yes_no
        }
        kind = self.query_one("#f-kind", Stepper).value
        self.dismiss(form_character(self.system, self.character, values, kind=kind, flags=flags))
