"""What misled a GM reading only the screen: a placeholder read as applied modifiers or as a
value already typed, and a scale that wrapped from its easiest end to its hardest."""

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
    demo campaign, one run)."""
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

        await pilot.press("escape", "1")  # out of the stepper, to Партия
        await pilot.pause()
        assert app.query_one("#tabs").active == "party", app.query_one("#tabs").active
        await pilot.press("a")
        await pilot.pause()
        weapons = app.screen.query_one("#f-weapons", Input)
        assert weapons.value == "", f"a new character's «Оружие» holds {weapons.value!r}"
        assert weapons.placeholder.startswith("например: "), weapons.placeholder
        await pilot.press("escape")
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("a")
        await pilot.pause()
        for name in ("#npc-name", "#npc-skills"):
            placeholder = app.screen.query_one(name, Input).placeholder
            assert placeholder.startswith("например: "), f"{name}: {placeholder}"


async def test_ide4_effect_clock_and_harm_prompts_read_as_examples(make_test_app) -> None:
    """In one IDE4 app run: «Оглушён, Горит, Патруль…», «раундов или минут: 2» in grey read as
    values already typed; each empty field of the effect form starts «например:», fits its
    field and the field stays empty. Play-test, plain terminal: `m` showed «3 (пусто — 1
    минута)» and the Бой tab's `w` «сломана рука» in an empty field — as if typed (an empty `w`
    removes the harm).

    Replaces the pilot tests `tests/tui/test_misled.py::
    test_the_effect_form_placeholders_read_as_hints` and
    `…::test_the_clock_and_harm_prompts_read_as_examples` (the same IDE4 demo campaign, one
    run)."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        clock = app.screen.query_one("#prompt-input", Input)
        assert clock.value == "", f"«m» holds {clock.value!r}"
        assert clock.placeholder.startswith("например: 3"), clock.placeholder
        await pilot.press("escape", "2")
        await app.ensure_pane("combat")
        await pilot.press("w")
        await pilot.pause()
        harm = app.screen.query_one("#prompt-input", Input)
        assert harm.value == "", f"«w» holds {harm.value!r}"
        assert harm.placeholder.startswith("например: "), harm.placeholder
        await pilot.press("escape", "e")
        await pilot.pause()
        fields = list(app.screen.query(Input))
        assert len(fields) == 5, f"the effect form has {len(fields)} fields"
        for field in fields:
            assert field.value == "", f"{field.id} holds {field.value!r}"
            assert field.placeholder.startswith("например: "), field.placeholder
            assert len(field.placeholder) <= field.content_region.width, field.placeholder
