"""Ctrl+T as a form: each value of each [default] table in a Russian field with its range and
whose word it is, checked as typed; the tables stay TOML."""

from __future__ import annotations

import asyncio
import inspect
import re
import tomllib
import warnings
from collections.abc import Coroutine
from typing import Any

import pytest
from textual.widgets import Input

from rules import data, drevo
from tests.conftest import until
from tests.every_case import assert_every_case
from tests.seats.helpers import until_seen
from tui import registry
from tui.screens.settings import SettingsScreen
from tui.screens.settings_fields import BOOK, KUBIK, Field, Heading, fields_of, read_field
from tui.screens.settings_form import SettingsForm
from tui.screens.settings_tables import SettingsError
from tui.widgets.common.choice import ChoiceScreen
from tui.widgets.common.stepper import Stepper

ALL = [t.relpath for system in registry.all_systems() for t in system.tables]


@pytest.fixture(autouse=True)
def packaged_defaults():
    yield
    data.set_overrides({})


def test_every_value_has_a_russian_name_a_range_and_a_word() -> None:
    def check(relpath) -> None:
        table = data.packaged_table(relpath)
        fields = [f for f in fields_of(relpath, table) if isinstance(f, Field)]
        assert fields
        for f in fields:
            assert re.search("[А-Яа-яЁё]", f.label), f"{relpath} {f.path}: {f.label!r}"
            assert f.word in (BOOK, KUBIK)
            assert f.hint.endswith(f.word)
            if f.kind == "int" and isinstance(f.value, int):
                assert f.low <= f.value <= f.high, f"{relpath} {f.path}: {f.value} not in range"
                assert read_field(f, str(f.value)) == f.value

    assert_every_case(ALL, check, star=False)


def test_rows_say_whose_word_they_are() -> None:
    """The ladder's rungs carry `source`: the book's (−2…0) or kubik's (the outer ones)."""
    headings = [
        h.text
        for h in fields_of("drevo/ladder.toml", data.packaged_table("drevo/ladder.toml"))
        if isinstance(h, Heading)
    ]
    assert any(h.endswith("Средне · книга") for h in headings)
    assert any(h.endswith("Очень легко · kubik") for h in headings)


def test_a_number_out_of_range_or_not_a_number_is_refused() -> None:
    f = next(
        f
        for f in fields_of("drevo/fate.toml", data.packaged_table("drevo/fate.toml"))
        if isinstance(f, Field) and f.path == ("starting_points",)
    )
    with pytest.raises(SettingsError, match="вне 0…10"):
        read_field(f, "11")
    with pytest.raises(SettingsError, match="целое число"):
        read_field(f, "три")
    assert read_field(f, "−0") == 0
    for typed in ("--1", "+-2", "²", "1_0", "٣", "３"):  # int() raised on the first four
        with pytest.raises(SettingsError, match="целое число"):
            read_field(f, typed)
    with pytest.raises(SettingsError, match="вне 0…10"):  # int() raises past 4,300 digits
        read_field(f, "9" * 5000)


async def tables_shown_faster_than_their_forms(app, pilot) -> None:
    """Ctrl+T's tables shown one after another faster than each form is built (a burst of ↓
    on the list) leave no coroutine behind: the form's worker is exclusive, so each new table
    cancels the one before — a worker cancelled before it ran was handed a coroutine object
    that nobody awaited, and Python said so on the GM's terminal («coroutine
    'SettingsScreen._show_form' was never awaited», found by hand in a playtest). The worker
    is given the coroutine function instead. Each ``_show_form`` coroutine made meanwhile is
    kept and must have run: one never started is the one Python would warn about when it is
    collected, so no collection is needed to see it. (The warnings are also caught by the
    caller, for the whole app run.)"""
    screen = app.screen
    assert isinstance(screen, SettingsScreen)
    first, second, third = (t.relpath for t in screen.tables[:3])
    made: list[Coroutine[Any, Any, None]] = []
    show_form = screen._show_form

    def recorded() -> Coroutine[Any, Any, None]:
        made.append(coroutine := show_form())
        return coroutine

    screen._show_form = recorded  # type: ignore[method-assign]
    try:
        for relpath in (second, third, first):  # three tables in one tick: ↓ ↓ ↑ at once
            screen._show(relpath)
        await pilot.pause()
    finally:
        del screen._show_form
    never_run = [c for c in made if inspect.getcoroutinestate(c) == inspect.CORO_CREATED]
    for coroutine in never_run:
        coroutine.close()  # said here, not by a warning when it is collected
    assert never_run == [], "no coroutine left unawaited by tables shown in one tick"
    shown = screen.query_one("#settings-form").relpath
    assert shown == first, "the last table asked for is the one shown"


