"""The focus contract (issue 16): no key leaves a GM stuck, and the key bar always has keys.

One test per stuck state the issue lists: the size notice that no key quit, ↓ past a form's
last field, the modifier field that Esc/↑/↓ could not leave, a key arriving while nothing had
the focus, and the key bar cut at 80 columns.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tui.view import make_view
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.stepper import Stepper
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


async def quit_keys_quit(pilot, keys: tuple[str, ...]) -> None:
    """Press each of ``keys`` on the size notice: each must ask the app to exit. The exit is
    recorded, not made (so that the next key is tried in the same run), then the last key
    quits for real."""
    app = pilot.app
    await pilot.pause()
    assert isinstance(app.screen, TooSmallScreen), f"no size notice: {app.screen!r}"
    asked: list[str] = []
    for key in keys:
        app.exit = lambda *_a, key=key, **_k: asked.append(key)  # type: ignore[method-assign]
        await pilot.press(key)
        await pilot.pause()
        del app.exit  # App.exit again
        assert asked == [key], f"{key} did not quit from the size notice"
        asked.clear()
        assert isinstance(app.screen, TooSmallScreen), f"{key}: the notice went"
    await pilot.press(keys[-1])
    await pilot.pause()
    assert app._exit, f"{keys[-1]} did not quit from the size notice"


async def test_every_quit_key_quits_from_the_size_notice(make_test_app) -> None:
    """«Ctrl+Q — выход» on the notice, and no key quit: a modal screen hid the app's keys.

    Replaces the pilot tests `tests/tui/test_focus.py::
    test_every_quit_key_quits_from_the_size_notice[ctrl+q]`, `…[q]` and `…[ctrl+c]` (one app
    run: each key's exit recorded, the last one made)."""
    app = make_test_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await quit_keys_quit(pilot, ("ctrl+q", "q", "ctrl+c"))


async def test_the_view_quits_from_the_size_notice(make_test_app, campaign_path) -> None:
    """The players' view's size notice quits on Ctrl+Q and q.

    Replaces the pilot tests `tests/tui/test_focus.py::
    test_the_view_quits_from_the_size_notice[ctrl+q]` and `…[q]` (one app run)."""
    make_test_app()  # opening the store writes the demo campaign to disk
    app = make_view(campaign_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await quit_keys_quit(pilot, ("ctrl+q", "q"))


# -- ↓ past the last field, the modifier field, Tab, Esc, a dialog ---------------------------


async def down_round_the_builder(pilot) -> None:
    """Press ↓ from the builder's first control past its last field and back to the first (and
    one more): at each step the focus stays in the builder and the bar offers Enter."""
    app = pilot.app
    builder = app.query_one("#check-pane")
    first = app.focused
    assert first is not None and builder in first.ancestors_with_self, "3: not in the builder"
    seen = [first.id]
    for _ in range(25):
        await pilot.press("down")
        await pilot.pause()
        assert app.focused is not None and builder in app.focused.ancestors_with_self, (
            f"↓ after {seen}: the focus left the builder for {app.focused!r}"
        )
        assert "⏎" in " ".join(bar(app)), f"no Enter on the bar at {app.focused!r}"
        seen.append(app.focused.id)
        if seen.count(first.id) == 2:  # past the last field, back at the first
            break
    assert seen.count(first.id) == 2 and len(seen) > 3, f"↓ never came round: {seen}"


@pytest.mark.parametrize("system", SYSTEMS)
async def test_down_past_the_builders_last_field_and_the_bar_keeps_the_question_mark(
    make_test_app, system
):
    """↓ past Проверка's last field left the focus outside the builder: the bar showed only
    «^q Выход / Бросок ? Клавиши», and `k`, Enter and ↑ did nothing. «? Клавиш», «? Клав»: at
    80 columns `?` itself fell off the bar, on every tab.

    Мир Тьмы: a dialog's bar showed only «esc Отмена ^q Выход» while Enter chose a line (the
    harm dialog in Бой): the bar shows that Enter.

    Replaces the pilot tests `tests/tui/test_focus.py::
    test_down_past_the_builders_last_field_stays_in_the_builder[system]`,
    `…::test_the_key_bar_never_cuts_the_question_mark[system]` (one app run per system; ↓ goes
    once round the builder's controls and back to the first instead of 25 times) and
    `tests/tui/test_keybar.py::test_a_dialog_says_what_its_enter_does` (in the Мир Тьмы run,
    after its «2 i»)."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        await down_round_the_builder(pilot)
        for keys in (["1"], ["2"], ["2", "i"], ["3"], ["3", "enter"], ["4"]):
            await pilot.press(*keys)
            await pilot.pause()
            line = bar_line(app).rstrip()
            assert line.endswith("? Клавиши"), f"{system} {keys}: {line!r}"
            assert "^Q Выход" in line, f"{system} {keys}: {line!r}"
            assert len(line) <= 80, f"{system} {keys}: {line!r}"
            if system == "wod" and keys == ["2", "i"]:  # Мир Тьмы's harm dialog, «w»
                await pilot.press("w")
                await pilot.pause()
                assert app.screen.is_modal, "«w» opened no dialog"
                shown = [(key, text) for key, text, _on in app.query_one(KeyBar)._keys]
                assert shown[0] == ("⏎", "Выбрать"), f"the harm dialog's bar: {shown}"
                await pilot.press("escape")
                await pilot.pause()


async def test_no_key_leaves_the_gm_stuck_or_misled_in_the_drevo_tabs(make_test_app) -> None:
    """One app run through the stuck states of one Древо campaign and what misled a GM reading
    only its screen, each checked in turn:

    - the key bar at 40 columns drops the least important keys first, keeping the tab's first
      key and «Клавиши»;
    - Esc in the party filter clears it and goes back to the table;
    - «+1 высота, -2 темнота» in grey read as modifiers already applied (plain, NO_COLOR): the
      empty modifier field's placeholder says «пример:» in italics, and nothing of it applies;
    - Tab reached the tab bar, where the key bar offers nothing of the tab: Tab and Shift+Tab
      stay in the builder;
    - Esc, ↑ and ↓ each take the focus out of the modifier field to another control of the
      builder (each from the field again); Enter in it rolls with what was typed;
    - the difficulty stepper wrapped from [0] to [00]: ← at the easiest end stays there;
    - play-test, plain terminal: the Бой tab's new NPC «Разбойник» / «Драка 2, Уклонение 1,
      Стрельба 1» — values as they would be typed, in grey: each says «например:»;
    - the Бой declaration: ↓ from the note field wrapped nowhere, and Enter there did nothing;
      Esc in the form goes back to the tab's first control;
    - a dialog (here `?`) is a modal screen: Ctrl+Q must still quit.

    Replaces the pilot tests `tests/tui/test_focus.py::
    test_the_key_bar_drops_the_least_important_keys_first`,
    `…::test_escape_still_clears_the_party_filter_and_tab_cycles_inside_the_tab`,
    `…::test_the_modifier_field_lets_go_on_esc_up_and_down_and_enter_rolls`,
    `…::test_down_past_the_declaration_note_stays_in_the_form`,
    `…::test_ctrl_q_quits_from_a_dialog`, `tests/tui/test_misled.py::
    test_the_modifier_placeholder_reads_as_an_example`,
    `tests/tui/test_misled.py::test_a_stepper_stops_at_its_ends` and
    `…::test_the_new_character_and_npc_forms_placeholders_read_as_examples`
    (the same demo campaign, one run; the new character's «Оружие» is checked in the add form
    of `tests/tui/test_forms.py::TestAdd`, which opens it anyway)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keybar = app.query_one(KeyBar)
        full = [text for _k, text, _on in keybar.fitted(10_000)]
        narrow = [text for _k, text, _on in keybar.fitted(40)]
        assert narrow[0] == full[0], f"40 columns lost the tab's first key: {narrow}"
        assert narrow[-2:] == ["Выход", "Клавиши"] or narrow[-1] == "Клавиши", narrow
        assert set(narrow) < set(full), f"40 columns dropped nothing: {narrow}"

        # the party table ready: «f» before it went to no filter at all
        await pilot.press("f")
        party_filter = app.query_one("#party-filter", Input)
        party_filter.value = "Гор"  # (the typing is not what is tested)
        await pilot.pause()
        assert party_filter.value == "Гор", "what Esc must clear"
        await pilot.press("escape")
        await pilot.pause()
        assert party_filter.value == "", "Esc did not clear the party filter"
        assert app.focused.id == "party-table", "Esc in the filter: not back to the table"
        await pilot.press("3")
        await pilot.pause()
        mods = app.query_one("#check-mods", Input)
        assert mods.value == "", f"the modifier field holds {mods.value!r}"
        assert mods.placeholder.startswith("пример: "), mods.placeholder
        assert "пусто — без модификаторов" in mods.placeholder, mods.placeholder
        formula = str(app.query_one("#check-formula").render())
        assert "высота" not in formula, f"the example is applied: {formula}"
        style = mods.get_component_styles("input--placeholder")
        assert style.text_style.italic, "the placeholder is not in italics"

        builder = app.query_one("#check-pane")
        for key in ["tab"] * 8 + ["shift+tab"] * 8:
            await pilot.press(key)
            assert builder in app.focused.ancestors, f"{key} left the builder"

        for key in ("escape", "up", "down"):
            mods.focus()
            await pilot.pause()
            assert "⏎ Бросить" in bar(app) and "Esc Назад" in bar(app), bar(app)
            await pilot.press(key)
            await pilot.pause()
            assert app.focused is not mods and app.focused is not None, f"{key}: stuck"
            assert builder in app.focused.ancestors, f"{key} left the builder"
        mods.focus()
        mods.value = "+1 высота"  # what was typed (the typing is not what this checks)
        await pilot.press("enter")
        await pilot.pause()
        logged = app.store.log()[0].text
        assert "→ +4 против 0" in logged, f"Enter in the field: {logged}"  # Врачевание +3, +1

        stepper = app.query_one("#check-difficulty", Stepper)
        stepper.focus()
        await pilot.press("home")
        first = stepper.value
        await pilot.press("left")
        assert stepper.value == first, f"← at the easiest end went to {stepper.value!r}"
        await pilot.press("end")
        last = stepper.value
        await pilot.press("right")
        assert stepper.value == last and last != first, f"→ at the hardest end: {stepper.value!r}"

        await pilot.press("escape", "2")  # out of the stepper, to Бой
        await app.ensure_pane("combat")
        await pilot.press("a")
        await pilot.pause()
        for name in ("#npc-name", "#npc-skills"):
            placeholder = app.screen.query_one(name, Input).placeholder
            assert placeholder.startswith("например: "), f"{name}: {placeholder}"
        await pilot.press("escape", "i")  # the first declaration form
        await pilot.pause()
        await pilot.press("down", "down", "escape")
        await pilot.pause()
        assert app.focused.id == "declare-action", "Esc in the declaration form"
        form = app.query_one("#combat-form")
        for _ in range(6):  # Действие, Цель, Оружие, Дистанция, Ходы, Против других, note
            await pilot.press("down")
        await pilot.pause()
        assert isinstance(app.focused, Input) and app.focused.id == "declare-note", app.focused
        assert "⏎ Объявить" in bar(app), bar(app)
        await pilot.press("down")
        assert app.focused.id == "declare-action", "↓ from the note: not back to the first"
        assert form in app.focused.ancestors, "↓ from the note left the form"
        await pilot.press("up")  # back to the note, and Enter declares from it
        assert app.focused.id == "declare-note", "↑ from the first: not the note"
        pane = app.query_one("#combat-pane")
        before = len(pane.encounter.declarations)
        await pilot.press("enter")
        await pilot.pause()
        assert len(pane.encounter.declarations) == before + 1, "Enter in the note declared nothing"

        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.is_modal, "? opened no dialog"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app._exit, "Ctrl+Q did not quit from a dialog"


# -- no key waits on a first visit -----------------------------------------------------------


@pytest.mark.slow
async def test_prebuild_waits_while_the_gm_types(campaign_path, monkeypatch) -> None:
    """The first `2` took ~90 ms while Бой was built: `kubik` builds the tabs ahead, in idle
    time — never between the GM's keys — hidden, the GM staying where he is; the first
    visit finds the tab built.

    Also replaces the pilot test `tests/tui/test_focus.py::
    test_prebuild_builds_the_hidden_tabs_in_idle_time` (the same prebuilding app, one run)."""
    import asyncio

    import tui.services.startup
    from tests.conftest import frozen_clock
    from tui.app import make_app
    from tui.services.startup import PREBUILT_TABS

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
        assert set(PREBUILT_TABS) <= set(app._panes), f"not built ahead: {set(app._panes)}"
        assert app.query_one("#tabs").active == "party", "built hidden, the GM stays put"
        assert app.focused.id == "party-table", f"the focus moved to {app.focused!r}"
        await pilot.press("2")  # the first visit finds Бой built and drawn
        assert app.query_one("#tabs").active == "combat", "«2» after the build"
