"""Issue 37, item 1, for the fight: a fight whose inputs changed under it (a sheet edited in
Партия or by ``kubik``, an undo in another window) is derived anew and says what changed —
who, which of his numbers, and what that did to the exchange on turn."""

from __future__ import annotations

from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from tests.table.helpers import duel
from tui.store import Skill
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.follow import changes


def _reading(table):
    _stored, enc, world = table.session.read()
    return enc, world


def test_a_skill_edited_elsewhere_is_named_with_the_exchange_it_changes(tmp_path) -> None:
    table, store, goran = duel(tmp_path)
    table.ok(steps.roll)
    enc, before = _reading(table)
    view = table.view()
    side = view.plan.side(view.role_of(goran.id))
    skill = side.trait.name
    c = store.character(goran.id)
    old = next((s.value for s in c.skills if s.name == skill), None)
    assert old is not None, f"the plan's trait {skill} is not a skill of the sheet"
    skills = tuple(replace(s, value=s.value + 2) if s.name == skill else s for s in c.skills)
    store.upsert_character(replace(c, skills=skills))  # as Партия or `kubik party` would
    enc2, after = _reading(table)
    said = changes(enc, enc2, before, after)
    text = " ".join(said)
    assert "Горан Рябой" in text and f"{skill} {old} → {old + 2}" in text, said
    assert "Схватка 1" in text, said  # what it did to the rolled exchange


def test_wounds_and_fate_edited_elsewhere_are_named(tmp_path) -> None:
    table, store, goran = duel(tmp_path, fate=3)
    enc, before = _reading(table)
    c = store.character(goran.id)
    store.upsert_character(c.edit_sheet(DrevoSheet, fate=1, wounds={**c.drevo.wounds, "light": 1}))
    enc2, after = _reading(table)
    text = " ".join(changes(enc, enc2, before, after))
    assert "Судьба 3 → 1" in text and "Лёгкая" in text, text


def test_a_weapon_taken_off_the_sheet_makes_the_declaration_refused_and_says_so(tmp_path) -> None:
    table, store, _goran = duel(tmp_path)
    enc, before = _reading(table)
    shkuro = next(c for c in store.characters() if c.name == "Атаман Шкуро")
    store.upsert_character(
        replace(shkuro, weapons=tuple(w for w in shkuro.weapons if w != "Сабля"))
    )
    enc2, after = _reading(table)
    text = " ".join(changes(enc, enc2, before, after))
    assert "Атаман Шкуро" in text and "Сабля" in text and "Схватка 1" in text, text


def test_nothing_said_when_no_fighter_changed(tmp_path) -> None:
    table, store, _goran = duel(tmp_path)
    enc, before = _reading(table)
    others = [c for c in store.characters() if c.id not in enc.ids()]
    store.upsert_character(others[0].edit_sheet(DrevoSheet, fate=others[0].drevo.fate + 1))
    enc2, after = _reading(table)
    assert changes(enc, enc2, before, after) == ()


def test_an_unknown_skill_value_change_is_said_even_outside_the_plan(tmp_path) -> None:
    """A skill the exchange does not use is still named (it may be used in a later one)."""
    table, store, goran = duel(tmp_path)
    enc, before = _reading(table)
    c = store.character(goran.id)
    store.upsert_character(replace(c, skills=(*c.skills, Skill("Верховая езда", 2))))
    enc2, after = _reading(table)
    text = " ".join(changes(enc, enc2, before, after))
    assert "Верховая езда" in text and "Схватка" not in text, text
