"""The luck ledger on screen: the Журнал's and the stats screen's keys and lines (its logic, below
the screens: tests/tui/test_luck_journal.py)."""

from __future__ import annotations

import random

from tui.bridge.luck import read_sessions
from tui.present.luck import verdict_text
from tui.store import Store
from tui.widgets.log.stats import StatsScreen


def test_verdict_words_say_how_rare_and_how_computed() -> None:
    """«удачнее ожидаемого: так бывает в 1 вечере из 12», with the method said."""
    from rules.ledger import Verdict

    assert verdict_text(Verdict("lucky", 1 / 12, True)) == (
        "удачнее ожидаемого: так бывает в 1 вечере из 12 (точный расчёт)"
    )
    assert verdict_text(Verdict("unlucky", 0.004, False), "случае") == (
        "намного хуже ожидаемого: так бывает в 1 случае из 250 (нормальное приближение)"
    )
    assert verdict_text(None) == "бросков нет"


class TestStatsScreen:
    """The stats screen at 80×24 after a few Древо checks and quick rolls in two sessions."""

    def test_stats_80x24(self, snap_compare, make_test_app):
        """Its Журнал made through the app's check engine, services and session mark, as the
        keys made it (3, Enter and n ×4, «/2d6» Enter Esc, 4 n, 3 ↓ → Enter ×2, «/d20» Enter Esc),
        with the app's dice in the keys' order; «4 s» stay keys. The keys themselves: ↓ → and
        Enter on the Проверка and Enter on the quick-roll bar, each reaching the Журнал, in
        ``tests/tui/test_pilot.py::test_party_enter_opens_the_builder_whose_modifiers_show_a_
        mistake_as_typed``; «n» and «s» in :func:`test_the_journal_and_stats_keys`."""

        async def run_before(pilot):
            from rules.dice import roll
            from tui.bridge.luck import mark_session
            from tui.present.rolls import roll_summary
            from tui.systems.drevo.check import steps

            app = pilot.app
            services, table = app.services, app.services.check_table

            async def check(times: int) -> None:  # Enter, n on the Проверка: roll, a new one
                for _ in range(times):
                    table.run(steps.roll)
                    table.run(steps.new_check)
                await pilot.pause()

            async def quick(expression: str) -> None:  # what Enter on the quick-roll bar records
                result = roll(expression, services.rng)
                services.record("roll", None, roll_summary(result), result.to_dict())
                await pilot.pause()

            await check(4)  # Богдан Сыч's «Любая проверка», four times
            await quick("2d6")  # a quick roll, no actor
            mark_session(services.journal, app.notify)  # «n» in the Журнал: a new session
            await pilot.pause()
            table.run(steps.set_input, "action", "melee")  # ↓ → on the form: Ближний бой
            await check(2)
            await quick("d20")
            await pilot.press("4", "s")  # the stats of the newest session
            app.clear_notifications()  # «Начата сессия 2» would cover the chart

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_view_stats_80x24(self, snap_compare, campaign_path):
        """``s`` in ``kubik --view``: the players' numbers, the hidden NPC «???», no secret."""
        from tui.view import make_view

        _players_table(campaign_path)

        async def run_before(pilot):
            await pilot.press("s")

        view = make_view(campaign_path)
        assert snap_compare(view, terminal_size=(80, 24), run_before=run_before)


def test_players_see_hidden_npcs_as_question_marks() -> None:
    """The players' numbers name a hidden NPC «???», as the players' view does."""
    from tui.bridge.luck import with_luck
    from tui.store import Character, LogEntry, new_id

    wolf = Character(new_id(), "Волк", "npc", {}, (), (), extra={"hidden": True})
    data = with_luck("roll", "Волк", {"expression": "2d6", "total": 7, "parts": []})
    entries = [LogEntry(new_id(), "2026-11-29T20:00:00+03:00", "roll", "Волк", "2d6 = 7", data)]
    assert read_sessions(entries)[0].rolls[0].who == "Волк"
    assert read_sessions(entries, players=True, characters=[wolf])[0].rolls[0].who == "???"


