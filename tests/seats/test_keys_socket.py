"""A seat's key on the hub's socket: one campaign's key opens nothing in another, a removed
character's key is revoked and its seat hung up, the GM's new key ends the old one's seat.

On the hub without the GM's app (:mod:`tests.seats.headless_gm`: a real socket on the running
loop); the GM's «k» in Ctrl+P stays a pilot test
(``tests/seats/test_hub.py::test_the_gms_dialog_keys_decide_the_requests``).
"""

from __future__ import annotations

from tests.seats.headless_gm import HeadlessGM
from tests.seats.helpers import RawSeat, by_name, seat_token
from tests.seats.test_keys import pc
from tui.seats import tokens
from tui.store import Store


async def test_a_key_of_one_campaign_opens_nothing_in_another(folder, tmp_path):
    """Replaces the pilot test
    ``tests/seats/test_keys.py::test_a_key_of_one_campaign_opens_nothing_in_another``."""
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    Store.open(first).close()  # two demo campaigns: the same names
    gm = HeadlessGM(folder, second)
    hub = await gm.start()
    try:
        from_a = seat_token(folder, first, "Милава")
        assert from_a != seat_token(folder, second, "Милава")
        thief = RawSeat(folder, second, "Милава", token=from_a)
        assert (await thief.connect())["type"] == "refused"
        assert "ключ неверен" in hub.log[-1]
        own = RawSeat(folder, second, "Милава")
        assert (await own.connect())["type"] == "welcome"
        own.close()
    finally:
        gm.close()


async def test_a_removed_characters_key_is_revoked_and_its_seat_hung_up(folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_keys.py::test_a_removed_characters_key_is_revoked_and_its_seat_hung_up``."""
    gm = HeadlessGM(folder, campaign_path)
    await gm.start()
    try:
        store = gm.store
        seat = RawSeat(folder, campaign_path, "Милава")
        old_key = seat.token
        assert (await seat.connect())["type"] == "welcome"
        await seat.read()  # the first state
        milava = by_name(store, "Милава")
        store.delete_character(milava.id)
        while (message := await seat.read()).get("type") == "state":
            pass  # the state of the change may come first
        assert message["type"] == "refused" and "отозван" in message["reason"]
        assert milava.id not in tokens.read_keys(folder / "seats", store.path)
        # A new character of the same name: the old key does not open her seat.
        store.upsert_character(pc("Милава"))
        again = RawSeat(folder, campaign_path, "Милава", token=old_key)
        assert (await again.connect())["type"] == "refused"
        fresh = RawSeat(folder, campaign_path, "Милава")
        assert fresh.token != old_key
        assert (await fresh.connect())["type"] == "welcome"
        fresh.close()
    finally:
        gm.close()


async def test_the_gm_makes_a_new_key_and_the_old_one_opens_nothing(folder, campaign_path):
    """Replaces the pilot test
    ``tests/seats/test_keys.py::test_the_gm_makes_a_new_key_and_the_old_one_opens_nothing``
    (what the GM's «k» and the seat's name hand the hub: ``Hub.new_key``)."""
    gm = HeadlessGM(folder, campaign_path)
    hub = await gm.start()
    try:
        seat = RawSeat(folder, campaign_path, "Богдан Сыч")
        assert (await seat.connect())["type"] == "welcome"
        await seat.read()
        assert hub.new_key("Богдан Сыч") == 1
        while (message := await seat.read()).get("type") == "state":
            pass
        assert message["type"] == "refused" and "отозван" in message["reason"]
        assert any("ключ отозван" in line for line in hub.log)
        stale = RawSeat(folder, campaign_path, "Богдан Сыч", token=seat.token)
        assert (await stale.connect())["type"] == "refused"
        renewed = RawSeat(folder, campaign_path, "Богдан Сыч")
        assert renewed.token != seat.token
        assert (await renewed.connect())["type"] == "welcome"
        renewed.close()
    finally:
        gm.close()
