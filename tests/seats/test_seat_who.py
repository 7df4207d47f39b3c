"""Which of a seat's characters a choice is about (no pilot: the state in, the id out)."""

from __future__ import annotations

import dataclasses

from rules.encounter import Declaration, Encounter
from tests.seats.helpers import by_name, start_fight
from tui.seats.seat import SeatApp
from tui.seats.state import seat_state
from tui.store import Store
from tui.store.models import new_id
from tui.systems.drevo import combat as bridge


def test_a_fate_choice_in_the_fight_is_about_the_seats_fighter_in_the_exchange(tmp_path):
    """A seat of two characters (Милава and Ждан, whose player is Милава): in the exchange
    of Милава the choice is hers, not the first of the seat's names (it was Ждан's, and the
    GM's app refused it: «Ждан не участвует в схватке на очереди»)."""
    with Store.open(tmp_path / "c.json", system="drevo") as store:
        milava = by_name(store, "Милава")
        zhdan = dataclasses.replace(milava, id=new_id(), name="Ждан", player="Милава")
        store.upsert_character(zhdan, label="Ждан")
        start_fight(store)
        chars = {c.id: c for c in store.characters()}
        can_act = lambda cid: bridge.can_act(chars.get(cid))  # noqa: E731
        enc = Encounter.from_dict(store.get_doc("encounter"))
        ataman = by_name(store, "Атаман Шкуро").id
        while (d := enc.next_declarer(can_act)) is not None:
            strikes = d.character_id == milava.id
            action = Declaration(d.character_id, "melee", target=ataman) if strikes else None
            enc = enc.declare(action or Declaration(d.character_id, "parry"), can_act)
        enc = enc.start_resolution(can_act)
        store.put_doc("encounter", enc.to_dict(), label="Бой: к броскам")
        state = seat_state(store, "Милава")
    seat = SeatApp("Милава", None, "t" * 32, connect=False)
    seat.state = state
    assert [c.name for c in seat.mine()] == ["Ждан", "Милава"]  # the first is not hers
    assert seat._who() == milava.id
