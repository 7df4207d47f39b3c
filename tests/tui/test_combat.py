"""The Бой tab: a fight driven from the keyboard, checked against the store and the rules."""

from __future__ import annotations

from rules import drevo
from tui.store import Store

ROUNDS = 3


def pane(app):
    return app.query_one("#combat-pane")


async def one_on_one(pilot, app):
    """Keep Ярослав Кречет (Отряд) against Атаман Шкуро (Противники); others leave."""
    await pilot.press("2")  # the Бой tab: setup, focus on the roster
    await pilot.pause()
    names = [c.name for c in pane(app).characters.values()]
    for index, name in enumerate(names):
        side = next((c.side for c in pane(app).encounter.combatants if c.name == name), "—")
        presses = {"Отряд": 3, "Противники": 2, "Третья сторона": 1, "—": 0}[side]
        if name in ("Ярослав Кречет", "Атаман Шкуро"):
            presses = 0
        table = app.query_one("#combat-roster")
        table.move_cursor(row=index)
        for _ in range(presses):
            await pilot.press("space")  # cycle the side until out of the fight
    await pilot.pause()


async def play_round(pilot, app):
    """Declare melee against each other, then resolve every exchange with Enter."""
    for _ in range(4):
        if pane(app).encounter.phase != "declare":
            break
        await pilot.press("enter")  # declare: Ближний бой, first target, first weapon
        await pilot.pause()
    for _ in range(10):
        if not pane(app).encounter.pending():
            break
        await pilot.press("enter")  # roll, accept, take damage
        await pilot.pause()


async def test_three_round_fight_from_the_keyboard(make_test_app, campaign_path):
    """Сид: «Бой ведётся пошагово (по раундам)… Только после этого происходят проверки»;
    RULES §4: damage «value = margin + attacker's МУ» goes into the loser's wound track."""
    app = make_test_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_on_one(pilot, app)
        enc = pane(app).encounter
        assert sorted(c.name for c in enc.combatants) == ["Атаман Шкуро", "Ярослав Кречет"]
        await pilot.press("i")  # side initiative
        await pilot.pause()
        first_round_order = pane(app).encounter.side_order()
        for number in range(1, ROUNDS + 1):
            assert pane(app).encounter.round == number
            await play_round(pilot, app)
            assert pane(app).encounter.phase == "resolve"
            assert pane(app).encounter.pending() == []
            if number < ROUNDS:
                await pilot.press("n")  # next round
                await pilot.pause()
                assert pane(app).encounter.side_order() == (
                    first_round_order[::-1] if number % 2 else first_round_order
                )

    store = Store.open(campaign_path)
    saved = store.get_doc("encounter")
    assert saved["round"] == ROUNDS
    entries = list(reversed(store.log()))
    exchanges = [e for e in entries if e.text.startswith("Схватка")]
    assert len(exchanges) >= ROUNDS  # ties rerolled or not, one per round at least
    assert all(e.data["round"] in range(1, ROUNDS + 1) for e in exchanges)
    # Every damage entry matches the wound tracks now in the store.
    tracks = {c.name: drevo.WoundTrack() for c in store.characters()}
    for e in entries:
        if e.text.startswith("Урон"):
            tracks[e.actor] = tracks[e.actor].take(e.data["damage"])
    for c in store.characters():
        assert tracks[c.name].counts == c.wounds, c.name


async def test_refused_exchange_is_explained_and_skipped(make_test_app):
    """Сид: «Сражаться оружием ближнего боя … можно, разумеется, только в ближнем бою»."""
    app = make_test_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_on_one(pilot, app)
        await pilot.press("i")
        await pilot.pause()
        first = pane(app).encounter.next_declarer(pane(app)._can_act())
        # First declarer: melee at «далеко» — refused by the rules at resolution.
        await pilot.press("down", "down", "down", "right", "right", "right", "enter")
        await pilot.pause()
        await pilot.press("enter")  # the other side: melee back (close)
        await pilot.pause()
        assert pane(app).encounter.phase == "resolve"
        assert pane(app)._stage() == "refused"
        assert "вплотную" in pane(app)._refusal or "ближн" in pane(app)._refusal
        await pilot.press("s")
        await pilot.pause()
        texts = [e.text for e in app.store.log()]
        assert any("пропущена" in t for t in texts)
        assert first is not None


async def test_undo_restores_the_encounter_step(make_test_app):
    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_on_one(pilot, app)
        await pilot.press("i")
        await pilot.pause()
        assert pane(app).encounter.phase == "declare"
        await pilot.press("enter")  # one declaration
        await pilot.pause()
        assert len(pane(app).encounter.declarations) == 1
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert len(pane(app).encounter.declarations) == 0


async def test_a_refused_write_is_reported_and_changes_nothing(make_test_app, monkeypatch):
    """Issue 6: «A full disk or a read-only folder is a clear message and no lost state»."""
    from tui.store import StoreError

    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await one_on_one(pilot, app)
        before = pane(app).encounter

        def full_disk(*args, **kwargs):
            raise StoreError("Диск заполнен: освободите место — изменения не сохранены.")

        monkeypatch.setattr(app.store, "put_doc", full_disk)
        await pilot.press("i")  # initiative would start round 1 — the write fails
        await pilot.pause()
        assert pane(app).encounter == before
        assert pane(app).encounter.phase == "setup"
        messages = [n.message for n in app._notifications]
        assert any("Диск заполнен" in m for m in messages)
