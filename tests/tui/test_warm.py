"""Warming the hidden tabs (tui/widgets/common/warm.py, KubikApp.prebuild): a tab's first
visit finds its lines drawn, the warm-up never shows, never keeps a key waiting, and a tab whose
data changed after it was warmed shows the new data.

Each warmed app is compared with a cold one (no warm-up, each tab built on its first visit, as
tests build the app). The same runs check what else is drawn on those setups: the tabs built on
their first visits, the quiet tab switch (tui/widgets/common/tabs.py) against Textual's own, a
notice wiped from the terminal when it goes (tui/widgets/common/exposed.py), the IDE4 check's
first build, a settings change redrawing the Мир Тьмы builder. Checks that share an app setup
share its run; every assert says what it checks."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from textual import events
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.widget import Widget
from textual.widgets._toast import Toast

from tests.conftest import frozen_clock
from tui.app import make_app
from tui.services.startup import PREBUILT_TABS
from tui.store import Store
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


def _rename(app_or_store: Any) -> None:
    """Another kubik (or the CLI) renames the first hero: «Новое Имя»."""
    store = getattr(app_or_store, "store", app_or_store)
    first = store.characters()[0]
    store.upsert_character(replace(first, name="Новое Имя"))


def _rename_elsewhere(app: Any, path: Any) -> None:
    """Another kubik (or the CLI) renames the first hero of ``app``'s campaign at ``path``;
    ``app`` reads the file again (as its watch of the file would have it do)."""
    other = Store.open(path)
    _rename(other)
    other.close()
    app.store.refresh()


#: The tab keys pressed in turn; ``change``: another kubik renames a hero while Бой is hidden.
VISITS = ("2", "3", "4", "1", "change", "2", "3", "1", "4")


async def _visits(app: Any, pilot: Any, path: Any, seen: Any = None) -> list[tuple[str, Any]]:
    """Press each of :data:`VISITS` in turn; return the screen after each key. ``seen(i)`` is
    called after the ``i``-th key, before its screen is taken."""
    screens = []
    for i, key in enumerate(VISITS):
        if key == "change":
            _rename_elsewhere(app, path)
            await pilot.pause()
            continue
        await pilot.press(key)
        await pilot.pause()
        await pilot.pause()
        if seen is not None:
            seen(i)
        screens.append((key, _screen(app)))
    return screens


def _text_of(screen: list[list[Any]]) -> str:
    return "\n".join("".join(segment.text for segment in line) for line in screen)


@pytest.mark.slow
async def test_a_warmed_first_visit_and_each_quiet_switch_show_what_textual_shows_cold(
    campaign_path, tmp_path
) -> None:
    """A first ``2`` took ~45 ms of CPU, a third of it the Бой table's first lines: warmed, the
    first visit draws no line of that table. The quiet switch (tui/widgets/common/tabs.py: no
    repaint of the panes it swaps, warmed panes drawn from their caches, the tab bar restyled
    from its looks found ahead) shows on every tab, after every key, exactly the screen that
    Textual's own switch and restyle show on panes drawn cold (no warm-up), a pane changed
    while hidden included.

    Replaces the pilot tests (each a warmed app and a cold one, the same demo campaign):
    ``tests/tui/test_warm.py::test_a_warmed_first_visit_draws_no_table_line_and_shows_what_a_cold_one_does``
    (its cold app switched quietly; the cold app here switches as Textual does, which the
    quiet switch is to equal) and
    ``tests/tui/test_tabs.py::test_a_quiet_tab_switch_shows_what_textuals_switch_shows``."""
    from textual.widgets._tabbed_content import ContentTab

    from tui.widgets.common.tabs import TabbedPanes

    quiet = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with quiet.run_test(size=(80, 24)) as pilot:
        assert quiet.query_one(TabbedPanes).quiet, "kubik switches quietly"
        await _until_warm(quiet)
        before = _screen(quiet)
        assert quiet.query_one("#tabs").active == "party", "warmed unseen: the GM stays put"
        assert quiet.focused.id == "party-table", "warmed unseen: the focus stays put"
        assert "Подготовка боя" not in _text(quiet), "warmed unseen: nothing of Бой shown"
        roster = quiet.query_one("#combat-roster")
        assert roster._styles_cache._cache, "the Бой table's lines wait in its own cache"
        drawn = _count_lines_drawn(roster)
        first: dict[str, Any] = {}

        def seen(i: int) -> None:
            if i == 0:
                first.update(focused=quiet.focused, drawn=list(drawn))

        warm_seen = await _visits(quiet, pilot, campaign_path, seen)
        assert first["focused"] is roster, "the first 2 focuses the Бой table"
        assert first["drawn"] == [0], "every line of the Бой table came from the warm-up"
        assert warm_seen[3] == ("1", before), "back on 1: the party screen as it was"
        tab_styles = quiet.query_one(TabbedPanes)._tab_styles
        assert len(tab_styles) == 1 + 2 * 4, "both looks of the 4 tabs found ahead"
    cold_path = tmp_path / "cold.json"
    cold = make_app(cold_path, seed=7, clock=frozen_clock)
    async with cold.run_test(size=(80, 24)) as pilot:
        cold.query_one(TabbedPanes).quiet = False  # Textual's own switch
        for tab in cold.query(ContentTab):  # and Textual's own restyle of the tab bar
            del tab.update_node_styles
        await pilot.pause()
        expected = await _visits(cold, pilot, cold_path)
    assert [key for key, _s in warm_seen] == [key for key, _s in expected]
    for (key, screen), (_k, want) in zip(warm_seen, expected, strict=True):
        assert screen == want, f"after {key!r} the screens differ"
    assert "Новое Имя" in _text_of(warm_seen[4][1]), "the change is on screen"


@pytest.mark.slow
async def test_a_tab_changed_or_resized_after_its_warm_up_is_warmed_again_after_a_typed_key(
    campaign_path,
) -> None:
    """The warmed lines are the widgets' own caches: a redraw drops them, and the tab is warmed
    again in idle time, as after a resize (at the new size). A key typed but not yet handled
    comes before the next warm step. A notice that times out while the tabs are warmed again
    is wiped from the terminal. The first visit of Бой after the change draws no line of
    its table and shows what a cold app shows after the same change.

    Replaces the pilot tests (one warmed app each, the same demo campaign):
    ``tests/tui/test_warm.py::test_a_tab_changed_after_its_warm_up_shows_the_change``,
    ``tests/tui/test_warm.py::test_a_key_waiting_in_the_queue_comes_before_the_next_warm_step``
    (here the tab left to warm is one the change made cold) and
    ``tests/tui/test_warm.py::test_a_resize_warms_the_hidden_tabs_again_at_the_new_size``
    (here after Бой's first visit) and
    ``tests/tui/test_toast_wiped.py::test_an_undo_notice_that_timed_out_leaves_no_trace_on_the_terminal``
    (here after Бой's visit, before the resize: see
    :func:`_an_undo_notice_that_timed_out_leaves_no_trace`; its sabotage, MainScreen without
    ``KeptCompositor``, fails it as it failed the old test). The change is written by another
    kubik (the first of these wrote it through the app: the key bar then offered its undo).
    The cold app (the same demo campaign, no warm-up) also checks what the pilot tests
    ``tests/tui/test_tabs.py::test_first_screen_builds_only_the_party_tab``,
    ``tests/tui/test_tabs.py::test_a_pane_built_late_shows_what_changed_before`` and
    ``tests/tui/test_tabs.py::test_a_tab_switch_does_not_repaint_the_tabs_container`` checked
    on that app setup, one app each (:func:`_a_cold_app_builds_each_tab_on_its_first_visit`):
    it replaces them."""
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _until_warm(app)
        startup = app.services.startup
        old, changes = app.store.characters()[0].name, startup.store_changes
        _rename_elsewhere(app, campaign_path)
        assert startup.store_changes > changes, "the warmed tabs are out of date"
        # A key typed during the warm-up is answered before the next warm step.
        assert startup.next_tab(app._panes, app.screen_stack[0].size), "a tab left to warm"
        startup.last_key = 0.0  # long quiet: the next step would run now
        warmed = dict(startup.warmed)
        app.post_message(events.Key("4", "4"))  # typed, not yet handled
        app._prebuild_next()
        assert startup.warmed == warmed, "the warm step waits for the key"
        await pilot.pause()
        assert app.query_one("#tabs").active == "log", "the key was answered"
        await pilot.press("1")
        await _until_warm(app)
        drawn = _count_lines_drawn(app.query_one("#combat-roster"))
        await pilot.press("2")
        await pilot.pause()
        text = _text(app)
        assert "Новое Имя" in text and old not in text, "the change is shown"
        assert drawn == [0], "warmed again after the change"
        changed = _screen(app)
        await pilot.press("1")
        await _an_undo_notice_that_timed_out_leaves_no_trace(app, pilot)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.screen.size == (100, 30)
        await _until_warm(app)
        assert startup.warmed["combat"][0] == (100, 30), "warmed again at the new size"
        roster = app.query_one("#combat-roster")
        drawn = _count_lines_drawn(roster)
        await pilot.press("2")
        await pilot.pause()
        assert roster.size.width > 80 - 4, "laid out at the new width"
        assert drawn == [0], "no line of the Бой table drawn on the visit after the resize"
    await _a_cold_app_builds_each_tab_on_its_first_visit(campaign_path, changed)


async def _a_cold_app_builds_each_tab_on_its_first_visit(campaign_path: Any, changed: Any) -> None:
    """An app that warms nothing (as tests build it): its first screen builds only the party
    tab; a change another kubik made while the Бой tab was never opened is on it when it opens
    (the ``changed`` screen of the warmed app); a tab switch does not repaint the container
    behind the panes (it only draws a background: repainting it on each switch drew ~25 blank
    lines anew), while the tab bar still changes (the check can fail); each tab is built once
    and kept."""
    from textual.widgets import TabbedContent
    from textual.widgets._tabbed_content import ContentTabs

    cold_path = campaign_path.with_name("cold.json")
    cold = make_app(cold_path, seed=7, clock=frozen_clock)
    async with cold.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert set(cold._panes) == {"party"}, "the first screen builds the party tab only"
        assert not cold.query("#combat-pane"), "no Бой pane before its visit"
        assert not cold.query("#check-pane"), "no Проверка pane before its visit"
        _rename_elsewhere(cold, cold_path)
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert _screen(cold) == changed, "the changed tab shows what a cold visit shows"
        assert cold.query_one("#combat-pane").has_focus_within, "2 opens Бой, focused"
        names = [c.name for c in cold.query_one("#combat-pane").characters.values()]
        assert "Новое Имя" in names, "a pane built late shows what changed before"
        await pilot.press("1")
        await pilot.pause()
        repainted: list[str] = []
        for widget in (cold.query_one(TabbedContent), cold.query_one(ContentTabs)):
            set_dirty = widget._set_dirty

            def counting(*regions: object, name: str = type(widget).__name__, f=set_dirty) -> None:
                repainted.append(name)
                f(*regions)

            widget._set_dirty = counting  # type: ignore[method-assign]
        await pilot.press("2")
        await pilot.pause()
        assert "ContentTabs" in repainted, "the tab bar is repainted (the counting works)"
        assert "TabbedPanes" not in repainted, "the container behind the panes is not"
        await pilot.press("4", "3", "1")
        await pilot.pause()
        assert set(cold._panes) == {"party", "combat", "check", "log"}, "every tab built"
        assert len(cold.query("#combat-pane")) == 1, "Бой built once, kept"


@pytest.mark.slow
@pytest.mark.parametrize("system", ["ide4", "starately", "wod"])
async def test_the_other_systems_tabs_warm_and_show_what_a_cold_visit_does(
    tmp_path, system, monkeypatch
) -> None:
    """Each system's Бой and Проверка tabs, warmed, show on their first visits what an app
    that warms nothing shows. That cold app (the system's demo campaign, seeded dice, frozen
    clock, no warm-up) is also where the checks made on the same app setup run: for IDE4,
    :func:`_ide4_first_builds_draw_once`; for Мир Тьмы, :func:`_wod_settings_redraw_the_builder`.

    Replaces the pilot tests (each a cold app of that system's demo campaign):
    ``tests/tui/test_tabs.py::test_a_first_visit_lays_the_screen_out_once_built`` and
    ``tests/tui/test_first_builds.py::test_the_ide4_check_draws_its_odds_at_most_twice`` (IDE4)
    and ``tests/tui/test_tabs.py::test_a_settings_change_redraws_the_builder`` (Мир Тьмы)."""
    warm_path, cold_path = tmp_path / "warm.json", tmp_path / "cold.json"
    app = make_app(warm_path, system=system, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        screens = []
        for key in ("2", "3"):
            await pilot.press(key)
            await pilot.pause()
            screens.append(_screen(app))
    redraws = _count_ide4_redraws(monkeypatch) if system == "ide4" else []
    cold = make_app(cold_path, system=system, seed=7, clock=frozen_clock)
    async with cold.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        half_built = _watch_half_built_layouts(cold, monkeypatch)
        for key, warmed in zip(("2", "3"), screens, strict=True):
            await pilot.press(key)
            await pilot.pause()
            assert _screen(cold) == warmed, f"the first visits of {key} differ"
        if system == "ide4":
            await _ide4_first_builds_draw_once(cold, pilot, redraws, half_built)
        if system == "wod":
            await _wod_settings_redraw_the_builder(cold, pilot)


def _count_ide4_redraws(monkeypatch: Any) -> list[str]:
    """Count the IDE4 check's redraws from now on (each one's phase)."""
    from tui.systems.ide4.builder.builder import Ide4Builder

    drawn: list[str] = []
    redraw = Ide4Builder.redraw

    def counted(self: Any) -> None:
        drawn.append(self.phase)
        redraw(self)

    monkeypatch.setattr(Ide4Builder, "redraw", counted)
    return drawn


def _watch_half_built_layouts(app: Any, monkeypatch: Any) -> list[str]:
    """Note each tab whose pane is half built (mounted, composing, filling) when the screen is
    laid out, from now on."""
    from textual.screen import Screen

    half_built: list[str] = []
    layout = Screen._refresh_layout

    def watched(self: Any, *args: Any, **kwargs: Any) -> Any:
        half_built.extend(t for t in app._building if t not in app._panes)
        return layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", watched)
    return half_built


async def _ide4_first_builds_draw_once(
    app: Any, pilot: Any, drawn: list[str], half_built: list[str]
) -> None:
    """The screen is not laid out while a tab's pane is half built: each such layout of the
    whole screen was CPU the GM waited for. And a tab's first build draws its content once or
    twice, not at every step: the IDE4 check, mounted (after its first refresh) and given the
    party, sets the form's defaults (the difficulty, the level, the new difficulty) quietly,
    not as three more changes; a change the GM makes still redraws. (Run after the first
    visits of 2 and 3; the old test pressed 2, 4 and 3 without a pause between.)"""
    from textual.widgets import Static

    from tui.systems.ide4.builder.builder import Ide4Builder

    assert app.query_one("#check-pane").region.height > 0, "the check laid out after all"
    assert 1 <= len(drawn) <= 2, f"the IDE4 check drawn {len(drawn)} times on its build"
    form = app.query_one("#check-pane", Ide4Builder).form
    defaults = (form.value("base"), form.level, form.value("open"))
    assert defaults == (3, "standard", 5), "the form's defaults"
    status = str(app.query_one("#ide4-status", Static).render())
    assert "[3]" in status, "the difficulty line is drawn, for the default difficulty"
    before = len(drawn)
    await pilot.press("right")  # a change the GM makes still redraws
    assert len(drawn) == before + 1, "a change the GM makes redraws once"
    await pilot.press("4")
    await pilot.pause()
    assert set(app._panes) == {"party", "check", "combat", "log"}, "every tab built"
    assert half_built == [], "no layout of the screen while a pane was half built"
    assert app.query_one("#log-pane").region.height > 0, "the Журнал laid out after all"


async def _wod_settings_redraw_the_builder(app: Any, pilot: Any) -> None:
    """The exceptional threshold is campaign data: changing it changes the open builder."""
    from textual.widgets import Static

    notes = app.query_one("#wod-notes", Static)
    assert "от 5 успехов" in str(notes.render()), "the default threshold"
    table = {
        "pool": {"success_threshold": 8, "again": 10, "exceptional": 3},
        "chance": {"withdrawal_allowed": True},
    }
    app.store.put_doc("settings", {"wod/pool.toml": table}, label="Настройки")
    await pilot.pause()
    assert "от 3 успехов" in str(notes.render()), "the changed threshold, drawn"


@pytest.mark.slow
async def test_a_warm_up_that_fails_is_given_up_and_warming_by_hand_shows_nothing(
    campaign_path, monkeypatch
) -> None:
    """The warm-up leans on Textual's internals: should they move, the GM loses nothing (the
    app's warm-up is tried once, then given up, and the tabs still open). And :func:`warm`
    itself shows nothing and moves nothing: the hidden Бой pane it lays out and draws stays
    hidden, the screen, the focus and what reaches the terminal stay as they were.

    Replaces the pilot tests
    ``tests/tui/test_warm.py::test_a_warm_up_that_fails_is_given_up_and_the_tabs_still_open``
    (the tab opened here is the Проверка, built ahead and never warmed: the Бой pane is
    warmed by hand in between) and
    ``tests/tui/test_warm.py::test_warming_shows_nothing_and_moves_nothing`` (its Бой pane here
    built ahead by the app, as kubik does, not by the test; never shown either)."""
    import tui.app

    calls = []

    def broken(*args: Any, **kwargs: Any) -> str:
        calls.append(args)
        raise AttributeError("_compositor")

    monkeypatch.setattr(tui.app, "warm", broken)  # the app's; the test's own is the real one
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until_warm(app)
        assert len(calls) == 1, "the app's warm-up tried once, then given up"
        pane = app._panes["combat"]
        before, focused = _screen(app), app.focused
        frames: list[Any] = []
        display = app._display
        app._display = lambda screen, update: frames.append(update) or display(screen, update)
        tab = app.query_one("TabPane#combat")
        results = [warm(app.screen, tab) for _ in range(3)]
        await pilot.pause()
        assert results[0] == "resized", "first laid out (new sizes)"
        assert results[-1] == "warmed", "then drawn"
        assert pane.query_one("#combat-roster")._styles_cache._cache, "its lines are cached"
        assert not tab.display, "the warmed tab stays hidden"
        assert app.query_one("TabPane#party").display, "the shown tab stays shown"
        assert app.focused is focused, "the focus stays put"
        assert not app.query_one("#combat-roster").has_focus, "the Бой table has no focus"
        assert _screen(app) == before, "the screen is as it was"
        written = "".join(f.render_segments(app.console) for f in frames if f is not None)
        assert "Подготовка" not in written, "nothing of the hidden tab reached the terminal"
        party = app.query_one("TabPane#party")
        assert warm(app.screen, party) == "skipped", "a shown tab is left alone"
        del app._display  # the app's own again
        await pilot.press("3")
        await pilot.pause()
        assert "Бросок: 4dF" in _text(app), "given up, the tabs still open"
    assert app.return_code in (None, 0), "the app ended well"


class Terminal:
    """The cells a terminal shows: each frame the app sends is written into them."""

    def __init__(self, width: int, height: int) -> None:
        self.rows = [[" "] * width for _ in range(height)]

    def _put(self, x: int, y: int, text: str, x1: int = 0, x2: int | None = None) -> None:
        row = self.rows[y]
        end = len(row) if x2 is None else x2
        for offset, char in enumerate(text):
            if x1 <= x + offset < end:
                row[x + offset] = char

    def write(self, update: Any) -> None:
        if isinstance(update, LayoutUpdate):
            for y, line in enumerate(update.strips, update.region.y):
                x = update.region.x
                for strip in line:
                    self._put(x, y, strip.text)
                    x += strip.cell_length
        elif isinstance(update, ChopsUpdate):
            for y, x1, x2 in update.spans:
                for x, strip in update.chops[y].items():
                    if strip is not None:
                        self._put(x, y, strip.text, x1, x2 + 1)

    @property
    def text(self) -> str:
        return "\n".join("".join(row) for row in self.rows)


async def _an_undo_notice_that_timed_out_leaves_no_trace(app: Any, pilot: Any) -> None:
    """Played in tmux (s6 playbook): after Ctrl+Z the «Отменено: …» notice stayed on the
    terminal for good, over the fight's lines, once kubik had warmed its hidden tabs: the app
    had removed it, but no frame repainted the cells under it. The notice's cells are repainted
    when it goes, while the hidden tabs are warmed. Its timeout is run at once (its timer's
    callback) rather than waited for."""
    terminal = Terminal(*app.screen.size)
    shown = app._display

    def display(screen: Any, update: Any) -> None:
        terminal.write(update)
        shown(screen, update)

    app._display = display  # type: ignore[method-assign]
    await _until_warm(app)
    app.screen.refresh()  # one whole frame: the terminal model starts from the screen
    await pilot.pause()
    # Long enough to outlast the warm-up below, however slow the machine: the notice's timer
    # is then run at once (Toast._expire), not waited for.
    app.NOTIFICATION_TIMEOUT = 60
    await pilot.press("g")  # +1 Судьба: a change to undo
    await app.services.writes_done()
    await pilot.press("ctrl+z")
    await app.services.writes_done()
    await pilot.pause()
    assert "Отменено" in terminal.text, "the undo's notice is on the terminal"
    await _until_warm(app)  # the change warms the hidden tabs again, the notice still up
    toasts = list(app.screen.query(Toast))
    assert toasts, "the notice went before the warm-up: nothing is tested"
    for toast in toasts:
        toast._expire()  # what the notice's timer does when its time is up
    await pilot.pause(0.2)
    assert not app.screen.query(Toast), "the notice is gone from the app"
    assert "Отменено" not in terminal.text, "and from the terminal"
    del app._display  # the app's own again
