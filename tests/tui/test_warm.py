"""Warming the hidden tabs (tui/widgets/common/warm.py, KubikApp.prebuild): a tab's first
visit finds its lines drawn, the warm-up never shows, never keeps a key waiting, and a tab whose
data changed after it was warmed shows the new data."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from textual import events
from textual.widget import Widget

from tests.conftest import frozen_clock
from tui.app import make_app
from tui.services.startup import PREBUILT_TABS
from tui.widgets.common.warm import warm

#: These tests are about which lines a visit draws and what reaches the terminal: every
#: frame is composed, as in a terminal.
pytestmark = pytest.mark.usefixtures("every_frame")


def _is_warm(app: Any, tab: str) -> bool:
    return app.services.startup.is_warm(tab, app.screen_stack[0].size)


async def _until_warm(app: Any) -> None:
    """Wait until every hidden tab is built and warmed (kubik does it in idle time), and the
    warm-up has nothing left to do but look again later."""
    for _ in range(300):
        await asyncio.sleep(0.05)
        if set(PREBUILT_TABS) <= set(app._panes) and all(_is_warm(app, t) for t in PREBUILT_TABS):
            await asyncio.sleep(0.2)  # its last step's follow-up has found nothing to do
            return
    raise AssertionError(f"not warmed: {app.services.startup.warmed}")


def _screen(app: Any) -> list[list[Any]]:
    """What the screen shows now: every line's segments (text and style)."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def _text(app: Any) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _count_lines_drawn(widget: Widget) -> list[int]:
    """Count the content lines ``widget`` renders from now on (its line-cache misses)."""
    drawn = [0]
    render_line = widget.render_line

    def counted(y: int) -> Any:
        drawn[0] += 1
        return render_line(y)

    widget.render_line = counted  # type: ignore[method-assign]
    return drawn


async def _visit_cold(campaign_path: Any, key: str, change: Any = None) -> list[list[Any]]:
    """The screen of a first visit of ``key`` in an app that warms nothing."""
    app = make_app(campaign_path, seed=7, clock=frozen_clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if change is not None:
            change(app)
            await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        return _screen(app)


async def test_a_warmed_first_visit_draws_no_table_line_and_shows_what_a_cold_one_does(
    campaign_path,
) -> None:
    """A first `2` took ~45 ms of CPU, a third of it the Бой table's first lines."""
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        before = _screen(app)
        assert app.query_one("#tabs").active == "party"  # warmed unseen: the GM stays put
        assert app.focused.id == "party-table"
        assert "Подготовка боя" not in _text(app)
        roster = app.query_one("#combat-roster")
        assert roster._styles_cache._cache  # its lines wait in its own cache
        drawn = _count_lines_drawn(roster)
        await pilot.press("2")
        await pilot.pause()
        assert app.focused is roster
        assert drawn == [0]  # every line of the table came from the warm-up
        warmed = _screen(app)
        await pilot.press("1")
        await pilot.pause()
        assert _screen(app) == before
    assert warmed == await _visit_cold(campaign_path, "2")


async def test_warming_shows_nothing_and_moves_nothing(campaign_path) -> None:
    app = make_app(campaign_path, seed=7, clock=frozen_clock)  # no idle-time warm-up
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = await app.ensure_pane("combat")
        await pilot.pause()
        before, focused = _screen(app), app.focused
        frames: list[Any] = []
        display = app._display
        app._display = lambda screen, update: frames.append(update) or display(screen, update)
        tab = app.query_one("TabPane#combat")
        results = [warm(app.screen, tab) for _ in range(3)]
        await pilot.pause()
        assert results[-1] == "warmed" and results[0] == "resized"
        assert pane.query_one("#combat-roster")._styles_cache._cache
        assert not tab.display and app.query_one("TabPane#party").display
        assert app.focused is focused and not app.query_one("#combat-roster").has_focus
        assert _screen(app) == before
        written = "".join(f.render_segments(app.console) for f in frames if f is not None)
        assert "Подготовка" not in written  # nothing of the hidden tab reached the terminal
        assert warm(app.screen, app.query_one("TabPane#party")) == "skipped"  # shown: left alone


@pytest.mark.slow
async def test_a_tab_changed_after_its_warm_up_shows_the_change(campaign_path) -> None:
    """The warmed lines are the widgets' own caches: a redraw drops them (and the tab is
    warmed again in idle time)."""

    def rename(app: Any) -> None:
        first = app.store.characters()[0]
        app.store.upsert_character(replace(first, name="Новое Имя"))

    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        old, changes = app.store.characters()[0].name, app.services.startup.store_changes
        rename(app)
        await pilot.pause()
        assert app.services.startup.store_changes > changes  # the warmed tabs are out of date
        await _until_warm(app)
        drawn = _count_lines_drawn(app.query_one("#combat-roster"))
        await pilot.press("2")
        await pilot.pause()
        text = _text(app)
        assert "Новое Имя" in text and old not in text
        assert drawn == [0]  # warmed again after the change
        warmed = _screen(app)
    assert warmed == await _visit_cold(campaign_path.with_name("cold.json"), "2", rename)


async def test_a_key_waiting_in_the_queue_comes_before_the_next_warm_step(campaign_path) -> None:
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            await asyncio.sleep(0.05)
            if set(PREBUILT_TABS) <= set(app._panes):
                break
        for building in list(app._building.values()):
            await building
        app.services.startup.last_key = 0.0  # long quiet: the next step would run now
        warmed = dict(app.services.startup.warmed)
        app.post_message(events.Key("4", "4"))  # typed, not yet handled
        app._prebuild_next()
        assert app.services.startup.warmed == warmed  # the step waits for the key
        await pilot.pause()
        assert app.query_one("#tabs").active == "log"  # the key was answered


@pytest.mark.slow
async def test_a_resize_warms_the_hidden_tabs_again_at_the_new_size(campaign_path) -> None:
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.screen.size == (100, 30)
        await _until_warm(app)
        assert app.services.startup.warmed["combat"][0] == (100, 30)
        roster = app.query_one("#combat-roster")
        drawn = _count_lines_drawn(roster)
        await pilot.press("2")
        await pilot.pause()
        assert roster.size.width > 80 - 4  # laid out at the new width
        assert drawn == [0]


@pytest.mark.parametrize("system", ["ide4", "starately", "wod"])
async def test_the_other_systems_tabs_warm_and_show_what_a_cold_visit_does(
    tmp_path, system
) -> None:
    warm_path, cold_path = tmp_path / "warm.json", tmp_path / "cold.json"
    app = make_app(warm_path, system=system, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        screens = []
        for key in ("2", "3"):
            await pilot.press(key)
            await pilot.pause()
            screens.append(_screen(app))
    cold = make_app(cold_path, system=system, seed=7, clock=frozen_clock)
    async with cold.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key, warmed in zip(("2", "3"), screens, strict=True):
            await pilot.press(key)
            await pilot.pause()
            assert _screen(cold) == warmed, key


async def test_a_warm_up_that_fails_is_given_up_and_the_tabs_still_open(
    campaign_path, monkeypatch
) -> None:
    """The warm-up leans on Textual's internals: should they move, the GM loses nothing."""
    import tui.app

    calls = []

    def broken(*args: Any, **kwargs: Any) -> str:
        calls.append(args)
        raise AttributeError("_compositor")

    monkeypatch.setattr(tui.app, "warm", broken)
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        assert len(calls) == 1  # tried once, then given up
        await pilot.press("2")
        await pilot.pause()
        assert "Подготовка боя" in _text(app)
    assert app.return_code in (None, 0)