async def a_form_without_developer_comments_and_ctrl_g_shows_the_toml(app, pilot) -> None:
    """Ctrl+T showed raw TOML with English developer comments («# RULES.md §3 marks …»): the
    screen opens on a form whose words are the GM's (names, ranges, whose word), no comment;
    Ctrl+G shows the TOML (to add or drop rows) and Ctrl+G again the form."""
    screen = app.screen
    form = screen.query_one("#settings-form")
    editor = screen.query_one("#settings-editor")
    assert not screen.as_toml and form.display and not editor.display, "Ctrl+T: a form"
    shown = " ".join(str(w.render()) for w in form.query("Static, Label"))
    assert "RULES.md" not in shown and "#" not in shown, f"no developer comment: {shown}"
    assert "Ступень 1" in shown and "kubik" in shown, f"the form's own words: {shown}"
    await pilot.press("ctrl+g")  # the TOML, to add or drop rows
    assert screen.as_toml and editor.display and not form.display, "Ctrl+G: the TOML"
    await pilot.press("ctrl+g")
    await pilot.pause()
    assert not screen.as_toml and form.display and not editor.display, "… the form again"


async def a_ladder_value_typed_in_the_form(app, pilot) -> None:
    """The ladder's first value (Ступень 1: Очень легко) typed in the form: the rules check
    the whole table as typed (two rungs with one value are refused at once, by the rules' own
    loader); a value out of its range is refused as typed (shown under the form, the field
    marked) and Ctrl+S stores nothing new; a good value is saved as TOML and the rules obey
    it; typed back to the saved value it is no edit (the form writes the TOML anew, without
    the file's comments: the same values are not «изменено»). Follows
    ``save_invalid_then_valid_then_reset`` (the renamed ladder saved)."""
    before = app.store.get_doc("settings")
    assert before["drevo/ladder.toml"]["rung"][3]["name"] == "Обычно"

    screen = app.screen
    value = list(screen.query("#settings-form Input"))[0]  # Ступень 1: Очень легко, −3
    value.value = "−2"  # the same as Легко
    await pilot.pause()
    error = str(screen.query_one("#settings-error").render())
    assert "две ступени" in error, f"two rungs with one value refused by the rules: {error}"

    value.focus()
    value.value = "99"  # beyond −10…10
    await pilot.pause()
    error = str(screen.query_one("#settings-error").render())
    assert "вне" in error and value.has_class("-refused"), f"out of range shown: {error}"
    await pilot.press("ctrl+s")
    assert app.store.get_doc("settings") == before, "refused: nothing new stored"
    value.value = "−5"
    await pilot.pause()
    assert not value.has_class("-refused") and not str(
        screen.query_one("#settings-error").render()
    ), "a good value clears the refusal"
    await pilot.press("ctrl+s")
    await pilot.pause()
    saved = app.store.get_doc("settings")["drevo/ladder.toml"]
    assert saved["rung"][0]["value"] == -5, "the value saved"
    text = app.store.get_doc("settings_text")["drevo/ladder.toml"]
    assert tomllib.loads(text) == saved, "the campaign keeps TOML"
    assert drevo.ladder()[0].value == -5, "the rules obey the saved table"

    value = list(screen.query("#settings-form Input"))[0]
    value.value = "−4"
    await pilot.pause()
    assert screen._edited("drevo/ladder.toml"), "another value is an edit"
    value.value = "−5"  # back to the saved value
    await pilot.pause()
    assert not screen._edited("drevo/ladder.toml"), "the saved value typed back: no edit"


