"""A thread's hand-over to an app that has closed is dropped at once (the players' view's
watch thread, after the view quit, left «coroutine … was never awaited» in the suite's run;
with the event loop still open, the thread waited for ever for an app that was gone)."""

from __future__ import annotations

import gc
import threading
import warnings


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


async def test_a_hand_over_after_the_view_closed_leaves_no_coroutine(campaign_path) -> None:
    """The players' view, run and closed; then a thread hands it work.

    Replaces the pilot test
    `tests/tui/test_closed_hand_over.py::test_a_hand_over_after_the_app_closed_leaves_no_coroutine[view]`
    (its ``[app]`` case is ``test_the_gms_app_hands_over_as_the_view_does``)."""
    from tui.store import Store
    from tui.view import make_view

    Store.open(campaign_path).close()
    app = make_view(campaign_path, refresh_seconds=60)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert hand_over_from_a_thread(app) == []


def test_the_gms_app_hands_over_as_the_view_does() -> None:
    """The GM's app and the players' view hand a thread's work over with the one
    ``UiHandOver._on_ui`` (``tui/handover.py``), which the view's run above proves after a
    close: neither app class has its own.

    Replaces the pilot test
    `tests/tui/test_closed_hand_over.py::test_a_hand_over_after_the_app_closed_leaves_no_coroutine[app]`,
    which ran and closed the GM's app for the same hand-over the view's run checks."""
    from tui.app import KubikApp
    from tui.handover import UiHandOver
    from tui.view import ViewApp

    for app_class in (KubikApp, ViewApp):
        assert app_class._on_ui is UiHandOver._on_ui, app_class.__name__
        assert not any("_on_ui" in vars(c) for c in app_class.__mro__ if c is not UiHandOver), (
            app_class.__name__
        )
