"""A change is a delta against what it read (issue 14): two stores on one file.

Each test is a reproduction from the issue played with two :class:`Store` instances on one
campaign file — one the GM's app, the other «another window» (a second kubik, the CLI).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.drevo.sheet import DrevoSheet
from rules.ide4.sheet import Ide4Sheet
from tui.store import Edit, LogEntry, StaleWrite, Store, new_id

AT = "2025-03-01T19:30:00+03:00"


@pytest.fixture
def two(tmp_path):
    path = tmp_path / "c.json"
    app, other = Store.open(path), Store.open(path)
    yield app, other
    app.close()
    other.close()


def by_name(store: Store, name: str):
    return next(c for c in store.characters() if c.name == name)


def note(text: str) -> LogEntry:
    return LogEntry(new_id(), AT, "note", None, text)


def with_scratch(c):
    wounds = {**c.drevo.wounds, "scratch": c.drevo.wounds["scratch"] + 1}
    return Edit(
        c.edit_sheet(DrevoSheet, wounds=wounds), f"{c.name}: Царапина", [note("Рана: Царапина")]
    )


class TestResurrection:
    """«press w on Богдан Сыч; another kubik removes him; Enter → he is back in the file»."""

    def test_a_changed_copy_of_a_removed_character_is_refused(self, two):
        app, other = two
        bogdan = by_name(app, "Богдан Сыч")  # what the open wound dialog holds
        other.delete_character(bogdan.id)
        app.refresh()
        wounded = bogdan.edit_sheet(DrevoSheet, wounds={**bogdan.drevo.wounds, "scratch": 1})
        with pytest.raises(StaleWrite, match="Богдан Сыч удалён в другом окне — рана не записана"):
            app.upsert_character(wounded, label="рана", what="рана не записана")
        assert Store.open(app.path).character(bogdan.id) is None

    def test_refused_even_before_this_store_saw_the_removal(self, two):
        app, other = two
        bogdan = by_name(app, "Богдан Сыч")
        other.delete_character(bogdan.id)  # no refresh: the app's table still lists him
        with pytest.raises(StaleWrite):
            app.upsert_character(bogdan.edit_sheet(DrevoSheet, fate=1))
        assert other.character(bogdan.id) is None
        assert app.character(bogdan.id) is None  # the refused write read the file fresh

    def test_an_edit_of_a_removed_character_is_refused_and_writes_no_log(self, two):
        app, other = two
        bogdan = by_name(app, "Богдан Сыч")
        other.delete_character(bogdan.id)
        with pytest.raises(StaleWrite, match="Персонаж Богдан Сыч удалён в другом окне"):
            app.update_character(bogdan.id, with_scratch, name=bogdan.name, what="рана не записана")
        assert app.character(bogdan.id) is None
        assert app.log() == []


class TestLostUpdate:
    """«press w on Горан; another kubik sets his Судьба to 5 and new notes; Enter → the file
    has Судьба 9 and the old notes»."""

    def test_a_wound_is_added_to_the_current_character(self, two):
        app, other = two
        goran = by_name(app, "Горан Рябой")
        other.upsert_character(
            replace(
                by_name(other, "Горан Рябой").edit_sheet(DrevoSheet, fate=5), notes="новые заметки"
            )
        )
        # The dialog's change, made from its stale copy: only the wounds differ from it.
        app.upsert_character(
            goran.edit_sheet(DrevoSheet, wounds={**goran.drevo.wounds, "scratch": 1})
        )
        now = Store.open(app.path).character(goran.id)
        assert (now.drevo.fate, now.notes, now.drevo.wounds["scratch"]) == (5, "новые заметки", 1)

    def test_an_edit_re_applies_to_the_current_track(self, two):
        app, other = two
        goran = by_name(app, "Горан Рябой")
        other.update_character(goran.id, with_scratch, name="Горан Рябой")
        other.upsert_character(other.character(goran.id).edit_sheet(DrevoSheet, fate=5))
        app.update_character(goran.id, with_scratch, name="Горан Рябой")  # a second wound
        now = Store.open(app.path).character(goran.id)
        assert (now.drevo.fate, now.drevo.wounds["scratch"]) == (5, 2)

    def test_the_same_field_changed_in_both_is_refused_naming_it(self, two):
        app, other = two
        goran = by_name(app, "Горан Рябой")
        other.upsert_character(
            replace(by_name(other, "Горан Рябой").edit_sheet(DrevoSheet, fate=5), notes="новые")
        )
        with pytest.raises(StaleWrite, match=r"изменён в другом окне \(Судьба\)"):
            app.upsert_character(
                goran.edit_sheet(DrevoSheet, fate=goran.drevo.fate + 1), what="Судьба не записана"
            )
        now = Store.open(app.path).character(goran.id)
        assert (now.drevo.fate, now.notes) == (5, "новые")

    def test_fields_merge_key_by_key(self, two):
        app, other = two
        goran = by_name(app, "Горан Рябой")
        there = by_name(other, "Горан Рябой")
        other.upsert_character(
            replace(there, extra={**there.extra, "прозвище": "Рябой"}, hidden=True)
        )
        here = replace(goran, extra={**goran.extra, "рост": 180}).edit_sheet(Ide4Sheet, energy=40)
        app.upsert_character(here)
        now = Store.open(app.path).character(goran.id)
        assert now.extra == {**goran.extra, "прозвище": "Рябой", "рост": 180}
        assert (now.hidden, now.ide4.energy) == (True, 40)

    def test_an_undone_change_is_not_written_back_by_a_stale_copy(self, two):
        """«Undo under an open check»: the copy from before the undo cannot win."""
        app, _ = two
        goran = by_name(app, "Горан Рябой")
        app.upsert_character(replace(goran, extra={**goran.extra, "energy": 40}))
        spent = app.character(goran.id)  # what the open check holds: energy 40
        app.undo()
        with pytest.raises(StaleWrite, match="данные листа"):
            app.upsert_character(replace(spent, extra={**spent.extra, "energy": 28}))
        assert app.character(goran.id).ide4.energy == goran.ide4.energy


class TestUndoneMarks:
    def test_an_undone_steps_entries_are_marked_and_a_redo_clears_the_mark(self, two):
        app, other = two
        goran = by_name(app, "Горан Рябой")
        app.update_character(goran.id, with_scratch, name="Горан Рябой")
        app.append_log(note("просто бросок"))
        assert [e.undone for e in app.log()] == [False, False]
        other.refresh()
        assert other.undo() is None  # another window's Ctrl+Z never takes this window's step
        app.undo()
        other.refresh()
        assert [(e.text, e.undone) for e in other.log()] == [
            ("просто бросок", False),
            ("Рана: Царапина", True),
        ]
        assert other.character(goran.id).drevo.wounds["scratch"] == 0
        app.redo()
        assert [e.undone for e in other.log()] == [False, False] or other.refresh()
        assert [e.undone for e in app.log()] == [False, False]

    def test_marks_stay_when_a_new_step_clears_the_redo_stack(self, two):
        app, _ = two
        goran = by_name(app, "Горан Рябой")
        for _ in range(3):
            app.update_character(goran.id, with_scratch, name="Горан Рябой")
        for _ in range(3):
            app.undo()
        app.upsert_character(app.character(goran.id).edit_sheet(DrevoSheet, fate=1))
        assert not app.can_redo
        assert [e.undone for e in Store.open(app.path).log()] == [True, True, True]

    def test_a_separate_entry_links_to_the_step_it_tells_of(self, two):
        app, _ = two
        goran = by_name(app, "Горан Рябой")
        app.upsert_character(goran.edit_sheet(DrevoSheet, fate=goran.drevo.fate + 1))
        app.append_log(note("Ведущий даёт очко Судьбы"), step=app.take_last_step())
        app.append_log(note("бросок"), step=app.take_last_step())  # nothing left to link
        app.undo()
        assert [e.undone for e in app.log()] == [False, True]

    def test_the_undone_list_keeps_only_ids_an_entry_names_past_its_limit(self, two, monkeypatch):
        from tui.store import history

        monkeypatch.setattr(history, "UNDONE_KEEP", 1)
        app, _ = two
        goran = by_name(app, "Горан Рябой")
        for fate in (5, 6):
            app.upsert_character(app.character(goran.id).edit_sheet(DrevoSheet, fate=fate))
        app.update_character(goran.id, with_scratch, name="Горан Рябой")
        for fate in (7, 8, 9):
            app.upsert_character(app.character(goran.id).edit_sheet(DrevoSheet, fate=fate))
        for _ in range(6):
            app.undo()
        undone = app._stacks["undone"]
        assert len(undone) == 2  # the wound's id (named by its entry) and the newest one
        assert [e.undone for e in Store.open(app.path).log()] == [True]
        app.redo()
        app.redo()
        app.redo()
        assert [e.undone for e in app.log()] == [False]


class TestDocuments:
    """The settings screen saves the tables it changed on top of another window's."""

    def test_a_document_merges_key_by_key_against_its_base(self, two):
        app, other = two
        seen = app.get_doc("settings")  # None: nothing overridden yet
        other.put_doc("settings", {"drevo/ladder.toml": {"a": 1}}, label="их таблица")
        app.apply(
            "наша таблица",
            docs={"settings": {"drevo/damage.toml": {"b": 2}}},
            bases={"settings": seen},
        )
        assert Store.open(app.path).get_doc("settings") == {
            "drevo/ladder.toml": {"a": 1},
            "drevo/damage.toml": {"b": 2},
        }

    def test_the_same_key_changed_in_both_is_refused(self, two):
        app, other = two
        other.put_doc("settings", {"drevo/ladder.toml": {"a": 1}}, label="их таблица")
        with pytest.raises(StaleWrite, match=r"drevo/ladder\.toml.*настройки не записаны"):
            app.apply(
                "наша таблица",
                docs={"settings": {"drevo/ladder.toml": {"a": 5}}},
                bases={"settings": None},
                what="настройки не записаны",
            )
        assert Store.open(app.path).get_doc("settings") == {"drevo/ladder.toml": {"a": 1}}

    def test_without_a_base_a_document_is_set_whole(self, two):
        app, other = two
        other.put_doc("encounter", {"round": 2}, label="раунд")
        app.put_doc("encounter", {"round": 3, "side": "Отряд"}, label="раунд")
        assert Store.open(app.path).get_doc("encounter") == {"round": 3, "side": "Отряд"}
