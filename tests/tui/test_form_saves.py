"""What the character form saves, without Textual: its checks over the typed texts
(``form_checks``), the character built from the checked values (``form_character``) and the
sheet numbers that follow «Кто» (``kind_switched``), all in tui/widgets/party/fields.py.

The form (tests/tui/test_forms.py) shows each check's message at its field and calls these;
what each parser refuses and says: tests/tui/test_party_fields.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import drevo
from rules.data import load_table
from tui import registry
from tui.store import Character, Skill
from tui.widgets.party.fields import (
    FieldError,
    form_character,
    form_checks,
    kind_switched,
    signed_text,
    system_fields,
    weapon_names,
)
from tui.widgets.party.form import blank_character


def demo_names(system: str) -> set[str]:
    """The names of the demo party a new campaign of ``system`` starts with."""
    return {c["name"] for c in load_table(f"demo/{system}.toml")["characters"]}


def start_texts(system: str, c: Character) -> dict[str, str]:
    """The texts the form opens with for ``c`` (as its compose writes them)."""
    fields = system_fields(system)
    texts = {"name": c.name, "skills": "", "weapons": ", ".join(c.weapons), "notes": c.notes}
    for i, stat in enumerate(fields.stats):
        texts[f"stat-{i}"] = signed_text(c.qualities.get(stat, fields.stat_default))
    sheet = c.sheet_of(system).values()
    texts |= {f.key: str(sheet[f.key]) for f in registry.get(system).sheet_fields}
    return texts


def read(
    system: str, typed: dict[str, str], taken: set[str] | None = None
) -> tuple[dict[str, Any], dict[str, str], Character]:
    """Run every check of a new character's form over its texts with ``typed`` put in:
    the values, the refusals (by check key) and the blank character the form opened with."""
    c = blank_character(system)
    texts = start_texts(system, c) | typed
    names = demo_names(system) if taken is None else taken
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for key, check in form_checks(system, lambda: names, weapon_names(system)).items():
        try:
            values[key] = check(texts.__getitem__)
        except FieldError as err:
            errors[key] = str(err)
    return values, errors, c


def test_every_wrong_field_is_refused_at_once_then_a_drevo_character_is_saved() -> None:
    """Replaces the logic of the pilot test `tests/tui/test_forms.py::TestAdd::
    test_wrong_values_save_nothing_then_a_drevo_character_is_added` (its screen part — each
    message at its field, gone once fixed, Esc and a refusal save nothing — stays in
    `tests/tui/test_forms.py::TestAdd::test_a_wrong_value_is_shown_at_its_field_and_the_form_saves_only_right_values`):
    every wrong field is refused at once with its message; then «Древо»'s fields — качества,
    навыки с частью («Щиты 2 (Драка)»), оружие, Судьба, заметки — make the saved character."""
    wrong = {
        "name": ("Милава", "уже есть"),
        "stat-1": ("7", "Ловкость: Нужно число от −3 до 5"),
        "skills": ("Драка два", "Навык число"),
        "weapons": ("Бластер", "Нет оружия «Бластер»"),
        "fate": ("11", "от 0 до 10"),
    }
    _values, errors, _c = read("drevo", {k: text for k, (text, _m) in wrong.items()})
    assert set(errors) == {"name", "stats", "skills", "weapons", "fate"}, errors
    for field, (_text, message) in wrong.items():
        key = "stats" if field.startswith("stat-") else field
        assert message in errors[key], (field, errors[key])

    typed = {
        "name": "Ждан",
        "stat-0": "3",
        "skills": "Драка 2, Щиты 2 (Драка), Бой без оружия −1",
        "weapons": "меч, Щит",
        "fate": "5",
        "notes": "новобранец",
    }
    values, errors, blank = read("drevo", typed)
    assert errors == {}
    zhdan = form_character("drevo", blank, values, kind="pc", flags={"parry_ability": False})
    assert (zhdan.id, zhdan.name, zhdan.kind) == (blank.id, "Ждан", "pc")
    assert zhdan.qualities["Сила"] == 3 and zhdan.qualities["Воля"] == 0
    assert zhdan.skills == (
        Skill("Драка", 2),
        Skill("Щиты", 2, "Драка"),
        Skill("Бой без оружия", -1),
    )
    assert zhdan.weapons == ("Меч", "Щит")
    assert (zhdan.drevo.fate, zhdan.notes, zhdan.drevo.parry_ability) == (5, "новобранец", False)
    archer = form_character("drevo", blank, values, kind="pc", flags={"parry_ability": True})
    assert archer.drevo.parry_ability is True  # «Отбивать стрелы»: the form's yes/no


def test_the_name_is_judged_against_the_party_as_it_is_at_each_check() -> None:
    """The form asks for the party's names on each check (another window may add one while it
    is open): a name added after the form opened is refused on save. (That the Партия tab's
    form sees another window's character: the pilot test
    `tests/tui/test_forms.py::TestAdd::test_a_wrong_value_is_shown_at_its_field_and_the_form_saves_only_right_values`.)"""
    party = set(demo_names("drevo"))
    check = form_checks("drevo", lambda: party, [])["name"]
    assert check({"name": "Ждан"}.__getitem__) == "Ждан"
    party.add("ждан")  # another window adds it meanwhile
    with pytest.raises(FieldError, match="В партии уже есть «Ждан»"):
        check({"name": "Ждан"}.__getitem__)


def test_the_ide4_form_saves_mastery_distances_energy_and_always_expanded() -> None:
    """Replaces the pilot test `tests/tui/test_forms.py::TestAdd::test_ide4_form`: IDE4's
    атрибуты 1–6, мастерство с главным атрибутом и дистанциями, энергия 0–100 (101 refused),
    «Развёрнутая всегда», an NPC."""
    skills = "Взлом 65 (Мелкая моторика), Стрельба 25 [Д/Б]"
    _values, errors, _c = read("ide4", {"name": "Лев", "skills": skills, "energy": "101"})
    assert list(errors) == ["energy"] and "от 0 до 100" in errors["energy"], errors
    values, errors, blank = read("ide4", {"name": "Лев", "skills": skills, "energy": "70"})
    assert errors == {}
    lev = form_character("ide4", blank, values, kind="npc", flags={"always_expanded": True})
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
def test_levels_per_system(system, skills, bad) -> None:
    """Replaces the pilot test `tests/tui/test_forms.py::TestAdd::test_levels_per_system`:
    Старатели: навык 0–4, характеристики 2–15; Мир Тьмы: точки 0–5, атрибуты 1–5."""
    _values, errors, _c = read(system, {"name": "Новичок", "skills": bad, "stat-0": "16"})
    assert set(errors) == {"skills", "stats"}, errors
    values, errors, blank = read(system, {"name": "Новичок", "skills": skills, "stat-0": "5"})
    assert errors == {}
    new = form_character(system, blank, values, kind="pc", flags={})
    assert new.name == "Новичок"
    assert new.skills[0].value == 3
    assert list(new.qualities.values())[0] == 5


def test_a_new_npc_starts_with_the_npc_fate() -> None:
    """Replaces the logic of the pilot test `tests/tui/test_forms.py::TestTheKindSelector::
    test_a_new_npc_starts_with_the_npc_fate` (the form showing it stays in
    `tests/tui/test_forms.py::TestAdd::test_a_wrong_value_is_shown_at_its_field_and_the_form_saves_only_right_values`).
    Playtest: switching «Кто» to НИП kept Судьба 3 (``party add --npc`` gives the NPC start of
    ``data/drevo/fate.toml``). A Судьба the GM typed is his, and stays; an existing
    character's too."""
    rules = drevo.fate_rules()
    start, npc = str(rules.starting_points), str(rules.npc_starting_points)
    assert start != npc  # else nothing is shown
    blank = blank_character("drevo")
    assert start_texts("drevo", blank)["fate"] == start  # the form opens with it
    fate = {"fate": start}
    assert kind_switched("drevo", blank, True, fate.__getitem__) == {"fate": npc}  # НИП
    assert kind_switched("drevo", blank, False, {"fate": npc}.__getitem__) == {"fate": start}
    assert kind_switched("drevo", blank, True, {"fate": "2"}.__getitem__) == {}  # the GM's own
    assert kind_switched("drevo", blank, True, {"fate": f" {start} "}.__getitem__) == {
        "fate": npc
    }  # typed back to the player's start: it follows «Кто» again
    edited = replace(blank, origin={"id": blank.id})  # an existing character: his numbers
    assert kind_switched("drevo", edited, True, fate.__getitem__) == {}
    values, errors, _c = read("drevo", {"name": "Ждан", "fate": npc})
    assert errors == {}
    zhdan = form_character("drevo", blank, values, kind="npc", flags={"parry_ability": False})
    assert (zhdan.kind, zhdan.drevo.fate) == ("npc", rules.npc_starting_points)
