"""A very long name (10,000 characters: `kubik party add` and the form take it) is cut in the
party tables, so every other column of every row stays on the 80×24 screen."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from tui.sanitize import NAME_CELL, cell
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