async def enter_goes_into_the_form_and_esc_closes(app, pilot) -> None:
    """Enter goes into the form, ↓ moves along its rows, Esc goes back to the list, and Esc
    on the list closes the screen without asking (nothing is edited)."""
    screen = app.screen
    screen.query_one("#settings-tables").focus()  # the list, as the screen opens
    await pilot.press("enter")  # into the ladder's form
    assert isinstance(app.focused, Input), "Enter on the list goes into the form"
    await pilot.press("down", "down")  # rows of the form
    await pilot.press("escape")
    assert app.focused.id == "settings-tables", "Esc in a field goes back to the list"
    await pilot.press("escape")
    await pilot.pause()
    assert not isinstance(app.screen, SettingsScreen | ChoiceScreen), (
        "Esc on the list closes, not asks"
    )


LADDER = data.packaged_text("drevo/ladder.toml")
RENAMED = LADDER.replace('name = "Средне"', 'name = "Обычно"')


async def edit(pilot, text: str) -> None:
    """Put ``text`` in the TOML editor at once (as if typed there)."""
    pilot.app.screen.query_one("#settings-editor").text = text
    await pilot.pause()


async def save_invalid_then_valid_then_reset(app, pilot) -> None:
    """A table typed as TOML refused at Ctrl+S (shown at the table, nothing stored), then
    saved (the rules obey), Ctrl+R back to kubik's default — shown without the packaged
    file's comments (Ctrl+R put them back into the view) — and Ctrl+Z brings the campaign's
    table back. Begins on the open settings screen with nothing stored."""
    assert isinstance(app.screen, SettingsScreen)
    await edit(pilot, RENAMED.replace("value = 1\n", "value = 0\n"))
    await pilot.press("ctrl+s")  # refused: shown at the table, nothing stored
    error = str(app.screen.query_one("#settings-error").render())
    assert "две ступени" in error, f"the refusal shown at the table: {error}"
    assert app.store.get_doc("settings") is None, "a refused table is not stored"
    await edit(pilot, RENAMED)
    await pilot.press("ctrl+s")
    saved = app.store.get_doc("settings")["drevo/ladder.toml"]
    assert saved["rung"][3]["name"] == "Обычно", "the table saved"
    assert app.store.get_doc("settings_text")["drevo/ladder.toml"] == RENAMED, "as typed"
    assert drevo.rung_for(0).name == "Обычно", "the rules obey it"
    await pilot.press("ctrl+r")  # back to kubik's default
    await pilot.pause()
    screen = app.screen
    assert "#" not in screen.texts[screen.current], "the default shown without comments"
    assert app.store.get_doc("settings") is None, "Ctrl+R: the campaign's table gone"
    assert drevo.rung_for(0).name == "Средне", "the rules on kubik's ladder"
    await pilot.press("ctrl+z")  # undo brings the campaign's ladder back
    await pilot.pause()
    assert drevo.rung_for(0).name == "Обычно", "Ctrl+Z: the campaign's ladder back"


def burst(app, *keys: str) -> None:
    """Send keys as a terminal does when they are typed fast (tmux send-keys «-12»): all at
    once, none waiting for the one before it to be handled."""
    from textual import events

    chars = {"minus": "-"}
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else chars.get(key))
        event.set_sender(app)
        app._message_queue.put_nowait(event)  # queued behind each other, none handled yet


async def esc_after_enter_into_a_form_being_built(app, pilot) -> None:
    """Enter then Esc while the form was still being mounted: out of the form again (the
    screen stays open, the list keeps the focus), not a field focused later by itself."""
    screen = app.screen
    form = screen.query_one("#settings-form", SettingsForm)
    await form.remove_children()  # a form being built: its fields known, none mounted
    screen.action_open_table()
    assert form.focus_pending, "Enter into a form being built waits for its first field"
    screen.action_close()
    assert not form.focus_pending, "Esc drops the wait"
    await form.show(screen.current, screen.texts[screen.current])
    await pilot.pause()
    assert app.screen is screen, "Esc out of a form being built leaves the screen open"
    assert app.focused.id == "settings-tables", "… and the list keeps the focus"


