"""What a GM who never read the code found in the Проверка tab (issue 34), at 80×24: state kept
in the screen, words, pace. Each test failed on the builders before the table engine."""

from __future__ import annotations

from tests.tui.test_builder_ide4_options import open_ide4
from tui.widgets.builders.ide4_opposed import OpposedSetupScreen


def party(app) -> dict[str, str]:
    return {c.name: c.id for c in app.store.characters()}


async def test_the_opposed_second_side_is_derived_from_its_own_sheet(make_test_app):
    """«IDE4 opposed (`o` on Ольга, Переговоры), cycle the opponent to Хозяин подвала: the
    energy die stays «d4 — меньше номинала» though his Риторика 5 gives d12; choosing a skill
    does not switch the attribute; a character can oppose himself.»"""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        ids = party(app)
        await open_ide4(pilot, level="expanded")
        app.query_one("#ide4-character").select(ids["Ольга Ренн"])
        await pilot.pause()
        app.query_one("#ide4-action").select("Переговоры")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, OpposedSetupScreen)
        offered = [v for _, v in setup.query_one("#opp-character")._options]
        assert ids["Ольга Ренн"] not in offered  # nobody opposes himself
        setup.query_one("#opp-die").select(4)
        await pilot.pause()
        setup.query_one("#opp-character").select(ids["Хозяин подвала"])
        await pilot.pause()
        setup.query_one("#opp-skill").select("Переговоры")
        await pilot.pause()
        assert setup.query_one("#opp-attribute").value == "Риторика"
        die = setup.query_one("#opp-die")
        assert die._options[die.index][0] == "d12 — номинал"
        assert setup.second().nominal == 12 and setup.second().before_die == 12


async def test_the_form_is_entered_at_the_action(make_test_app):
    """«IDE4 focus lands on Атрибут»: the action decides the attribute, the skill and the
    base — the form is entered there, from the party's Enter and from the tab key alike."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # Партия: Enter on the first character
        await pilot.pause()
        assert app.focused.id == "ide4-action"


async def test_the_cellar_door_takes_at_most_twelve_keys(make_test_app):
    """«Open the cellar door» (IDE4 expanded, Взлом, [3], +1 darkness, −1 tools, 3 energy
    dice) took about 35 keys before the d100; typing selects in every ◀ ▶ row, and it takes at
    most 12 keys besides the modifiers' own text — then one key («a») the next time."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        keys = ["enter", "l", "В", "з", "down", "down", "down", "down"]  # from Партия to mods
        text = list("+1 темнота, -1 инструменты")
        tail = ["down", "down", "3", "enter"]  # to «Энергия до», three dice, roll
        await pilot.press(*keys, *text, *tail)
        await pilot.pause()
        b = app.query_one("#check-pane")
        check = b.check
        assert check is not None and len(keys + tail) <= 12
        inp = check.input
        assert (inp.actor, inp.action, inp.skill, inp.level) == (
            "Вера Стрижова",
            "Взлом",
            "Взлом",
            "expanded",
        )
        assert [(m.value, m.reason) for m in inp.modifiers] == [(1, "темнота"), (-1, "инструменты")]
        assert check.difficulty.final == 3 and inp.energy_dice == 3
        await pilot.press("n", "a")  # the next time: the last lock-picking check
        await pilot.pause()
        again = b.current_input()
        assert (again.action, again.modifiers, again.energy_dice) == ("Взлом", inp.modifiers, 3)
