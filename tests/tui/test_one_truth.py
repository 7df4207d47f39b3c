"""One truth on every screen (issue 14): the issue's reproductions, played with keys.

«Another window» is a second :class:`Store` on the same file (what ``kubik party remove`` or
a second kubik does); the app picks its change up as it does from any other process.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from textual.widgets import DataTable

from rules.drevo.sheet import DrevoSheet
from tests.conftest import until
from tui.store import Store


def by_name(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


async def cursor_to(pilot, app, name: str) -> None:
    table = app.query_one("#party-table", DataTable)
    table.move_cursor(row=table.get_row_index(by_name(app.store, name).id))
    await pilot.pause()


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


class TestOneWindow:
    """Another kubik (a second :class:`Store` on the file) and this window's Партия and Бой."""

    @pytest.mark.slow
    async def test_writes_refused_kept_or_undone_say_so_and_change_nothing_else(
        self, make_test_app, campaign_path
    ):
        """One app on the demo campaign, in turn:

        1. «While another process holds the lock, the app's UI freezes for 3 s»: `g` on
           Партия waits for the lock in the writer, the keys go on (`2`), and the write that
           cannot get the lock changes nothing.
        2. Enter in the wound dialog of a character another window has removed, before the
           app saw the removal: refused with «… удалён в другом окне — рана не записана»,
           nothing written, no Журнал line.
        3. `g` twice, Ctrl+Z twice, Ctrl+Y: the Журнал marks the undone Судьба line
           «отменено», the redone one not.
        4. Another window changes Горан while a dialog is open on him: the edit form says so
           and saves only its own changes; a wound still makes sense (the dialog stays, says
           so, adds to the current wounds); the heal dialog is rebuilt from the current
           wounds when another window adds one.
        5. The Бой tab writes its fight as a delta against the fight it showed: another
           window's fight (rolled before this one saw it) is never overwritten by a stale
           copy, and the tab says so (the round tracker's refusal, and a change elsewhere
           kept: tests/table/test_stale_from_the_tab.py).

        One app for what were five pilot tests on the same campaign and window:
        ``TestLock::test_a_write_waiting_for_the_lock_leaves_the_ui_free_and_changes_nothing``,
        ``TestResurrection::test_enter_before_the_app_saw_the_removal_is_refused``,
        ``TestUndoneInTheLog::test_undone_fate_entries_are_marked_and_a_redo_clears_the_mark``,
        ``TestLostUpdate`` (``test_an_edit_form_saves_only_its_own_changes`` and
        ``test_a_wound_keeps_what_another_window_changed_and_the_heal_dialog_follows``) and
        ``TestStaleFight::test_a_fight_step_made_on_what_another_window_changed_is_refused``;
        each fact asserted with the notices of its own part."""
        import filelock
        from textual.widgets import OptionList, TabbedContent

        app = make_test_app()
        other = Store.open(campaign_path)
        async with app.run_test(size=(80, 24)) as pilot:
            # 1. A write waiting for another kubik's lock.
            app.store._lock_timeout, app.store._file_lock = 2.0, None
            await cursor_to(pilot, app, "Горан Рябой")
            held = filelock.FileLock(f"{campaign_path}.lock")
            held.acquire()  # another kubik mid-write
            try:
                await pilot.press_without_waiting("g")
                await pilot.press_without_waiting("2")  # the keys go on while it waits
                assert app.query_one(TabbedContent).active == "combat", "the keys waited"
                assert not app.services.writer._last_write.is_set()  # still waiting
                await app.services.writes_done()
                await pilot.pause()
            finally:
                held.release()
            assert any("сохраняет другая копия kubik" in n for n in notices(app))
            assert by_name(app.store, "Горан Рябой").drevo.fate == 3  # nothing changed
            assert by_name(Store.open(campaign_path), "Горан Рябой").drevo.fate == 3
            assert Store.open(campaign_path).log() == []
            # 2. A wound on a character removed in another window.
            await pilot.press("1")
            await cursor_to(pilot, app, "Богдан Сыч")
            await pilot.press("w")
            other.delete_character(by_name(other, "Богдан Сыч").id)
            told = len(notices(app))
            await pilot.press("enter")  # no refresh in between: the dialog is still open
            await pilot.pause()
            said = notices(app)[told:]
            assert any("Богдан Сыч удалён в другом окне — рана не записана" in n for n in said)
            assert all(c.name != "Богдан Сыч" for c in app.store.characters()), "resurrected"
            assert Store.open(campaign_path).log() == [], "the refused wound was logged"
            if len(app.screen_stack) > 1:
                await pilot.press("escape")
                await pilot.pause()
            # 3. Судьба given, undone and redone: the Журнал's marks.
            await cursor_to(pilot, app, "Горан Рябой")
            await pilot.press("g", "g", "ctrl+z", "ctrl+z", "ctrl+y")
            await pilot.pause()
            await pilot.press("4")
            await pilot.pause()
            table = app.query_one("#log-table", DataTable)
            rows = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
            assert len(rows) == 2, rows
            assert "отменено" in rows[0] and "теперь 5" in rows[0]
            assert "отменено" not in rows[1] and "теперь 4" in rows[1]
            stored = Store.open(campaign_path)
            assert [e.undone for e in stored.log()] == [True, False]
            assert by_name(stored, "Горан Рябой").drevo.fate == 4
            # 4. Dialogs open on a character another window changes.
            await pilot.press("1")
            await cursor_to(pilot, app, "Горан Рябой")
            await pilot.press("e")
            other = Store.open(campaign_path)  # another window opened now
            goran = by_name(other, "Горан Рябой")
            other.upsert_character(
                replace(goran.edit_sheet(DrevoSheet, fate=5), notes="Новые заметки")
            )
            told = len(notices(app))
            app._refresh_store()
            await pilot.pause()
            said = notices(app)[told:]
            assert any("изменён в другом окне" in n for n in said), said
            await pilot.press("ctrl+s")  # save the form as it is
            await pilot.pause()
            assert len(app.screen_stack) == 1, "the edit form not closed"
            now = Store.open(campaign_path).character(goran.id)
            assert (now.drevo.fate, now.notes) == (5, "Новые заметки"), "the form wrote back"
            await pilot.press("w")
            goran = by_name(other, "Горан Рябой")
            other.upsert_character(
                replace(goran.edit_sheet(DrevoSheet, fate=6), notes="Другие заметки")
            )
            told = len(notices(app))
            app._refresh_store()
            await pilot.pause()
            assert len(app.screen_stack) == 2, "the wound dialog closed"  # it still makes sense
            changed = "Персонаж Горан Рябой изменён в другом окне: рана добавится к текущим ранам."
            assert changed in notices(app)[told:], notices(app)
            await pilot.press("enter")  # a Царапина
            await pilot.pause()
            now = Store.open(campaign_path).character(goran.id)
            assert (now.drevo.fate, now.notes, now.drevo.wounds["scratch"]) == (
                6,
                "Другие заметки",
                1,
            ), "the wound wrote the sheet back"
            await pilot.press("h")
            assert app.screen.query_one(OptionList).option_count == 1
            goran = by_name(other, "Горан Рябой")
            other.upsert_character(
                goran.edit_sheet(DrevoSheet, wounds={**goran.drevo.wounds, "light": 1})
            )
            told = len(notices(app))
            app._refresh_store()
            await pilot.pause()
            await pilot.pause()
            assert len(app.screen_stack) == 2, "the heal dialog closed"
            assert app.screen.query_one(OptionList).option_count == 2, "the new wound missing"
            followed = "Персонаж Горан Рябой изменён в другом окне: окно обновлено."
            assert followed in notices(app)[told:], notices(app)
            await pilot.press("escape")
            await pilot.pause()
            # 5. A fight step on what another window changed (last: the refresh is cut off).
            await pilot.press("2")
            other = Store.open(campaign_path)
            theirs = {**(other.get_doc("encounter") or {}), "round": 2, "phase": "declare"}
            app.services.watch.stop()  # the app has not seen the other window's write yet:
            app.store.refresh = lambda: False  # neither the watch nor the timer picks it up
            other.put_doc("encounter", theirs | {"order": ["Отряд", "Противники"]}, label="x")
            logged = len(Store.open(campaign_path).log())
            told = len(notices(app))
            await pilot.press("i")  # initiative, from the setup this window still shows
            assert any("изменили то же самое" in n for n in notices(app)[told:]), notices(app)
        stored = Store.open(campaign_path)
        assert stored.get_doc("encounter")["round"] == 2  # theirs stays whole
        assert len(stored.log()) == logged  # the refused roll is not in the Журнал


