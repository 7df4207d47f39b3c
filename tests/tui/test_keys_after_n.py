"""Play16: a key typed right after «n» (next round) in the Древо fight reaches the new form."""

from __future__ import annotations

from textual import events

from tests.tui.test_combat import pane
from tests.tui.test_combat_fight import resolve_all, to_dice


async def test_a_key_typed_right_after_n_reaches_the_declaration_form(make_test_app):
    """In tmux, «n →» sent at once: the new round's form came up with Ближний бой, the → lost."""
    app = make_test_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_dice(pilot, app)
        await resolve_all(pilot, app)
        before = str(pane(app).query_one("#declare-action").render())
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("right", None))
        await pilot.pause()
        await pilot.pause()
        assert pane(app).encounter.phase == "declare" and pane(app).encounter.round == 2
        after = str(pane(app).query_one("#declare-action").render())
        assert after != before, after


async def test_a_key_typed_right_after_n_moves_from_the_new_actor_even_after_a_slow_write(
    make_test_app, monkeypatch
):
    """In tmux, IDE4's «n ↓» sent at once left the cursor on the new actor: the ↓ moved it
    first, then the turn's redraw put it back. Then a helper's loaded run lost the ↓ of
    «n ↓»: the held keys were let go after 0.15 s (meant for a write waiting for another
    kubik's lock), and a write merely slow on a busy machine then sent the ↓ to the old
    turn. Keys wait for the write unless it waits for the lock (test_one_truth's lock
    tests: there the keys go on).

    One app for what were two pilot tests with the same setup,
    ``test_a_key_typed_right_after_n_moves_from_the_new_actor`` and
    ``test_a_key_typed_right_after_n_waits_for_a_slow_write_that_holds_no_lock``: «n ↓»
    once as it comes, then once with a write slower than SHOW_WAITING_AFTER."""
    import time

    from tui.widgets.combat import rounds_store

    write = rounds_store.write

    def slow(*args, **kwargs):
        time.sleep(0.5)  # a busy machine: longer than SHOW_WAITING_AFTER, no lock waited for
        return write(*args, **kwargs)

    app = make_test_app(seed=5, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        pane = await app.ensure_pane("combat")
        await pilot.press("i")
        await pilot.pause()
        table = pane.query_one("#rounds-table")
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("down", None))
        await pilot.pause()
        await pilot.pause()
        assert pane.tracker.turn == 1
        assert table.cursor_row == 2, "the ↓ typed after n was lost"
        monkeypatch.setattr(rounds_store, "write", slow)
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("down", None))
        await pilot.pause()
        await pilot.pause()
        assert pane.tracker.turn == 2
        assert table.cursor_row == 3, "the ↓ typed after n was lost behind a slow write"
