"""«s» in a seat: the luck stats the players' view shows, asked of the GM's app (issue 20).

The seat has no campaign: it asks the GM's hub, which counts the players' numbers when asked
(a secret roll only once revealed, a hidden NPC «???») and sends them; the seat opens the
view's own stats screen with them.
"""

from __future__ import annotations

import json

import pytest

from tests.seats.headless_gm import serving
from tests.seats.helpers import RawSeat, seat_token, until_seen
from tests.tui.test_luck import _players_table
from tui.bridge.luck import read_sessions
from tui.seats import stats as seat_stats
from tui.seats.seat import SeatApp
from tui.seats.tokens import seats_dir, socket_path
from tui.store import LogEntry, Store
from tui.widgets.log.stats import StatsScreen


def _seat(folder, campaign_path, name="Ярослав Кречет") -> SeatApp:
    seats = seats_dir(folder)
    return SeatApp(
        name, socket_path(seats, campaign_path), seat_token(seats.parent, campaign_path, name)
    )


def _shown(screen: StatsScreen) -> list[str]:
    """Everything the stats screen shows: title, the table's lines, each row, the chart."""
    table = screen.query_one("#stats-characters")
    rows = [" | ".join(map(str, table.get_row_at(r))) for r in range(table.row_count)]
    return [
        str(screen.query_one("#stats-title").render()),
        str(screen.query_one("#stats-table-lines").render()),
        *rows,
        str(screen.query_one("#stats-chart").render()),
    ]


def stats_open(seat) -> bool:
    """Whether the seat shows its stats screen, mounted: pushed on the GM's answer, it has no
    widgets until its compose and mount ran (read before, under load, ``#stats-table-lines``
    was not there yet: NoMatches)."""
    return isinstance(seat.screen, StatsScreen) and seat.screen.is_mounted


def _players_campaign(path) -> None:
    """The luck tests' Древо Журнал, plus a second session, so the screen has two."""
    store = _players_table(path)
    store.append_log(LogEntry("n2", "2026-11-30T20:00:00+03:00", "session", None, "Сессия"))
    from tui.bridge.luck import with_luck

    data = with_luck("roll", "Ярослав Кречет", {"expression": "3d6", "total": 5, "parts": []})
    store.append_log(
        LogEntry("r9", "2026-11-30T20:05:00+03:00", "roll", "Ярослав Кречет", "3d6 = 5", data)
    )
    store.close()


async def test_s_in_a_seat_shows_the_numbers_of_the_players_view(folder, campaign_path):
    """«In kubik --view, s shows the luck stats of the visible rolls»: the seat's «s» shows the
    same screen with the same numbers, every session, the GM's app counting them.

    Then, on the same seat, while its stats are open again, a roll the GM logs is counted
    there too (the GM's quick roll, «/ 2d6 Enter», is what the app records for its
    ``QuickRoll.Rolled``: the dice's result through the Журнал). Replaces the pilot test
    `tests/seats/test_seat_stats.py::test_the_open_stats_follow_a_new_roll_of_the_gm` (its
    own seat on the same campaign and GM, «s» on the newest session: here «s» again after
    «q», on the newest session as «s» opens)."""
    from rules.dice import roll
    from tui.present.rolls import roll_summary
    from tui.view import make_view

    _players_campaign(campaign_path)
    view = make_view(campaign_path)
    async with view.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        expected = [_shown(view.screen)]
        await pilot.press("left")  # the older session
        expected.append(_shown(view.screen))
        await pilot.press("a")  # all sessions
        expected.append(_shown(view.screen))
    assert "За столом: 4 броска" in expected[1][1]  # the secret roll is not counted

    async with serving(folder, campaign_path) as gm:
        seat = _seat(folder, campaign_path)
        before = campaign_path.read_bytes()
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [sp]
            await until_seen(pilots, lambda: seat.link == "на связи с ведущим", "connected")
            await sp.press("s")
            await until_seen(pilots, lambda: stats_open(seat), "the stats")
            screen = seat.screen
            assert screen.locked and screen.players
            shown = [_shown(screen)]
            await sp.press("left")
            shown.append(_shown(screen))
            await sp.press("a")
            shown.append(_shown(screen))
            assert shown == expected
            await sp.press("f", "s", "m")  # no request, no second screen, no file behind it
            assert seat.outbox == {} and len(seat.screen_stack) == 2
            await sp.press("q")  # «q» closes the stats, as in the view; the seat stays
            assert not isinstance(seat.screen, StatsScreen) and seat.is_running
            assert campaign_path.read_bytes() == before, "the seat's keys wrote"

            await sp.press("s")  # open again: the GM's roll is counted while they are open
            await until_seen(pilots, lambda: stats_open(seat), "the stats")
            lines = lambda: str(seat.screen.query_one("#stats-table-lines").render())  # noqa: E731
            assert "За столом: 1 бросок" in lines()  # the newest session
            result = roll("2d6", gm.services.rng)  # the GM's quick roll
            gm.services.record("roll", None, roll_summary(result), result.to_dict())
            await until_seen(pilots, lambda: "За столом: 2 броска" in lines(), "the new roll")


