"""Snapshot of a player's seat at 80×24: Милава declares (the form, the order, a request)."""

from __future__ import annotations

from rules.encounter import Declaration, Encounter
from tests.seats.helpers import by_name, start_fight
from tui.seats.seat import SeatApp
from tui.seats.state import seat_state
from tui.store import Store
from tui.systems.drevo import combat as bridge


def _state_of_milava(campaign_path) -> dict:
    """The state the GM's app sends Милава once Богдан and Горан declared."""
    store = Store.open(campaign_path)
    start_fight(store)
    chars = {c.id: c for c in store.characters()}
    can_act = lambda cid: bridge.can_act(chars.get(cid))  # noqa: E731
    enc = Encounter.from_dict(store.get_doc("encounter"))
    for name in ("Богдан Сыч", "Горан Рябой"):
        enc = enc.declare(Declaration(by_name(store, name).id, "dodge"), can_act)
    store.put_doc("encounter", enc.to_dict(), label="test")
    state = seat_state(store, "Милава")
    store.close()
    return state


def test_seat_declaring_80x24(snap_compare, campaign_path):
    state = _state_of_milava(campaign_path)
    assert state["declare"]["actor"] == by_name(Store.open(campaign_path), "Милава").id
    app = SeatApp("Милава", None, "", connect=False)
    app.link = "на связи с ведущим"
    note = {
        "id": "n1",
        "kind": "note",
        "character": state["declare"]["actor"],
        "text": "Заметка: вижу дым за рекой",
        "status": "refused",
        "reason": "позже",
    }

    async def run_before(pilot):
        app.apply_state({"v": 1, "type": "state", "state": state, "requests": [note]})

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_gm_requests_dialog_80x24(snap_compare, campaign_path):
    """The GM's Ctrl+P: a declaration and a note waiting, the indicator under the tabs."""
    from tests.conftest import frozen_clock
    from tests.seats.helpers import short_folder
    from tui.app import make_app
    from tui.seats.gm import show_indicator
    from tui.seats.hub import Pending
    from tui.seats.protocol import Request
    from tui.seats.tokens import seats_dir

    with short_folder() as folder:
        app = make_app(campaign_path, seed=7, clock=frozen_clock)
        app.seats_folder = seats_dir(folder)

        async def run_before(pilot):
            for _ in range(200):
                if app.services.seat_hub is not None and app.services.seat_hub._server:
                    break
                await pilot.pause(0.02)
            hub = app.services.seat_hub
            store = app.store
            milava, goran = by_name(store, "Милава"), by_name(store, "Горан Рябой")
            ataman = by_name(store, "Атаман Шкуро")
            shoot = {"action": "shoot", "target": ataman.id, "weapon": "Лук", "distance": "medium",
                     "turns": 1, "note": "в плечо"}  # fmt: skip
            hub.requests["d1"] = Pending("Милава", Request("d1", "declare", milava.id, shoot))
            note = {"text": "Горан ищет брод"}
            hub.requests["n1"] = Pending("Горан Рябой", Request("n1", "note", goran.id, note))
            show_indicator(app)
            await pilot.pause()
            await pilot.press("ctrl+p")

        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_seat_with_the_gms_open_ide4_check_80x24(snap_compare, tmp_path):
    """Лёва Кот's seat while the GM's IDE4 check of him is rolled: the check, what the rules
    offer now, and the requests so far (one accepted, one undone by the GM)."""
    store = Store.open(tmp_path / "ide4.json", system="ide4")
    lev = by_name(store, "Лёва Кот")
    state = seat_state(store, lev.name)
    store.close()
    state["check"] = {
        "id": "c1",
        "character": lev.id,
        "stage": "rolled",
        "kinds": ["energy", "reroll"],
        "choices": ["энергия после броска (кубы до d6)", "переброс d100"],
    }
    requests = [
        {"id": "x1", "kind": "expanded", "character": lev.id, "status": "accepted",
         "text": "Требую развёрнутую проверку", "reason": ""},
        {"id": "e1", "kind": "energy", "character": lev.id, "status": "undone",
         "text": "Энергия до броска: 2 куба", "reason": ""},
    ]  # fmt: skip
    app = SeatApp(lev.name, None, "", connect=False)
    app.link = "на связи с ведущим"

    async def run_before(pilot):
        app.apply_state({"v": 1, "type": "state", "state": state, "requests": requests})

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_seat_luck_stats_80x24(snap_compare, campaign_path):
    """«s» in Ярослав's seat: the players' luck stats the GM's app sent (the same Журнал as the
    view's stats snapshot: the hidden NPC «???», the secret roll not counted)."""
    import json

    from tests.tui.test_luck import _players_table
    from tui.seats.stats import players_stats

    store = _players_table(campaign_path)
    state = seat_state(store, "Ярослав Кречет")
    entries = list(reversed(store.log()))
    answer = {"v": 1, "type": "stats", "id": "q1", **players_stats(entries, store.characters())}
    store.close()
    app = SeatApp("Ярослав Кречет", None, "", connect=False)
    app.link = "на связи с ведущим"

    async def run_before(pilot):
        app.apply_state({"v": 1, "type": "state", "state": state, "requests": []})
        app._stats_asked, app._stats_open = "q1", True  # as «s» asked it
        app.stats_answered(json.loads(json.dumps(answer)))  # as it came over the socket

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
