"""The bestiary's data: the starter sets, the template and encounter schema with Russian
messages naming the field, the campaign's own bestiary in its file, export and import."""

from __future__ import annotations

import json

import pytest

from rules.data import packaged_text
from tests.every_case import assert_every_case
from tui.store import Store, StoreError
from tui.store.bestiary import (
    BESTIARY_DOC,
    ENCOUNTERS_DOC,
    check_encounter,
    check_template,
    template_from_doc,
    template_to_doc,
)
from tui.store.bestiary_toml import campaign_bestiary, parse, read_file, starter
from tui.store.schema import SchemaError

SYSTEMS = ["drevo", "ide4", "starately", "wod"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_starter_bestiary_of_every_system(system):
    """Every system ships templates and at least one prepared encounter, every entry kubik's
    [default] (the file says so), each encounter naming only templates of its own file, every
    sheet with the demo party's qualities."""
    b = starter(system)
    assert "[default]" in packaged_text(f"bestiary/{system}.toml")
    assert len(b.templates) >= 4 and b.encounters
    assert all(t.default for t in b.templates) and all(e.default for e in b.encounters)
    names = {t.name for t in b.templates}
    for e in b.encounters:
        assert {g.template for g in e.groups} <= names, e.name
    from tui.store.demo import demo_campaign

    qualities = set(demo_campaign(system)[2][0].qualities)
    for t in b.templates:
        assert set(t.sheet.qualities) == qualities, t.name
        assert t.sheet.kind == "npc"


def test_the_ford_ambush_is_as_the_issue_writes_it():
    """«Засада у брода: Атаман ×1, Разбойник ×5, Стрелок ×2 — Противники»."""
    e = starter("drevo").encounter("засада у брода")
    assert [(g.template, g.count, g.side) for g in e.groups] == [
        ("Атаман", 1, "Противники"),
        ("Разбойник", 5, "Противники"),
        ("Стрелок", 2, "Противники"),
    ]
    assert e.size == 8 and e.hidden


def test_template_round_trip():
    t = starter("drevo").template("Атаман")
    again = template_from_doc(t.id, template_to_doc(t), system="drevo")
    assert again.sheet == t.sheet and again.tags == t.tags


A_BAD_TEMPLATE_NAMES_ITS_FIELD = [
    ({"name": ""}, "поле name"),
    ({"name": "X", "qualitys": {}}, "неизвестное поле «qualitys»"),
    ({"name": "X", "qualities": {"Сила": "два"}}, "поле qualities.Сила"),
    ({"name": "X", "qualities": {"Сила": 10**9}}, "поле qualities.Сила"),
    ({"name": "X", "skills": [{"name": "Драка"}]}, "навык 1 «Драка», поле value"),
    ({"name": "X", "tags": "разбойники"}, "поле tags"),
    ({"name": "X", "fate": -1}, "поле fate"),
    ({"name": "X", "wounds": {"scratch": -2}}, "поле wounds.scratch"),
    ({"name": "X" * 200}, "не длиннее"),
    ({"name": "X", "rolls": [["a"]]}, "поле rolls"),
    ("Разбойник", "нужен объект"),
]


def test_a_bad_template_names_its_field():
    def check(doc, field) -> None:
        with pytest.raises(SchemaError) as err:
            check_template(doc, "шаблон «X»")
        assert field in str(err.value)

    assert_every_case(A_BAD_TEMPLATE_NAMES_ITS_FIELD, check)


A_BAD_ENCOUNTER_NAMES_ITS_FIELD = [
    ({"name": "С"}, "поле groups"),
    ({"name": "С", "groups": []}, "поле groups"),
    ({"name": "С", "groups": [{"template": "А", "count": 0}]}, "groups[1].count"),
    ({"name": "С", "groups": [{"template": "А", "count": 51}]}, "groups[1].count"),
    ({"name": "С", "groups": [{"template": "А", "count": True}]}, "groups[1].count"),
    ({"name": "С", "groups": [{"count": 2}]}, "groups[1].template"),
    ({"name": "С", "groups": [{"template": "А", "side": ""}]}, "groups[1].side"),
    ({"name": "С", "groups": [{"template": "А", "sides": "x"}]}, "неизвестное поле «sides»"),
    ({"name": "С", "hidden": "да", "groups": [{"template": "А"}]}, "поле hidden"),
]


def test_a_bad_encounter_names_its_field():
    def check(doc, field) -> None:
        with pytest.raises(SchemaError) as err:
            check_encounter(doc, "сцена «С»")
        assert field in str(err.value)

    assert_every_case(A_BAD_ENCOUNTER_NAMES_ITS_FIELD, check)


A_BROKEN_FILE_GETS_A_RUSSIAN_MESSAGE = [
    ('system = "drevo"\n[[templates]]\nname = "A"\nqualities = {', "файл оборвался"),
    ('system = "drevo"\nname = = 1', "это не TOML (строка 2, столбец"),
    ('system = "dnd"', "поле system"),
    ('system = "drevo"\nmonsters = []', "неизвестное поле «monsters»"),
    ('system = "drevo"\ntemplates = 3', "поле templates"),
    (
        'system = "drevo"\n[[templates]]\nname = "A"\n[[templates]]\nname = "a"',
        "записан дважды",
    ),
    (
        'system = "drevo"\n[[templates]]\nname = "Волк"\nskills = [{ name = "Бег" }]',
        "«Волк», навык 1 «Бег», поле value",
    ),
    (
        'system = "drevo"\n[[encounters]]\nname = "Стая"\n'
        'groups = [{ template = "Волк", count = 99 }]',
        "groups[1].count: 99",
    ),
]


def test_a_broken_file_gets_a_russian_message():
    def check(text, said) -> None:
        with pytest.raises(SchemaError) as err:
            parse(text, where="мой.toml")
        assert said in str(err.value) and "мой.toml" in str(err.value)

    assert_every_case(A_BROKEN_FILE_GETS_A_RUSSIAN_MESSAGE, check)


def test_read_file_refuses_what_is_not_a_bestiary(tmp_path):
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(StoreError, match="не текст UTF-8"):
        read_file(binary)
    with pytest.raises(StoreError, match="Не удалось прочитать"):
        read_file(tmp_path / "нет.toml")
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 1_100_000)
    with pytest.raises(StoreError, match="больше"):
        read_file(big)


