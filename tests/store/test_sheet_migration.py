"""Schema 3 → 4: the typed sheet's fields leave ``extra``, and nothing is lost.

The fixtures under ``fixtures/v3/`` were written by the kubik of schema 3 (commit 83b7f78,
``fixtures/v3/make.py``): each system's demo campaign after moves that touch every sheet
field, with a bestiary template and undo and redo steps; an export of it; and what that
kubik read from it — the party, and the party after each undo and redo of the stacks.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rules.drevo.sheet import DrevoSheet
from rules.systems import names
from tests.hypo import examples
from tui.sanitize import clean
from tui.store import SCHEMA_VERSION, CampaignCorrupt, Store, history, sheet_fields
from tui.store.bestiary import own_templates, template_from_doc, template_to_doc
from tui.store.codec import character_from_doc, character_to_doc
from tui.store.files import new_campaign_tables
from tui.store.migrations import CHARACTERS, DOCS, HISTORY, META, upgrade
from tui.store.models import MARK_FIELDS, SHEET_EXTRAS, Character, Skill
from tui.store.schema import validate

V3 = Path(__file__).with_name("fixtures") / "v3"
#: The systems schema 3 knew: each has its fixtures.
V3_SYSTEMS = ("drevo", "ide4", "starately", "wod")
SYSTEMS = names()


#: What a character of schema 3 held in memory (the expected files' shape).
V3_FIELDS = ("id", "name", "kind", "qualities", "skills", "weapons", "fate", "wounds", "notes")


def values(c: Character) -> dict[str, Any]:
    """The character as schema-3 kubik held it: the core, Судьба and wounds, and every other
    sheet value and every mark in ``extra`` (read from what it stores: each value is written
    as held)."""
    doc = character_to_doc(c)
    got = {k: doc[k] for k in V3_FIELDS}
    older = [*SHEET_EXTRAS, *MARK_FIELDS]  # what schema 3 kept in extra
    got["extra"] = {**doc["extra"], **{k: doc[k] for k in older if k in doc}}
    got["rolls"] = doc["rolls"]
    return json.loads(json.dumps(got, ensure_ascii=False))


def test_the_fixed_list_of_moved_fields_is_every_sheet_field_kept_in_extra():
    # The step must not follow later sheets; today the two lists are one.
    assert set(sheet_fields.MOVED) == set(SHEET_EXTRAS)


class OlderFiles:
    """What the fixtures of an older schema (``fixtures/v<N>/``: a campaign per system, its
    export, and what that kubik read) must pass once this kubik opens them; a subclass names
    its folder, what its step moved out of ``extra``, and how a character reads as that
    kubik held it (``values``, the shape of its ``<system>.expect.json``)."""

    FOLDER: Path
    #: What the step moved out of ``extra`` to keys of their own.
    MOVED: tuple[str, ...]

    @staticmethod
    def values(c: Character) -> dict[str, Any]:
        raise NotImplementedError

    def party(self, store: Store) -> dict[str, Any]:
        return {c.id: self.values(c) for c in store.characters()}

    def expected(self, system: str) -> dict[str, Any]:
        return json.loads((self.FOLDER / f"{system}.expect.json").read_text(encoding="utf-8"))

    def opened(self, tmp_path: Path, system: str) -> Path:
        path = tmp_path / f"{system}.json"
        shutil.copyfile(self.FOLDER / f"{system}.json", path)
        return path

    def test_the_party_reads_back_the_same_values(self, tmp_path, system):
        path = self.opened(tmp_path, system)
        want = self.expected(system)
        with Store.open(path) as store:
            assert store.campaign.schema_version == SCHEMA_VERSION
            assert self.party(store) == want["characters"]
        data = json.loads(path.read_text(encoding="utf-8"))
        for doc in data[CHARACTERS].values():  # what the step moved left extra
            assert not doc["extra"].keys() & set(self.MOVED)
        with Store.open(path) as again:  # and a file of this schema reads the same
            assert self.party(again) == want["characters"]

    def test_every_moved_value_is_at_its_own_key(self, tmp_path, system):
        original = json.loads((self.FOLDER / f"{system}.json").read_text(encoding="utf-8"))
        moved = {
            (doc["id"], k): v
            for doc in original[CHARACTERS].values()
            for k, v in doc["extra"].items()
            if k in self.MOVED
        }
        assert moved  # the fixture touches what the step moves
        path = self.opened(tmp_path, system)
        Store.open(path).close()
        data = json.loads(path.read_text(encoding="utf-8"))
        now = {doc["id"]: doc for doc in data[CHARACTERS].values()}
        assert {(cid, k): now[cid][k] for cid, k in moved} == moved

    def test_undo_and_redo_walk_through_the_same_states(self, tmp_path, system):
        path = self.opened(tmp_path, system)
        want = self.expected(system)
        with Store.open(path) as store:
            assert store.undo_labels(100) == want["undo"]
            assert store.redo_labels(100) == want["redo"]
            now = self.party(store)
            for label, diff in zip(want["undo"], want["undone"], strict=True):
                assert store.undo() == label
                assert _diff(now, self.party(store)) == diff, label
            for diff in want["redone"]:
                store.redo()
                assert _diff(now, self.party(store)) == diff
            assert not store.can_redo

    def test_the_bestiary_template_survives(self, tmp_path, system):
        path = self.opened(tmp_path, system)
        want = self.expected(system)["bestiary"]
        old = own_templates(want, system)  # the older document, read as it is
        with Store.open(path) as store:
            new = own_templates(store.get_doc("bestiary"), system)
        assert [self.values(t.sheet) for t in new] == [self.values(t.sheet) for t in old]
        assert [t.tags for t in new] == [t.tags for t in old] == [("fixture",)]

    def test_the_export_imports_the_same_party(self, tmp_path, system):
        target = tmp_path / "imported.json"
        Store.import_json(self.FOLDER / f"{system}.export.json", target)
        with Store.open(target) as store:
            assert self.party(store) == self.expected(system)["characters"]

    def test_the_older_file_is_a_backup_that_restores_to_the_same_party(self, tmp_path, system):
        path = self.opened(tmp_path, system)
        original = path.read_bytes()
        with Store.open(path) as store:
            (backup,) = store.backups()
            c = store.characters()[0]
            store.upsert_character(dataclasses.replace(c, notes="после миграции"))
        assert backup.read_bytes() == original
        Store.restore_backup(path, backup)
        with Store.open(path) as store:
            assert self.party(store) == self.expected(system)["characters"]


@pytest.mark.parametrize("system", V3_SYSTEMS)
class TestFilesOfSchema3(OlderFiles):
    FOLDER = V3
    MOVED = SHEET_EXTRAS
    values = staticmethod(values)

    def test_a_step_still_sees_what_changed_since_it(self, system):
        """The signatures are remade: a step's fields match the state it left, and a later
        change to a moved sheet field is seen (an undo from another window is refused)."""
        tables = json.loads((V3 / f"{system}.json").read_text(encoding="utf-8"))
        up = upgrade(tables, Path("c.json")).tables
        (found,) = up[HISTORY].values()
        step = next(s for s in reversed(found["undo"]) if s["changes"][0]["kind"] == "character")
        change, sig = step["changes"][0], step["sigs"][0]
        doc = next(d for d in up[CHARACTERS].values() if d["id"] == change["key"])
        assert history._changed_since(change, sig, doc) == []
        touched = [k for k in sig if k in SHEET_EXTRAS]
        assert touched  # the fixture's newest step of a character changed its sheet
        changed = {**doc, touched[0]: "изменено в другом окне"}
        assert history._changed_since(change, sig, changed) == [touched[0]]


def _diff(now: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    return {k: then.get(k) for k in {*now, *then} if then.get(k) != now.get(k)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_campaign_of_every_demo_is_already_schema_4(system):
    tables = new_campaign_tables(system)
    validate(tables)
    for doc in tables[CHARACTERS].values():
        assert not doc["extra"].keys() & set(SHEET_EXTRAS)
    if system == "ide4":  # the demo's sheet fields are its own keys
        assert all("energy" in doc for doc in tables[CHARACTERS].values())


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_demo_written_in_the_schema_3_form_migrates_without_loss(system):
    tables = new_campaign_tables(system)
    for doc in tables[CHARACTERS].values():  # the form schema 3 wrote
        extra = doc["extra"]
        for key in SHEET_EXTRAS:
            if key in doc:
                extra[key] = doc.pop(key)
    read = {k: values(character_from_doc(d)) for k, d in tables[CHARACTERS].items()}
    tables[META]["1"]["schema_version"] = 3
    up = upgrade(tables, Path("demo.json"))
    validate(up.tables)
    assert {k: values(character_from_doc(d)) for k, d in up.tables[CHARACTERS].items()} == read


# -- any valid character of schema 3 ----------------------------------------------------------

#: Text as kubik writes it: its writer cleans every string (``tui.sanitize.clean`` drops the
#: invisible marks that reorder or hide text, U+200B among them), so no file it wrote holds one;
#: a hand-edited file's are dropped on the first write, by design.
WRITTEN_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12
).filter(lambda s: clean(s) == s)
_text = WRITTEN_TEXT
_small = st.integers(0, 99)
_sheet_extra = st.fixed_dictionaries(
    {},
    optional={
        "dead": st.booleans(),
        "parry_ability": st.booleans(),
        "energy": st.integers(0, 100),
        "always_expanded": st.booleans(),
        "daily_triumph_used": st.booleans(),
        "harm": _text,
        "initiative": st.integers(-1000, 1000),
        "health": st.lists(st.sampled_from(["bashing", "lethal", "aggravated"]), max_size=8),
        "hidden": st.booleans(),
        "player": _text,
        "template": _text,
        "free": st.one_of(_text, st.integers(), st.lists(st.integers(), max_size=3)),
    },
)
_v3_character = st.fixed_dictionaries(
    {
        "id": st.uuids().map(lambda u: u.hex),
        "name": _text,
        "kind": st.sampled_from(["pc", "npc"]),
        "qualities": st.dictionaries(_text, st.integers(-100, 1000), max_size=3),
        "skills": st.lists(
            st.builds(
                lambda n, v: {
                    "name": n if n.strip() else "навык",
                    "value": v,
                    "parent": None,
                    "distances": [],
                },
                _text,
                st.integers(-100, 1000),
            ),
            max_size=3,
        ),
        "weapons": st.lists(_text, max_size=2),
        "fate": st.integers(0, 100),
        "wounds": st.fixed_dictionaries(
            {"scratch": _small, "light": _small, "wound": _small, "heavy": _small}
        ),
        "notes": _text,
        "extra": _sheet_extra,
        "rolls": st.lists(st.tuples(_text, _text).map(list), max_size=2),
    }
)


def _old_read(doc: dict[str, Any]) -> dict[str, Any]:
    """What kubik of schema 3 read from a character document (its codec, restated)."""
    return values(
        Character(
            id=doc["id"],
            name=doc["name"],
            kind=doc["kind"],
            qualities=dict(doc["qualities"]),
            skills=tuple(Skill(s["name"], s["value"], s["parent"]) for s in doc["skills"]),
            weapons=tuple(doc["weapons"]),
            sheet=DrevoSheet(fate=doc["fate"], wounds=dict(doc["wounds"])),
            notes=doc["notes"],
            extra=dict(doc["extra"]),
            rolls=tuple((n, e) for n, e in doc["rolls"]),
            origin=doc,  # read from it: what it stored is written again
        )
    )


def undo_of_extra(
    version: int, system: str, doc: dict[str, Any], edit: dict[str, Any], whole: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Tables of schema ``version`` holding ``doc`` and one undo step that puts back ``doc``
    with ``edit`` for its ``extra`` (its whole value, or that field only); and that state."""
    before = {**doc, "extra": edit}  # the state the undo step puts back
    change: dict[str, Any] = {"kind": "character", "key": doc["id"]}
    if whole:
        change["value"] = before
    else:
        change["fields"] = {"extra": edit}
    tables: dict[str, dict[str, Any]] = {
        META: {"1": {"schema_version": version, "name": "К", "system": system, "rev": 1}},
        CHARACTERS: {"1": copy.deepcopy(doc)},
        DOCS: {},
        HISTORY: {"1": {"undo": [{"label": "шаг", "changes": [change], "by": ""}]}},
    }
    return tables, before