async def test_the_journal_and_stats_keys(make_test_app, campaign_path, tmp_path) -> None:
    """The Журнал's and the stats screen's keys on one GM's table, each fact as it is shown.

    Replaces the pilot tests (their logic is in tests/tui/test_luck_journal.py):
    ``tests/tui/test_luck.py::test_stats_of_an_empty_log_say_so`` (no rolls yet: the stats
    screen says so and offers no Markdown),
    ``tests/tui/test_luck.py::test_new_session_key_marks_the_log_and_stats_group_by_it``
    (``n`` marks a session, at once again it marks none; ``s`` opens the newest session, ``←``
    the one before, ``a`` all of them, Esc closes),
    ``tests/tui/test_luck.py::test_secret_rolls_count_for_players_only_once_revealed`` (``r``
    reveals the highlighted secret roll; ``p`` counts it for the players only then) and
    ``tests/tui/test_luck.py::test_ctrl_e_exports_the_sessions_luck_for_players`` (Ctrl+E
    offers «Удача … в Markdown» next to «Журнал в Markdown» and writes it where told) and
    ``tests/tui/test_luck.py::test_the_log_tab_shows_where_a_pause_started_a_session`` («a GM
    key marks the start of a game session (also implied by a gap of more than six hours
    between rolls); the log and the stats group by session»: the Журнал tab says where a pause
    began one; a mark is its own line; one session shows no such line; here the pause comes
    after the entries above, not after two rolls of its own),
    ``tests/tui/test_luck.py::test_fate_on_a_circumstance_is_counted_shown_and_given_back_by_ctrl_z``
    («Очки Судьбы могут расходоваться игроком (по согласованию с ведущим) чтобы получить …
    благоприятное для его персонажа стечение обстоятельств»: the note keeps the point spent,
    the Журнал's detail says it, and the stats count it; Ctrl+Z gives the point back (the
    entry reads «отменено», the stats count nothing spent), Ctrl+Y counts it again; here in
    the second session, after the stats) and
    ``tests/tui/test_luck.py::test_log_detail_shows_where_the_roll_landed`` (the Журнал's
    detail line of a roll says its percentile and the chance of that outcome or better; a
    Судьба shift says what was spent).
    The rolls are recorded as the app records a quick roll (``KubikApp._quick_rolled``); the
    keys of a quick roll reaching the Журнал are
    ``tests/tui/test_pilot.py::test_builder_roll_and_quick_roll_reach_the_log``'s."""
    from textual.widgets import OptionList

    from tests.tui.test_one_truth import cursor_to
    from tui.bridge.luck import with_luck
    from tui.present.luck import store_markdown
    from tui.store import LogEntry
    from tui.widgets.common.choice import ChoiceScreen

    app = make_test_app()
    rng = random.Random(7)

    def quick_roll(expression: str) -> None:
        from rules.dice import roll
        from tui.present.rolls import roll_summary

        result = roll(expression, rng)
        app.services.record("roll", None, roll_summary(result), result.to_dict())

    def shown(widget_id: str) -> str:
        return str(app.screen.query_one(widget_id).render())

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "s")
        assert isinstance(app.screen, StatsScreen), "s opens the stats"
        assert "бросков пока нет" in shown("#stats-title"), "empty: the title says so"
        assert "Бросков нет" in shown("#stats-table-lines"), "empty: the table says so"
        assert not app.screen.check_action("markdown", ()), "empty: no Markdown to save"
        await pilot.press("escape")
        quick_roll("2d6")
        await app.services.writes_done()
        await pilot.press("n")  # the Журнал, a new session
        await pilot.press("n")  # again at once: refused, the session is still empty
        await app.services.writes_done()
        kinds = [e.kind for e in reversed(app.store.log())]
        assert kinds == ["roll", "session"], "n marks one session, not a second empty one"
        app.services.journal.secret = True
        quick_roll("2d6")  # a secret roll in session 2
        app.services.journal.secret = False
        quick_roll("1d20")
        await app.services.writes_done()
        await pilot.press("s")
        assert "Сессия 2 из 2" in shown("#stats-title"), "s opens the newest session"
        assert "2 броска" in shown("#stats-table-lines"), "the GM's count has the secret roll"
        await pilot.press("left")
        assert "Сессия 1 из 2" in shown("#stats-title"), "← goes to the session before"
        await pilot.press("a")
        assert "3 броска" in shown("#stats-table-lines"), "a: every session"
        await pilot.press("p")
        assert app.screen.players, "p: the players' numbers"
        assert "2 броска" in shown("#stats-table-lines"), "players: the secret roll not counted"
        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen), "Esc closes the stats"
        table = app.query_one("#log-table")
        secret = next(e for e in app.store.log() if e.data.get("hidden"))
        texts = [str(table.get_row_at(r)[2]) for r in range(table.row_count)]
        row = next(r for r, text in enumerate(texts) if text.endswith(secret.text))
        table.move_cursor(row=row)
        await pilot.press("r")  # reveal the secret roll
        await app.services.writes_done()
        await pilot.press("s", "p")  # the stats as the players see them
        assert app.screen.players, "p: the players' numbers"
        assert "2 броска" in shown("#stats-table-lines"), "revealed: counted for the players"
        await pilot.press("escape", "ctrl+e")
        assert isinstance(app.screen, ChoiceScreen), "Ctrl+E: export and import"
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "Журнал в Markdown" in labels, "the Журнал's export is offered"
        assert labels[3] == "Удача последней сессии в Markdown (для игроков)", "and the luck's"
        await pilot.press("down", "down", "down", "enter")  # Удача … в Markdown
        path = tmp_path / "luck.md"
        app.screen.query_one("#prompt-input").value = str(path)  # the path, not its typing
        await pilot.press("enter")
        await pilot.pause()
        assert path.read_text(encoding="utf-8") == store_markdown(app.store), "the file written"

        # Судьба on a circumstance: counted, shown, given back by Ctrl+Z, counted again by Ctrl+Y.
        await pilot.press("1")
        await cursor_to(pilot, app, "Горан Рябой")
        await pilot.press("o")
        app.screen.query_one("#prompt-input").value = "дверь открыта"  # the note, not its typing
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("4")
        table.move_cursor(row=0)  # the newest: the note
        await pilot.pause()
        assert "потрачено: Судьба 1" in shown("#log-detail"), "the note's detail: point spent"
        entries = list(reversed(app.store.log()))
        assert entries[-1].data["fate_spent"] == 1, "the note keeps the point spent"
        spent = read_sessions(entries)[-1].spent
        assert spent == {"Горан Рябой": {"fate": 1}}, "the session counts it"
        await pilot.press("ctrl+z")
        await pilot.pause()
        entries = list(reversed(app.store.log()))
        assert entries[-1].undone, "Ctrl+Z: the note reads «отменено»"
        assert read_sessions(entries)[-1].spent == {}, "Ctrl+Z: nothing spent is counted"
        await pilot.press("ctrl+y")
        await app.services.writes_done()
        entries = list(reversed(Store.open(campaign_path).log()))
        spent = read_sessions(entries)[-1].spent
        assert spent == {"Горан Рябой": {"fate": 1}}, "Ctrl+Y: counted again, in the file"

        # A roll's detail line: where it landed; a Судьба shift: what was spent.
        await pilot.press("3", "enter", "plus")  # roll, then Судьба +1
        await pilot.press("4")
        table.move_cursor(row=0)  # the newest: the Судьба entry
        await pilot.press("down")  # the roll itself
        assert "удача: 0," in shown("#log-detail"), "a roll's detail says its percentile"
        assert "этот исход или лучше" in shown("#log-detail"), "and the chance of its outcome"
        await pilot.press("up")  # the Судьба entry
        assert "потрачено: Судьба 1" in shown("#log-detail"), "a shift says what was spent"

        # A pause of more than six hours also starts a session: the Журнал tab says where.
        rows = [str(table.get_row_at(r)[2]) for r in range(table.row_count)]
        assert "— Сессия 2 —" in rows, "a mark is its own line"
        assert not [r for r in rows if "перерыв" in r], "no pause yet: nothing to mark"
        data = with_luck("roll", None, {"expression": "2d6", "total": 7, "parts": []})
        a_day_later = "2026-11-30T20:00:00+03:00"  # the app's clock is frozen a day before
        app.store.append_log(LogEntry("c", a_day_later, "roll", None, "2d6 = 7", data))
        await pilot.pause()
        after = [str(table.get_row_at(r)[2]) for r in range(table.row_count)]
        pause = "— новая сессия: перерыв больше 6 ч —"
        assert after == ["2d6 = 7", pause, *rows], "the pause's line where the pause began"
        table.move_cursor(row=1)
        await pilot.pause()
        assert "перерыв больше 6 ч" in shown("#log-detail"), "its detail says so"