async def _answer(raw: RawSeat, asked: str) -> dict:
    for _ in range(20):
        message = await raw.read()
        if message.get("type") in ("stats", "error") and message.get("id") == asked:
            return message
    raise AssertionError("no answer")


async def test_a_secret_roll_and_a_hidden_npc_never_reach_the_seats_stats(folder, campaign_path):
    """«the players' view and any export for players count a secret roll only after the GM
    reveals it»: the answer a seat gets has no unrevealed roll and no hidden NPC's name."""
    _players_campaign(campaign_path)
    async with serving(folder, campaign_path) as gm:
        raw = RawSeat(folder, campaign_path, "Ярослав Кречет")
        assert (await raw.connect())["type"] == "welcome"
        await raw.send_raw(b'{"v":1,"type":"stats","id":"q1"}\n')
        answer = await _answer(raw, "q1")
        text = json.dumps(answer, ensure_ascii=False)
        assert "Атаман" not in text and "???" in text  # the hidden NPC, as in the view
        rolls = [r for s in answer["sessions"] for r in s["rolls"]]
        entries = list(reversed(gm.store.log()))
        gm_view = read_sessions(entries, characters=gm.store.characters())
        assert len(rolls) == 5 < sum(len(s.rolls) for s in gm_view) == 6
        secret = next(e for e in entries if e.id == "s1").data["percentile"]
        assert secret not in [r[1] for r in rolls]  # Ярослав's secret 1 on a d20
        gm.store.append_log(  # the GM reveals it: now it counts for the players
            LogEntry("v1", "2026-11-30T21:00:00+03:00", "note", None, "Раскрыто", {"reveals": "s1"})
        )
        await raw.send_raw(b'{"v":1,"type":"stats","id":"q2"}\n')
        again = await _answer(raw, "q2")
        assert secret in [r[1] for s in again["sessions"] for r in s["rolls"]]
        raw.close()


async def test_a_bad_stats_question_is_refused_with_a_log_line(folder, campaign_path, monkeypatch):
    """A question with other fields, or before the greeting, is refused and logged; an answer
    too long for a seat is an error with the reason; nothing is written."""
    async with serving(folder, campaign_path) as gm:
        hub = gm.hub
        before = campaign_path.read_bytes()
        stranger = RawSeat(folder, campaign_path, "Милава")
        hello = {"v": 1, "type": "stats", "id": "q0"}
        refused = await stranger.connect(hello)
        assert refused["type"] == "refused" and "представьтесь" in refused["reason"]
        raw = RawSeat(folder, campaign_path, "Милава")
        await raw.connect()
        await raw.read()  # the first state
        for bad in (
            {"v": 1, "type": "stats", "id": "q1", "seat": "Горан Рябой"},
            {"v": 1, "type": "stats", "id": "../etc"},
            {"v": 1, "type": "stats"},
        ):
            await raw.send_raw((json.dumps(bad) + "\n").encode())
            error = await raw.read()
            assert error["type"] == "error" and "вопрос" in error["reason"].lower()
        assert sum("Место Милава: отказано" in line for line in hub.log) == 3
        monkeypatch.setattr(seat_stats, "MAX_ANSWER", 10)
        await raw.send_raw(b'{"v":1,"type":"stats","id":"q5"}\n')
        error = await _answer(raw, "q5")
        assert error["type"] == "error" and "kubik --view" in error["reason"]
        raw.close()
        assert campaign_path.read_bytes() == before


