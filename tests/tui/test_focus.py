"""The focus contract (issue 16): no key leaves a GM stuck, and the key bar always has keys.

One test per stuck state the issue lists: the size notice that no key quit, ↓ past a form's
last field, the modifier field that Esc/↑/↓ could not leave, a key arriving while nothing had
the focus, and the key bar cut at 80 columns.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from tui.view import make_view
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.toosmall import TooSmallScreen

SYSTEMS = ("drevo", "ide4", "starately", "wod")


def bar(app) -> list[str]:
    """Return the key bar's line as the GM reads it at the app's width."""
    keybar = app.query_one(KeyBar)
    return [f"{key} {text}".strip() for key, text, _on in keybar.fitted(keybar.size.width)]


def bar_line(app) -> str:
    keybar = app.query_one(KeyBar)
    return keybar.render().plain


# -- the size notice -------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["ctrl+q", "q", "ctrl+c"])
async def test_every_quit_key_quits_from_the_size_notice(make_test_app, key) -> None:
    """«Ctrl+Q — выход» on the notice, and no key quit: a modal screen hid the app's keys."""
    app = make_test_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press(key)
        await pilot.pause()
        assert app._exit, f"{key} did not quit from the size notice"


@pytest.mark.parametrize("key", ["ctrl+q", "q"])
async def test_the_view_quits_from_the_size_notice(make_test_app, campaign_path, key) -> None:
    make_test_app()  # opening the store writes the demo campaign to disk
    app = make_view(campaign_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press(key)
        await pilot.pause()
        assert app._exit


async def test_ctrl_q_quits_from_a_dialog(make_test_app) -> None:
    """A dialog (here `?`) is a modal screen: Ctrl+Q must still quit."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.is_modal
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app._exit


# -- ↓ past the last field, and the modifier field -------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
async def test_down_past_the_builders_last_field_stays_in_the_builder(make_test_app, system):
    """↓ past Проверка's last field left the focus outside the builder: the bar showed only
    «^q Выход / Бросок ? Клавиши», and `k`, Enter and ↑ did nothing."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        builder = app.query_one("#check-pane")
        for _ in range(25):
            await pilot.press("down")
            await pilot.pause()
            assert app.focused is not None and builder in app.focused.ancestors_with_self
            assert "⏎" in " ".join(bar(app)), f"no Enter on the bar at {app.focused!r}"


async def test_down_past_the_declaration_note_stays_in_the_form(make_test_app) -> None:
    """The Бой declaration: ↓ from the note field wrapped nowhere, and Enter there did nothing.
    Esc in the form goes back to the tab's first control."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "i")  # side initiative: the first declaration form
        await pilot.pause()
        await pilot.press("down", "down", "escape")
        await pilot.pause()
        assert app.focused.id == "declare-action"
        form = app.query_one("#combat-form")
        for _ in range(6):  # Действие, Цель, Оружие, Дистанция, Ходы, Против других, note
            await pilot.press("down")
        await pilot.pause()
        assert isinstance(app.focused, Input) and app.focused.id == "declare-note"
        assert "⏎ Объявить" in bar(app)
        await pilot.press("down")
        assert app.focused.id == "declare-action" and form in app.focused.ancestors
        await pilot.press("up")  # back to the note, and Enter declares from it
        assert app.focused.id == "declare-note"
        pane = app.query_one("#combat-pane")
        before = len(pane.encounter.declarations)
        await pilot.press("enter")
        await pilot.pause()
        assert len(pane.encounter.declarations) == before + 1


async def test_the_modifier_field_lets_go_on_esc_up_and_down_and_enter_rolls(make_test_app):
    """Esc, ↑ and ↓ each take the focus out of the modifier field to another control of the
    builder (each from the field again); Enter in it rolls with what was typed."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        mods = app.query_one("#check-mods", Input)
        for key in ("escape", "up", "down"):
            mods.focus()
            await pilot.pause()
            assert "⏎ Бросить" in bar(app) and "Esc Назад" in bar(app)
            await pilot.press(key)
            await pilot.pause()
            assert app.focused is not mods and app.focused is not None, key
            assert app.query_one("#check-pane") in app.focused.ancestors, key
        mods.focus()
        await pilot.press(*"+1 высота", "enter")
        await pilot.pause()
        assert "→ +4 против 0" in app.store.log()[0].text  # Врачевание +3, +1 typed


async def test_a_key_while_nothing_has_the_focus_goes_to_the_tab(make_test_app) -> None:
    """IDE4's «n» after a roll hid the focused result box: the keys typed right after it,
    before the queued focus moved, went to the app's keys (`4` switched tabs)."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # roll: the focus is on the result box
        await pilot.pause()
        app.screen.set_focus(None)  # what a hidden focused box leaves behind
        app.post_message(events.Key("k", "k"))  # the builder's «Риск» card
        await pilot.pause()
        assert type(app.screen).__name__ == "CardScreen"


async def test_escape_still_clears_the_party_filter_and_tab_cycles_inside_the_tab(
    make_test_app,
) -> None:
    """Esc in the party filter clears it and goes back to the table. Tab reached the tab bar,
    where the key bar offers nothing of the tab: Tab and Shift+Tab stay in the builder."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()  # the party table ready: «f» before it went to no filter at all
        await pilot.press("f", *"Гор")
        await pilot.pause()
        assert app.query_one("#party-filter", Input).value == "Гор"  # what Esc must clear
        await pilot.press("escape")
        await pilot.pause()
        assert app.query_one("#party-filter", Input).value == ""
        assert app.focused.id == "party-table"
        await pilot.press("3")
        builder = app.query_one("#check-pane")
        for key in ["tab"] * 8 + ["shift+tab"] * 8:
            await pilot.press(key)
            assert builder in app.focused.ancestors, f"{key} left the builder"


# -- the key bar at 80 columns ---------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_key_bar_never_cuts_the_question_mark(make_test_app, system) -> None:
    """«? Клавиш», «? Клав»: at 80 columns `?` itself fell off the bar."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        for keys in (["1"], ["2"], ["2", "i"], ["3"], ["3", "enter"], ["4"]):
            await pilot.press(*keys)
            await pilot.pause()
            line = bar_line(app).rstrip()
            assert line.endswith("? Клавиши"), f"{system} {keys}: {line!r}"
            assert "^Q Выход" in line
            assert len(line) <= 80


async def test_the_key_bar_drops_the_least_important_keys_first(make_test_app) -> None:
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keybar = app.query_one(KeyBar)
        full = [text for _k, text, _on in keybar.fitted(10_000)]
        narrow = [text for _k, text, _on in keybar.fitted(40)]
        assert narrow[0] == full[0]  # the first key of the tab stays
        assert narrow[-2:] == ["Выход", "Клавиши"] or narrow[-1] == "Клавиши"
        assert set(narrow) < set(full)


# -- no key waits on a first visit -----------------------------------------------------------


async def test_prebuild_builds_the_hidden_tabs_in_idle_time(campaign_path) -> None:
    """The first `2` took ~90 ms while Бой was built: `kubik` builds the tabs ahead."""
    import asyncio

    from tests.conftest import frozen_clock
    from tui.app import make_app
    from tui.services.startup import PREBUILT_TABS

    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(100):
            await asyncio.sleep(0.05)
            if set(PREBUILT_TABS) <= set(app._panes):
                break
        assert set(PREBUILT_TABS) <= set(app._panes)
        assert app.query_one("#tabs").active == "party"  # built hidden, the GM stays put
        assert app.focused.id == "party-table"
        await pilot.press("2")  # the first visit finds Бой built and drawn
        assert app.query_one("#tabs").active == "combat"


@pytest.mark.slow
async def test_prebuild_waits_while_the_gm_types(campaign_path, monkeypatch) -> None:
    import asyncio

    import tui.services.startup
    from tests.conftest import frozen_clock
    from tui.app import make_app

    # A long quiet time, so that a loaded machine (CI's 4 workers on 2 cores) never stretches
    # the gap between two of the test's keys past it.
    monkeypatch.setattr(tui.services.startup, "IDLE_BEFORE_BUILD", 2.0)

    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        for building in list(app._building.values()):  # one begun before the key ends first
            await building
        built = set(app._panes)
        for _ in range(12):  # a key every 0.1 s: never IDLE_BEFORE_BUILD (here 2 s) quiet
            await pilot.press("down")
            await asyncio.sleep(0.1)
        assert set(app._panes) == built  # nothing was built between the GM's keys
        for _ in range(200):
            await asyncio.sleep(0.05)
            if len(app._panes) == 4:
                break
        assert len(app._panes) == 4  # and all of it once the keys stopped
