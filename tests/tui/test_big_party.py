"""A party of thousands: the Партия tab and the players' view hold a bounded number of rows
and say how many more there are (issue 35: 5,000 characters took seconds to lay out before
the first screen, every cell measured; the view redrew every row at every change)."""

from __future__ import annotations

from tui.store import Character, Store, new_id
from tui.widgets.party import pane as party_pane


def crowd(path, count: int, kind: str = "npc") -> None:
    store = Store.open(path)
    people = [Character(new_id(), f"Стражник {i:03d}", kind, {}, (), ()) for i in range(count)]
    people[-1] = Character(new_id(), "Я Последний", kind, {}, (), ())  # sorted last
    store.apply("Толпа", upsert=people)
    store.close()


async def test_the_players_view_lists_its_limit_then_how_many_more(
    campaign_path, monkeypatch
) -> None:
    from tui import view
    from tui.view import make_view

    monkeypatch.setattr(view, "VIEW_ROWS", 5)
    Store.open(campaign_path).close()
    crowd(campaign_path, 10, kind="pc")
    app = make_view(campaign_path)
    async with app.run_test(size=(80, 24)):
        table = app.query_one("#view-party")
        assert table.row_count == 6  # 5, then the count
        last = table.get_row_at(5)
        assert "и ещё 9 персонажей" in str(last[0])  # 4 demo players and 10 guards, 5 shown


async def test_the_party_and_the_fight_roster_hold_their_limits_and_filters_find_the_rest(
    make_test_app, campaign_path, monkeypatch
) -> None:
    """Партия and the Бой roster, one crowd: each holds a bounded number of rows and says how
    many more; «f» on each finds anyone. Issue 30's review: the Бой roster built a row for
    each of 5,000 characters (1–2 s); Space then changes the side of the one found.

    One app for what were two pilot tests with the same crowd,
    ``test_the_party_table_holds_its_limit_and_the_filter_finds_the_rest`` and
    ``test_the_fight_roster_holds_its_limit_and_the_filter_finds_the_rest``."""
    from tui.systems.drevo.fight_pane import setup as drevo_setup

    monkeypatch.setattr(party_pane, "MAX_ROWS", 10)
    monkeypatch.setattr(drevo_setup, "ROSTER_ROWS", 10)
    crowd(campaign_path, 20)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#party-table")
        more = app.query_one("#party-more")
        assert table.row_count == 10 and more.display, "Партия: not 10 rows and a count"
        assert "Ещё 17 персонажей" in str(more.render())  # 7 of the demo, 20 guards
        await pilot.pause()  # the first screen settled (its focus)
        await pilot.press("f", *"последн")
        await pilot.pause()
        assert table.row_count == 1 and not more.display, "Партия's filter"
        assert app.query_one("#party-pane").highlighted_id() is not None
        await pilot.press("escape", "2")
        pane = await app.ensure_pane("combat")
        await pilot.pause()
        table = app.query_one("#combat-roster")
        more = app.query_one("#combat-roster-more")
        assert table.row_count == 10 and more.display, "the roster: not 10 rows and a count"
        assert "Ещё 17 персонажей" in str(more.render())
        await pilot.press("f", *"последн", "enter")
        await pilot.pause()
        assert table.row_count == 1 and not more.display, "the roster's filter"
        last = next(c for c in pane.characters.values() if c.name == "Я Последний")
        side = next(c.side for c in pane.encounter.combatants if c.character_id == last.id)
        await pilot.press("space")
        await app.workers.wait_for_complete()
        await pilot.pause()
        now = [c.side for c in pane.encounter.combatants if c.character_id == last.id]
        assert now != [side], "Space did not act on the row the filter found"
