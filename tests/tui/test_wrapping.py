"""Long Журнал entries wrap onto more lines, in the app and in the players' view: at 80
columns they were cut behind a horizontal scrollbar. (The app's Журнал: tests/tui/
test_key_work.py, on the Журнал it builds.)"""

from __future__ import annotations

from tui.store import LogEntry
from tui.view import make_view

LONG = (
    "Очень длинная запись журнала, которая никак не помещается в восемьдесят колонок "
    "терминала и раньше обрезалась за горизонтальной полосой прокрутки — конец"
)


def shown_text(table) -> str:
    lines = [strip.text for strip in table.render_lines(table.region.reset_offset)]
    return " ".join(" ".join(line.split()) for line in lines)


async def test_a_long_log_entry_wraps_in_the_players_view(make_test_app, campaign_path) -> None:
    app = make_test_app()
    app.store.append_log(LogEntry("long-1", "2026-11-29T20:00:00+03:00", "note", "Милава", LONG))
    view = make_view(campaign_path)
    async with view.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = view.query_one("#view-log")
        assert table.virtual_size.width <= table.size.width
        assert "— конец" in shown_text(table)


async def test_a_long_refusal_shows_whole_and_a_sides_terms_wrap_whole(make_test_app) -> None:
    """The default fight at 80×24, everyone declaring:

    - «Нельзя: чтобы отбивать летящее оружие, нужно особое умение (…) ! — исключение
      ведущего.» lost its last line under the key bar; the order table above gives way
      instead, still showing whose declaration it is.
    - Playtest: the Бой tab wrapped «Богдан Сыч: Драка 0 (навыка нет: …), Кинжал МУ» and put
      its «0» alone on the next line. A side's terms («Кинжал МУ 0», «Драка 0») wrap whole;
      only the prose of a reason breaks between words — again when the terminal widens.

    One app for what were two pilot tests on the same fight,
    ``test_a_long_refusal_in_the_declaration_form_shows_whole`` and
    tests/tui/test_combat.py::test_an_exchanges_weapon_and_its_mu_stay_on_one_line_at_80x24
    (the last declaration, then the dice)."""
    import re

    from textual.widgets import DataTable

    from tests.tui.test_combat import declare_as_the_forms_start
    from tui.widgets.common.keybar import KeyBar
    from tui.widgets.common.stepper import Stepper

    app = make_test_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("i")
        await pilot.pause()
        # The seventh declarer: the last row of the order. The six before him declare what
        # their forms start on, written as one step (Enter on each form does the same).
        await declare_as_the_forms_start(pilot, app, left=1)
        app.query_one("#declare-action", Stepper).select("parry")
        await pilot.pause()
        problem = app.query_one("#declare-problem")
        text = str(problem.render())
        assert "особое умение" in text and text.endswith("закрывайтесь щитом.")
        assert "!" in [key for key, _d, _e in app.query_one(KeyBar)._keys]  # the GM's key
        lines = problem.render_lines(problem.region.reset_offset)
        assert problem.region.height == len(lines) >= 2
        assert problem.region.bottom <= app.query_one(KeyBar).region.y
        order = app.query_one("#combat-order", DataTable)
        current = order.get_row_index(app.query_one("#combat-form")._actor.id)
        assert order.scroll_y <= current < order.scroll_y + order.size.height - 1  # header
        # The last one declares what his form starts on: the first exchange's dice.
        await declare_as_the_forms_start(pilot, app)
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        lines = [strip.text.replace("\u00a0", " ").rstrip() for strip in strips]  # tied terms
        shown = "\n".join(lines)
        assert "Кинжал МУ" in shown, shown  # the exchange the playtest saw
        for line in lines:
            assert not re.search(r"МУ$", line), shown
            assert not re.match(r"\s*[+−]?\d+(,|$)", line), shown  # no number left alone
        await pilot.resize_terminal(120, 30)  # wider: broken again for the new width
        await pilot.pause()
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        wide = [strip.text.replace("\u00a0", " ").rstrip() for strip in strips]
        assert any(line.endswith("кампании), Кинжал МУ 0") for line in wide), "\n".join(wide)
