"""The typed sheets (rules/sheets/) and how a Character reads and writes them."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from rules.drevo import sheet as drevo_sheet
from rules.drevo.sheet import DrevoSheet
from rules.ide4.sheet import Ide4Sheet
from rules.sheets import SheetError
from rules.starately.sheet import StaratelySheet
from rules.wod.sheet import WodSheet
from tui.store.codec import character_from_doc, character_to_doc
from tui.store.models import SHEETS, Character


def person(**fields) -> Character:
    base = Character("c1", "Вера", "pc", {"Сила": 2}, (), ())
    return replace(base, **fields)


def test_each_system_has_its_sheet():
    assert set(SHEETS) == {"drevo", "ide4", "starately", "wod"}
    assert {s.SYSTEM for s in SHEETS.values()} == set(SHEETS)


def test_a_character_reads_each_sheet_from_its_fields_and_extra():
    c = person(
        sheet=DrevoSheet(2, {"light": 1}),
        extra={"dead": True, "energy": 40, "harm": "ушиб", "health": ["lethal"], "initiative": 7},
    )
    assert c.drevo == DrevoSheet(2, {"light": 1}, dead=True)  # its own sheet's field folds in
    assert c.sheet is c.drevo and "dead" not in c.extra
    assert c.ide4 == Ide4Sheet(energy=40, harm="ушиб", initiative=7)
    assert c.starately == StaratelySheet("ушиб", 7)
    assert c.wod == WodSheet(("lethal",), 7)
    assert c.sheet_of("wod") == c.wod and c.sheet_of("drevo") is c.sheet


def test_a_missing_or_damaged_value_reads_as_the_sheet_default():
    c = person(extra={"energy": "много", "health": "ушиб", "initiative": "7"})
    assert c.ide4 == Ide4Sheet()
    assert c.wod.health == ()


def test_with_sheet_writes_only_what_changed():
    c = person(extra={"energy": 40, "note": "своё"})
    assert c.with_sheet(c.ide4) is c  # read and written back: the same stored values
    spent = c.edit_sheet(Ide4Sheet, energy=10, daily_triumph_used=True)
    assert spent.carried == {"energy": 10, "daily_triumph_used": True}
    assert spent.extra == {"note": "своё"}  # free values only
    hurt = c.edit_sheet(DrevoSheet, fate=3, wounds={"heavy": 1}, dead=True)
    assert hurt.sheet == DrevoSheet(3, {"heavy": 1}, dead=True)  # its own sheet, replaced
    assert (hurt.extra, hurt.carried) == (c.extra, c.carried)
    fixed = replace(c, extra={**c.extra, "initiative": 5}).edit_sheet(WodSheet, initiative=None)
    assert "initiative" not in fixed.carried  # None: the field is not set


def test_the_stored_form_keeps_each_sheet_field_and_mark_apart_and_reads_back():
    c = person(extra={"energy": 40, "note": "своё"}, hidden=True, from_template="Волк")
    doc = character_to_doc(c)
    assert (doc["energy"], doc["hidden"], doc["template"]) == (40, True, "Волк")
    assert doc["extra"] == {"note": "своё"} and "player" not in doc  # a mark never set
    assert character_from_doc(doc) == c
    assert (c.hidden, c.player, person(player="Оля").player) == (True, "", "Оля")


def test_a_sheet_field_of_an_older_form_in_extra_still_reads():
    doc = character_to_doc(person())
    doc["extra"] = {"energy": 55}
    assert character_from_doc(doc).ide4.energy == 55


def test_wounds_that_are_no_table_are_refused_with_the_field_named():
    with pytest.raises(SheetError) as err:
        drevo_sheet.CHECKS.check({"wounds": [0, 1]})
    assert (err.value.field, str(err.value)) == ("wounds", "поле wounds: нужен объект")


def test_the_core_marks_are_typed_fields():
    npc = person(kind="npc", from_template="Волк", from_encounter="Засада", hidden=True)
    assert (npc.from_template, npc.from_encounter, npc.hidden) == ("Волк", "Засада", True)
    older = person(kind="npc", extra={"template": "Волк", "encounter": "Засада", "hidden": True})
    assert older == npc and older.extra == {}  # given in extra (the older form): moved
    for bad in ({"from_template": 5}, {"player": None}, {"hidden": "да"}, {"extra": {"hidden": 1}}):
        with pytest.raises(TypeError):
            person(**bad)


def test_the_core_marks_are_written_through_the_core():
    npc = person(kind="npc", extra={"note": "своё"})
    marked = npc.marked(template="Волк", encounter="Засада", hidden=True)
    assert (marked.from_template, marked.from_encounter, marked.hidden) == ("Волк", "Засада", True)
    shown = marked.marked(hidden=False, encounter="")
    assert (shown.hidden, shown.from_encounter, shown.from_template) == (False, "", "Волк")
    assert shown.extra == {"note": "своё"}  # the marks are the core's, not extra's
    assert npc.marked(hidden=False) is npc  # nothing changed: the same character
    stored = character_from_doc(character_to_doc(marked))  # a mark put back to its default
    assert character_to_doc(stored.marked(hidden=False))["hidden"] is False  # is written


def test_a_character_of_another_system_holds_its_own_sheet_and_keeps_the_rest():
    """An IDE4 character: its sheet is IDE4's; Судьба and wounds it carries stay as read."""
    doc = character_to_doc(person(sheet=DrevoSheet(2, {"light": 1}), extra={"energy": 40}))
    c = character_from_doc(doc, "ide4")
    assert c.sheet == Ide4Sheet(energy=40) and c.drevo == DrevoSheet(2, {"light": 1})
    wounds = {"scratch": 0, "light": 1, "wound": 0, "heavy": 0}
    assert (c.carried, c.extra) == ({"fate": 2, "wounds": wounds}, {})
    assert character_to_doc(c) == doc  # written back as it was
    tired = c.edit_sheet(Ide4Sheet, energy=10).edit_sheet(StaratelySheet, harm="ушиб")
    assert tired.sheet == Ide4Sheet(energy=10, harm="ушиб")  # harm is a field of both


