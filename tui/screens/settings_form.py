"""The form of one settings table: a row per value with its Russian name, a field, and its
range and whose word it is; every change is checked as it is typed."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Input, Label, Static

from tui.screens.settings_fields import (
    CHOICE_NAMES,
    Field,
    Heading,
    fields_of,
    read_field,
    set_value,
    shown_value,
)
from tui.screens.settings_tables import SettingsError, check_table, dump_toml
from tui.widgets.common.focus import focus_now
from tui.widgets.common.ordered_input import ReadyInput
from tui.widgets.common.stepper import Stepper


class ValueStepper(Stepper):
    """A stepper without its own label (the form's row has one)."""

    def render(self) -> Content:
        shown = self._options[self.index][0] if self._options else "—"
        return Content(f"◀ {shown} ▶")


class SettingsForm(VerticalScroll, can_focus=False):
    """Edit one table; posts ``Edited`` with the new TOML, or ``Refused`` with the reason."""

    STEPPER_FORM = True  # ↑/↓ move between its rows, around; steppers report here

    DEFAULT_CSS = """
    SettingsForm { height: 1fr; }
    SettingsForm .set-heading { text-style: bold; color: $accent; margin-top: 1; }
    SettingsForm .set-row { height: auto; }
    /* a long name wraps, never cut, and never touches its value («Перебросов за проверку3») */
    SettingsForm .set-label { width: 22; height: auto; padding-right: 1; }
    SettingsForm Input { width: 1fr; }
    SettingsForm Input.-refused { color: $error; text-style: bold reverse; }
    SettingsForm ValueStepper { width: 1fr; }
    SettingsForm .set-hint { width: auto; color: $text-muted; padding-left: 1; }
    """

    @dataclass
    class Edited(Message):
        """A value changed and the table passes its checks."""

        relpath: str
        text: str

    @dataclass
    class Refused(Message):
        """A value as typed is refused (out of range, not a number, the rules say no)."""

        relpath: str
        reason: str

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.relpath = ""
        self.table: dict[str, Any] = {}
        self._fields: dict[str, Field] = {}
        #: Fields whose text is refused now → why (the table is not saved while any is).
        self.refused: dict[str, str] = {}
        #: Enter came while the fields were being mounted: focus the first once they are.
        self.focus_pending = False

    async def show(self, relpath: str, text: str) -> bool:
        """Show the form of ``text`` (a table's TOML); False when it is not TOML."""
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
        self.relpath, self.table = relpath, table
        self._fields, self.refused = {}, {}
        with self.app.batch_update():  # one layout of the new fields, not one per step
            await self.remove_children()
            await self.mount_all(list(self._rows()))
            self.scroll_home(animate=False)
        if self.focus_pending:
            self.focus_first()
        return True

    def _rows(self) -> ComposeResult:
        for index, item in enumerate(fields_of(self.relpath, self.table)):
            if isinstance(item, Heading):
                yield Static(Content(item.text), classes="set-heading")
                continue
            field_id = f"set-{index}"
            self._fields[field_id] = item
            if item.kind in ("bool", "choice"):
                options = (
                    [("да", True), ("нет", False)]
                    if item.kind == "bool"
                    else [(CHOICE_NAMES.get(c, c), c) for c in item.choices]
                )
                widget: Any = ValueStepper(item.label, id=field_id, wrap=False)
                widget.set_options(options, item.value)  # no Changed: nothing was edited
            else:
                widget = ReadyInput(
                    shown_value(item), id=field_id, compact=True, select_on_focus=False
                )
            yield Horizontal(
                Label(Content(item.label), classes="set-label"),
                widget,
                Static(Content(item.hint), classes="set-hint"),
                classes="set-row",
            )

    def focus_first(self) -> None:
        """Focus the first field (a form still being built: once it is — a fast ↓ Enter on
        the list of tables came while the next table's fields were mounted, and crashed)."""
        first = next(iter(self._fields), None)
        if first is None:
            return
        try:
            widget = self.query_one(f"#{first}")
        except NoMatches:
            self.focus_pending = True
            return
        self.focus_pending = False
        focus_now(widget)  # at once: the keys typed right after Enter are for the field

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._check_input(event.input)

    @on(Stepper.Changed)
    def _stepped(self, event: Stepper.Changed) -> None:
        event.stop()
        self._check_stepper(event.stepper)

    def _check_input(self, widget: Input, *, post: bool = True) -> bool:
        """Check the field's text as it is now (not as a message about an earlier key said:
        keys typed in a burst are followed by their ``Changed`` messages); True on a change."""
        field = self._fields.get(widget.id or "")
        if field is None:
            return False
        text = widget.value
        now = replace(field, value=self._value_at(field.path))
        if text == shown_value(now) and widget.id not in self.refused:
            return False  # the field showing the table's value (Input reports that once mounted)
        return self._apply(field, widget, lambda: read_field(field, text), post=post)

    def _check_stepper(self, widget: Stepper, *, post: bool = True) -> bool:
        field = self._fields.get(widget.id or "")
        if field is None:
            return False
        value = widget.value
        if value == self._value_at(field.path) and widget.id not in self.refused:
            return False
        return self._apply(field, widget, lambda: value, post=post)

    def sync(self) -> bool:
        """Check every field as it is now, at once; True when the table changed.

        An action (Ctrl+S, Ctrl+G, Esc) can arrive before the ``Changed`` messages of the keys
        typed just before it: it calls this first, so it acts on what the screen shows.
        """
        table = self.table
        for field_id in list(self._fields):
            try:
                widget = self.query_one(f"#{field_id}")
            except NoMatches:  # the form is being built anew
                continue
            if isinstance(widget, Input):
                self._check_input(widget, post=False)
            elif isinstance(widget, Stepper):
                self._check_stepper(widget, post=False)
        return self.table is not table

    def _value_at(self, path: tuple[Any, ...]) -> Any:
        node: Any = self.table
        for step in path:
            node = node[step]
        return node

    def _apply(self, field: Field, widget: Any, read: Any, *, post: bool = True) -> bool:
        """Check the value and the whole table with it; report the new TOML or the refusal
        (``post``); True when the table took the value."""
        field_id = widget.id or ""
        try:
            table = set_value(self.table, field.path, read())
            text = dump_toml(table)
            check_table(self.relpath, text)
        except SettingsError as err:
            widget.add_class("-refused")
            self.refused[field_id] = str(err)
            if post:
                self.post_message(self.Refused(self.relpath, str(err)))
            return False
        widget.remove_class("-refused")
        self.refused.pop(field_id, None)
        self.table = table
        if not post:
            return True
        if self.refused:
            self.post_message(self.Refused(self.relpath, next(iter(self.refused.values()))))
        else:
            self.post_message(self.Edited(self.relpath, text))
        return True