async def test_a_view_only_app_shows_only_the_players_numbers(campaign_path):
    """Without the GM's rights the stats stay the players' (no toggle to the GM's, no file):
    a secret roll (the GM's Ctrl+S, tests above) is not counted."""
    from tui.app import make_app
    from tui.bridge.luck import with_luck
    from tui.store import LogEntry

    store = Store.open(campaign_path, system="drevo")
    data = with_luck("roll", None, {"expression": "2d6", "total": 7, "parts": []})
    at = "2026-11-29T20:00:00+03:00"
    store.append_log(LogEntry("s1", at, "roll", None, "2d6 = 7", {**data, "hidden": True}))
    store.close()
    viewer = make_app(campaign_path, view_only=True)
    async with viewer.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "s")
        screen = viewer.screen
        assert isinstance(screen, StatsScreen) and screen.players
        assert not screen.check_action("players", ()) and not screen.check_action("markdown", ())
        assert "Бросков нет" in str(screen.query_one("#stats-table-lines").render())


def test_fate_on_damage_and_after_the_roll_is_counted_in_the_stats(tmp_path) -> None:
    """«Игрок может потратить одно очко Судьбы для того, чтобы снизить на один уровень
    полученный его персонажем урон»: the Бой tab's damage line keeps how many points it took,
    and the stats count them (with the ±1 after the roll) for whoever spent them."""
    from tests.table.helpers import duel
    from tui.systems.drevo.fight import steps

    table, store, target = duel(tmp_path)
    table.ok(steps.roll)
    while table.view().result.tie:  # seeded: reroll ties until someone wins
        table.ok(steps.reroll_tie)
    table.ok(steps.fate_shift, *table.view().shift_offers()[0].value)  # the attacker +1
    table.ok(steps.accept)
    assert table.stage() == "damage" and table.view().reduce_options()
    table.ok(steps.damage, 1)
    damage = next(e for e in store.log() if e.text.startswith("Урон:"))
    assert damage.data["fate_spent"] == 1
    spent = read_sessions(list(reversed(store.log())))[-1].spent
    assert spent[target.name] == {"fate": 1} and spent["Атаман Шкуро"] == {"fate": 1}