@hsettings(max_examples=examples(60), deadline=None)
@given(
    doc=_v3_character,
    system=st.sampled_from(V3_SYSTEMS),
    edit=_sheet_extra,
    whole=st.booleans(),
)
def test_any_valid_schema_3_character_migrates_and_reads_back_the_same(doc, system, edit, whole):
    """Any valid character, and an undo step of its ``extra``, survive the migration."""
    tables, before = undo_of_extra(3, system, doc, edit, whole)
    validate(tables)
    up = upgrade(tables, Path("any.json"))
    validate(up.tables)
    migrated = up.tables[CHARACTERS]["1"]
    assert values(character_from_doc(migrated)) == _old_read(doc)
    assert character_to_doc(character_from_doc(migrated)) == migrated  # the schema-4 form
    (step,) = up.tables[HISTORY]["1"]["undo"]
    (undo,) = step["changes"]
    from tui.store.history import restored

    assert values(character_from_doc(restored(undo, migrated))) == _old_read(before)


ODD = {
    "harm": st.one_of(st.integers(), st.lists(st.integers(), max_size=2), st.none()),
    "initiative": st.one_of(_text, st.floats(allow_nan=False), st.booleans(), st.integers()),
    "health": st.one_of(_text, st.integers(), st.lists(st.integers(), max_size=2)),
}


