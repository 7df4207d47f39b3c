"""A very long name (10,000 characters: `kubik party add` and the form take it) is cut in the
party tables, so every other column of every row stays on the 80×24 screen."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from tui.sanitize import LONGEST_WORD, NAME_CELL, cell, cut_long_words, plain
from tui.store import Store
from tui.view import make_view

LONG = "Я" * 10_000


def shown_text(app) -> str:
    """What the terminal shows now (the screenshot's text rows)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), m.group(3)))
    return "\n".join(
        html.unescape("".join(t for _, t in sorted(rows[y]))).replace("\xa0", " ")
        for y in sorted(rows)
    )


def with_long_name(path) -> Store:
    store = Store.open(path, system="drevo")
    milava = next(c for c in store.characters() if c.name == "Милава")
    store.upsert_character(replace(milava, name=LONG))
    return store


def line_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if name in line)


def test_a_cell_keeps_a_short_name_and_cuts_a_long_one() -> None:
    assert cell("Горан Рябой") == "Горан Рябой"
    assert cell("Я" * NAME_CELL) == "Я" * NAME_CELL
    cut = cell(LONG)
    assert len(cut) == NAME_CELL and cut.endswith("…") and cut.startswith("ЯЯЯ")


def test_a_text_cuts_a_run_of_letters_past_sixty_and_leaves_tags_paths_and_dice() -> None:
    """Every text a Static shows (``show_markup``): the exchange folded a 10,000-letter name
    over every line of the screen."""
    assert cut_long_words("Я" * LONGEST_WORD) == "Я" * LONGEST_WORD
    cut = cut_long_words(f"[b]Урон[/b] — {LONG}: разница +5")
    assert cut == f"[b]Урон[/b] — {'Я' * (LONGEST_WORD - 1)}…: разница +5"
    path = "/home/гм/" + "/".join(["кампания"] * 20) + ".json"  # 180 characters, no run > 60
    assert cut_long_words(path) == path
    assert cut_long_words("3d6!+4dF " * 20) == "3d6!+4dF " * 20
    # a name set inside markup (a dialog's title «Удалить «…»?», its options, a form's title):
    # it filled the dialog's box, «Да, удалить» below the screen
    assert plain(f"Удалить «{LONG}»?") == f"Удалить «{'Я' * (LONGEST_WORD - 1)}…»?"


async def test_the_party_table_keeps_its_columns_beside_a_long_name(make_test_app, campaign_path):
    with_long_name(campaign_path)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = shown_text(app)
    assert "Судьба" in line_of(text, "Имя") and "Оружие" in line_of(text, "Имя")
    assert "Игрок" in line_of(text, "Горан Рябой") and "Топор" in line_of(text, "Горан Рябой")
    long_row = line_of(text, "ЯЯЯ")
    assert "…" in long_row and "Игрок" in long_row and "Лук" in long_row


