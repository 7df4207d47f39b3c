"""Text typed fast into a field whose value the engine keeps: the field shows exactly what was
typed, and the engine has it too, however the keys arrive.

A tester typed «+1 высота, -2 темнота» into the Проверка tab's «Модификаторы» in one burst
(tmux send-keys, as keys arrive together over SSH) and got «+, -2 темнота1 высота»: each
keystroke's step redrew the builder, which wrote the state's modifiers — made from an earlier
keystroke, while the later ones' Changed messages were still queued — back into the field,
so the field held an old value for a moment and the next key went in mid-text.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

TYPED = "+1 высота, -2 темнота"

#: Each system's modifier field (IDE4's form names its fields by their input).
FIELD = {
    "drevo": "#check-mods",
    "ide4": "#ide4-mods",
    "starately": "#check-mods",
    "wod": "#check-mods",
}


async def burst(pilot, text: str) -> None:
    """Post every character of ``text`` as a key before any is handled, then wait once."""
    from textual.keys import _character_to_key

    for char in text:
        key = "enter" if char == "\r" else char if char.isalnum() else _character_to_key(char)
        pilot.app.post_message(events.Key(key, char))
    await pilot.pause()


async def mods_field(pilot, system: str) -> Input:
    """Open the Проверка tab and focus its modifier field."""
    await pilot.press("3")
    await pilot.pause()
    field = pilot.app.query_one(FIELD[system], Input)
    field.focus()
    await pilot.pause()
    return field


@pytest.mark.parametrize("system", ["drevo", "ide4", "starately", "wod"])
async def test_a_burst_of_keys_is_the_text_typed(make_test_app, system):
    """«+1 высота, -2 темнота» posted as keys all at once: the field shows it and the open
    check's modifiers are it; then «, +1 ночь» and Enter at once: it is added at the end and
    the check is rolled with it (was `tests/tui/test_key_burst_roll.py::
    test_typed_modifiers_then_enter_in_one_burst_roll_with_them`, its own app per system)."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        field = await mods_field(pilot, system)
        await burst(pilot, TYPED)
        assert field.value == TYPED
        assert field.cursor_position == len(TYPED), "the cursor is not after the text typed"
        table = app.services.check_table
        assert table.state.inputs.mods == TYPED
        await burst(pilot, ", +1 ночь\r")
        assert table.state.rolled is not None, "Enter rolled nothing"
        assert table.state.inputs.mods == TYPED + ", +1 ночь"
        if system != "ide4":  # its rolled check's form is hidden
            assert field.value == TYPED + ", +1 ночь"


@pytest.mark.parametrize("system", ["drevo", "ide4", "starately", "wod"])
async def test_a_redo_and_as_last_time_put_the_states_text_in_the_field(make_test_app, system):
    """The field is the source only of what it typed:

    - typed, rolled, Ctrl+Z (the form back), more typed, Ctrl+Y: the roll is back and the
      field shows the rolled check's modifiers (not IDE4: it hides its form once rolled);
    - rolled with «+1 высота», «, -2 темнота» typed after the roll (IDE4: in a new check,
      «n»), then «a — как прошлая»: the field shows the last check's modifiers, as the state
      has them."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        field = await mods_field(pilot, system)
        table = app.services.check_table
        await burst(pilot, "+1 высота")
        await pilot.press("enter")
        assert table.state.rolled is not None, "Enter rolled nothing"
        if system != "ide4":
            await pilot.press("ctrl+z")
            assert table.state.rolled is None, "Ctrl+Z did not take the roll back"
            field.focus()  # the roll took the focus to the form's first row
            await pilot.press("end")  # after the text, which focusing selected
            await burst(pilot, ", -2 темнота")
            assert field.value == table.state.inputs.mods == TYPED
            await pilot.press("ctrl+y")
            assert table.state.rolled is not None, "Ctrl+Y did not put the roll back"
            assert table.state.inputs.mods == "+1 высота"
            assert field.value == "+1 высота"
        else:  # its rolled check's form is hidden
            await pilot.press("n")
        field.focus()  # the roll takes the focus to the form's first row
        await burst(pilot, ", -2 темнота")
        assert field.value == table.state.inputs.mods != "+1 высота"
        await pilot.press("escape", "a")  # out of the field: «a» is a key again
        assert table.state.inputs.mods == "+1 высота"
        assert field.value == "+1 высота"


async def test_a_burst_in_ide4s_opposed_dialog_is_the_text_typed(make_test_app):
    """IDE4's opposed check (the second side's «Модификаторы», drawn from the open check's
    state as the builder's field is): two bursts, the field and the state hold them whole."""
    from tui.systems.ide4.builder.opposed import OpposedSetupScreen

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "o")
        assert isinstance(app.screen, OpposedSetupScreen)
        field = app.screen.query_one("#opp-mods", Input)
        field.focus()
        await burst(pilot, TYPED)
        await burst(pilot, ", +1 ночь")
        assert field.value == TYPED + ", +1 ночь"
        assert app.services.check_table.state.opposed.inputs.mods == TYPED + ", +1 ночь"