def test_a_sheet_field_is_written_when_set_or_when_it_was_stored():
    """The stored form as with_sheet wrote it before the typed core: a default never set
    stays absent; a value put back to its default is written where the file had it."""
    c = person()
    assert "dead" not in character_to_doc(c) and "parry_ability" not in character_to_doc(c)
    dead = character_from_doc(character_to_doc(c.edit_sheet(DrevoSheet, dead=True)))
    assert character_to_doc(dead)["dead"] is True
    assert character_to_doc(dead.edit_sheet(DrevoSheet, dead=False))["dead"] is False


def test_a_wound_level_the_sheet_has_not_is_refused_by_it():
    with pytest.raises(SheetError) as err:
        DrevoSheet(wounds={"light": 1, "deadly": 1})
    assert (err.value.field, err.value.want) == (
        "wounds.deadly",
        "неизвестная рана; бывают scratch, light, wound, heavy",
    )
    assert DrevoSheet.from_values({"wounds": {"deadly": 1}}) == DrevoSheet()  # read leniently


@pytest.mark.parametrize("system", sorted(SHEETS))
def test_a_campaign_reads_its_characters_with_its_systems_sheet_and_stores_them_as_read(
    tmp_path, system
):
    """Each demo party: every character holds the campaign's sheet, and its document, read
    and written again, is the one in the file (the stored form did not change)."""
    from tui.store import Store
    from tui.store.migrations import CHARACTERS

    path = tmp_path / "c.json"
    Store.open(path, system=system).close()
    docs = list(json.loads(path.read_text(encoding="utf-8"))[CHARACTERS].values())
    assert len(docs) >= 3
    with Store.open(path) as store:
        assert {type(c.sheet) for c in store.characters()} == {SHEETS[system]}
    for doc in docs:
        assert character_to_doc(character_from_doc(doc, system)) == doc


@pytest.mark.parametrize("system", sorted(SHEETS))
def test_the_demo_builds_each_character_with_its_systems_sheet(system):
    """The demo party (``data/demo/<system>.toml``) is built with the system's sheet, each
    sheet value of the row in it — not a Древо sheet with the rest beside it."""
    from rules.data import load_table
    from tui.store.demo import demo_campaign

    rows = load_table(f"demo/{system}.toml")["characters"]
    _, _, party = demo_campaign(system)
    for row, c in zip(rows, party, strict=True):
        kind = SHEETS[system]
        assert type(c.sheet) is kind and c.extra == {}, c.name
        assert c.sheet_values() == c.sheet.values()  # no other system's value beside it
        given = {k: row[k] for k in kind.FIELDS if k in row}
        assert {k: c.sheet.values()[k] for k in given} == given, c.name


@pytest.mark.parametrize(
    "row, said",
    [
        ({"fate": 0}, "not a field of its sheet: ['fate']"),  # Древо's, in a Мир Тьмы row
        ({"health": "ушиб"}, "поле health: нужен список строк"),
    ],
)
def test_a_demo_row_its_sheet_cannot_hold_is_refused(monkeypatch, row, said):
    from tui.store import demo

    table = {
        "campaign": {"name": "Демо", "system": "wod"},
        "characters": [{"name": "Вера", "kind": "pc", **row}],
    }
    monkeypatch.setattr(demo, "load_table", lambda _: table)
    with pytest.raises(ValueError, match=re.escape(said)):
        demo.demo_campaign("wod")
