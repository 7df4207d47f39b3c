"""Issue 30, the pace of a Древо round at the keys: typing selects in a ◀ ▶ row, a round of
unchanged declarations is one key, one declaration is changed in place."""

from __future__ import annotations

from dataclasses import replace

from tests.tui.test_combat import declare_blows, keep_only, pane
from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.session import FightSession


async def to_round_two(pilot, app, names) -> None:
    """Keep ``names`` in the fight, roll initiative and fight round 1 (:func:`round_one`)."""
    await keep_only(pilot, app, names)
    await pilot.press("i")
    await round_one(pilot, app)


async def round_one(pilot, app) -> None:
    """Fight round 1 (blows declared, every exchange rolled and accepted on the engine,
    through a second store on the campaign: the tab is drawn once, when it picks the whole
    round up) and stop at round 2's declarations."""
    await declare_blows(pilot, app)
    with Store.open(app.store.path) as other:
        session = FightSession(other, pane(app).world().dice)
        while session.run(steps.accept).ok or session.run(steps.roll).ok:
            pass
        session.run(steps.next_round)
    app._refresh_store()  # what the file watch does
    await pilot.pause()
    assert pane(app).encounter.round == 2 and pane(app).encounter.phase == "declare"


async def test_a_round_as_the_last_is_one_key_and_a_declaration_changes_in_place(
    make_test_app,
) -> None:
    """Round 2 of unchanged declarations: `r` declares everyone and the dice begin (one undo
    step); `c` changes one declaration before the dice, the others stay.

    (Issue 30's restart on the fight in progress, this test's second app until now — which
    had been the pilot test ``test_a_restart_opens_on_the_fight_in_progress`` — is asserted
    in `tests/tui/test_combat_fight.py::test_a_quit_between_roll_and_accept_keeps_the_roll`,
    whose app is a restart on a fight in the dice phase.)"""
    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_round_two(pilot, app, ("Ярослав Кречет", "Атаман Шкуро"))
        await pilot.press("r")
        await pilot.pause()
        enc = pane(app).encounter
        assert enc.phase == "resolve"
        before = {d.actor: replace(d, note="", exception="") for d in enc.previous}
        assert {d.actor: d for d in enc.declarations} == before
        await pilot.press("c")
        await pilot.pause()
        first = app.screen.choices[0].value
        await pilot.press("enter")  # change the first declaration
        await pilot.pause()
        await pilot.press("у", "к", "enter")  # to «Уклонение», declared
        await pilot.pause()
        enc = pane(app).encounter
        changed = {d.actor: d for d in enc.declarations}
        assert changed[first].action == "dodge"
        assert {d.actor: d for d in enc.declarations if d.actor != first} == {
            k: d for k, d in before.items() if k != first
        }
        assert pane(app).query_one("#combat-resolve").display


async def test_a_three_against_three_round_of_unchanged_declarations_is_under_twenty_keys(
    make_test_app,
) -> None:
    """Issue 30's measure: «a GM runs a 3-vs-3 round of unchanged declarations in under 20
    keys» — from round 2's declarations to round 3's: `r`, then the key the screen asks for at
    each step (Enter to roll, to accept, to write the damage; `y` at a hit that takes a fighter
    out with Судьба left), then `n`. On the way, round 1's first form: «Ми» → Милава, Cyrillic
    letters choose the option that starts so (or a word of it); Latin letters stay the pane's
    keys (the pilot test ``test_typing_selects_in_a_row`` before, on the same kind of fight)."""
    from textual.screen import ModalScreen

    app = make_test_app(seed=5)
    three = ("Ярослав Кречет", "Милава", "Горан Рябой", "Атаман Шкуро", "Лыко", "Сотник Вышата")
    async with app.run_test(size=(80, 24)) as pilot:
        await keep_only(pilot, app, three)
        await pilot.press("i")
        await pilot.pause()
        # Round 1's first form: typing selects in a row.
        form = app.query_one("#combat-form")
        target = form.query_one("#declare-target")
        declarer = pane(app).encounter.next_declarer(lambda cid: True)
        target.focus()
        await pilot.pause()
        wanted = "Лыко" if declarer.side == "Отряд" else "Милава"
        await pilot.press(*("лы" if wanted == "Лыко" else "ми"))
        assert target.options[target.index][0] == wanted, "typing did not select"
        await pilot.press("с")  # after a pause-free «лы», «с» starts a new word
        action = form.query_one("#declare-action")
        action.focus()
        await pilot.press("у", "к")
        assert action.value == "dodge", "«ук» did not select «Уклонение»"
        await round_one(pilot, app)
        keys = ["r"]
        await pilot.press("r")
        await app.services.writes_done()
        await pilot.pause()
        while pane(app).encounter.phase == "resolve" and pane(app).encounter.pending():
            key = "y" if isinstance(app.screen, ModalScreen) else "enter"
            keys.append(key)
            await pilot.press(key)
            await app.services.writes_done()
            await pilot.pause()
            assert len(keys) < 60, "the round does not end"
        keys.append("n")
        await pilot.press("n")
        await app.services.writes_done()
        await pilot.pause()
        assert pane(app).encounter.round == 3, keys
        assert len(keys) < 20, keys