async def enter_while_the_next_tables_form_is_built(app, pilot) -> None:
    """↓ then Enter typed fast on the list of tables crashed the app (NoMatches «#set-0»): Enter
    came while the next table's form was still being mounted, and asked for its first field."""
    screen = app.screen
    form = screen.query_one("#settings-form", SettingsForm)
    burst(app, "down")
    for _ in range(10_000):  # to the moment its fields are known and not all mounted yet
        first = next(iter(form._fields), None)
        if form.relpath == screen.tables[1].relpath and first and not form.query(f"#{first}"):
            break
        await asyncio.sleep(0)
    else:
        raise AssertionError("the form was never seen half built")
    screen.action_open_table()  # Enter's action, at that moment
    await until_seen(
        [pilot], lambda: isinstance(app.focused, Input | Stepper), "the form's first field"
    )
    assert app.focused.id == first, "Enter went into the next table's first field"
    assert screen.current == screen.tables[1].relpath, "… of the next table"


async def ctrl_z_shows_the_table_it_put_back(app, pilot) -> None:
    """Ctrl+Z on the settings screen undid the saved table in the campaign, but the form kept
    the undone value (and its «*»): a next save was judged against what was gone (playbook).
    The screen follows the store: Ctrl+Z shows the default, Ctrl+Y the value again."""
    screen = app.screen
    value = list(screen.query("#settings-form Input"))[0]  # Ступень 1: Очень легко, −3
    value.focus()
    value.value = "-4"
    await pilot.pause()
    await pilot.press("ctrl+s")
    await app.services.writes_done()
    await pilot.pause()
    assert app.store.get_doc("settings")["drevo/ladder.toml"]["rung"][0]["value"] == -4

    def shown() -> tuple[str, str]:
        field = list(screen.query("#settings-form Input"))[0]
        option = screen.query_one("#settings-tables").get_option_at_index(0)
        return field.value.replace("−", "-"), str(option.prompt)[0]

    assert shown() == ("-4", "*"), "saved: the value, marked changed in the campaign"
    await pilot.press("ctrl+z")
    await app.services.writes_done()
    await pilot.pause()
    assert app.store.get_doc("settings") is None, "Ctrl+Z undid the save"
    assert shown() == ("-3", " "), "Ctrl+Z shows the default it put back"
    await pilot.press("ctrl+y")
    await app.services.writes_done()
    await pilot.pause()
    assert shown() == ("-4", "*"), "Ctrl+Y shows the value again"
    await pilot.press("ctrl+z")
    await app.services.writes_done()
    await pilot.pause()
    await pilot.press("ctrl+s")  # nothing edited here since: nothing written back
    await app.services.writes_done()
    assert app.store.get_doc("settings") is None, "after Ctrl+Z, Ctrl+S writes nothing back"


async def a_burst_of_keys_is_judged_saved_and_shown_by_its_last_value(app, pilot) -> None:
    """Keys typed at once into a value, each burst judged by its last key's value: «1» then
    «2» — the form shows 12 refused, not 1 accepted; fast typing then Ctrl+S saved an older
    value (the save ran before the field's checks); the TOML (Ctrl+G) after typing in the
    form showed the value from before the typing."""
    await pilot.press("enter", "end")  # into the first rung's value (−3)
    burst(app, "backspace", "backspace", "1", "2", "ctrl+s")
    await until_seen([pilot], lambda: not app._message_queue.qsize(), "the burst handled")
    assert "12 вне" in str(app.screen.query_one("#settings-error").render()), "12 refused"
    assert app.store.get_doc("settings") is None, "a refused value is not saved"
    burst(app, "backspace", "backspace", "minus", "5", "ctrl+s")
    await until_seen([pilot], lambda: not app._message_queue.qsize(), "the burst handled")
    assert app.focused.value == "-5", "the field shows the burst's value"
    saved = app.store.get_doc("settings")
    assert saved is not None, "nothing saved"
    assert saved["drevo/ladder.toml"]["rung"][0]["value"] == -5, "Ctrl+S saved the last value"
    burst(app, "backspace", "backspace", "minus", "7", "ctrl+g")
    await until_seen([pilot], lambda: not app._message_queue.qsize(), "the burst handled")
    editor = app.screen.query_one("#settings-editor")
    assert app.screen.as_toml, "Ctrl+G shows the TOML"
    assert tomllib.loads(editor.text)["rung"][0]["value"] == -7, "… with the last value typed"


