"""The character form and the party keys: add, edit, copy, delete, sort, filter."""

from __future__ import annotations

import pytest

from tui.screens.keys import key_rows
from tui.widgets.party.form import CharacterForm


def names(app) -> list[str]:
    return [c.name for c in app.store.characters()]


def shown(app) -> list[str]:
    table = app.query_one("#party-table")
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


def form_focus(app) -> str | None:
    focused = app.screen.focused
    return focused.id if focused is not None else None


async def fill(pilot, field: str, text: str) -> None:
    """Replace the text of one form field."""
    widget = pilot.app.screen.query_one(f"#f-{field}")
    widget.value = text
    await pilot.pause()


class TestAdd:
    async def test_a_wrong_value_is_shown_at_its_field_and_the_form_saves_only_right_values(
        self, make_test_app, campaign_path
    ):
        """A wrong value gets a message at its field — every wrong field at once — and
        nothing is saved until it is fixed; fixed, its message goes away; Esc saves nothing.
        A name another window added while the form is open is refused on save (the form
        judges the name against the party as the store has it then). Then the form saves what
        was typed, «Отбивать стрелы» too. Play-test, plain terminal: a new character's empty
        «Оружие» showed «Меч, Щит» in grey, as if typed: it says «например:». And «Кто» (the
        same form): playtest, switching it to НИП kept Судьба 3 on screen; the form shows the
        NPC start of ``data/drevo/fate.toml`` at once. Playtest: Enter on «Кто» did nothing
        though the form's title says «Enter/Ctrl+S — сохранить» (Enter in a text field saved).

        Replaces the pilot tests `tests/tui/test_forms.py::TestAdd::
        test_wrong_values_save_nothing_then_a_drevo_character_is_added`,
        `…::TestAdd::test_a_name_another_window_added_meanwhile_is_refused`,
        `…::TestTheKindSelector::test_a_new_npc_starts_with_the_npc_fate` (what the Судьба
        follows — back to a player, a number the GM typed kept — is now
        `tests/tui/test_form_saves.py::test_a_new_npc_starts_with_the_npc_fate`) and
        `…::TestTheKindSelector::test_enter_on_it_saves_as_the_title_says`, and the «Оружие»
        part of `tests/tui/test_misled.py::
        test_the_new_character_and_npc_forms_placeholders_read_as_examples` (one app run; the
        second form, refused for «Ждан», saves «Ждан Второй» an NPC with Enter on «Кто»):
        what each field refuses and the character the checked values make —
        `tests/tui/test_form_saves.py::test_every_wrong_field_is_refused_at_once_then_a_drevo_character_is_saved`;
        the name asked at each check — `tests/tui/test_form_saves.py::
        test_the_name_is_judged_against_the_party_as_it_is_at_each_check`."""
        from dataclasses import replace

        from rules import drevo
        from tui.store import Store, new_id

        rules = drevo.fate_rules()
        assert rules.starting_points != rules.npc_starting_points  # else nothing is shown
        cases = [
            ("name", "Милава", "уже есть", "Ждан"),
            ("stat-1", "7", "Ловкость: Нужно число от −3 до 5", "1"),
            ("skills", "Драка два", "Навык число", ""),
            ("weapons", "Бластер", "Нет оружия «Бластер»", ""),
            ("fate", "11", "от 0 до 10", "3"),
        ]
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            before = app.store.characters()
            await pilot.press("a")
            weapons = app.screen.query_one("#f-weapons")
            assert weapons.value == "", f"a new character's «Оружие» holds {weapons.value!r}"
            assert weapons.placeholder.startswith("например: "), weapons.placeholder
            await fill(pilot, "name", "Ждан")  # (the typing is not what is tested)
            for field, text, _message, _fixed in cases:
                await fill(pilot, field, text)
            await pilot.press("enter")  # Enter in a field saves … or refuses
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm), "a refused form stays open"
            assert app.store.characters() == before, "a refused form saved"
            for field, _text, message, fixed in cases:
                key = "stats" if field.startswith("stat-") else field
                error = app.screen.query_one(f"#e-{key}")
                assert error.display and message in str(error.render()), f"{field}: no message"
                await fill(pilot, field, fixed)
                assert not error.display, f"{field}: fixed, its message stays"
            await pilot.press("escape")  # cancel: still nothing saved
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm), "Esc left the form open"
            assert app.store.characters() == before, "Esc saved the fixed values"

            await pilot.press("a")  # the empty form again
            await fill(pilot, "name", "Ждан")
            other = Store.open(campaign_path)
            other.upsert_character(replace(other.characters()[0], id=new_id(), name="ждан"))
            app._refresh_store()  # what the file watch does
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm), "another window's name was taken"
            said = str(app.screen.query_one("#e-name").render())
            assert "В партии уже есть «Ждан»" in said, said
            assert [n.casefold() for n in names(app)].count("ждан") == 1
            assert form_focus(app) == "f-name", "the refusal: not on the name"
            await fill(pilot, "name", "Ждан Второй")
            await fill(pilot, "stat-0", "3")
            await fill(pilot, "notes", "новобранец")
            app.screen.query_one("#f-parry_ability").action_step(1)  # Отбивать стрелы: да

            await pilot.press("tab")
            form = app.screen
            assert isinstance(form, CharacterForm) and form.focused.id == "f-kind", "Tab"
            fate = form.query_one("#f-fate")
            assert fate.value == str(rules.starting_points), "a player's start"
            await pilot.press("right")  # НИП
            await pilot.pause()
            assert fate.value == str(rules.npc_starting_points), "НИП: the fate shown stays"
            assert form.focused.id == "f-kind", "→ left «Кто»"
            title = str(form.query_one("#form-title").render())
            assert "Enter/Ctrl+S — сохранить" in title, title
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm), "Enter on «Кто» did not save"
        (zhdan,) = [c for c in app.store.characters() if c.name == "Ждан Второй"]
        assert (zhdan.kind, zhdan.qualities["Сила"]) == ("npc", 3), "the saved values"
        assert zhdan.notes == "новобранец", "the saved notes"
        assert zhdan.drevo.parry_ability is True, "the yes/no field was not saved"
        assert zhdan.drevo.fate == rules.npc_starting_points, "the NPC's Судьба"


