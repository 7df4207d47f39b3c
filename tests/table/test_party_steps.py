"""The Партия steps every system shares, through the engine alone (``tui.table.party``): a
saved roll added, replaced and removed — the character's rolls, the label and the Журнал line,
each refusal, each written as one undo step made on the character as the file has it. Which
key makes them and the prompt that says a refusal: tests/tui/test_saved_rolls.py."""

from __future__ import annotations

import pytest

from tui.store import Character, StaleWrite, Store
from tui.systems.drevo.party.steps import wound
from tui.table.commit import commit_edit
from tui.table.party import save_roll, saved_roll_refusal

WHAT = "бросок не сохранён"


def arn(*rolls: tuple[str, str]) -> Character:
    return Character("a1", "Арн", "pc", {}, (), (), rolls=rolls)


def test_a_roll_is_added_then_replaced_by_its_name_in_any_case_then_removed() -> None:
    added = save_roll(arn(("Бег", "2d6")), "Атака: 2d6+3")
    assert added.ok and added.sheets == (added.state,)
    assert added.state.rolls == (("Бег", "2d6"), ("Атака", "2d6+3"))
    assert added.label == "Арн: бросок «Атака»"
    (line,) = added.log
    assert (line.actor, line.text, dict(line.data), line.kind) == (
        "Арн",
        "Бросок «Атака» сохранён",
        {"character": "a1"},
        "note",
    )
    replaced = save_roll(added.state, "атака: 3d6")
    assert replaced.state.rolls == (("Бег", "2d6"), ("атака", "3d6")), "in its place"
    assert replaced.log[0].text == "Бросок «атака» сохранён", "a replaced roll is not removed"
    removed = save_roll(replaced.state, "АТАКА:")
    assert removed.state.rolls == (("Бег", "2d6"),)
    assert removed.log[0].text == "Бросок «АТАКА» удалён"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2d6+3", "напишите «Название: выражение», например «Атака топором: 2d6+3»"),
        (": 2d6", "напишите «Название: выражение», например «Атака топором: 2d6+3»"),
        ("Атака: 2d6+", "«Атака»: позиция 5: выражение обрывается"),
    ],
)
def test_a_line_without_a_name_or_with_a_bad_expression_is_refused(text, reason) -> None:
    c = arn(("Бег", "2d6"))
    outcome = save_roll(c, text)
    assert outcome.refused.startswith(reason), outcome.refused
    assert (outcome.state, outcome.sheets, outcome.log) == (c, (), ())
    assert saved_roll_refusal(c.rolls, text) == outcome.refused, "the prompt says the same"
    assert saved_roll_refusal(c.rolls, "Атака: 2d6") == ""


def _campaign(tmp_path) -> tuple[Store, Character]:
    store = Store.open(tmp_path / "c.json", system="drevo")
    return store, store.characters()[0]


def _stored(store: Store, cid: str) -> Character:
    return next(c for c in store.characters() if c.id == cid)


def test_saving_is_one_undo_step_with_its_line(tmp_path) -> None:
    """Ctrl+Z takes the roll back and marks the line «отменено»; Ctrl+Y puts both back."""
    store, c = _campaign(tmp_path)
    outcome = commit_edit(store, c.id, save_roll, "Атака: 2d6+3", name=c.name, what=WHAT)
    after = _stored(store, c.id)
    assert after.rolls == (*c.rolls, ("Атака", "2d6+3"))
    assert store.log(limit=1)[0].text == "Бросок «Атака» сохранён"
    assert store.undo() == outcome.label
    assert _stored(store, c.id) == c and store.log(limit=1)[0].undone
    assert store.redo() == outcome.label
    assert _stored(store, c.id) == after and not store.log(limit=1)[0].undone


def test_a_refused_line_writes_nothing(tmp_path) -> None:
    store, c = _campaign(tmp_path)
    before = (store.characters(), store.log(), store.undo_labels())
    outcome = commit_edit(store, c.id, save_roll, "без двоеточия", name=c.name, what=WHAT)
    assert outcome.refused
    assert (store.characters(), store.log(), store.undo_labels()) == before


def test_a_roll_is_saved_onto_the_rolls_another_window_saved_meanwhile(tmp_path) -> None:
    store, c = _campaign(tmp_path)
    other = Store.open(store.path)
    commit_edit(other, c.id, save_roll, "Бег: 2d6", name=c.name, what=WHAT)
    commit_edit(store, c.id, save_roll, "Атака: 2d6+3", name=c.name, what=WHAT)
    assert _stored(store, c.id).rolls == (*c.rolls, ("Бег", "2d6"), ("Атака", "2d6+3"))
    other.close()


@pytest.mark.parametrize(
    ("step", "args", "what"),
    [(save_roll, ("Атака: 2d6",), WHAT), (wound, ("light",), "рана не записана")],
    ids=["save_roll", "drevo-wound"],
)
def test_a_character_removed_meanwhile_gets_nothing(tmp_path, step, args, what) -> None:
    """commit_edit writes no step of the Партия tab back onto a removed character."""
    store, c = _campaign(tmp_path)
    other = Store.open(store.path)
    other.delete_character(c.id)
    with pytest.raises(StaleWrite, match=f"Персонаж {c.name} удалён в другом окне — {what}"):
        commit_edit(store, c.id, step, *args, name=c.name, what=what)
    assert c.id not in {x.id for x in Store.open(store.path, read_only=True).characters()}
    other.close()
