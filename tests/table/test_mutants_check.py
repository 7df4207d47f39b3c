"""The open check's engine where a mutation run of ``tui/table`` (docs/dev/mutation.md) found
no test: each test names what it pins. Scripted dice or pure worlds; no Textual."""

from __future__ import annotations

from dataclasses import replace

from rules import drevo, wod
from tests.table.check_helpers import ok, table
from tui.store import LogEntry, Store
from tui.table.check import drevo_engine, drevo_steps, ide4_engine, ide4_steps, wod_steps
from tui.table.check.base import OVER
from tui.table.check.starately import Inputs as StaratelyInputs
from tui.table.core import World


def _store(tmp_path, system: str) -> Store:
    return Store.open(tmp_path / "c.json", system=system)


def _with_fate(store: Store, points: int):
    c = next(iter(store.characters()))
    store.upsert_character(replace(c, fate=points))
    return c


def _entry(n: int, data: dict, *, text: str = "", undone: bool = False) -> LogEntry:
    return LogEntry(f"e{n}", "2026-12-06T10:00:00", "check", None, text, data, undone)


# -- Древо ---------------------------------------------------------------------------------------


def test_drevo_seat_shift_is_refused_before_the_roll_and_allowed_after(tmp_path):
    """A player's «сдвиг Судьбой» from a seat: before the roll it waits for one; after the
    roll, with points the character can pay, nothing stands in its way."""
    store = _store(tmp_path, "drevo")
    _with_fate(store, 2)
    t = table(store)
    before = drevo_engine.seat_refusal(t.state, t.world(), "fate", {"points": 1})
    assert before == "Проверка ещё не брошена: сдвиг Судьбой — после броска."
    ok(t, drevo_steps.roll)
    assert drevo_engine.seat_refusal(t.state, t.world(), "fate", {"points": 1}) == ""
    assert drevo_engine.seat_refusal(t.state, t.world(), "fate", {"points": -2}) == ""
    assert "Судьб" in drevo_engine.seat_refusal(t.state, t.world(), "fate", {"points": 3})


def test_drevo_fate_offers_list_every_point_up_and_down(tmp_path):
    """Сид: «±1 к результату за очко»: with 2 points the offers are +1, +2, −1, −2, each doing
    what a shift of that many points does."""
    store = _store(tmp_path, "drevo")
    _with_fate(store, 2)
    t = table(store)
    ok(t, drevo_steps.roll)
    shown = t.view()
    offers = shown.fate_offers()
    assert [p for p, _, _ in offers] == [1, 2, -1, -2]
    for points, outcome, _ in offers:
        assert outcome == drevo.shift_one_sided(shown.result, points).outcome


def test_drevo_repeat_last_reads_past_lines_of_no_system(tmp_path):
    """«Как в прошлый раз» looks past the Журнал's notes and fight lines (no ``system``) to the
    character's last Древо check of the action."""
    store = _store(tmp_path, "drevo")
    c = next(iter(store.characters()))
    form = {"character": c.id, "action": "other", "trait": None, "difficulty": 2, "mods": "+1 x"}
    journal = [
        _entry(1, {"text": "заметка"}),
        _entry(2, {"system": "drevo", "event": "roll", "form": form}, text="прошлый бросок"),
    ]
    world = World({c.id: c}, journal=lambda _n: journal)
    state = replace(table(store).state, inputs=replace(table(store).state.inputs, character=c.id))
    outcome = drevo_steps.repeat_last(state, world)
    assert outcome.ok, outcome.refused
    assert outcome.state.inputs.difficulty == 2 and outcome.state.inputs.mods == "+1 x"
    assert outcome.notices == (f"Как в прошлый раз ({c.name}): прошлый бросок",)


# -- Старатели -----------------------------------------------------------------------------------


def test_starately_form_keeps_its_skill_or_none_through_the_record():
    """The stored form gives back the skill it had — a named one, or none (characteristic
    alone)."""
    named = StaratelyInputs(character="a", characteristic="Ловкость", skill="Стрельба")
    bare = StaratelyInputs(character="a", characteristic="Ловкость", skill=None)
    assert StaratelyInputs.from_dict(named.to_dict()) == named
    assert StaratelyInputs.from_dict(bare.to_dict()) == bare


# -- IDE4 ----------------------------------------------------------------------------------------


def _ide4_form(store: Store, *, level: str = "expanded"):
    """Вера picks the cellar lock (Взлом), at ``level``."""
    vera = next(c for c in store.characters() if c.name == "Вера Стрижова")
    t = table(store)
    ok(t, ide4_steps.set_input, "character", vera.id)
    ok(t, ide4_steps.set_input, "level", level)
    ok(t, ide4_steps.set_input, "action", "Взлом")
    return t


def _ide4_failed(store: Store):
    """The lock-picking rolled and rigged to a d100 of 20 (Провал: rerolls and energy open)."""
    t = _ide4_form(store)
    ok(t, ide4_steps.roll)
    rigged = replace(t.state, rolled=replace(t.state.rolled, natural=20))
    t.store.put_doc("check", rigged.to_doc(), label="тест: d100")
    t.follow()
    return t


def test_ide4_seat_reroll_and_energy_are_allowed_on_an_open_roll_and_refused_once_over(tmp_path):
    """A player's reroll or energy after the roll applies while the check is open (rolled,
    not concluded); once the GM has concluded it, «Проверка уже завершена»."""
    store = _store(tmp_path, "ide4")
    t = _ide4_failed(store)
    assert t.view().check.status == "rolled"
    world = t.world()
    assert ide4_engine.seat_refusal(t.state, world, "reroll", {"source": "food"}) == ""
    assert ide4_engine.seat_refusal(t.state, world, "energy", {"amount": 1}) == ""
    ok(t, ide4_steps.conclude, "провал", "")
    for kind, payload in (("reroll", {"source": "food"}), ("energy", {"amount": 1})):
        assert ide4_engine.seat_refusal(t.state, t.world(), kind, payload) == OVER


def test_ide4_energy_before_the_roll_is_a_step_of_the_expanded_check_only(tmp_path):
    """«Энергия до броска — шаг развёрнутой проверки»: taken in an expanded check (the form's
    energy row set), refused in a standard one."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    made = ide4_steps.energy_before(t.state, t.world(), 1)
    assert made.ok, made.refused
    assert made.state.inputs.energy == 1
    t = _ide4_form(store, level="standard")
    made = ide4_steps.energy_before(t.state, t.world(), 1)
    assert "шаг развёрнутой проверки" in made.refused


# -- Мир Тьмы ------------------------------------------------------------------------------------


def test_wod_contest_shows_each_sides_dice_line_then_the_verdict(tmp_path):
    """A contested roll reads as three lines: each side's dice (its own «Успехов» line left
    out) and one line of successes against successes with the verdict."""
    store = _store(tmp_path, "wod")
    t = table(store)
    ok(t, wod_steps.contest, wod.Pool(3, 2, name="Противник", attribute_name="Сила"))
    lines = t.view().result_lines()
    assert len(lines) == 3
    assert lines[1].startswith("[b]Противник[/b], 5d10: ")
    assert lines[2].startswith("Успехов: ") and " против " in lines[2]
    assert not any(line.startswith("Успехов: [b]") for line in lines)