async def a_save_waiting_for_the_lock_leaves_the_screen_free_and_changes_nothing(
    app, pilot, campaign_path
) -> None:
    """The save runs in the app's writer: the screen keeps working while another kubik holds
    the lock, and a save that cannot get it is refused whole, with a Russian message."""
    import filelock

    before = app.store.get_doc("settings")
    rung = drevo.rung_for(0).name
    told = {id(n) for n in app._notifications}  # what was said before this part

    def said() -> list[str]:
        return [n.message for n in app._notifications if id(n) not in told]

    await edit(pilot, RENAMED)
    app.store._lock_timeout, app.store._file_lock = 1.0, None
    held = filelock.FileLock(f"{campaign_path}.lock")
    held.acquire()
    try:
        writer = app.services.writer
        earlier = writer._last_write
        await pilot.press_without_waiting("ctrl+s")
        await until(lambda: writer._last_write is not earlier)  # handed to the writer
        assert not writer._last_write.is_set(), "waiting for the lock; the screen is free"
        await pilot.press_without_waiting("ctrl+s")  # a second save waits its turn
        await until(lambda: any("ещё сохраняется" in m for m in said()))
        await app.services.writes_done()
        await pilot.pause()
    finally:
        held.release()
    messages = said()
    assert any("ещё сохраняется «Настройки: " in m for m in messages), messages
    assert any(m.startswith("Не сохранено «Настройки: ") for m in messages), messages
    assert app.store.get_doc("settings") == before, "a save refused whole changes nothing"
    assert drevo.rung_for(0).name == rung == "Средне", "the rules as they were"
    await pilot.press("ctrl+s")  # the lock is free now: saved
    assert drevo.rung_for(0).name == "Обычно", "saved once the lock is free"
    assert isinstance(app.screen, SettingsScreen), "the screen stays open"


@pytest.mark.slow
async def test_the_ladders_form_under_fast_keys_and_undo(make_test_app, campaign_path) -> None:
    """The ladder's form on the settings screen, in one app run, each part in turn (each
    part's docstring says what it checks):

    - ``tables_shown_faster_than_their_forms``: three tables asked for in one tick leave no
      coroutine unawaited (each one made is seen to have run; the warnings are also caught
      for the whole run, a coroutine dropped unawaited warning at once, and every other
      warning is said again once the run is over, as the test would have said it). The run
      ended in a full ``gc.collect()`` for a coroutine kept in a reference cycle; with the
      fix undone, the warning came from it in some runs and not in others (a run of this
      test passed), while the coroutines' states fail it every run;
    - ``a_form_without_developer_comments_and_ctrl_g_shows_the_toml``;
    - ``save_invalid_then_valid_then_reset``, then ``a_ladder_value_typed_in_the_form``;
    - Ctrl+R (kubik's ladder again: nothing stored, as the screen opened), then
      ``esc_after_enter_into_a_form_being_built``,
      ``enter_while_the_next_tables_form_is_built``,
      ``ctrl_z_shows_the_table_it_put_back``,
      ``a_burst_of_keys_is_judged_saved_and_shown_by_its_last_value`` and
      ``a_save_waiting_for_the_lock_leaves_the_screen_free_and_changes_nothing`` (slow: the
      lock is held for a second);
    - Ctrl+G back to the form (the burst ended on the TOML), and last
      ``enter_goes_into_the_form_and_esc_closes``.

    Between the parts the screen is brought back to where each began: the list focused, on
    the ladder, nothing saved (where a part began with nothing stored).

    Replaces the pilot test `tests/tui/test_settings_form.py::test_a_ladder_value_typed_in_the_form`
    (its own app on the same demo campaign and Ctrl+T; its parts are the first four and the
    last here, with each of its asserts), which replaced the pilot tests
    `tests/tui/test_settings.py::TestSettingsScreen::test_save_invalid_then_valid_then_reset`,
    `tests/tui/test_settings_form.py::test_the_rules_check_the_whole_table_as_typed`,
    `tests/tui/test_settings_form.py::test_typed_values_are_checked_as_typed_and_saved_as_toml`,
    `tests/tui/test_settings_form.py::test_typing_a_value_back_is_no_edit`,
    `tests/tui/test_settings_form.py::test_esc_from_a_field_goes_back_to_the_list`,
    `tests/tui/test_settings_toml_words.py::test_reset_shows_the_default_without_comments`,
    `tests/tui/test_settings_no_stray_coroutine.py::test_tables_shown_faster_than_their_forms_leave_no_unawaited_coroutine`
    and the screen part of
    `tests/tui/test_settings_form.py::test_no_developer_comment_on_the_form_and_ctrl_g_shows_the_toml`
    (its own app on a Мир Тьмы campaign: the form drawn without developer comments and
    Ctrl+G there and back, on the Древо ladder here, the drawn text having the ladder's
    «Ступень 1» where it had the pool's «Успех от (d10)»; the pool table's words, with each
    of its asserts, are checked one level down in
    `tests/tui/test_settings_pure.py::test_the_forms_words_have_no_developer_comment`).
    Where one of those began with nothing stored and followed a saved table, its «nothing
    stored» reads «nothing new stored», and the value typed back is the saved one.

    This test itself replaced the pilot tests
    `tests/tui/test_settings_form.py::test_esc_after_enter_into_a_form_being_built_stays_on_the_list`,
    `tests/tui/test_settings_form.py::test_enter_while_the_next_tables_form_is_built_goes_into_it`,
    `tests/tui/test_settings_form.py::test_ctrl_z_in_the_settings_shows_the_table_it_put_back`,
    `tests/tui/test_settings_form.py::test_a_burst_of_keys_is_judged_saved_and_shown_by_its_last_value`
    and
    `tests/tui/test_settings.py::test_a_save_waiting_for_the_lock_leaves_the_screen_free_and_changes_nothing`
    (each its own app, Ctrl+T), with each of their asserts; the last one followed nothing
    stored and follows the burst's save, so its «nothing stored» reads «nothing new stored»,
    and its messages are those said since it began.
    """
    app = make_test_app()
    with warnings.catch_warnings(record=True) as caught:  # until the app and its workers are gone
        warnings.simplefilter("always")
        await the_ladders_form(app, campaign_path)
    never_awaited = [str(w.message) for w in caught if "never awaited" in str(w.message)]
    assert never_awaited == [], "no coroutine left unawaited by tables shown in one tick"
    for w in caught:  # the run's other warnings, as pytest would have shown them
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