async def test_the_players_view_keeps_судьба_and_wounds_beside_a_long_name(campaign_path):
    with_long_name(campaign_path)
    app = make_view(campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = shown_text(app)
    assert "Судьба" in line_of(text, "Персонаж") and "Раны" in line_of(text, "Персонаж")
    assert "…" in line_of(text, "ЯЯЯ")
    assert re.search(r"Горан Рябой\s+3\s+—", line_of(text, "Горан Рябой"))


async def test_the_party_table_and_the_fight_setup_show_whole_weapons_and_wounds(
    make_test_app, campaign_path
):
    """Play16: after a fight, «Тяжёлая×1, Царапина×1 — тяжело ранен» pushed Оружие to the edge:
    «Топор, Д», «Сабля, П» at 80 columns behind a scrollbar; the Бой setup's last column read
    «Тяжёлая×1, Царапина×1 (тя» and «(пог»."""
    store = Store.open(campaign_path, system="drevo")
    for c in store.characters():
        store.upsert_character(c.edit_sheet(DrevoSheet, wounds={"heavy": 1, "scratch": 1}))
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        party = shown_text(app)
        await pilot.press("2")
        await pilot.pause()
        fight = shown_text(app)
    rows = party.split("Имя", 1)[1]
    for weapon in ("Топор", "Дротик", "Сабля", "Пистолет", "Ружьё"):  # (Вышата: below)
        assert re.search(rf"\b{weapon}\b", rows), weapon
    assert fight.count("тяжело ранен)") >= 5, fight


async def test_the_fight_and_the_journal_cut_a_long_name_and_keep_their_columns(
    make_test_app, campaign_path
):
    """Play (7 Dec): with a 10,000-letter name in the party, the Бой setup table showed
    «Сторона  Имя» and nothing more (the name pushed Кто, Оружие, Раны off the screen); the
    declaration form's «Цель» read «◀» and nothing after it (the name folded below its one
    line); the order table's «Заявка» and the Журнал's «Запись» went off screen too, and the
    exchange folded the name over every line. Cut with «…», the columns stay."""
    store = with_long_name(campaign_path)
    lyko = next(c for c in store.characters() if c.name == "Лыко")
    store.upsert_character(replace(lyko, name="Ж" * 10_000))  # one on each side
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        setup = shown_text(app)
        await pilot.press("i")
        declarer = re.search(r"Заявляет (\S+)", shown_text(app)).group(1)
        target = "Ж" if declarer in ("Богдан", "Горан", "Ярослав") else "Я"
        await pilot.press("down", target)
        form = shown_text(app)
        await pilot.press("enter")
        declared = shown_text(app)
        await pilot.press("4")
        journal = shown_text(app)
    assert "Оружие" in line_of(setup, "Сторона") and "Раны" in line_of(setup, "Сторона")
    assert "…" in line_of(setup, "ЯЯЯ") and "Лук, Нож" in line_of(setup, "ЯЯЯ")
    aim = line_of(form, "Цель")
    assert re.search(rf"◀ {target}{{20,}}… ▶", aim), aim
    assert "Заявка" in line_of(declared, "Сторона")
    assert re.search(rf"→ {target}+…", declared), declared
    assert "Запись" in line_of(journal, "Время")
    rows = journal.split("─" * 10)[0]  # the table (the entry's detail below shows it whole)
    assert "…" in rows and 0 < rows.count(target) <= 60, rows


async def test_a_dialog_whose_long_named_character_is_removed_keeps_its_box(
    make_test_app, campaign_path
):
    """Replay (7 Dec): the note of a dialog whose character was removed (here Партия's «w»,
    as the fight's Судьба dialog) printed the whole 10,000-letter name to the box's bottom;
    «Esc — закрыть» and the wounds went below it. The note is cut; the toast too."""
    store = with_long_name(campaign_path)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#party-table")
        row = next(i for i, c in enumerate(app.store.characters()) if c.name == LONG)
        table.move_cursor(row=row)
        await pilot.press("w")
        store.delete_character(next(c.id for c in store.characters() if c.name == LONG))
        app._refresh_store()  # what the file watch does
        await pilot.pause()
        text = shown_text(app)
        await pilot.press("enter")  # refused: the toast says why
        toast = [n.message for n in app._notifications][-1]
    note = line_of(text, "ЯЯЯ")
    assert "…" in note and text.count("Я") <= 2 * LONGEST_WORD, text
    assert "Esc — закрыть" in text and "Царапина" in text
    assert "…" in toast and toast.count("Я") < LONGEST_WORD


async def test_the_starately_form_cuts_a_long_name_in_its_row(make_test_app, campaign_path):
    """Replay: Старатели's form read «Персонаж ◀» and nothing after it (its rows draw their
    own line, not the Stepper's)."""
    store = Store.open(campaign_path, system="starately")
    first = next(c for c in store.characters() if c.name == "Дарина")  # the form's first
    store.upsert_character(replace(first, name=LONG))
    app = make_test_app(system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "Я")  # typed on the form's first row: the one named so
        text = shown_text(app)
    assert re.search(r"Персонаж\s+◀ Я{20,}… ▶", text), text
