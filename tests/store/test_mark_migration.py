"""Schema 4 → 5: the core marks (hidden, player, template, encounter) leave ``extra`` for
typed fields of their own, and nothing is lost.

The fixtures under ``fixtures/v4/`` were written by the kubik of schema 4 (commit 0d81903,
``fixtures/v4/make.py``): each system's demo campaign after moves that set every mark, a free
value, another system's values (a PC as ``kubik party add`` added it) and every sheet field,
with a bestiary template and undo and redo steps; an export of it; a seat's state; and what
that kubik read from them — each character's stored form, sheet, views and marks, and the
party after each undo and redo of the stacks.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from tinydb import TinyDB

from rules.systems import names
from tests.hypo import examples
from tests.store.test_sheet_migration import (
    WRITTEN_TEXT,
    OlderFiles,
    refused_naming_it,
    undo_of_extra,
)
from tests.store.test_sheet_migration_stacks import IDS, _db, _doc, stacked, walk
from tui.seats.seat import SeatApp
from tui.store import Store, core_marks, history
from tui.store.bestiary import check_template, own_templates
from tui.store.codec import character_from_doc, character_to_doc
from tui.store.files import new_campaign_tables
from tui.store.migrations import CHARACTERS, DOCS, HISTORY, META, upgrade
from tui.store.models import MARK_FIELDS, MARK_TYPES, SHEET_FIELDS, Character
from tui.store.schema import SchemaError, validate

V4 = Path(__file__).with_name("fixtures") / "v4"
#: The systems schema 4 knew: each has its fixtures.
V4_SYSTEMS = ("drevo", "ide4", "starately", "wod")
SYSTEMS = names()


def values(c: Character) -> dict[str, Any]:
    """The character as the kubik of schema 4 read it (``fixtures/v4/make.py``'s ``values``):
    its stored form with the marks in ``extra``, its sheet's system, every view, what it held
    in ``extra`` (free values, marks and another system's values) and its marks."""
    doc = character_to_doc(c)
    marks = {k: doc.pop(k) for k in MARK_FIELDS if k in doc}
    doc["extra"] = {**doc["extra"], **marks}
    got = {
        "doc": doc,
        "sheet": c.sheet.SYSTEM,
        "views": {s: c.sheet_of(s).values() for s in V4_SYSTEMS},
        "extra": {**c.extra, **marks, **c.carried},
        "marks": {
            "hidden": c.hidden,
            "player": c.player or None,  # schema 4 read no player as None
            "template": c.from_template,
            "encounter": c.from_encounter,
        },
    }
    return json.loads(json.dumps(got, ensure_ascii=False))


def only_free(c: Character) -> bool:
    """``extra`` holds free values only: no mark, no sheet field."""
    return not c.extra.keys() & {*MARK_FIELDS, *SHEET_FIELDS}


@pytest.mark.parametrize("system", V4_SYSTEMS)
class TestFilesOfSchema4(OlderFiles):
    FOLDER = V4
    MOVED = tuple(MARK_FIELDS)
    values = staticmethod(values)

    def test_every_character_holds_its_systems_sheet_and_free_values_in_extra(
        self, tmp_path, system
    ):
        with Store.open(self.opened(tmp_path, system)) as store:
            assert all(only_free(c) for c in store.characters())
            assert {type(c.sheet).SYSTEM for c in store.characters()} == {system}
            marks = {k for c in store.characters() for k in character_to_doc(c) if k in MARK_FIELDS}
        assert marks == set(MARK_FIELDS)  # the fixture sets every mark

    def test_a_step_still_sees_what_changed_since_it(self, system):
        """The signatures are remade: a step's fields match the state it left, and a later
        change to a moved mark is seen (an undo from another window is refused)."""
        tables = json.loads((V4 / f"{system}.json").read_text(encoding="utf-8"))
        up = upgrade(tables, Path("c.json")).tables
        (found,) = up[HISTORY].values()
        step = next(s for s in reversed(found["undo"]) if s["label"] == "Скрыт НИП")
        change, sig = step["changes"][0], step["sigs"][0]
        doc = next(d for d in up[CHARACTERS].values() if d["id"] == change["key"])
        assert "hidden" in sig  # the step changed the mark itself, not extra
        assert history._changed_since(change, sig, doc) == []
        assert history._changed_since(change, sig, {**doc, "hidden": False}) == ["hidden"]

    def test_the_free_value_of_a_template_survives(self, tmp_path, system):
        with Store.open(self.opened(tmp_path, system)) as store:
            (template,) = own_templates(store.get_doc("bestiary"), system)
        assert template.sheet.extra == {"повадка": "ночной"} and only_free(template.sheet)

    def test_a_seat_reads_the_state_a_schema_4_app_sent(self, system):
        """A seat of this kubik, its GM's app of schema 4: the same characters and marks."""
        state = json.loads((V4 / f"{system}.seat.json").read_text(encoding="utf-8"))
        seat = SeatApp("Оля", None, "t" * 32, connect=False)
        seat.state = state
        mine = seat.mine()
        assert [values(c) for c in mine] == self.expected(system)["seat"]
        assert [c.player for c in mine] == ["Оля"] and all(only_free(c) for c in mine)


def _v4_form(tables: dict[str, Any]) -> dict[str, Any]:
    """The tables as schema 4 wrote them: each mark in ``extra``."""
    for doc in tables[CHARACTERS].values():
        doc["extra"].update({k: doc.pop(k) for k in MARK_FIELDS if k in doc})
    tables[META]["1"]["schema_version"] = 4
    return tables


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_demo_written_in_the_schema_4_form_migrates_without_loss(system):
    tables = new_campaign_tables(system)
    validate(tables)
    marks = [
        {"hidden": True, "template": "Волк", "encounter": "Засада"},
        {"player": "Оля", "hidden": False},
    ]
    for doc, set_ in zip(tables[CHARACTERS].values(), marks, strict=False):
        doc.update(set_)
    want = {k: values(character_from_doc(d, system)) for k, d in tables[CHARACTERS].items()}
    old = _v4_form(tables)
    assert any(doc["extra"] for doc in old[CHARACTERS].values())
    up = upgrade(copy.deepcopy(old), Path("demo.json"))
    validate(up.tables)
    got = {k: character_from_doc(d, system) for k, d in up.tables[CHARACTERS].items()}
    assert {k: values(c) for k, c in got.items()} == want
    assert all(only_free(c) for c in got.values())
    for key, doc in up.tables[CHARACTERS].items():  # the schema-5 form, written as read
        assert character_to_doc(got[key]) == doc


# -- any valid character of schema 4 ----------------------------------------------------------

_text = WRITTEN_TEXT
_marks = st.fixed_dictionaries(
    {},
    optional={
        "hidden": st.booleans(),
        "player": _text,
        "template": _text,
        "encounter": _text,
        "free": st.one_of(_text, st.integers(), st.lists(st.integers(), max_size=3)),
        "player_v4": _text,  # a free value of the name a kept one would take
    },
)
_v4_character = st.fixed_dictionaries(
    {
        "id": st.uuids().map(lambda u: u.hex),
        "name": _text,
        "kind": st.sampled_from(["pc", "npc"]),
        "qualities": st.dictionaries(_text, st.integers(-100, 1000), max_size=2),
        "skills": st.just([]),
        "weapons": st.lists(_text, max_size=2),
        "fate": st.integers(0, 10),
        "wounds": st.fixed_dictionaries(
            {k: st.integers(0, 3) for k in ("scratch", "light", "wound", "heavy")}
        ),
        "notes": _text,
        "extra": _marks,
        "rolls": st.lists(st.tuples(_text, _text).map(list), max_size=2),
    },
    optional={
        "energy": st.integers(0, 100),
        "dead": st.booleans(),
        "harm": _text,
        "health": st.lists(st.sampled_from(["bashing", "lethal"]), max_size=3),
    },
)


@hsettings(max_examples=examples(60), deadline=None)
@given(_v4_character, st.sampled_from(V4_SYSTEMS), _marks, st.booleans())
def test_any_valid_schema_4_character_migrates_and_reads_back_the_same(doc, system, edit, whole):
    """Any valid character, and an undo step of its ``extra`` (marks and free values), read
    after the migration as before it (the read of schema 4 is this kubik's read of the older
    form, which lifts the marks itself), and the schema-5 form is written back as it is."""
    tables, before = undo_of_extra(4, system, doc, edit, whole)
    validate(tables)
    up = upgrade(tables, Path("any.json")).tables
    validate(up)
    migrated = up[CHARACTERS]["1"]
    read = character_from_doc(migrated, system)
    assert values(read) == values(character_from_doc(doc, system))
    assert only_free(read) and not migrated["extra"].keys() & set(MARK_FIELDS)
    assert character_to_doc(read) == migrated  # the schema-5 form, kept as read
    (step,) = up[HISTORY]["1"]["undo"]
    (undo,) = step["changes"]
    back = character_from_doc(history.restored(undo, migrated), system)
    assert values(back) == values(character_from_doc(before, system))


ODD = {
    "hidden": st.one_of(st.booleans()),  # schema 4 checked it: always true or false
    "player": st.one_of(st.integers(), st.none(), st.lists(st.integers(), max_size=2)),
    "template": st.one_of(st.integers(), st.none(), st.booleans()),
    "encounter": st.one_of(st.floats(allow_nan=False), st.none()),
}


@hsettings(max_examples=examples(40), deadline=None)
@given(
    doc=_v4_character,
    odd=st.fixed_dictionaries({}, optional=ODD),
    strays=st.fixed_dictionaries({}, optional={k: _text for k in ("player", "template")}),
)
def test_a_schema_4_file_with_marks_the_core_cannot_hold_stays_valid_and_keeps_them(
    doc, odd, strays
):
    """Schema 4 checked only ``hidden``, and never read a top-level key of a mark's name: a
    value a mark cannot hold, and such a key, stay in extra under a free name; the file stays
    valid and every value is somewhere."""
    tables, _ = undo_of_extra(4, "wod", doc, doc["extra"], True)
    validate(tables)
    doc = {**doc, **strays, "extra": {**doc["extra"], **odd}}
    tables[CHARACTERS]["1"] = copy.deepcopy(doc)
    validate(tables)  # schema 4 took these
    up = upgrade(tables, Path("odd.json")).tables
    validate(up)
    migrated = up[CHARACTERS]["1"]
    kept = [*migrated["extra"].values(), *(migrated[k] for k in MARK_FIELDS if k in migrated)]
    for value in [*doc["extra"].values(), *strays.values()]:
        assert value in kept
    for key, value in strays.items():  # a stray is not taken for the mark
        assert migrated.get(key) != value or doc["extra"].get(key) == value


# -- any undo and redo stacks ------------------------------------------------------------------

_step = st.tuples(st.sampled_from(IDS), st.integers(0, 5), _marks)


def _npc(cid: str, fate: int, extra: dict[str, Any]) -> dict[str, Any]:
    return {**_doc(cid, fate, extra), "kind": "npc"}


def _read(db: TinyDB) -> list[Any]:
    docs = sorted(db.table(CHARACTERS).all(), key=lambda d: d["id"])
    return [values(character_from_doc(dict(d), "ide4")) for d in docs]


@hsettings(max_examples=examples(40), deadline=None)
@given(steps=st.lists(_step, min_size=1, max_size=8), undone=st.integers(0, 3))
def test_any_stacks_walk_through_the_same_states_after_the_migration(steps, undone):
    """Stacks of marks changed through ``extra`` (as schema 4 made them): every undo, then
    every redo, reads the same states on the schema-4 tables and on the migrated ones."""
    old, up = stacked(4, steps, undone, _npc)
    for doc in up[CHARACTERS].values():
        assert not doc["extra"].keys() & set(MARK_FIELDS)
    assert walk(_db(up), _read) == walk(_db(old), _read)


# -- the marks in the schema ---------------------------------------------------------------------

BROKEN_MARKS = {
    "hidden": ({"hidden": "да"}, "поле hidden: «да» — нужно true или false"),
    "player": ({"player": 5}, "поле player: 5 — нужна строка"),
    "template": ({"template": None}, "поле template: нет значения — нужна строка"),
    "encounter": ({"encounter": ["Засада"]}, "поле encounter: список — нужна строка"),
    "old-form": ({"extra": {"hidden": "да"}}, "поле extra.hidden: «да» — нужно true или false"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_MARKS))
def test_a_damaged_mark_is_named_in_russian_and_the_file_is_kept(tmp_path, case):
    refused_naming_it(tmp_path, "ide4", *BROKEN_MARKS[case])


def test_a_template_with_a_damaged_mark_is_refused_naming_it():
    with pytest.raises(SchemaError) as err:
        check_template({"name": "Волк", "hidden": 1}, "шаблон «Волк»")
    assert str(err.value) == "шаблон «Волк», поле hidden: 1 — нужно true или false"


def test_lift_leaves_a_mark_the_document_has_a_key_for_under_a_free_name():
    """A document of schema 5 with a mark in extra too (a hand edit): its own key stands, the
    other is kept under a free name — never lost, never taken for the mark."""
    doc = {"id": "x", "extra": {"player": "Петя", "player_v4": "свой"}, "player": "Оля"}
    lifted = core_marks.lift(doc)
    assert lifted["player"] == "Оля"
    assert lifted["extra"] == {"player_v4": "свой", "player_v4_": "Петя"}
    assert core_marks.lift(lifted) is lifted  # nothing left to lift


def test_an_export_of_schema_4_imports_with_the_marks_of_its_templates_lifted(tmp_path):
    """The export's bestiary is converted as the file's is: a template's mark in extra (a
    template made of a PC with a player) becomes its own key in the imported campaign."""
    data = json.loads((V4 / "ide4.export.json").read_text(encoding="utf-8"))
    (template,) = data["docs"]["bestiary"]["templates"].values()
    template["extra"] = {**template["extra"], "player": "Оля"}
    source = tmp_path / "old.export.json"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Store.import_json(source, tmp_path / "c.json")
    stored = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    (doc,) = (d for d in stored[DOCS].values() if d["name"] == "bestiary")
    (template,) = doc["value"]["templates"].values()
    assert template["player"] == "Оля" and template["extra"] == {"повадка": "ночной"}
    for character in stored[CHARACTERS].values():
        assert not character["extra"].keys() & set(MARK_FIELDS)


def test_the_fixed_list_of_moved_marks_is_every_mark_of_the_core():
    # The step must not follow a later core; today the two lists are one.
    assert core_marks.MOVED == MARK_TYPES
