"""Play16: a key typed right after «n» (next round) reaches what the new round shows: here
the round tracker's turn (and «n» redrawn once). The Древо fight's form (this file's
test_a_key_typed_right_after_n_reaches_the_declaration_form before): tests/tui/
test_combat_fight.py::test_the_dice_phase_undone_redraws_exactly_and_keys_work_after_the_end_undone."""

from __future__ import annotations

from textual import events

from tests.tui.test_key_work import count_calls


async def test_n_redraws_once_and_a_key_typed_right_after_it_moves_from_the_new_actor(
    make_test_app, monkeypatch
):
    """IDE4's round tracker, three «n» in a row:

    - «n» is one store write: the pane is redrawn from the store's notice of it once (the
      write's pending and done states change only the status line), and the key bar reads
      the keys once.
    - In tmux, «n ↓» sent at once left the cursor on the new actor: the ↓ moved it first,
      then the turn's redraw put it back.
    - Then a helper's loaded run lost the ↓ of «n ↓»: the held keys were let go after 0.15 s
      (meant for a write waiting for another kubik's lock), and a write merely slow on a
      busy machine then sent the ↓ to the old turn. Keys wait for the write unless it waits
      for the lock (test_one_truth's lock tests: there the keys go on).

    One app for what were three pilot tests with the same setup (IDE4's Бой, initiative):
    tests/tui/test_key_work.py::test_next_turn_redraws_the_round_tracker_once,
    ``test_a_key_typed_right_after_n_moves_from_the_new_actor`` and
    ``test_a_key_typed_right_after_n_waits_for_a_slow_write_that_holds_no_lock``."""
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
        before = pane.tracker.actor
        redraws = count_calls(pane, "_redraw")
        keys = count_calls(app.query_one("KeyBar"), "current_keys")
        await pilot.press("n")
        await pilot.pause()
        assert pane.tracker.actor != before, "n did not pass the turn"
        assert redraws[0] == 1, f"the pane redrawn {redraws[0]} times"
        assert keys[0] == 1, f"the key bar read the keys {keys[0]} times"
        assert "Сохраняется" not in str(pane.query_one("#rounds-status").render())
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("down", None))
        await pilot.pause()
        await pilot.pause()
        assert pane.tracker.turn == 2
        assert table.cursor_row == 3, "the ↓ typed after n was lost"
        monkeypatch.setattr(rounds_store, "write", slow)
        app.post_message(events.Key("n", "n"))
        app.post_message(events.Key("down", None))
        await pilot.pause()
        await pilot.pause()
        assert pane.tracker.turn == 3
        assert table.cursor_row == 4, "the ↓ typed after n was lost behind a slow write"