def test_older_entries_count_what_they_can_and_say_what_they_cannot() -> None:
    """Entries of an older version: a circumstance always cost one point (counted), damage
    lowered by Судьба did not keep how many (said as unknown), Древо initiative is rebuilt."""
    from tui.present.luck import spent_lines, spent_text
    from tui.store import LogEntry, new_id

    at = "2026-11-29T20:00:00+03:00"
    old = [
        LogEntry(new_id(), at, "note", "Горан", "Судьба на благоприятное обстоятельство: x", {}),
        LogEntry(
            new_id(),
            at,
            "combat",
            "Горан",
            "Урон: Горан получает царапину (Судьба −2: было «Лёгкая рана»). Раны: …",
            {"round": 1, "exchange": "x", "damage": "scratch", "wounds": {}},
        ),
        LogEntry(
            new_id(),
            at,
            "combat",
            None,
            "Инициатива: Отряд +1, Противники −1",
            {"round": 0, "initiative": [{"side": "Отряд", "rolls": [[1, 0, 0, 0]]}]},
        ),
    ]
    session = read_sessions(old)[0]
    assert session.spent == {"Горан": {"fate": 1, "fate_unknown": 1}}
    assert [r.who for r in session.rolls] == ["Отряд"]
    assert spent_lines([session]) == [
        "Потрачено (не удача): Горан — Судьба 1 и ещё 1 трата без записанной суммы (старая версия)"
    ]
    assert spent_text({"fate_unknown": 2}) == (
        "Судьба: 2 траты без записанной суммы (старая версия)"
    )