@hsettings(max_examples=examples(40), deadline=None)
@given(
    doc=_v3_character,
    odd=st.fixed_dictionaries({}, optional=ODD),
    strays=st.fixed_dictionaries({}, optional={k: st.integers() for k in ("energy", "harm")}),
)
def test_a_schema_3_file_with_values_the_sheet_cannot_hold_stays_valid_and_keeps_them(
    doc, odd, strays
):
    """Schema 3 did not check harm, initiative or health, nor read a top-level key of a sheet
    field's name: such values stay in extra under a free name, and the file stays valid."""
    tables: dict[str, dict[str, Any]] = {
        META: {"1": {"schema_version": 3, "name": "К", "system": "wod", "rev": 1}},
        CHARACTERS: {"1": copy.deepcopy(doc)},
        DOCS: {},
        HISTORY: {},
    }
    validate(tables)  # valid before the odd values schema 3 did not check
    doc = {**doc, **strays, "extra": {**doc["extra"], **odd}}
    tables[CHARACTERS]["1"] = copy.deepcopy(doc)
    up = upgrade(tables, Path("odd.json")).tables
    validate(up)
    migrated = up[CHARACTERS]["1"]
    older = [*SHEET_EXTRAS, *MARK_FIELDS]  # keys of their own since schemas 4 and 5
    kept = [*migrated["extra"].values(), *(migrated[k] for k in older if k in migrated)]
    for value in [*doc["extra"].values(), *strays.values()]:
        assert value in kept