class TestUndoneInTheLog:
    def test_snapshot_of_the_journal_with_an_undone_entry(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await cursor_to(pilot, pilot.app, "Горан Рябой")
            await pilot.press("g", "g", "ctrl+z", "4")
            await pilot.pause()
            pilot.app.clear_notifications()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)


def undone_campaign(path) -> Store:
    """Горан gets +1 Судьба twice with its Журнал entries; the second is undone."""
    from tui.store import Edit, LogEntry, new_id

    store = Store.open(path)
    goran = by_name(store, "Горан Рябой")

    def grant(c):
        text = f"Ведущий даёт очко Судьбы: теперь {c.drevo.fate + 1}"
        entry = LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "note", c.name, text)
        return Edit(
            c.edit_sheet(DrevoSheet, fate=c.drevo.fate + 1), f"{c.name}: +1 Судьба", [entry]
        )

    store.update_character(goran.id, grant, name=goran.name)
    store.update_character(goran.id, grant, name=goran.name)
    store.undo()
    return store


class TestUndoneEverywhere:
    async def test_the_players_view_marks_an_undone_entry_and_follows_a_redo(self, campaign_path):
        from tui.view import make_view

        gm = undone_campaign(campaign_path)
        app = make_view(campaign_path, refresh_seconds=0.05)
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one("#view-log", DataTable)
            rows = [str(log.get_row_at(i)[2]) for i in range(log.row_count)]
            assert rows == [
                "(отменено) Ведущий даёт очко Судьбы: теперь 5",
                "Ведущий даёт очко Судьбы: теперь 4",
            ]
            assert "strike" in str(log.get_row_at(0)[2].style)
            gm.redo()
            await pilot.pause(0.3)
            rows = [str(log.get_row_at(i)[2]) for i in range(log.row_count)]
            assert rows[0] == "Ведущий даёт очко Судьбы: теперь 5"

    def test_kubik_log_json_text_and_markdown_mark_it(self, campaign_path, capsys):
        import json

        from tui.cli import party as cli_party

        undone_campaign(campaign_path).close()
        assert cli_party.log(["--campaign", str(campaign_path), "--json"]) == 0
        entries = json.loads(capsys.readouterr().out)["entries"]
        assert [e.get("undone", False) for e in entries] == [False, True]
        assert cli_party.log(["--campaign", str(campaign_path)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert "(отменено) Горан Рябой: Ведущий даёт очко Судьбы: теперь 5" in lines[1]
        assert "отменено" not in lines[0]
        assert cli_party.log(["--campaign", str(campaign_path), "--markdown"]) == 0
        md = capsys.readouterr().out
        assert "~~Ведущий даёт очко Судьбы: теперь 5~~ _(отменено)_" in md
        assert "): Ведущий даёт очко Судьбы: теперь 4\n" in md


class TestUndoUnderAnOpenCheck:
    async def test_form_words_then_the_check_follows_the_undone_energy_and_its_removal(
        self, make_test_app, campaign_path
    ):
        """One IDE4 app. First the form's words, four screen facts in turn (they were the
        pilot test `tests/tui/test_builder_words.py::
        test_the_ide4_form_words_examples_scales_and_checklist_boxes`, on the same campaign
        and tab: one app now):

        «+1 прицел, -2 темнота» in grey read as modifiers already applied (plain, NO_COLOR):
        the modifier field's example says «пример:» and fits at 80 columns. ← on [0] jumped
        to [00], the hardest rung: a scale stops at its ends (both difficulty rows). Both
        ticked and unticked checklist rows showed «▐X▌» (only colour differed). After a roll,
        Enter on another character on the party tab starts a fresh check for him. (That test
        merged `tests/tui/test_builder_words.py::test_each_builders_modifier_example_reads_as_
        an_example[ide4-#ide4-mods]`, `test_the_ide4_difficulty_does_not_wrap[ide4-base]`,
        `…[ide4-open]`, `test_checklist_boxes_read_ticked_or_not` and
        `tests/tui/test_builder_switch.py::
        test_ide4_party_enter_on_another_character_starts_a_fresh_check`.)

        Then that character's open check, rolled:

        - «spend energy before the roll, Ctrl+Z (Партия shows 100, the builder still 88),
          then `e` after the roll → the undo is silently lost». The roll and its energy are
          one undo step now: Ctrl+Z puts the form back (the sheet 100, the builder too), and
          Enter rolls the same dice again, paid once.
        - «1» and «3» away from the rolled check and back: the key bar asks whether each of
          the result's keys applies after every focus change, and the check's view (a
          derivation from the campaign, ~0.1 ms) is derived only for the keys whose use
          needs it (28 times for the two keys when every key derived it, 10 now).
        - Its character removed in another window: the builder says the check no longer
          changes the sheet.

        One app for what were three pilot tests on a rolled IDE4 check,
        ``test_ide4_check_says_so_and_goes_on_from_the_undone_energy``,
        tests/tui/test_key_work.py::test_keys_on_a_rolled_check_derive_its_view_seldom and
        ``TestFollowing::test_ide4_check_says_when_its_character_is_removed``."""
        from textual.widgets import Input, SelectionList

        from tests.tui.test_builder_ide4 import builder, capture_notes, choose, energy
        from tests.tui.test_key_work import count_calls
        from tui.widgets.common.stepper import Stepper

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("3")
            await pilot.pause()
            field = app.query_one("#ide4-mods", Input)
            assert field.placeholder.startswith("пример: "), field.placeholder
            assert len(field.placeholder) <= field.content_region.width, "the example is cut"
            for stepper_id in ("ide4-base", "ide4-open"):
                stepper = app.query_one(f"#{stepper_id}", Stepper)
                stepper.select(stepper._options[0][1])
                first = stepper.value
                stepper.action_step(-1)
                assert stepper.value == first, f"{stepper_id}: ← on the first rung wrapped"
            await pilot.press("c")
            await pilot.pause()
            checklist = app.screen.query_one(SelectionList)
            first = checklist.render_line(0).text
            assert "X" not in first[:4], first
            await pilot.press("space")
            await pilot.pause()
            ticked = checklist.render_line(0).text
            assert "X" in ticked[:4], ticked
            assert first[4:] == ticked[4:], "only the box differs"
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("enter")  # roll the d100
            await pilot.pause()
            b = app.query_one("#check-pane")
            assert b.phase == "result", "Enter rolled"
            rolled_by = b.check.input.actor
            await pilot.press("1", "down", "enter")  # the party tab: the next character, Enter
            await pilot.pause()
            assert b.phase == "setup" and b.check is None, "a fresh check, not the old result"
            assert b.form.character.name != rolled_by, "for the character chosen on the party tab"
            # The fresh check's character: energy before, the roll, its undo.
            await pilot.press("3", "l")
            b = builder(app)
            name = b.form.characters[b.form.value("character")].name
            start = energy(app, name)  # Лёва Кот's sheet: 60, not Вера's 100
            await choose(pilot, "ide4-energy", 2)  # 2×d6 before the roll
            await pilot.press("enter")
            await pilot.pause()
            assert energy(app, name) == start - 12 and b.check.pool_after == start - 12
            first = b.check
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert energy(app, name) == start, "the undo did not pay back"
            assert b.phase == "setup" and b.check is None  # the roll undone: the form
            assert b.form.value("energy") == 2  # as it was rolled from
            await pilot.press("enter")
            await pilot.pause()
            assert (b.check.natural, b.check.before_dice) == (first.natural, first.before_dice)
            assert energy(app, name) == start - 12  # paid once: the undo stands
            # Away from the rolled check and back.
            assert b.phase == "result"
            before = app.focused
            keys = count_calls(app.query_one("KeyBar"), "current_keys")
            views = count_calls(b.table, "view")
            for key in ("1", "3"):  # away to the party and back
                await pilot.press(key)
            await pilot.pause()
            assert app.focused is before, "the focus not back where it was"
            assert keys[0] <= 4, keys  # at most once per refresh that followed a change
            assert views[0] <= 12, views
            # Its character removed in another window.
            cid = b._check_character_id
            name = b.form.characters[cid].name
            notes = capture_notes(app)
            Store.open(campaign_path).delete_character(cid)
            app._refresh_store()
            await pilot.pause()
            told = (
                f"Персонаж {name} удалён в другом окне — проверка больше не меняет лист персонажа."
            )
            assert (told, "warning") in notes, notes


async def watching(pilot, app) -> None:
    """Wait until the app's watch thread sees changes of the campaign file.

    The thread starts after the first screen and names its mode before watchfiles' inotify
    watch is live; a fixed pause for that was too short on a busy machine (the write was
    missed). So the campaign file is touched, again, until the watch reports it.
    """
    import os

    def current():  # the GM's app keeps its watch in its services, the players' view its own
        return app.services.watch.current if hasattr(app, "services") else app._watch

    for _ in range(200):
        if current() is not None and current().mode:
            break
        await pilot.pause(0.01)
    watch, seen = current(), []
    changed = watch._changed
    watch._changed = lambda: (seen.append(True), changed())
    try:
        for _ in range(200):
            os.utime(watch.path)
            await pilot.pause(0.02)
            if seen:
                break
        else:
            raise AssertionError(f"the watch ({watch.mode}) never saw the file touched")
    finally:
        watch._changed = changed


class TestLock:
    @pytest.mark.slow
    async def test_a_fight_write_waits_in_a_worker_says_so_and_then_fails_whole(
        self, make_test_app, campaign_path
    ):
        """The Бой tab's writes run in the app's writer: the keys go on while one waits for
        the lock, the status line says it is being saved, a second press is refused (never
        applied twice), and a write that cannot get the lock changes nothing; once the lock
        is free, `i` is saved and drawn. (The writer's side — fails whole, or saved once
        when it gets the lock late — is tested without Textual in
        tests/table/test_lock_from_the_tab.py, which replaces the pilot test
        ``test_a_fight_write_that_gets_the_lock_late_is_saved_once``.)"""
        import filelock
        from textual.widgets import Static

        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("2")
            before = Store.open(campaign_path).get_doc("encounter")
            status = app.query_one("#combat-status", Static)
            app.store._lock_timeout, app.store._file_lock = 2.0, None
            held = filelock.FileLock(f"{campaign_path}.lock")
            held.acquire()  # another kubik mid-write
            try:
                await pilot.press_without_waiting("i")  # roll initiative: writes the encounter
                # (pilot.pause would wait for the write)
                await until(lambda: "Сохраняется" in str(status.render()))
                writer = app.services.writer
                assert not writer._last_write.is_set()  # still waiting for the lock, and yet:
                assert "Сохраняется: «Бой: инициатива»" in str(status.render())
                await pilot.press_without_waiting("i")  # pressed again while the first waits
                await until(lambda: any("ещё сохраняется" in n for n in notices(app)))
                assert any("ещё сохраняется «Бой: инициатива»" in n for n in notices(app))
                assert app.query_one("#combat-setup").display  # nothing changed on screen yet
                await app.services.writes_done()
                await pilot.pause()
            finally:
                held.release()
            assert any("сохраняет другая копия kubik" in n for n in notices(app))
            assert "Не сохранено «Бой: инициатива»" in str(status.render())
            assert app.query_one("#combat-setup").display  # still the setup: nothing changed
            assert Store.open(campaign_path).get_doc("encounter") == before
            assert Store.open(campaign_path).log() == []
            await pilot.press("i")  # the other kubik is done: saved now, and drawn
            await app.services.writes_done()
            await pilot.pause()
            assert not app.query_one("#combat-setup").display, notices(app)  # round 1
            assert "Сохраняется" not in str(status.render())
        (entry,) = Store.open(campaign_path).log()  # the one initiative saved
        assert entry.text.startswith("Инициатива")

    @pytest.mark.slow
    async def test_a_rounds_write_waits_in_a_worker_and_fails_whole(
        self, make_test_app, campaign_path
    ):
        """The Бой tab of the other systems (the round tracker) writes the same way."""
        import filelock
        from textual.widgets import Static

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("2")
            status = app.query_one("#rounds-status", Static)
            app.store._lock_timeout, app.store._file_lock = 2.0, None
            held = filelock.FileLock(f"{campaign_path}.lock")
            held.acquire()
            try:
                await pilot.press_without_waiting("i")
                await until(lambda: "Сохраняется" in str(status.render()))
                assert not app.services.writer._last_write.is_set()
                assert "Сохраняется: «Инициатива, раунд 1»" in str(status.render())
                await app.services.writes_done()
                await pilot.pause()
            finally:
                held.release()
            assert "Не сохранено «Инициатива, раунд 1»" in str(status.render())
            assert "Подготовка боя" in str(status.render())  # nothing changed on screen
            await pilot.press("i")  # the other kubik is done: now it is saved, once
            assert "Раунд 1" in str(status.render())
        stored = Store.open(campaign_path)
        assert stored.get_doc("rounds")["round"] == 1
        assert [e.text.startswith("Инициатива") for e in stored.log()] == [True]


class TestFollowing:
    """The players' view and the app follow the file through the watch, not the timer."""

    async def test_the_view_follows_a_write_without_its_timer(self, campaign_path):
        from tui.store import LogEntry, new_id
        from tui.view import make_view

        gm = Store.open(campaign_path)
        app = make_view(campaign_path, refresh_seconds=60)  # the timer never fires here
        async with app.run_test(size=(80, 24)) as pilot:
            await watching(pilot, app)
            gm.append_log(LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "roll", None, "2d6 = 7"))
            for _ in range(200):  # the watch, not a timer: well within a second
                await pilot.pause(0.01)
                log = app.query_one("#view-log", DataTable)
                if log.row_count and str(log.get_row_at(0)[2]) == "2d6 = 7":
                    break
            else:
                raise AssertionError(f"the view did not follow (watch: {app._watch.mode})")

    async def test_without_watchfiles_it_polls(self, campaign_path, monkeypatch):
        from tui.store import watch
        from tui.view import make_view

        def no_watch(self):
            raise ImportError("watchfiles")

        monkeypatch.setattr(watch.CampaignWatch, "_watch", no_watch)
        gm = Store.open(campaign_path)
        app = make_view(campaign_path, refresh_seconds=60)
        async with app.run_test(size=(80, 24)) as pilot:
            await watching(pilot, app)
            gm.delete_character(by_name(gm, "Милава").id)
            for _ in range(200):
                await pilot.pause(0.01)
                party = app.query_one("#view-party", DataTable)
                names = [str(party.get_row_at(i)[0]) for i in range(party.row_count)]
                if "Милава" not in names:
                    break
            else:
                raise AssertionError("the polling fallback did not follow")
            assert app._watch.mode == "poll"

    async def test_the_app_follows_another_window_through_the_watch(
        self, make_test_app, campaign_path, monkeypatch
    ):
        from tui.app import KubikApp

        monkeypatch.setattr(KubikApp, "_refresh_store", lambda self: None)  # only the watch
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await watching(pilot, app)
            other = Store.open(campaign_path)
            other.delete_character(by_name(other, "Милава").id)
            table = app.query_one("#party-table", DataTable)

            def names() -> list[str]:
                return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]

            deadline = time.monotonic() + 10  # the table, not only the store: it redraws after
            while "Милава" in names() and time.monotonic() < deadline:
                await pilot.pause(0.01)
            assert "Милава" not in names()
            assert all(c.name != "Милава" for c in app.store.characters())
