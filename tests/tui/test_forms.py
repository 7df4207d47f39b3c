"""The character form and the party keys: add, edit, copy, delete, sort, filter."""

from __future__ import annotations

import pytest

from tui.screens.keys import key_rows
from tui.store import Skill
from tui.widgets.party.form import CharacterForm


def names(app) -> list[str]:
    return [c.name for c in app.store.characters()]


def shown(app) -> list[str]:
    table = app.query_one("#party-table")
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def fill(pilot, field: str, text: str) -> None:
    """Replace the text of one form field."""
    widget = pilot.app.screen.query_one(f"#f-{field}")
    widget.value = text
    await pilot.pause()


class TestAdd:
    async def test_wrong_values_save_nothing_then_a_drevo_character_is_added(self, make_test_app):
        """A wrong value gets a message at its field — every wrong field at once — and
        nothing is saved until it is fixed; fixed, its message goes away; Esc saves nothing.
        (What each field's parser refuses and says — a blank name, a number too long, a
        fraction: tests/tui/test_party_fields.py.) Then «a» again: the fields of «Древа» —
        качества, навыки с частью («Щиты 2 (Драка)»), оружие, Судьба — saved."""
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
            await pilot.press("a", *"Ждан")
            for field, text, _message, _fixed in cases:
                await fill(pilot, field, text)
            await pilot.press("enter")  # Enter in a field saves … or refuses
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm)
            assert app.store.characters() == before
            for field, _text, message, fixed in cases:
                key = "stats" if field.startswith("stat-") else field
                error = app.screen.query_one(f"#e-{key}")
                assert error.display and message in str(error.render()), field
                await fill(pilot, field, fixed)
                assert not error.display, field  # fixed: the message goes away
            await pilot.press("escape")  # cancel: still nothing saved
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm)
            assert app.store.characters() == before
            await pilot.press("a")  # the empty form
            assert isinstance(app.screen, CharacterForm)
            await pilot.press(*"Ждан")
            await fill(pilot, "stat-0", "3")
            await fill(pilot, "skills", "Драка 2, Щиты 2 (Драка), Бой без оружия −1")
            await fill(pilot, "weapons", "меч, Щит")
            await fill(pilot, "fate", "5")
            await fill(pilot, "notes", "новобранец")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm)
        (zhdan,) = [c for c in app.store.characters() if c.name == "Ждан"]
        assert zhdan.kind == "pc"
        assert zhdan.qualities["Сила"] == 3 and zhdan.qualities["Воля"] == 0
        assert zhdan.skills == (
            Skill("Драка", 2),
            Skill("Щиты", 2, "Драка"),
            Skill("Бой без оружия", -1),
        )
        assert zhdan.weapons == ("Меч", "Щит")
        assert (zhdan.drevo.fate, zhdan.notes) == (5, "новобранец")

    async def test_a_name_another_window_added_meanwhile_is_refused(
        self, make_test_app, campaign_path
    ):
        """The form judges the name against the party as the store has it on save."""
        from dataclasses import replace

        from tui.store import Store, new_id

        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *"Ждан")
            other = Store.open(campaign_path)
            other.upsert_character(replace(other.characters()[0], id=new_id(), name="ждан"))
            app._refresh_store()  # what the file watch does
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm)
            assert "В партии уже есть «Ждан»" in str(app.screen.query_one("#e-name").render())
        assert [n.casefold() for n in names(app)].count("ждан") == 1

    async def test_ide4_form(self, make_test_app):
        """IDE4: атрибуты 1–6, мастерство с главным атрибутом и дистанциями, энергия."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *"Лев", "down", "right")  # name; kind: НИП
            await fill(pilot, "skills", "Взлом 65 (Мелкая моторика), Стрельба 25 [Д/Б]")
            await fill(pilot, "energy", "101")
            await pilot.press("ctrl+s")
            assert "от 0 до 100" in str(app.screen.query_one("#e-energy").render())
            await fill(pilot, "energy", "70")
            app.screen.query_one("#f-always_expanded").action_step(1)  # always expanded: да
            await pilot.press("ctrl+s")
            await pilot.pause()
        (lev,) = [c for c in app.store.characters() if c.name == "Лев"]
        assert lev.kind == "npc"
        assert lev.skills[0] == Skill("Взлом", 65, "Мелкая моторика")
        assert lev.skills[1].distances == ("Д", "Б")
        assert (lev.ide4.energy, lev.ide4.always_expanded, lev.extra) == (70, True, {})
        assert set(lev.qualities) == {
            "Сила", "Крупная моторика", "Мелкая моторика", "Внимание", "Риторика", "Обаяние"
        }  # fmt: skip

    @pytest.mark.parametrize(
        ("system", "skills", "bad"),
        [("starately", "Медицина 3", "Медицина 5"), ("wod", "Расследование 3", "Обман 6")],
    )
    async def test_levels_per_system(self, make_test_app, system, skills, bad):
        """Старатели: навык 0–4, характеристики 2–15; Мир Тьмы: точки 0–5, атрибуты 1–5."""
        app = make_test_app(system=system)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *"Новичок")
            await fill(pilot, "skills", bad)
            await fill(pilot, "stat-0", "16")
            await pilot.press("ctrl+s")
            assert app.screen.query_one("#e-skills").display
            assert app.screen.query_one("#e-stats").display
            await fill(pilot, "skills", skills)
            await fill(pilot, "stat-0", "5")
            await pilot.press("ctrl+s")
            await pilot.pause()
        (new,) = [c for c in app.store.characters() if c.name == "Новичок"]
        assert new.skills[0].value == 3
        assert list(new.qualities.values())[0] == 5


class TestEditCopyDelete:
    async def test_edit_keeps_id(self, make_test_app):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            first = app.query_one("#party-pane").highlighted_id()
            await pilot.press("e")
            await fill(pilot, "name", "Богдан Филин")
            await fill(pilot, "notes", "")
            await pilot.press("ctrl+s")
            await pilot.pause()
        edited = app.store.character(first)
        assert (edited.name, edited.notes) == ("Богдан Филин", "")
        assert app.store.undo_labels(1) == ["Изменён «Богдан Филин»"]

    async def test_duplicate_then_delete(self, make_test_app):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            source = app.store.characters()[0]
            await pilot.press("c")  # the copy's form, already named
            assert app.screen.query_one("#f-name").value == f"{source.name} (копия)"
            await pilot.press("enter")
            await pilot.pause()
            (copy,) = [c for c in app.store.characters() if c.name.endswith("(копия)")]
            assert copy.id != source.id and copy.skills == source.skills
            assert app.query_one("#party-pane").highlighted_id() == copy.id
            await pilot.press("x")  # confirmation: «Нет» first
            await pilot.press("enter")
            await pilot.pause()
            assert app.store.character(copy.id) is not None
            await pilot.press("delete", "down", "enter")  # «Да, удалить»
            await pilot.pause()
            assert app.store.character(copy.id) is None

    async def test_sort_and_filter(self, make_test_app):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            assert shown(app)[:2] == ["Богдан Сыч", "Горан Рябой"]  # PCs first
            await pilot.press("s")  # by name
            assert shown(app) == sorted(names(app), key=str.casefold)
            await pilot.press("s")  # by Судьба, most first
            assert shown(app)[0] == "Милава"
            await pilot.press("f", *"драка")  # skills count too
            assert "Богдан Сыч" not in shown(app) and "Горан Рябой" in shown(app)
            await pilot.press("enter")  # keep the filter, back to the table
            assert app.focused.id == "party-table"
            await pilot.press("f", "escape")  # clear it
            assert len(shown(app)) == len(names(app))


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
            await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)


class TestTableKeys:
    async def test_end_and_home_go_to_the_last_and_first_character(self, make_test_app):
        """Listed in «?» under Партия; the filter field keeps them for its text."""
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.query_one("#party-table")
            await pilot.press("end")
            assert table.cursor_row == table.row_count - 1 > 0
            sheet = str(app.query_one("#party-sheet").render())
            assert shown(app)[-1] in sheet  # the sheet follows the cursor
            await pilot.press("up", "home")
            assert table.cursor_row == 0
            await pilot.press("f", *"ав", "home", "x")  # in the filter: the text's start
            assert app.query_one("#party-filter").value == "xав"
            assert table.cursor_row == 0
            await pilot.press("escape", "question_mark")  # out of the filter; the keys
            await pilot.pause()
            party = dict(key_rows(dict(app.screen.groups)["Партия"]))
            assert party["Home"] == "Первый персонаж таблицы"
            assert party["End"] == "Последний персонаж таблицы"


async def test_a_fast_end_backspaces_and_digits_in_the_form_keep_their_order(make_test_app):
    """tmux: «e», ↓ ↓, then «End BSpace BSpace BSpace» and «99» at once left the field empty
    («Нужно целое число»): the digits went in first and the backspaces, run after bubbling
    up to the app, deleted them. Each field of the form edits in the order typed."""
    from tests.tui.test_pilot import burst

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e")
        assert isinstance(app.screen, CharacterForm)
        await pilot.press("down", "down")  # Имя, Кто, then the first quality
        field = app.focused
        assert field.id == "f-stat-0"
        await burst(pilot, "end", "backspace", "backspace", "backspace", "9", "9")
        assert field.value == "99"
        notes = app.screen.query_one("#f-notes")  # a text row edits in order too
        app.screen.set_focus(notes)
        await pilot.pause()
        before = notes.value
        await burst(pilot, "end", "backspace", "backspace", "!", "?")
        assert notes.value == before[:-2] + "!?"


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


class TestTheKindSelector:
    async def test_a_new_npc_starts_with_the_npc_fate(self, make_test_app):
        """Playtest: switching «Кто» to НИП kept Судьба 3 (``party add --npc`` gives the NPC
        start of ``data/drevo/fate.toml``). A Судьба the GM typed is his, and stays."""
        from rules import drevo

        rules = drevo.fate_rules()
        assert rules.starting_points != rules.npc_starting_points  # else nothing is shown
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *"Ждан", "tab")
            form = app.screen
            assert isinstance(form, CharacterForm) and form.focused.id == "f-kind"
            fate = form.query_one("#f-fate")
            assert fate.value == str(rules.starting_points)
            await pilot.press("right")  # НИП
            await pilot.pause()
            assert fate.value == str(rules.npc_starting_points)
            await pilot.press("left")  # back to Игрок
            await pilot.pause()
            assert fate.value == str(rules.starting_points)
            await fill(pilot, "fate", "2")
            await pilot.press("right")  # the GM's own number is kept
            await pilot.pause()
            assert fate.value == "2"
            await fill(pilot, "fate", str(rules.starting_points))
            await pilot.press("left", "right")
            await pilot.pause()
            assert fate.value == str(rules.npc_starting_points)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm)
        (zhdan,) = [c for c in app.store.characters() if c.name == "Ждан"]
        assert (zhdan.kind, zhdan.drevo.fate) == ("npc", rules.npc_starting_points)

    async def test_enter_on_it_saves_as_the_title_says(self, make_test_app):
        """Playtest: Enter on «Кто» did nothing though the form's title says «Enter/Ctrl+S —
        сохранить» (Enter in a text field saved)."""
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *"Ждан", "tab", "right")
            await pilot.pause()
            assert app.screen.focused.id == "f-kind"
            assert "Enter/Ctrl+S — сохранить" in str(app.screen.query_one("#form-title").render())
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, CharacterForm)
        (zhdan,) = [c for c in app.store.characters() if c.name == "Ждан"]
        assert zhdan.kind == "npc"