def test_a_template_of_schema_3_in_a_bestiary_file_reads_as_before():
    old = {"name": "Волк", "fate": 0, "extra": {"energy": 70, "hidden": False}, "tags": ["звери"]}
    t = template_from_doc("t", old, system="ide4")
    assert (t.sheet.sheet.energy, t.sheet.hidden, t.sheet.extra) == (70, False, {})
    assert template_to_doc(t)["energy"] == 70


# -- a damaged sheet field ----------------------------------------------------------------------

BROKEN_SHEETS = {
    "energy": ({"energy": 140}, "поле energy: 140 — нужно целое число от 0 до 100"),
    "dead": ({"dead": "да"}, "поле dead: «да» — нужно true или false"),
    "harm": ({"harm": 3}, "поле harm: 3 — нужна строка"),
    "health": ({"health": ["lethal", 2]}, "поле health: список — нужен список строк"),
    "initiative": (
        {"initiative": "7"},
        "поле initiative: «7» — нужно целое число от −1000 до 1000 или null",
    ),
    "old-form": ({"extra": {"health": "ушиб"}}, "поле extra.health: «ушиб» — нужен список строк"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_SHEETS))
def test_a_damaged_sheet_field_is_named_in_russian_and_the_file_is_kept(tmp_path, case):
    refused_naming_it(tmp_path, "wod", *BROKEN_SHEETS[case])


def refused_naming_it(tmp_path: Path, system: str, fields: dict[str, Any], message: str) -> None:
    """A demo campaign whose first character has ``fields`` is refused on open with
    ``message`` naming the character and the field; the file is kept as it was."""
    tables = new_campaign_tables(system)
    doc = tables[CHARACTERS]["1"]
    doc.update(fields)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")
    original = path.read_bytes()
    with pytest.raises(CampaignCorrupt) as err:
        Store.open(path)
    assert f"персонаж 1 «{doc['name']}», {message}" in str(err.value)
    assert path.read_bytes() == original


def test_an_export_of_schema_3_with_a_value_it_did_not_check_imports(tmp_path):
    data = json.loads((V3 / "starately.export.json").read_text(encoding="utf-8"))
    data["characters"][0]["extra"]["harm"] = 5  # schema 3 took it, the sheet cannot
    source = tmp_path / "odd.export.json"
    source.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Store.import_json(source, tmp_path / "c.json")
    with Store.open(tmp_path / "c.json") as store:
        first = store.character(data["characters"][0]["id"])
    assert first is not None and first.extra["harm_v3"] == 5 and first.starately.harm == ""
