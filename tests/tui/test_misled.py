"""What misled a GM reading only the screen: a placeholder read as applied modifiers or as a
value already typed, and a scale that wrapped from its easiest end to its hardest.

IDE4's effect form, clock and harm prompts are checked in the IDE4 app run of
tests/tui/test_keybar.py::test_ide4_prompts_the_bar_and_a_key_with_no_focus; a new
character's «Оружие» in the add form of tests/tui/test_forms.py::TestAdd."""

from __future__ import annotations

from textual.widgets import Input

from tui.widgets.common.stepper import Stepper


async def test_drevo_placeholders_read_as_examples_and_a_stepper_stops_at_its_ends(
    make_test_app,
) -> None:
    """In one Древо app run, each checked in turn:

    - «+1 высота, -2 темнота» in grey read as modifiers already applied (plain, NO_COLOR);
    - the difficulty stepper wrapped from [0] to [00]: ← at the easiest end stays there;
    - play-test, plain terminal: a new character's empty «Оружие» showed «Меч, Щит», and the
      Бой tab's new NPC «Разбойник» / «Драка 2, Уклонение 1, Стрельба 1» — values as they
      would be typed, in grey. Each empty field whose example is a value says «например:».

    Replaces the pilot tests `tests/tui/test_misled.py::
    test_the_modifier_placeholder_reads_as_an_example`, `…::test_a_stepper_stops_at_its_ends`
    and `…::test_the_new_character_and_npc_forms_placeholders_read_as_examples` (the same
    demo campaign, one run; the new character's «Оружие» is checked in the add form of
    `tests/tui/test_forms.py::TestAdd::test_a_wrong_value_is_shown_at_its_field_and_the_form_saves_only_right_values`,
    which opens it anyway)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        field = app.query_one("#check-mods", Input)
        assert field.value == "", f"the modifier field holds {field.value!r}"
        assert field.placeholder.startswith("пример: "), field.placeholder
        assert "пусто — без модификаторов" in field.placeholder, field.placeholder
        formula = str(app.query_one("#check-formula").render())
        assert "высота" not in formula, f"the example is applied: {formula}"
        style = field.get_component_styles("input--placeholder")
        assert style.text_style.italic, "the placeholder is not in italics"

        stepper = app.query_one("#check-difficulty", Stepper)
        stepper.focus()
        await pilot.press("home")
        first = stepper.value
        await pilot.press("left")
        assert stepper.value == first, f"← at the easiest end went to {stepper.value!r}"
        await pilot.press("end")
        last = stepper.value
        await pilot.press("right")
        assert stepper.value == last and last != first, f"→ at the hardest end: {stepper.value!r}"

        await pilot.press("escape", "2")  # out of the stepper, to Бой
        await app.ensure_pane("combat")
        await pilot.press("a")
        await pilot.pause()
        for name in ("#npc-name", "#npc-skills"):
            placeholder = app.screen.query_one(name, Input).placeholder
            assert placeholder.startswith("например: "), f"{name}: {placeholder}"
