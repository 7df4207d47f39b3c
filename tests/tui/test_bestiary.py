"""The bestiary from the keyboard: a prepared encounter loaded into Бой with `l` and taken
out with `L` (the round fought between: tests/table/test_rounds_from_the_tab.py); the
bestiary screen and the encounter chooser pinned at 80×24; `B` on Партия. What the steps do
(numbering, sides, hidden, undo) is tested without Textual in
tests/table/test_bestiary_steps.py; the commands in tests/test_cli_bestiary.py."""

from __future__ import annotations

from collections import Counter

from tests.every_case import assert_every_case
from tui.screens.bestiary import count_problem

COUNTS = [
    # (typed in «Сколько НИП…?», what the prompt says: "" when the count is taken)
    ("5", ""),
    (" +2 ", ""),
    ("50", ""),
    ("0", "Нужно число от 1 до 50."),
    ("пять", "Нужно число от 1 до 50."),
    # the digits 0–9 only: int() read «٣» and «３» as 3, «1_0» as 10
    ("٣", "Нужно число от 1 до 50."),
    ("３", "Нужно число от 1 до 50."),
    ("1_0", "Нужно число от 1 до 50."),
]


def test_a_count_of_npcs_is_the_digits_0_to_9_from_1_to_50():
    def check(typed: str, said: str) -> None:
        assert count_problem(typed) == said

    assert_every_case(COUNTS, check)


async def test_an_encounter_is_loaded_with_l_and_removed_with_shift_l(make_test_app):
    """«in Бой setup one key lists them (type to filter) and loads one: the NPCs join with
    their sides»; `L` removes them. The round fought with them between the two keys is
    tested on the engine: tests/table/test_rounds_from_the_tab.py::
    test_an_encounter_loaded_into_the_tracker_fights_a_round_and_leaves_after, which
    replaces that part of the pilot test
    ``test_a_three_template_encounter_loaded_into_the_fight_fights_a_round``."""
    app = make_test_app(seed=4, system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        pane = await app.ensure_pane("combat")
        await pilot.press("l", *"катер", "enter")  # the chooser, filtered, the one left
        await app.services.writes_done()
        await pilot.pause()
        brought = [c for c in app.store.characters() if c.from_encounter]
        assert Counter(c.from_template for c in brought) == {
            "Рулевой": 1,
            "Головорез": 3,
            "Стрелок": 2,
        }
        sides = {e.name: e.side for e in pane.tracker.entrants}
        assert all(sides[c.name] == "Противники" for c in brought)
        await pilot.press("L", "enter")  # «Убрать их из партии (6)»
        await app.services.writes_done()
        await pilot.pause()
        assert not [c for c in app.store.characters() if c.from_encounter]


async def test_save_a_character_as_a_template_with_b(make_test_app):
    app = make_test_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "end", "B")  # the last row: Сотник Вышата
        await app.services.writes_done()
        own = app.store.get_doc("bestiary")["templates"]
        assert [t["name"] for t in own.values()] == ["Сотник Вышата"]


class TestBestiarySnapshots:
    """The bestiary screen (Партия, `l`) and the encounter chooser (Бой, `l`) at 80×24."""

    def test_bestiary_screen_80x24(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("1", "l")  # the bestiary, its first template's sheet
            await pilot.pause()
            await pilot.press("down")  # Волк

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_encounter_chooser_80x24(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("2", "l")  # the Бой tab's chooser, every encounter listed

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)
