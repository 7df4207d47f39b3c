"""The round tracker (IDE4, Старатели, Мир Тьмы) at 80×24: no cell and no count cut short."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Static

NOTE = "сломана левая рука и треснуло ребро после падения с лестницы"


async def test_a_long_harm_note_wraps_and_the_effects_column_stays_on_screen(
    make_test_app, tmp_path
) -> None:
    """Play-test: «сломана левая рука и треснуло р» — the harm note ran past the table's edge
    behind a horizontal scrollbar, and the Эффекты column with it; the effects list said
    «— ещё 3 р.» for three rounds. The note and the effect are put into their fields at once
    (this test is about the table's width, not typing; the keys of the prompt and the effect
    form: tests/tui/test_rounds.py)."""
    app = make_test_app(path=tmp_path / "i.json", system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        pane = await app.ensure_pane("combat")
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one(Input).value = NOTE
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#effect-name", Input).value = "Оглушён"
        app.screen.query_one("#effect-amount", Input).value = "3"  # three rounds
        await pilot.press("enter")
        await app.services.writes_done()
        await pilot.pause()
        await pilot.pause()
        table = pane.query_one("#rounds-table", DataTable)
        assert table.virtual_size.width <= table.size.width, table.virtual_size
        lines = [s.text for s in table.render_lines(table.region.reset_offset)]
        shown = " ".join(" ".join(line.split()) for line in lines)
        assert all(word in shown.split() for word in NOTE.split()), lines  # wrapped, whole
        assert "Эффекты" in shown and "Оглушён" in shown, lines
        effects = str(pane.query_one("#rounds-effects", Static).render())
        assert "ещё 3 раунда" in effects and " р." not in effects, effects
