"""A thread's hand-over to an app that has closed is dropped at once (the players' view's
watch thread, after the view quit, left «coroutine … was never awaited» in the suite's run;
with the event loop still open, the thread waited for ever for an app that was gone)."""

from __future__ import annotations

import gc
import threading
import warnings

import pytest


def hand_over_from_a_thread(app) -> list[str]:
    ran: list[str] = []
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        worker = threading.Thread(target=app._on_ui, args=(lambda: ran.append("ran"),), daemon=True)
        worker.start()
        worker.join(timeout=5)
        assert not worker.is_alive(), "the thread still waits for the closed app"
        gc.collect()
    assert ran == []  # nothing is drawn on a closed app
    return [str(w.message) for w in seen if "never awaited" in str(w.message)]


@pytest.mark.parametrize("kind", ["app", "view"])
async def test_a_hand_over_after_the_app_closed_leaves_no_coroutine(
    kind, make_test_app, campaign_path
) -> None:
    from tui.store import Store
    from tui.view import make_view

    if kind == "view":
        Store.open(campaign_path).close()
        app = make_view(campaign_path, refresh_seconds=60)
    else:
        app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert hand_over_from_a_thread(app) == []