class TestEditCopyDelete:
    async def test_sort_filter_home_end_edit_copy_and_delete(self, make_test_app):
        """The Партия tab's keys, in one app run: «s» sorts (by name, then by Судьба), «f»
        filters (skills count too; Enter keeps it, Esc clears it); End and Home go to the last
        and first character (listed in «?» under Партия; the filter field keeps them for its
        text) and the sheet follows the cursor; «e» edits in place (same id, one undo step),
        «c» copies under a new name, «x» deletes after «Да, удалить» («Нет» first).

        Replaces the pilot tests `tests/tui/test_forms.py::TestEditCopyDelete::
        test_sort_and_filter`,
        `…::TestTableKeys::test_end_and_home_go_to_the_last_and_first_character`,
        `…::TestEditCopyDelete::test_edit_keeps_id` and
        `…::TestEditCopyDelete::test_duplicate_then_delete` (same demo party, one run).

        In the edit form, tmux: «e», ↓ ↓, then «End BSpace BSpace BSpace» and «99» at once
        left the field empty («Нужно целое число»): the digits went in first and the
        backspaces, run after bubbling up to the app, deleted them. Each field of the form
        edits in the order typed. Also replaces the pilot test `tests/tui/test_forms.py::
        test_a_fast_end_backspaces_and_digits_in_the_form_keep_their_order` (its «e» is the
        edit's form, the edit then typed over it)."""
        from tests.tui.test_pilot import burst

        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            pane = app.query_one("#party-pane")
            table = app.query_one("#party-table")
            assert shown(app)[:2] == ["Богдан Сыч", "Горан Рябой"], "PCs first"
            await pilot.press("s")  # by name
            assert shown(app) == sorted(names(app), key=str.casefold), "«s»: by name"
            await pilot.press("s")  # by Судьба, most first
            assert shown(app)[0] == "Милава", "«s» twice: by Судьба"
            await pilot.press("f")
            app.query_one("#party-filter").value = "драка"  # skills count too
            await pilot.pause()
            rows = shown(app)
            assert "Богдан Сыч" not in rows and "Горан Рябой" in rows, f"filter: {rows}"
            await pilot.press("enter")  # keep the filter, back to the table
            assert app.focused.id == "party-table", "Enter in the filter"
            await pilot.press("f", "escape")  # clear it
            assert len(shown(app)) == len(names(app)), "Esc did not clear the filter"

            await pilot.press("end")
            assert table.cursor_row == table.row_count - 1 > 0, "End"
            sheet = str(app.query_one("#party-sheet").render())
            assert shown(app)[-1] in sheet, "the sheet does not follow the cursor"
            await pilot.press("up", "home")
            assert table.cursor_row == 0, "Home"
            await pilot.press("f")
            app.query_one("#party-filter").value = "ав"
            await pilot.press("home", "x")  # in the filter: the text's start
            assert app.query_one("#party-filter").value == "xав", "Home in the filter"
            assert table.cursor_row == 0, "Home in the filter moved the table"
            await pilot.press("escape", "question_mark")  # out of the filter; the keys
            await pilot.pause()
            party = dict(key_rows(dict(app.screen.groups)["Партия"]))
            assert party["Home"] == "Первый персонаж таблицы", party
            assert party["End"] == "Последний персонаж таблицы", party
            await pilot.press("escape")
            await pilot.pause()

            first = pane.highlighted_id()
            await pilot.press("e")
            assert isinstance(app.screen, CharacterForm), "«e» opened no form"
            await pilot.press("down", "down")  # Имя, Кто, then the first quality
            field = app.focused
            assert field.id == "f-stat-0", f"↓ ↓ in the form: {field.id}"
            stat = field.value
            await burst(pilot, "end", "backspace", "backspace", "backspace", "9", "9")
            assert field.value == "99", f"End, 3 × BSpace, 99 at once: {field.value!r}"
            notes = app.screen.query_one("#f-notes")  # a text row edits in order too
            app.screen.set_focus(notes)
            await pilot.pause()
            before = notes.value
            assert len(before) > 2, f"notes too short to edit: {before!r}"
            await burst(pilot, "end", "backspace", "backspace", "!", "?")
            assert notes.value == before[:-2] + "!?", f"the notes: {notes.value!r}"

            await fill(pilot, "stat-0", stat)  # (99 is out of range)
            await fill(pilot, "name", "Богдан Филин")
            await fill(pilot, "notes", "")
            await pilot.press("ctrl+s")
            await pilot.pause()
            edited = app.store.character(first)
            assert (edited.name, edited.notes) == ("Богдан Филин", ""), "«e» edits in place"
            assert app.store.undo_labels(1) == ["Изменён «Богдан Филин»"]

            source = app.store.character(pane.highlighted_id())
            await pilot.press("c")  # the copy's form, already named
            assert app.screen.query_one("#f-name").value == f"{source.name} (копия)"
            await pilot.press("enter")
            await pilot.pause()
            (copy,) = [c for c in app.store.characters() if c.name.endswith("(копия)")]
            assert copy.id != source.id and copy.skills == source.skills, "«c» copies"
            assert pane.highlighted_id() == copy.id, "the copy is not highlighted"
            await pilot.press("x")  # confirmation: «Нет» first
            await pilot.press("enter")
            await pilot.pause()
            assert app.store.character(copy.id) is not None, "«Нет» deleted"
            await pilot.press("delete", "down", "enter")  # «Да, удалить»
            await pilot.pause()
            assert app.store.character(copy.id) is None, "«Да, удалить» did not delete"


class TestFormSnapshots:
    """Each system's form at 80×24."""

    @pytest.mark.parametrize("system", ["drevo", "ide4", "starately", "wod"])
    def test_edit_form(self, snap_compare, make_test_app, system):
        assert snap_compare(make_test_app(system=system), terminal_size=(80, 24), press=["e"])

    def test_errors(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("a")  # an empty form
            await fill(pilot, "skills", "Драка 9")  # out of range
            await fill(pilot, "weapons", "Бластер")  # not in the table
            await pilot.press("ctrl+s")  # refused: messages under the fields

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("system", ["drevo", "ide4", "starately", "wod"])
def test_a_blank_character_holds_its_systems_sheet_at_its_defaults(system):
    """The form's new character carries the campaign's system's sheet (IDE4: energy 100),
    Древо's with the campaign's Судьба — not a Древо sheet whatever the system."""
    from rules import drevo
    from tui.store.models import SHEETS
    from tui.widgets.party.form import blank_character

    c = blank_character(system)
    assert type(c.sheet) is SHEETS[system]
    start = drevo.fate_rules().starting_points
    assert c.sheet == (SHEETS[system](fate=start) if system == "drevo" else SHEETS[system]())