def test_the_campaign_keeps_its_own_and_a_broken_one_is_refused(tmp_path):
    """A campaign's template stands in place of the starter one of the same name; a template
    document that breaks the schema is refused by the store as any bad document is."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    t = starter("drevo").template("Разбойник")
    doc = {**template_to_doc(t), "notes": "Свой разбойник"}
    store.put_doc(BESTIARY_DOC, {"templates": {"own1": doc}}, label="шаблон")
    b = campaign_bestiary(store)
    mine = b.template("разбойник")
    assert mine.notes == "Свой разбойник" and not mine.default
    assert len(b.templates) == len(starter("drevo").templates)
    bad = {"templates": {"own1": {**doc, "fate": "много"}}}
    with pytest.raises(StoreError, match="поле fate"):
        store.put_doc(BESTIARY_DOC, bad, label="шаблон")
    assert campaign_bestiary(store).template("Разбойник").notes == "Свой разбойник"
    store.close()


def test_export_and_import_carry_the_bestiary(tmp_path):
    store = Store.open(tmp_path / "c.json", system="wod")
    t = starter("wod").template("Бандит")
    store.put_doc(
        BESTIARY_DOC, {"templates": {"x": {**template_to_doc(t), "name": "Мой"}}}, label=""
    )
    enc = {
        "name": "Двор",
        "hidden": False,
        "notes": "",
        "groups": [{"template": "Мой", "count": 3, "side": "Противники"}],
    }
    store.put_doc(ENCOUNTERS_DOC, {"encounters": {"e": enc}}, label="")
    store.export_json(tmp_path / "out.json")
    store.close()
    assert (
        "Двор"
        in json.loads((tmp_path / "out.json").read_text())["docs"][ENCOUNTERS_DOC]["encounters"][
            "e"
        ]["name"]
    )
    Store.import_json(tmp_path / "out.json", tmp_path / "new.json")
    again = Store.open(tmp_path / "new.json")
    b = campaign_bestiary(again)
    assert b.template("Мой").sheet.qualities == t.sheet.qualities
    assert b.encounter("двор").size == 3
    again.close()


def test_import_refuses_a_broken_bestiary(tmp_path):
    store = Store.open(tmp_path / "c.json", system="wod")
    store.export_json(tmp_path / "out.json")
    store.close()
    data = json.loads((tmp_path / "out.json").read_text())
    data["docs"][ENCOUNTERS_DOC] = {
        "encounters": {"e": {"name": "Двор", "groups": [{"template": "Т", "count": 500}]}}
    }
    (tmp_path / "out.json").write_text(json.dumps(data, ensure_ascii=False))
    with pytest.raises(StoreError, match="count"):
        Store.import_json(tmp_path / "out.json", tmp_path / "new.json")
    assert not (tmp_path / "new.json").exists()


@pytest.mark.parametrize("system", SYSTEMS)
def test_templates_are_read_with_their_systems_sheet(tmp_path, system):
    """A starter template, a campaign's own and one made of a character hold the system's
    sheet (its values in it, none beside it), as the party's characters do."""
    from tui.store.bestiary import own_templates, template_of, with_template
    from tui.store.models import SHEETS

    kind = SHEETS[system]
    shelf = starter(system)
    with Store.open(tmp_path / "c.json", system=system) as store:
        npc = next(c for c in store.characters() if c.kind == "npc")
        made = template_of(npc, "t1", ("свои",))
        store.put_doc(BESTIARY_DOC, with_template(None, made), label="Шаблон")
        own = own_templates(store.get_doc(BESTIARY_DOC), system)
        both = campaign_bestiary(store)
    for t in (*shelf.templates, made, *own, *both.templates):
        assert type(t.sheet.sheet) is kind, t.name
        assert t.sheet.sheet_values() == t.sheet.sheet.values() and t.sheet.extra == {}, t.name
    assert own[0].sheet == made.sheet