async def the_ladders_form(app, campaign_path) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        form = screen.query_one("#settings-form", SettingsForm)
        ladder = screen.tables[0].relpath

        def ladder_form_built() -> bool:
            return form.relpath == ladder and bool(form.query(f"#{next(iter(form._fields))}"))

        await tables_shown_faster_than_their_forms(app, pilot)
        assert app.focused.id == "settings-tables", "the list focused, as the screen opened"
        assert app.store.get_doc("settings") is None, "nothing stored, as the screen opened"
        await a_form_without_developer_comments_and_ctrl_g_shows_the_toml(app, pilot)
        screen.query_one("#settings-tables").focus()  # as the screen opened
        await save_invalid_then_valid_then_reset(app, pilot)
        await a_ladder_value_typed_in_the_form(app, pilot)

        screen.query_one("#settings-tables").focus()
        await pilot.press("ctrl+r")  # kubik's ladder again: nothing stored, as at the start
        await app.services.writes_done()
        await until_seen([pilot], ladder_form_built, "the ladder's form again")
        assert app.focused.id == "settings-tables" and screen.current == ladder
        assert app.store.get_doc("settings") is None
        await esc_after_enter_into_a_form_being_built(app, pilot)
        await enter_while_the_next_tables_form_is_built(app, pilot)

        await pilot.press("escape")  # from the next table's field back to the list …
        await pilot.press("up")  # … and up to the ladder
        await until_seen([pilot], ladder_form_built, "the ladder's form again")
        assert app.focused.id == "settings-tables" and screen.current == ladder
        assert app.store.get_doc("settings") is None
        await ctrl_z_shows_the_table_it_put_back(app, pilot)

        # Ctrl+Z drew the form anew: its field went, the list has the focus (as at the start)
        assert app.focused.id == "settings-tables" and screen.current == ladder
        assert app.store.get_doc("settings") is None
        await a_burst_of_keys_is_judged_saved_and_shown_by_its_last_value(app, pilot)

        await a_save_waiting_for_the_lock_leaves_the_screen_free_and_changes_nothing(
            app, pilot, campaign_path
        )
        await pilot.press("ctrl+g")  # the burst ended on the TOML: the form again
        await pilot.pause()
        assert not screen.as_toml and form.display, "the form, as the screen opened"
        await enter_goes_into_the_form_and_esc_closes(app, pilot)
