"""Древо's Партия steps through the table engine alone: a wound (the cascade), a wound healed,
the GM's point of Судьба, Судьба spent on a circumstance — their sheets, labels and Журнал
lines, each refusal, and each written as one undo step (Ctrl+Z is ``store.undo``). Which key
makes which step and what the tab shows: tests/tui/test_one_truth.py, test_opposed_undo_keys.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.data import packaged_table, set_overrides
from rules.drevo.sheet import DrevoSheet
from tui.store import Character, LogEntry, Store, new_id
from tui.systems.drevo.party import steps, view
from tui.table.commit import commit_edit
from tui.table.core import Outcome

NO_WOUNDS = {"scratch": 0, "light": 0, "wound": 0, "heavy": 0}


def goran(fate: int = 3, dead: bool = False, **wounds: int) -> Character:
    sheet = DrevoSheet(fate=fate, wounds={**NO_WOUNDS, **wounds}, dead=dead)
    return Character("g1", "Горан", "pc", {}, (), (), sheet=sheet)


def made(outcome: Outcome[Character]) -> Character:
    """The one changed sheet of a step that was made (it is also the outcome's state)."""
    assert outcome.ok, outcome.refused
    assert outcome.sheets == (outcome.state,)
    return outcome.state


def line(outcome: Outcome[Character]) -> tuple[str | None, str, dict, str]:
    (only,) = outcome.log
    return only.actor, only.text, dict(only.data), only.kind


@pytest.fixture
def fate_uses() -> Iterator:
    """Switch the campaign's Судьба uses (``data/drevo/fate.toml``) for one test."""

    def put(**uses: bool) -> None:
        table = packaged_table("drevo/fate.toml")
        set_overrides({"drevo/fate.toml": {**table, "uses": {**table["uses"], **uses}}})

    yield put
    set_overrides({})


# -- wounds ---------------------------------------------------------------------------------


def test_four_scratches_make_a_light_wound() -> None:
    """Сид: «По мере накопления более лёгких повреждений они переходят в более тяжёлые.
    Четыре царапины становятся лёгкой раной, две лёгких раны — ранением, два ранения —
    тяжёлой раной.»"""
    c = goran(scratch=3)
    outcome = steps.wound(c, "scratch")
    after = made(outcome)
    assert after.drevo.wounds == {**NO_WOUNDS, "light": 1}
    assert outcome.label == "Горан: Царапина"
    assert line(outcome) == ("Горан", "Рана: Царапина. Раны: Лёгкая×1", {"character": "g1"}, "note")
    assert (c.drevo.fate, after.drevo.fate) == (3, 3)  # nothing else changes


def test_a_second_light_wound_on_top_of_two_woundings_lays_him_down() -> None:
    """Сид: «вторая полученная им Лёгкая рана (или ещё четыре Царапины) будет означать второе
    Ранение — и он перейдёт в состояние тяжелораненого.» The line says so."""
    outcome = steps.wound(goran(light=1, wound=1), "light")
    assert made(outcome).drevo.wounds == {**NO_WOUNDS, "heavy": 1}
    assert line(outcome)[1] == "Рана: Лёгкая рана. Раны: Тяжёлая×1 — тяжело ранен"


def test_any_wound_above_a_scratch_finishes_the_heavily_wounded() -> None:
    """Сид: «Тяжелораненого … можно добить, нанеся ему любое повреждение уровнем выше
    Царапины.»"""
    outcome = steps.wound(goran(heavy=1), "light")
    after = made(outcome)
    assert after.drevo.dead
    assert outcome.label == "Горан: Лёгкая рана"
    assert line(outcome)[1] == "Рана: Лёгкая рана. Раны: Тяжёлая×1 — погиб"
    scratched = made(steps.wound(goran(heavy=1), "scratch"))
    assert not scratched.drevo.dead and scratched.drevo.wounds["scratch"] == 1


def test_a_wound_of_no_level_is_refused() -> None:
    c = goran()
    outcome = steps.wound(c, "bruise")
    assert outcome.refused.startswith("Неизвестный уровень повреждения 'bruise'")
    assert (outcome.state, outcome.sheets, outcome.log, outcome.label) == (c, (), (), "")


def test_the_wound_dialog_offers_every_level_mildest_first() -> None:
    assert view.wound_choices() == [
        ("Царапина", "scratch"),
        ("Лёгкая рана", "light"),
        ("Ранение", "wound"),
        ("Тяжёлая рана", "heavy"),
        ("Смерть", "death"),
    ]


# -- healing ----------------------------------------------------------------------------------


def test_healing_needs_a_wound_and_each_option_says_what_it_needs() -> None:
    """Сид: «Лёгкая рана требует простой перевязки и со временем (приблизительно через неделю)
    проходит сама.» Healing applies to a wound or Смерть only; the worst wound comes first."""
    assert not view.can_heal(goran())
    assert view.can_heal(goran(scratch=1)) and view.can_heal(goran(dead=True))
    rows = view.heal_choices(goran(scratch=2, light=1))
    assert [level for _, level in rows] == ["light", "scratch"]
    assert rows[0][0].startswith("Лёгкая рана — Нужна простая перевязка; проходит сама")


def test_healing_takes_one_wound_of_the_level() -> None:
    outcome = steps.heal(goran(scratch=2, light=1), "scratch")
    assert made(outcome).drevo.wounds == {**NO_WOUNDS, "scratch": 1, "light": 1}
    assert outcome.label == "Горан: вылечено — Царапина"
    assert line(outcome) == (
        "Горан",
        "Вылечено: Царапина. Раны: Лёгкая×1, Царапина×1",
        {"character": "g1"},
        "note",
    )


def test_healing_death_leaves_him_heavily_wounded() -> None:
    """Сид (Смерть): «Мгновенная смерть либо состояние при смерти … — по усмотрению
    ведущего»: the GM who rules «при смерти» heals Смерть to a Тяжёлая рана."""
    outcome = steps.heal(goran(dead=True, heavy=1), "death")
    after = made(outcome)
    assert not after.drevo.dead and after.drevo.wounds["heavy"] == 1
    assert line(outcome)[1] == "Вылечено: Смерть. Раны: Тяжёлая×1"


def test_healing_what_he_does_not_have_is_refused() -> None:
    c = goran(scratch=1)
    outcome = steps.heal(c, "light")
    assert outcome.refused == "У персонажа нет раны «Лёгкая рана»: выберите рану из списка."
    assert (outcome.state, outcome.sheets, outcome.log) == (c, (), ())
    alive = steps.heal(c, "death")
    assert alive.refused == "Персонаж жив: лечить смерть не нужно."


# -- Судьба ---------------------------------------------------------------------------------


def test_the_gm_gives_one_point_of_fate() -> None:
    """Сид: «Восполняются они по усмотрению ведущего — в зависимости от поведения
    персонажа.»"""
    outcome = steps.grant_fate(goran(fate=0))
    assert made(outcome).drevo.fate == 1
    assert outcome.label == "Горан: +1 Судьба"
    assert line(outcome) == (
        "Горан",
        "Ведущий даёт очко Судьбы: теперь 1",
        {"character": "g1"},
        "note",
    )


def test_a_circumstance_spends_exactly_one_point() -> None:
    """Сид: «5. Очки Судьбы могут расходоваться игроком (по согласованию с ведущим) чтобы
    получить в ходе игры благоприятное для его персонажа стечение обстоятельств в той или иной
    ситуации.» One point, the GM's note in the line, the point counted for the luck ledger."""
    c = goran(fate=3)
    assert view.can_spend_circumstance(c)
    outcome = steps.fate_circumstance(c, "мост ещё держится")
    after = made(outcome)
    assert after.drevo.fate == 2 and after.drevo.wounds == c.drevo.wounds
    assert outcome.label == "Горан: Судьба на обстоятельство"
    assert line(outcome) == (
        "Горан",
        "Судьба на благоприятное обстоятельство: мост ещё держится (осталось 2)",
        {"character": "g1", "fate_spent": 1},
        "note",
    )


def test_a_circumstance_with_no_point_left_is_refused() -> None:
    """Сид: «Очки Судьбы расходуются игроком» — none left, none to spend."""
    c = goran(fate=0)
    assert not view.can_spend_circumstance(c)
    outcome = steps.fate_circumstance(c, "мост ещё держится")
    assert outcome.refused == "Нужно очков Судьбы: 1, а у персонажа нет ни одного."
    assert (outcome.state, outcome.sheets, outcome.log) == (c, (), ())


def test_a_circumstance_the_campaign_forbids_is_refused(fate_uses) -> None:
    """Сид: «Ведущий может, по своему усмотрению, изменить перечисленные выше правила
    использования очков Судьбы …, разрешить применять только некоторые из этих правил или
    совсем убрать очки Судьбы из игры.»"""
    fate_uses(circumstance=False)
    c = goran(fate=3)
    assert not view.can_spend_circumstance(c)
    outcome = steps.fate_circumstance(c, "мост ещё держится")
    assert outcome.refused == (
        "В этой кампании Судьбу нельзя тратить так: «Благоприятное стечение обстоятельств». "
        "Включите это в настройках кампании или выберите другое."
    )
    assert outcome.sheets == () and outcome.log == ()
    fate_uses(shift=False)  # another use switched off (and this one on) leaves this one
    assert view.can_spend_circumstance(c) and steps.fate_circumstance(c, "мост").ok


def test_a_circumstance_without_a_note_is_refused() -> None:
    outcome = steps.fate_circumstance(goran(fate=3), "  ")
    assert outcome.refused == steps.NO_NOTE
    assert outcome.sheets == () and outcome.log == ()


# -- written: one undo step -------------------------------------------------------------------

STEPS = [
    (steps.wound, ("light",), "рана не записана"),
    (steps.heal, ("scratch",), "лечение не записано"),
    (steps.grant_fate, (), "очко Судьбы не записано"),
    (steps.fate_circumstance, ("мост ещё держится",), "очко Судьбы не потрачено"),
]


def _campaign(tmp_path) -> tuple[Store, Character]:
    store = Store.open(tmp_path / "c.json", system="drevo")
    c = store.characters()[0].edit_sheet(DrevoSheet, fate=2, wounds={**NO_WOUNDS, "scratch": 1})
    store.upsert_character(c)
    return store, c


def _stored(store: Store, cid: str) -> Character:
    return next(c for c in store.characters() if c.id == cid)


@pytest.mark.parametrize(("step", "args", "what"), STEPS, ids=lambda v: getattr(v, "__name__", ""))
def test_each_step_is_one_undo_step_with_its_line(tmp_path, step, args, what) -> None:
    """Ctrl+Z takes the sheet back and marks the line «отменено»; Ctrl+Y puts both back."""
    store, c = _campaign(tmp_path)
    outcome = commit_edit(store, c.id, step, *args, name=c.name, what=what)
    after = _stored(store, c.id)
    assert after == made(outcome) and after != c
    newest = store.log(limit=1)[0]
    assert (newest.kind, newest.actor, newest.text) == ("note", c.name, line(outcome)[1])
    assert {k: newest.data[k] for k in line(outcome)[2]} == line(outcome)[2]
    assert store.undo() == outcome.label
    assert _stored(store, c.id) == c
    assert store.log(limit=1)[0].undone
    assert store.redo() == outcome.label
    assert _stored(store, c.id) == after
    assert not store.log(limit=1)[0].undone


def test_a_refused_step_writes_nothing(tmp_path) -> None:
    store, c = _campaign(tmp_path)
    before = (store.characters(), store.log(), store.undo_labels())
    outcome = commit_edit(store, c.id, steps.heal, "heavy", name=c.name, what="лечение не записано")
    assert outcome.refused.startswith("У персонажа нет раны «Тяжёлая рана»")
    assert (store.characters(), store.log(), store.undo_labels()) == before


def test_the_step_is_made_on_the_character_as_the_file_has_it(tmp_path) -> None:
    """A wound given in this window lands on the track another window changed meanwhile;
    a point is spent from the count the file has now; the entry is made by the caller's
    ``make`` (the app stamps its clock)."""
    store, c = _campaign(tmp_path)
    other = Store.open(store.path)
    theirs = _stored(other, c.id)
    other.upsert_character(
        theirs.edit_sheet(DrevoSheet, fate=1, wounds={**NO_WOUNDS, "scratch": 3})
    )
    made_entries: list[LogEntry] = []

    def make(kind, actor, text, data) -> LogEntry:
        made_entries.append(
            LogEntry(new_id(), "2025-03-01T19:30:00+03:00", kind, actor, text, data)
        )
        return made_entries[-1]

    wounded = commit_edit(store, c.id, steps.wound, "scratch", name=c.name, make=make)
    assert made(wounded).drevo.wounds == {**NO_WOUNDS, "light": 1}  # 3 + 1 scratches
    spent = commit_edit(store, c.id, steps.fate_circumstance, "туман", name=c.name, make=make)
    assert made(spent).drevo.fate == 0
    assert [e.text for e in made_entries] == [
        "Рана: Царапина. Раны: Лёгкая×1",
        "Судьба на благоприятное обстоятельство: туман (осталось 0)",
    ]
    assert [e.id for e in store.log(limit=2)] == [e.id for e in reversed(made_entries)]
    refused = commit_edit(store, c.id, steps.fate_circumstance, "туман", name=c.name, make=make)
    assert refused.refused and len(made_entries) == 2  # no entry made for a refusal
    other.close()


def test_a_step_that_changes_more_than_its_character_is_not_a_character_edit(tmp_path) -> None:
    store, c = _campaign(tmp_path)

    def two(current: Character) -> Outcome[Character]:
        return Outcome(current, "x", sheets=(current, current))

    with pytest.raises(ValueError, match="that character alone"):
        commit_edit(store, c.id, two, name=c.name)
