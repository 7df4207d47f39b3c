"""A name the GM or a file gave, in the odds bars, the round trackers' table and a table
refilled (the sweep of 7 Dec with hostile names: markup, 10,000 letters)."""

from __future__ import annotations

from fractions import Fraction

from textual.content import Content

from tests.tui.test_table import TableApp
from tui.systems.ide4.builder.opposed import odds_names
from tui.table.rounds.view import Row
from tui.widgets.combat.rounds_draw import cells
from tui.widgets.common.oddsbars import bar_lines
from tui.widgets.common.table import Table

TAG_NAME = "[/]\u241b]2;PWNED\u2407\u241b[31mRED"  # as the store keeps a name with escapes


def test_the_opposed_odds_show_a_name_with_tags_as_typed_and_in_line() -> None:
    """IDE4's opposed dialog showed its odds as raw markup («[$success]███…») once a side's
    name held «[/]» (Textual's escape left «[31mRED» to be read as a tag); Старатели's bars
    of a name with «[» stood two cells out of line (padded by its markup's length)."""
    names = odds_names("Хозяин подвала", TAG_NAME)
    odds = {"win": Fraction(1, 3), "tie": Fraction(1, 3), "lose": Fraction(1, 3)}
    lines = bar_lines(odds, names, ["win", "tie", "lose"], 80, {})
    shown = [Content.from_markup(line).plain for line in lines]  # raises on a stray tag
    assert shown[2].startswith(f"побеждает {TAG_NAME} ")
    assert len({line.index("█") for line in shown}) == 1, shown  # every bar starts in line
    assert not any("[$" in line for line in shown)


def test_a_round_trackers_row_cuts_a_long_name() -> None:
    """The Бой tab of IDE4, Старатели and Мир Тьмы: a 10,000-letter name pushed Инициатива,
    Вред and Эффекты off the screen (the party tables cut it)."""
    row = Row("id", "1", "Отряд", "Я" * 10_000, "Средне · 54", "", "")
    name = cells(row)[2]
    assert name.endswith("…") and len(name) <= 20


async def test_a_table_cleared_and_filled_again_is_as_wide_as_what_it_shows() -> None:
    """Ctrl+Z of a round tracker's initiative left «№» as wide as «▶ 1»: a DataTable's
    column only grows. Cleared, a column is as wide as its label, as in a fresh table."""
    app = TableApp()
    async with app.run_test(size=(60, 16)) as pilot:
        table = app.query_one(Table)
        table.clear()
        table.add_row("Очень длинное имя персонажа", "НИП", "1")
        await pilot.pause()
        assert table.ordered_columns[0].content_width == len("Очень длинное имя персонажа")
        table.clear()
        table.add_row("Лыко", "НИП", "1")
        await pilot.pause()
        assert [c.content_width for c in table.ordered_columns] == [4, 3, len("Судьба")]


def test_the_best_skill_cell_keeps_its_level_beside_a_long_skill_name() -> None:
    """Старатели's Партия: a 10,000-letter skill name was cut at the column's edge without
    «…», and its level with it."""
    from tui.registry.base import best_skill
    from tui.store import Character, Skill

    c = Character("id", "Лыко", "npc", {}, (Skill("Я" * 10_000, 3), Skill("Драка", 1)), ())
    shown = best_skill(c)
    assert shown.endswith("… 3") and len(shown) <= 22, shown
