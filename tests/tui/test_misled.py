"""What misled a GM reading only the screen: a placeholder read as applied modifiers, and a
scale that wrapped from its easiest end to its hardest."""

from __future__ import annotations

from textual.widgets import Input

from tui.widgets.common.stepper import Stepper


async def test_the_modifier_placeholder_reads_as_an_example(make_test_app) -> None:
    """«+1 высота, -2 темнота» in grey read as modifiers already applied (plain, NO_COLOR)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        field = app.query_one("#check-mods", Input)
        assert field.value == "" and field.placeholder.startswith("пример: ")
        assert "пусто — без модификаторов" in field.placeholder
        formula = str(app.query_one("#check-formula").render())
        assert "высота" not in formula  # nothing of the example is applied
        style = field.get_component_styles("input--placeholder")
        assert style.text_style.italic


async def test_a_stepper_stops_at_its_ends(make_test_app) -> None:
    """The difficulty stepper wrapped from [0] to [00]: ← at the easiest end stays there."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        stepper = app.query_one("#check-difficulty", Stepper)
        stepper.focus()
        await pilot.press("home")
        first = stepper.value
        await pilot.press("left")
        assert stepper.value == first
        await pilot.press("end")
        last = stepper.value
        await pilot.press("right")
        assert stepper.value == last and last != first


async def test_the_effect_form_placeholders_read_as_hints(make_test_app) -> None:
    """«Оглушён, Горит, Патруль…», «раундов или минут: 2» in grey read as values already typed;
    each empty field's placeholder starts «например:» and the field stays empty."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("e")
        await pilot.pause()
        fields = list(app.screen.query(Input))
        assert len(fields) == 5
        for field in fields:
            assert field.value == ""
            assert field.placeholder.startswith("например: "), field.placeholder
            assert len(field.placeholder) <= field.content_region.width, field.placeholder


async def test_the_new_character_and_npc_forms_placeholders_read_as_examples(
    make_test_app,
) -> None:
    """Play-test, plain terminal: a new character's empty «Оружие» showed «Меч, Щит», and the
    Бой tab's new NPC «Разбойник» / «Драка 2, Уклонение 1, Стрельба 1» — values as they would
    be typed, in grey. Each empty field whose example is a value says «например:»."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        weapons = app.screen.query_one("#f-weapons", Input)
        assert weapons.value == "" and weapons.placeholder.startswith("например: ")
        await pilot.press("escape")
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("a")
        await pilot.pause()
        for field in ("#npc-name", "#npc-skills"):
            placeholder = app.screen.query_one(field, Input).placeholder
            assert placeholder.startswith("например: "), placeholder


async def test_the_clock_and_harm_prompts_read_as_examples(make_test_app, tmp_path) -> None:
    """Play-test, plain terminal: `m` showed «3 (пусто — 1 минута)» and the Бой tab's `w`
    «сломана рука» in an empty field — as if typed (an empty `w` removes the harm)."""
    app = make_test_app(path=tmp_path / "i.json", system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        clock = app.screen.query_one("#prompt-input", Input)
        assert clock.value == "" and clock.placeholder.startswith("например: 3"), clock.placeholder
        await pilot.press("escape", "2")
        await app.ensure_pane("combat")
        await pilot.press("w")
        await pilot.pause()
        harm = app.screen.query_one("#prompt-input", Input)
        assert harm.value == "" and harm.placeholder.startswith("например: "), harm.placeholder
