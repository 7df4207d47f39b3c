"""ReadyInput: styled once, when mounted; making one inside a running app applies no
stylesheet before that (tui/widgets/common/ordered_input.py)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.stylesheet import Stylesheet
from textual.validation import Integer
from textual.widgets import Input

from tui.widgets.common.ordered_input import ReadyInput

CASES = [
    {},
    {"value": "x"},
    {"value": ""},
    {"compact": True},
    {"value": "a", "type": "integer"},
    {"value": "5", "validators": [Integer()]},
    {"value": "5", "validate_on": ["submitted"]},
    {"placeholder": "p", "compact": True, "classes": "foo"},
    {"value": "7", "compact": True, "classes": "foo bar"},
]


class Pair(App[None]):
    AUTO_FOCUS = None  # a focused field has another border

    def compose(self) -> ComposeResult:
        for i, case in enumerate(CASES):
            yield Input(id=f"plain-{i}", **case)
            yield ReadyInput(id=f"ready-{i}", **case)


async def test_mounted_classes_are_a_plain_inputs() -> None:
    app = Pair()
    async with app.run_test() as pilot:
        await pilot.pause()
        for i, case in enumerate(CASES):
            plain = app.query_one(f"#plain-{i}", Input)
            ready = app.query_one(f"#ready-{i}", Input)
            assert ready.classes == plain.classes, case
            assert ready.value == plain.value
            for rule in ("border_top", "color", "background", "height", "padding"):
                assert getattr(ready.styles, rule) == getattr(plain.styles, rule), rule
        # Changed after the mount, the class restyles the field at once.
        ready = app.query_one("#ready-1", Input)
        ready.compact = True
        assert ready.styles.border_top == app.query_one("#plain-3", Input).styles.border_top
        assert ready.styles.border_top != app.query_one("#plain-1", Input).styles.border_top


@pytest.mark.parametrize(
    "case", [{"value": "x"}, {"compact": True}, {"value": "1", "compact": True}]
)
async def test_no_stylesheet_applied_before_mount(case, monkeypatch) -> None:
    """A plain Input made in a running app has the stylesheet applied to it at once (the
    cost ReadyInput avoids); a ReadyInput has not."""
    applied: list[object] = []
    original = Stylesheet.apply

    def counting(self, node, *args, **kwargs):  # type: ignore[no-untyped-def]
        applied.append(node)
        return original(self, node, *args, **kwargs)

    app = App[None]()
    async with app.run_test() as pilot:
        await pilot.pause()
        monkeypatch.setattr(Stylesheet, "apply", counting)
        Input(**case)
        assert applied, "Textual no longer styles a new Input at once: ReadyInput may go"
        applied.clear()
        ReadyInput(**case)
        assert applied == []


def test_every_text_field_of_kubik_is_a_ready_input() -> None:
    """A plain ``Input`` runs Backspace, Ctrl+U, ←, … after the characters typed with them:
    a fast «C-u 2d6» cleared the roll it had just typed. kubik makes none."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "tui"
    plain = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(?<![\w.])Input\(", line)
    ]
    assert plain == []


async def test_follow_shows_the_states_text_once_the_fields_own_has_arrived() -> None:
    """While the field's own text is on its way to the state (Changed messages not yet taken
    by a step), the state's older text leaves the field as typed; once they are taken, the
    state's text from elsewhere (an undo, a refused step's standing text) is written in, the
    cursor after it, no Changed sent. A field that follows no state keeps no messages."""

    class One(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.changed: list[str] = []

        def compose(self) -> ComposeResult:
            yield ReadyInput(id="f")
            yield ReadyInput(id="g")

        def on_input_changed(self, event: Input.Changed) -> None:
            self.changed.append(event.value)

    app = One()
    async with app.run_test() as pilot:
        field = app.query_one("#f", ReadyInput)
        field.follow("")  # the first redraw: the field follows a state
        field.value = "+1"
        field.value = "+1 в"
        field.cursor_position = 4
        field.took("+1")  # the state is stepped with «+1»; « в» is on its way
        field.follow("+1")
        field.follow("")  # another redraw (the store's) before « в» arrives
        assert (field.value, field.cursor_position) == ("+1 в", 4)
        field.took("+1 в")
        field.follow("")  # an undo: not the field's
        assert (field.value, field.cursor_position) == ("", 0)
        field.value = "+2"
        field.took("+2")  # refused: what the state has stands
        field.follow("-1")
        assert (field.value, field.cursor_position) == ("-1", 2)
        await pilot.pause()
        assert app.changed == ["+1", "+1 в", "+2"], "follow sent a Changed message"
        other = app.query_one("#g", ReadyInput)
        other.value = "x"
        assert other._sent == [], "a field that follows no state keeps its messages"


class Limited(App[None]):
    def compose(self) -> ComposeResult:
        yield ReadyInput(id="short", max_length=10)
        yield ReadyInput(id="usual")


async def test_a_field_takes_what_fits_and_says_so_once(monkeypatch) -> None:
    """Play-test: 10,000 «Я» pasted into the fight's «Заметка» as keys kept kubik busy for
    16 s (Textual's Input measures its whole text on every key) and were stored whole. Every
    field holds at most MAX_TEXT characters unless given its own limit: a paste inserts what
    fits, keys past the limit insert nothing, and the field says so once — no bell a key."""
    from textual import events

    from tui.widgets.common.ordered_input import MAX_TEXT

    app = Limited()
    bells: list[int] = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(1))
    async with app.run_test() as pilot:
        assert app.query_one("#usual", Input).max_length == MAX_TEXT == 300
        field = app.query_one("#short", Input)
        field.focus()
        await pilot.press(*"abc")
        field.post_message(events.Paste("Я" * 10_000))
        await pilot.pause()
        assert field.value == "abc" + "Я" * 7, "the paste: what fits"
        await pilot.press(*"xyz")
        assert field.value == "abc" + "Я" * 7, "keys past the limit"
        told = [n.message for n in app._notifications]
        assert told == ["В поле не больше 10 знаков: лишнее не вставлено — сократите текст."]
        assert bells == []
        await pilot.press("backspace", "x", "y")  # room for one: «x» goes in, «y» is told
        assert field.value.endswith("Яx")
        assert len(app._notifications) == 2
