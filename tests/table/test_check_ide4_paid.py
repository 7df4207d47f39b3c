"""What an open IDE4™ check pays and writes, through the engine alone: energy before the roll
and the roll are one undo step (one side or both sides of a противоборство), a move's energy
comes back with its undo, a removed character spends nothing, and the whole procedure leaves
its four Журнал lines. These were pilot tests (each test names the one it replaces); what the
keys and the dialogs do stays there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.table.check_helpers import energy, ok, redo, table, undo
from tui.store import Store
from tui.store.errors import StaleWrite
from tui.systems.ide4.check import opposed as opp
from tui.systems.ide4.check import steps


def store_of(tmp_path) -> Store:
    return Store.open(tmp_path / "c.json", system="ide4")


def roll_entry(store: Store):
    return next(e for e in store.log() if (e.data or {}).get("event") == "roll")


def energy_before(t, count: int) -> int:
    """The first character's expanded check with ``count`` dice of energy before the roll
    (the form's row); return the die's size (the attribute's nominal, Сид: «Стоимость куба
    равна номиналу»)."""
    ok(t, steps.set_input, "level", "expanded")
    ok(t, steps.set_input, "energy", count)
    return t.view().input.before_die


def test_energy_before_and_the_roll_it_bought_are_one_step(tmp_path):
    """Сид: «энергия тратится до броска»: 2×d6 paid and the roll they bought are one undo
    step — Ctrl+Z gives the energy back and marks the roll's line «отменено», Ctrl+Y pays
    again and clears the mark. Replaces the pilot test
    `tests/tui/test_ide4_log_links.py::test_the_energy_before_rolls_line_follows_its_undo_and_redo`
    (the form coming back on the screen: `tests/tui/test_builder_ide4.py::TestProcedure::
    test_roll_reroll_energy_after_conclude`)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    die = energy_before(t, 2)
    assert die == 6  # Вера's Сила ур. 2: d6
    ok(t, steps.roll)
    name = t.view().check.input.actor
    assert energy(store, name) == 100 - 2 * die and not roll_entry(store).undone
    undo(t)
    assert energy(store, name) == 100 and t.state.phase == "setup"
    assert roll_entry(store).undone  # «отменено» in the Журнал, the view, kubik log
    redo(t)
    assert energy(store, name) == 100 - 2 * die and not roll_entry(store).undone
    assert t.state.phase == "result"


def test_two_undos_under_an_open_check_stay_undone_on_the_next_change(tmp_path):
    """Energy before the roll, energy after, Ctrl+Z twice: the roll is undone too — the form
    again, the sheet at 100 — and the next store change (any other write) does not put back
    the energy the undo gave back; rolled again, the same dice. Replaces the logic of the
    pilot test `tests/tui/test_ide4_dialogs_follow.py::
    test_two_undos_under_an_open_check_stay_followed_on_the_next_change` (its screen part:
    `tests/tui/test_builder_ide4.py::TestProcedure::test_roll_reroll_energy_after_conclude`)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    die = energy_before(t, 1)
    ok(t, steps.roll)
    first = t.view().check
    name = first.input.actor
    assert first.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
    offer = t.view().energy_offers()[0]  # the chooser's first line: 1 die of the nominal
    assert offer.source == f"1x{die}" and offer.allowed
    ok(t, steps.energy_after, 1, die)
    assert energy(store, name) < 100 - die
    undo(t)
    undo(t)
    assert energy(store, name) == 100 and t.state.phase == "setup"
    t.follow()  # the app's next look at the store, nothing new in it
    other = next(c for c in store.characters() if c.name != name)
    store.upsert_character(replace(other, notes="записка"))  # another write
    t.follow()
    assert energy(store, name) == 100 and t.state.phase == "setup"
    ok(t, steps.roll)
    again = t.view().check
    assert again.steps == first.steps  # the same energy dice and d100
    assert f"энергия {100 - die}/100" in "\n".join(t.view().result_lines())


def test_energy_after_for_a_character_removed_elsewhere_spends_nothing(tmp_path):
    """The check rolled, its character removed by another process, energy after chosen
    before this kubik saw it: the write is refused with the reason, nothing is logged, the
    check is as rolled; once seen, the move itself is refused with the reason. Replaces the
    pilot test `tests/tui/test_ide4_dialogs_follow.py::
    test_energy_after_for_a_removed_character_spends_nothing[before-the-app-saw-it]` (the
    dialog's part, once the app saw it, was its `[app-saw-it]` case; now
    `tests/tui/test_gm_steps.py::TestIde4Keys::
    test_each_key_makes_its_move_then_energy_after_for_a_removed_character`)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    ok(t, steps.roll)
    rolled = t.view().check
    name, cid = rolled.input.actor, t.state.rolled.character
    assert rolled.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
    lines = len(store.log())
    Store.open(tmp_path / "c.json").delete_character(cid)
    with pytest.raises(StaleWrite, match=f"{name} удалён в другом окне"):
        t.run(steps.energy_after, 1, rolled.input.nominal)
    assert len(store.log()) == lines and t.view().check == rolled  # nothing spent or logged
    store.refresh()
    t.follow()
    gone = f"Персонаж {name} удалён в другом окне — энергию тратить не из чего."
    assert t.run(steps.energy_after, 1, rolled.input.nominal).refused == gone
    assert t.view().gone() == gone
    assert t.view().check == rolled and len(store.log()) == lines
    assert f"энергия {rolled.pool_after}/100" in "\n".join(t.view().result_lines())


def opposed_rolled(t, *, energy_a: int = 0, energy_b: int = 0):
    """The first character's expanded check against the form's first other character (the
    «o» key's default), energy before on either side, rolled."""
    ok(t, steps.set_input, "level", "expanded")
    if energy_a:
        ok(t, steps.set_input, "energy", energy_a)
    first = t.state.inputs.character
    other = next(cid for cid in t.world().characters if cid != first)
    ok(t, opp.open_opposed, other)
    if energy_b:
        ok(t, opp.set_opposed, "energy", energy_b)
    ok(t, opp.roll_opposed)
    return opp.opposed_view(t.state, t.world())


def test_an_opposed_checks_energy_before_is_one_step_that_pays_both_sheets(tmp_path):
    """«Энергия тратится до броска» on both sides of a противоборство: the two sheets and the
    roll's line are one undo step (they were three writes: Ctrl+Z took back one sheet).
    Replaces the pilot test `tests/tui/test_gm_steps.py::
    test_an_opposed_checks_energy_before_is_one_step_that_pays_both_sheets` (the dialog
    following that undo: `tests/tui/test_opposed_undo_keys.py::
    test_the_opposed_dialogs_follow_ctrl_z_and_ctrl_y_wherever_the_focus`)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    shown = opposed_rolled(t, energy_a=1, energy_b=1)
    first, second = shown.checks["a"], shown.checks["b"]
    names = (first.input.actor, second.input.actor)
    assert names[0] != names[1] and first.energy_spent and second.energy_spent
    paid = [first.pool_after, second.pool_after]
    assert paid == [c.input.energy_pool - c.energy_spent for c in (first, second)]
    assert [energy(store, n) for n in names] == paid
    line = next(e for e in store.log() if e.text.startswith("Противоборство"))
    undo(t)
    assert [energy(store, n) for n in names] == [first.input.energy_pool, second.input.energy_pool]
    assert next(e for e in store.log() if e.id == line.id).undone
    redo(t)
    assert [energy(store, n) for n in names] == paid
    assert not next(e for e in store.log() if e.id == line.id).undone


def test_an_opposed_energy_move_is_undone_and_redone_with_its_sheet(tmp_path):
    """Energy after on one side of a rolled противоборство: the sheet pays it; Ctrl+Z puts
    both checks back and the energy with them, Ctrl+Y the same move (its dice) and the same
    payment. Replaces the pilot test `tests/tui/test_builder_undo.py::TestIde4OpposedMoves::
    test_undo_and_redo_of_an_opposed_energy_move` (the keys in the dialog:
    `tests/tui/test_opposed_undo_keys.py`)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    rolled = dict(opposed_rolled(t).checks)
    offers = opp.opposed_view(t.state, t.world()).offers("energy_after")
    key, offer = next((k, o) for k, o in offers if o.allowed)  # the chooser's first allowed
    ok(t, opp.opposed_move, key, "energy_after", offer.source)
    spent = dict(opp.opposed_view(t.state, t.world()).checks)
    name = spent[key].input.actor
    assert energy(store, name) == spent[key].pool_after < rolled[key].pool_after
    undo(t)
    assert energy(store, name) == rolled[key].pool_after
    assert opp.opposed_view(t.state, t.world()).checks == rolled
    redo(t)
    assert opp.opposed_view(t.state, t.world()).checks == spent
    assert energy(store, name) == spent[key].pool_after


def test_an_opposed_side_removed_in_another_window_spends_no_energy(tmp_path):
    """The first side's character removed in another window: its energy after is offered
    greyed out with the reason (one line, no dice sizes), and a choice made before is
    refused with it — the checks unchanged, nothing logged. Replaces the pilot test
    `tests/tui/test_ide4_dialogs_follow.py::
    test_an_opposed_side_removed_in_another_window_spends_no_energy` (the dialog's chooser
    lists these offers as they are, `OpposedResultScreen._choices`; a refused step's reason
    is shown as the builder shows every refusal)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    shown = opposed_rolled(t)
    mine = [o for k, o in shown.offers("energy_after") if k == "a" and o.allowed]
    assert mine, "seed: energy after applies to the first side"
    name = shown.checks["a"].input.actor
    rolled, lines = dict(shown.checks), len(store.log())
    Store.open(tmp_path / "c.json").delete_character(t.state.opposed.a.character)
    store.refresh()
    t.follow()
    gone = f"Персонаж {name} удалён в другом окне — энергию тратить не из чего."
    offered = [
        o for k, o in opp.opposed_view(t.state, t.world()).offers("energy_after") if k == "a"
    ]
    assert [(o.allowed, o.reason) for o in offered] == [(False, gone)]
    assert t.run(opp.opposed_move, "a", "energy_after", mine[0].source).refused == gone
    assert opp.opposed_view(t.state, t.world()).checks == rolled and len(store.log()) == lines


def test_roll_reroll_energy_after_conclude_leaves_four_lines_and_pays_the_sheet(tmp_path):
    """The whole procedure at the expanded level: energy before (2×d6), the d100, a reroll
    from the first source allowed («навык» refused, «еда» allowed), energy after (2 dice of
    the nominal), the meaning and the consequence — four Журнал lines of Вера's check, the
    energy paid twice (Сид: «Стоимость куба равна номиналу»). Replaces the logic of the pilot
    test `tests/tui/test_builder_ide4.py::TestProcedure::
    test_roll_reroll_energy_after_conclude` (its keys and dialogs stay there)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    before = energy_before(t, 2)
    ok(t, steps.roll)
    first = t.view().check
    rerolls = [o for o in t.view().offers() if o.kind == "reroll"]
    assert not next(o for o in rerolls if o.source == "skill").allowed
    source = next(o.source for o in rerolls if o.allowed)  # the chooser's first allowed
    assert source == "food"
    ok(t, steps.reroll, source)
    check = t.view().check
    assert check.rerolls == ("food",) and check.steps[-1].replaced == first.natural
    assert check.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
    nominal = check.input.nominal
    ok(t, steps.energy_after, 2, nominal)
    assert len(t.view().check.after_dice) == 2
    ok(t, steps.conclude, "дверь поддалась", "патруль далеко")
    assert t.state.phase == "done" and t.view().check.consequence == "патруль далеко"
    spent = 2 * before + 2 * nominal
    assert energy(store, "Вера Стрижова") == 100 - spent
    entries = store.log()
    assert [e.data["event"] for e in reversed(entries)] == [
        "roll",
        "reroll",
        "energy_after",
        "conclude",
    ]
    assert all(e.kind == "check" and e.actor == "Вера Стрижова" for e in entries)
    last = entries[0].data
    assert last["energy_spent"] == spent and last["pool_after"] == 100 - spent
    assert "переброс — еда" in entries[2].text


def test_energy_dice_below_the_nominal_and_after_on_success_warn(tmp_path):
    """Сид: «Стоимость куба равна номиналу» and dice «в пределах номинала»; energy after «Не
    создаёт Триумф» — on Успех every energy choice says it changes nothing before anything is
    spent, for each die size up to the nominal. Replaces the pilot test
    `tests/tui/test_builder_ide4_options.py::
    test_energy_dice_below_the_nominal_and_after_on_success_warns` (the «e» chooser listing
    these words: tests/tui/test_check_issue34.py::
    test_saved_roll_bar_then_the_cellar_door_then_b_and_e_on_a_success)."""
    store = store_of(tmp_path)
    t = table(store, seed=7)
    ok(t, steps.set_input, "level", "expanded")
    ok(t, steps.set_input, "attribute", "Мелкая моторика")  # ур. 5: d12
    assert [v for _, v in t.view().rows["die"].options] == [12, 10, 8, 6, 4]
    ok(t, steps.set_input, "die", 6)
    ok(t, steps.set_input, "energy", 2)
    assert t.view().input.energy_die == 6
    ok(t, steps.roll)
    check = t.view().check
    assert check.before_dice and check.input.before_die == 6
    assert check.energy_spent == 2 * 6
    state = t.state
    rigged = replace(state, rolled=replace(state.rolled, natural=70))  # Успех
    store.put_doc("check", rigged.to_doc(), label="тест: d100")
    t.follow()
    assert t.view().check.outcome == "success"
    offers = t.view().energy_offers()
    said = " ".join(o.reason for o in offers)
    assert "не изменит исход" in said and "Не создаёт Триумф" in said
    assert {o.name.split("×")[1] for o in offers} == {"d12", "d10", "d8", "d6", "d4"}