@pytest.mark.slow
async def test_s_without_the_gm_says_so_and_works_after_the_reconnect(folder, campaign_path):
    """A dropped connection: «s» fails with the reason and works again once reconnected."""
    _players_campaign(campaign_path)
    async with serving(folder, campaign_path) as gm:
        hub = gm.hub
        seat = _seat(folder, campaign_path)
        async with seat.run_test(size=(80, 24)) as sp:
            pilots = [sp]
            await until_seen(pilots, lambda: seat.link == "на связи с ведущим", "connected")
            hub.close()  # the GM's app stops serving (as when it quits)
            await until_seen(pilots, lambda: seat.link.startswith("нет связи"), "the drop")
            seat.clear_notifications()
            await sp.press("s")
            told = [n.message for n in seat._notifications]
            assert any(m.startswith("Нет связи с ведущим: удача бросков") for m in told)
            assert not isinstance(seat.screen, StatsScreen)
            await hub.start()  # the GM's app serves again
            await until_seen(pilots, lambda: seat.link == "на связи с ведущим", "reconnected", 500)
            await sp.press("s")
            await until_seen(pilots, lambda: stats_open(seat), "the stats")
            assert "За столом: 1 бросок" in str(
                seat.screen.query_one("#stats-table-lines").render()
            )


async def test_a_question_cut_off_by_a_drop_or_refused_by_an_older_gm_is_told():
    """The connection drops before the answer: the player is told, and «s» is free again.
    Then a GM's app before this change answers «stats» with an error and no id; an answer
    that is not the stats is refused with a Russian reason, and nothing opens.

    Merges the pilot tests `tests/seats/test_seat_stats.py::
    test_a_question_cut_off_by_a_drop_fails_with_the_reason` and `…::
    test_an_older_gms_refusal_frees_the_question_and_a_bad_answer_is_told` (each its own
    unconnected seat «Милава»; the second part's notices are those said after the first)."""
    app = SeatApp("Милава", None, "", connect=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app._stats_asked, app._stats_open = "q1", True
        app._stats_dropped()
        await pilot.pause()
        told = [n.message for n in app._notifications]
        assert any("Связь с ведущим прервалась: удача бросков не получена" in m for m in told)
        assert app._stats_asked is None
        app.stats_answered({"type": "stats", "id": "q1", "sessions": [], "dists": []})
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)  # a late answer opens nothing

        app.clear_notifications()  # the older GM's part
        app._stats_asked, app._stats_open = "q1", True
        app._error({"v": 1, "type": "error", "reason": "Место может только посылать заявки."})
        assert app._stats_asked is None, "the older GM's refusal did not free the question"
        app._stats_asked, app._stats_open = "q2", True
        app.stats_answered({"type": "stats", "id": "q2", "sessions": [{"number": "x"}]})
        await pilot.pause()
        told = [n.message for n in app._notifications]
        assert any(m.startswith("Удача бросков не показана: Ведущий прислал") for m in told)
        assert not isinstance(app.screen, StatsScreen), "a bad answer opened the stats"


def test_the_answer_carries_the_sessions_exactly(campaign_path):
    """What the seat rebuilds from the answer is what the view's screen reads: every number."""
    _players_campaign(campaign_path)
    store = Store.open(campaign_path)
    entries = list(reversed(store.log()))
    sessions = read_sessions(entries, players=True, characters=store.characters())
    line = json.dumps(seat_stats.players_stats(entries, store.characters()))
    store.close()
    rebuilt = seat_stats.sessions_from(json.loads(line))
    assert len(rebuilt) == len(sessions) == 2
    for got, want in zip(rebuilt, sessions, strict=True):
        assert (got.number, got.start, got.spent) == (want.number, want.start, want.spent)
        assert [(r.who, r.sample) for r in got.rolls] == [(r.who, r.sample) for r in want.rolls]
        assert all(r.entry_id == "" and r.at == "" for r in got.rolls)  # neither is sent