def _players_table(path) -> Store:
    """A Древо campaign's Журнал: Ярослав's and a hidden NPC's rolls, a secret one, a
    revealed one, Судьба spent on a circumstance."""
    from dataclasses import replace

    from tui.bridge.luck import with_luck
    from tui.store import LogEntry

    store = Store.open(path, system="drevo")
    ataman = next(c for c in store.characters() if c.name == "Атаман Шкуро")
    store.upsert_character(replace(ataman, extra={**ataman.extra, "hidden": True}))
    at = "2026-11-29T20:00:00+03:00"

    def roll(eid: str, who: str | None, expression: str, total: int, **more) -> LogEntry:
        data = with_luck("roll", who, {"expression": expression, "total": total, "parts": []})
        return LogEntry(eid, at, "roll", who, f"{expression} = {total}", {**data, **more})

    for item in (
        roll("r1", "Ярослав Кречет", "2d6", 11),
        roll("r2", "Ярослав Кречет", "1d20", 17),
        roll("r3", "Атаман Шкуро", "2d6", 4),
        roll("s1", "Ярослав Кречет", "1d20", 1, hidden=True),  # secret, never revealed
        roll("s2", "Горан Рябой", "1d6", 6, hidden=True),
        LogEntry("v2", at, "note", None, "Раскрыто: 1d6 = 6", {"reveals": "s2"}),
    ):
        store.append_log(item)
    note = with_luck("note", "Горан Рябой", {"character": "x", "fate_spent": 1})
    store.append_log(LogEntry("f1", at, "note", "Горан Рябой", "Судьба на …", note))
    return store


async def test_the_players_view_opens_the_players_stats(campaign_path):
    """«The players' view … count a secret roll only after the GM reveals it»: ``s`` in
    ``kubik --view`` opens the stats as the players may see them, and writes nothing."""
    from tui.view import make_view

    _players_table(campaign_path)
    before = campaign_path.read_bytes(), campaign_path.with_suffix(".log.jsonl").read_bytes()
    view = make_view(campaign_path)
    async with view.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "s")  # a second «s» opens no second screen
        screen = view.screen
        assert isinstance(screen, StatsScreen) and screen.players and screen.locked
        title = str(screen.query_one("#stats-title").render())
        assert "для игроков" in title
        assert "За столом: 4 броска" in str(screen.query_one("#stats-table-lines").render())
        table = screen.query_one("#stats-characters")
        names = [str(table.get_row_at(r)[0]) for r in range(table.row_count)]
        assert names == ["Ярослав Кречет", "???", "Горан Рябой"]
        assert "Горан Рябой — Судьба 1" in str(screen.query_one("#stats-chart").render())
        await pilot.press("p", "m", "a", "left", "escape")
        assert not isinstance(view.screen, StatsScreen) and view.is_running
    after = campaign_path.read_bytes(), campaign_path.with_suffix(".log.jsonl").read_bytes()
    assert before == after
