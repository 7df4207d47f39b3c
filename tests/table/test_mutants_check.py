"""The open check's engine where a mutation run of ``tui/table`` (docs/dev/mutation.md) found
no test: each test names what it pins. Scripted dice or pure worlds; no Textual."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from rules import drevo, ide4, starately, wod
from rules.drevo.sheet import DrevoSheet
from rules.errors import RulesError
from tests.table.check_helpers import ok, table
from tui.store import LogEntry, Store
from tui.systems.drevo.check import engine as drevo_engine
from tui.systems.drevo.check import steps as drevo_steps
from tui.systems.drevo.check.state import DrevoCheck
from tui.systems.ide4.check import engine as ide4_engine
from tui.systems.ide4.check import steps as ide4_steps
from tui.systems.ide4.check import text as ide4_text
from tui.systems.ide4.check import view as ide4_view
from tui.systems.starately.check import engine as starately_engine
from tui.systems.starately.check import steps as starately_steps
from tui.systems.starately.check import text as starately_text
from tui.systems.starately.check.state import Inputs as StaratelyInputs
from tui.systems.wod.check import steps as wod_steps
from tui.systems.wod.check import text as wod_text
from tui.table.check.base import DICE, OVER, ROLLED, earlier_dice
from tui.table.core import World


def _store(tmp_path, system: str) -> Store:
    return Store.open(tmp_path / "c.json", system=system)


def _with_fate(store: Store, points: int):
    c = next(iter(store.characters()))
    store.upsert_character(c.edit_sheet(DrevoSheet, fate=points))
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


def test_drevo_offer_names_the_shift_only_while_the_roller_has_fate(tmp_path):
    """A seat is offered «Судьба после броска» on a rolled check while its character has
    Судьба; with none left, nothing."""
    store = _store(tmp_path, "drevo")
    c = _with_fate(store, 1)
    t = table(store)
    ok(t, drevo_steps.roll)
    offer = drevo_engine.offer(t.state, t.world())
    assert offer.kinds == ("fate",) and offer.stage == "rolled"
    assert offer.choices == ("Судьба после броска: ±1 к результату за очко",)
    store.upsert_character(store.character(c.id).edit_sheet(DrevoSheet, fate=0))
    offer = drevo_engine.offer(t.state, t.world())
    assert offer.kinds == () and offer.choices == ()


def test_drevo_seat_fate_before_is_refused_once_rolled(tmp_path):
    store = _store(tmp_path, "drevo")
    _with_fate(store, 2)
    t = table(store)
    assert drevo_engine.seat_refusal(t.state, t.world(), "fate", {"use": "before"}) == ""
    ok(t, drevo_steps.roll)
    why = drevo_engine.seat_refusal(t.state, t.world(), "fate", {"use": "before"})
    assert why == ROLLED + " После броска — сдвиг Судьбой (±)."


def test_drevo_fate_before_from_the_form_writes_nothing_from_a_seat_one_line(tmp_path):
    """The GM's «f» on the form only marks the form (its point is paid at the roll); a
    player's request from a seat is one undo step with its Журнал line."""
    store = _store(tmp_path, "drevo")
    _with_fate(store, 2)
    t = table(store)
    on_form = drevo_steps.declare_fate(t.state, t.world(), True)
    assert on_form.ok and on_form.state.inputs.fate_auto and on_form.log == ()
    asked = drevo_steps.declare_fate(t.state, t.world(), True, written=True)
    assert asked.state.inputs.fate_auto
    assert [line.text for line in asked.log] == [
        "Судьба до броска: автоматический критический успех (очко — при броске)"
    ]


def test_drevo_stored_check_with_impossible_dice_is_damaged(tmp_path):
    """A stored rolled check is read back only when its dice make a result: Fudge dice of 5
    are a damaged document, said so in Russian; an unrolled one reads back as it was."""
    store = _store(tmp_path, "drevo")
    _with_fate(store, 1)
    t = table(store)
    ok(t, drevo_steps.roll)
    doc = t.state.to_doc()
    assert DrevoCheck.from_doc(doc) == t.state
    broken = {**doc, "rolled": {**doc["rolled"], "dice": [5, 5, 5, 5]}}
    with pytest.raises(RulesError, match="повреждена"):
        DrevoCheck.from_doc(broken)
    unrolled = {**doc, "rolled": None}
    assert DrevoCheck.from_doc(unrolled).rolled is None


# -- every system: the dice a step had before an undo --------------------------------------------


def test_earlier_dice_are_this_checks_undone_line_of_this_move_and_event_only():
    """A move made again after Ctrl+Z takes the dice of its own undone line: not a standing
    line, not another check's, another move's or another event's, not a line without a list."""
    wanted = {"check": "c1", "move": 2, "event": "reroll", DICE: [7]}
    decoys = [
        {**wanted, DICE: [1]},  # standing (not undone)
        {**wanted, "check": "c0", DICE: [2]},
        {**wanted, "move": 1, DICE: [3]},
        {**wanted, "event": "energy_after", DICE: [4]},
        {**wanted, DICE: "5"},
    ]
    journal = [_entry(n, data, undone=n != 0) for n, data in enumerate(decoys)] + [
        _entry(9, wanted, undone=True)
    ]
    world = World({}, journal=lambda _n: journal)
    assert earlier_dice(world, "c1", 2, "reroll") == [7]
    assert earlier_dice(world, "c1", 3, "reroll") is None


# -- IDE4, the rolled check ----------------------------------------------------------------------


def test_ide4_a_reroll_is_part_of_the_check_as_stored_and_offered_to_the_seat(tmp_path):
    """The failed lock-picking: its seat is offered rerolls at stage «rolled»; a reroll is
    kept as a move, and the check read back has its step."""
    store = _store(tmp_path, "ide4")
    t = _ide4_failed(store)
    offer = ide4_engine.offer(t.state, t.world())
    assert offer.stage == "rolled" and "reroll" in offer.kinds
    ok(t, ide4_steps.reroll, "food")
    kinds = [s.kind for s in t.view().check.steps]
    assert kinds.count("reroll") == 1
    assert ide4_engine.ide4_check(t.state).steps[-1].kind == "reroll"


def test_ide4_seat_energy_after_the_roll_spends_energy(tmp_path):
    """A player's «энергия после броска» from a seat is the energy move, not a demand for an
    expanded check."""
    store = _store(tmp_path, "ide4")
    t = _ide4_failed(store)
    made = ide4_engine.seat_step(t.state, t.world(), "energy", {"amount": 1})
    assert made.ok, made.refused
    assert [m.kind for m in made.state.rolled.moves] == ["energy_after"]


def test_ide4_repeat_last_takes_the_same_action_not_the_newest_check(tmp_path):
    """«the character's last check of the same kind»: Вера's newest roll was another action;
    the lock-picking before it is what comes back."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "mods", "+1 темнота")
    ok(t, ide4_steps.roll)
    ok(t, ide4_steps.new_check)
    ok(t, ide4_steps.set_input, "action", "Скрытность")
    ok(t, ide4_steps.set_input, "mods", "-2 ветер")
    ok(t, ide4_steps.roll)
    ok(t, ide4_steps.new_check)
    ok(t, ide4_steps.set_input, "action", "Взлом")
    ok(t, ide4_steps.set_input, "mods", "")
    ok(t, ide4_steps.repeat_last)
    assert (t.state.inputs.action, t.state.inputs.mods) == ("Взлом", "+1 темнота")


def test_ide4_moves_made_again_after_an_undo_take_their_kept_dice(tmp_path):
    """Energy after the roll and the sub-roll, made again after Ctrl+Z, take the dice their
    undone lines kept (scripted here: a 1 on the energy die, a 4 on the d6)."""
    store = _store(tmp_path, "ide4")
    t = _ide4_failed(store)
    state, world = t.state, t.world()

    def kept(event: str, dice: list[int]):
        line = _entry(1, {"check": state.id, "move": 1, "event": event, DICE: dice}, undone=True)
        return replace(world, journal=lambda _n: [line])

    energy = ide4_steps.energy_after(state, kept("energy_after", [1]), 1)
    assert energy.ok, energy.refused
    assert energy.state.rolled.moves[-1].dice == (1,)
    sub = ide4_steps.subroll(state, kept("subroll", [4]))
    assert sub.ok, sub.refused
    assert sub.state.rolled.moves[-1].dice == (4,)


def test_ide4_base_difficulties_offered_once_each_in_order():
    """The base difficulty stepper: [0] … [7] and [00], each value once, in the book's order."""
    assert [v for _, v in ide4_text.BASE_OPTIONS] == list(range(9))


def test_ide4_chance_words_at_the_ends():
    """«<1 %» and «>99 %» near the ends (never «0 %» or «100 %» for a chance that is not)."""
    assert ide4_text.chance(Fraction(995, 1000)) == ">99\u00a0%"
    assert ide4_text.chance(Fraction(5, 1000)) == "<1\u00a0%"
    assert ide4_text.chance(Fraction(1)) == "100\u00a0%"
    assert ide4_text.chance(Fraction(41, 100)) == "41\u00a0%"


def test_ide4_odds_words_never_hide_a_chance_to_do_better():
    """«исход не изменится» only when neither better nor worse can happen."""
    same = ide4.MoveOdds({}, Fraction(0), Fraction(0))
    better = ide4.MoveOdds({}, Fraction(1, 2), Fraction(0))
    assert ide4_view.odds_words(same) == "исход не изменится"
    assert ide4_view.odds_words(better) == "лучше 50\u00a0%, хуже 0\u00a0%"
    assert ide4_view.odds_words(ide4.MoveOdds({}, Fraction(1), Fraction(0))) == (
        "исход наверняка лучше"
    )


def test_ide4_rolled_check_lines_band_then_moves_at_their_indents(tmp_path):
    """The failed lock-picking: its record shows the bands it was rolled against; the moves
    read key by key at the left, what each is worth or why not indented under it; a reroll
    is written as «переброс — source: old → new»."""
    store = _store(tmp_path, "ide4")
    t = _ide4_failed(store)
    shown = t.view()
    assert any(line.startswith("[$text-muted]Полосы") for line in shown.result_lines())
    lines = shown.move_lines()
    assert lines[0] == (0, "[b]Что ещё можно[/b] (шанс исхода лучше / хуже), по порядку книги:")
    keys = [text.split("[/b]")[0] for indent, text in lines if indent == 0][1:]
    assert keys == ["[b]r", "[b]e", "[b]b", "[b]s", "[b]Enter"]
    assert all(text.startswith(("[b]", "[$text-muted]Право")) for i, text in lines[1:] if i == 0)
    assert all(not text.startswith("[b]") for i, text in lines if i == 1)
    assert any(text.startswith("[$error]✗[/]") for i, text in lines if i == 1)
    ok(t, ide4_steps.reroll, "food")
    entry = store.log(limit=1)[0]
    step = t.view().check.steps[-1]
    assert entry.text.endswith(f" · переброс — еда: 20 → {step.dice[0]}")


def test_ide4_an_automatic_success_has_no_bands_and_no_moves(tmp_path):
    """Base [0]: «автоматический успех» — no d100, so no bands to show and no move to make,
    only the reason and Enter."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "base", 0)
    ok(t, ide4_steps.roll)
    shown = t.view()
    assert shown.check.status == "auto"
    assert not any("Полосы" in line for line in shown.result_lines())
    lines = shown.move_lines()
    assert [i for i, _ in lines] == [0, 0] and lines[1] == (0, "Enter — итог проверки")
    assert "автоматический Успех без броска" in lines[0][1]


def test_ide4_an_action_chosen_brings_its_skill_and_base(tmp_path):
    """«the skill follows the action»: Вера choosing «Взлом» takes her Взлом skill and the
    action table's base difficulty."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    assert t.state.inputs.skill == "Взлом"
    assert t.state.inputs.base == ide4.action("Взлом").base


def test_starately_seat_requests_other_than_risk_are_refused(tmp_path):
    """Старатели's seats may ask for Риск only: any other request is «такой заявки нет»."""
    store = _store(tmp_path, "starately")
    t = table(store)
    for kind in ("fate", "energy", "shift", "zzz"):
        why = starately_engine.seat_refusal(t.state, t.world(), kind, {})
        assert why == "В этой проверке такой заявки нет.", kind


def test_wod_a_plain_roll_shows_its_pool_not_an_extended_action(tmp_path):
    store = _store(tmp_path, "wod")
    t = table(store)
    ok(t, wod_steps.roll)
    lines = t.view().result_lines()
    assert lines[0].startswith("[b]") and "d10" in lines[0]
    assert not any("Продолжительное" in line for line in lines)


def test_starately_a_bane_rolls_three_dice_and_says_so(tmp_path):
    """Сид: −d6 — three dice, the highest not counted: the form and the record say «3d6 (−d6)»
    for a bane, «3d6 (+d6)» for a boon."""
    store = _store(tmp_path, "starately")
    t = table(store)
    ok(t, starately_steps.set_input, "banes", 1)
    ok(t, starately_steps.roll)
    assert "3d6 (−d6)" in t.view().result_lines()[0]
    t = table(store)
    ok(t, starately_steps.new_check)
    ok(t, starately_steps.set_input, "banes", 0)
    ok(t, starately_steps.set_input, "boons", 1)
    ok(t, starately_steps.roll)
    assert "3d6 (+d6)" in t.view().result_lines()[0]


def test_starately_the_last_opponent_is_sought_500_lines_back(tmp_path):
    """The opposed dialog starts on the last opponent found in the Журнал's newest 500 lines:
    a roll further back is not looked at."""
    first, second = _store(tmp_path, "starately").characters()[:2]
    a, b = replace(first, id="a"), replace(second, id="b")
    opposed = _entry(0, {"event": "opposed", "form": {"character": "a"}, "opponent": "b"})
    notes = [_entry(n, {"text": "заметка"}) for n in range(1, 500)]
    world = World({"a": a, "b": b}, journal=lambda n: (notes + [opposed])[:n])
    assert starately_steps.last_opponent(world, "a") == "b"
    world = World({"a": a, "b": b}, journal=lambda n: ([*notes, notes[0], opposed])[:n])
    assert starately_steps.last_opponent(world, "a") is None


def test_starately_a_chain_is_written_under_the_main_rollers_name(tmp_path):
    """A task chain's Журнал line is the main roller's (the «Кто» column)."""
    store = _store(tmp_path, "starately")
    t = table(store)
    main, other = store.characters()[:2]
    ok(t, starately_steps.set_input, "character", main.id)
    helper = starately_text.side_for(other, next(iter(other.qualities)), "")
    outcome = ok(t, starately_steps.chain, helper, other.id)
    assert [line.actor for line in outcome.log] == [main.name]


def test_wod_again_options_are_the_rules_three_and_none():
    """Сид: 10-снова (default), 9-снова, 8-снова, or none."""
    assert [v for _, v in wod_text.AGAIN_OPTIONS] == [10, 9, 8, None]


def test_wod_rolls_are_written_with_their_pool_and_their_number(tmp_path):
    """A pool's line says how many d10 were rolled; an extended action's rolls are numbered
    from 1, each kept as that move (so an undone one comes back with its own dice)."""
    store = _store(tmp_path, "wod")
    t = table(store)
    outcome = ok(t, wod_steps.roll)
    size = t.state.rolled.throws[0].pool.size
    assert f", {size}d10: " in outcome.log[0].text
    ok(t, wod_steps.new_check)
    ok(t, wod_steps.start_extended, 30)
    first = ok(t, wod_steps.roll)
    assert first.log[0].text.startswith("Продолжительное, бросок 1: ")
    assert first.log[0].data["move"] == 1
    second = ok(t, wod_steps.roll)
    assert second.log[0].text.startswith("Продолжительное, бросок 2: ")


def test_starately_notes_say_what_natural_12_and_2_do(tmp_path):
    """Сид: natural 12 — success, natural 2 — failure, whatever the total: for an ordinary
    check (bonus +3 against 8+) both are named, each 1 in 36."""
    store = _store(tmp_path, "starately")
    t = table(store)
    shown = t.view()
    assert (shown.check.side.bonus, shown.check.difficulty) == (3, 8)
    assert shown.notes().startswith("Нат. 12 → успех, нат. 2 → провал: 2,8% / 2,8%\n")


def test_starately_effect_rows_colour_every_margin_by_success_or_failure(tmp_path):
    """The odds table's rows: an Effect of 0 or more is a success, below 0 a failure — but a
    natural 12 succeeds and a natural 2 fails whatever the Effect (bonus +3 against 8+)."""
    store = _store(tmp_path, "starately")
    t = table(store)
    shown = t.view()
    check = shown.check
    good, bad = starately_text.OUTCOME_STYLE["success"], starately_text.OUTCOME_STYLE["failure"]
    rows = shown.effect_rows()
    assert rows
    for effect_text, _p, style in rows:
        effect = int(effect_text.replace("−", "-"))
        natural = effect + check.difficulty - check.side.bonus
        expected = natural == 12 or (natural != 2 and effect >= 0)
        assert style == (good if expected else bad), effect_text
    assert any(int(e.replace("−", "-")) > 0 for e, _, _ in rows)


def test_ide4_the_hidden_risk_row_opens_only_at_a_base_of_0_or_less(tmp_path):
    """The «скрытый риск» choice belongs to an automatic success ([0] and below): shown at
    base 0, not at base 3."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "base", 3)
    assert t.view().difficulty.raw > 0 and not t.view().rows["hidden"].shown
    ok(t, ide4_steps.set_input, "base", 0)
    assert t.view().difficulty.raw <= 0 and t.view().rows["hidden"].shown


def test_ide4_the_energy_die_is_recorded_only_when_smaller_than_the_nominal(tmp_path):
    """The check's input keeps an energy die only when the GM chose one smaller than the
    nominal in an expanded check (0: the nominal; a quick or standard check has none)."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    nominal = t.view().input.nominal
    assert t.view().input.energy_die == 0
    smaller = max(v for _, v in t.view().rows["die"].options if v < nominal)
    ok(t, ide4_steps.set_input, "die", smaller)
    assert t.view().input.energy_die == smaller
    ok(t, ide4_steps.set_input, "level", "standard")
    assert t.view().input.energy_die == 0


def test_ide4_a_player_who_always_demands_expanded_is_warned_of_only_below_it(tmp_path):
    store = _store(tmp_path, "ide4")
    vera = next(c for c in store.characters() if c.name == "Вера Стрижова")
    store.upsert_character(replace(vera, extra={**vera.extra, "always_expanded": True}))
    t = _ide4_form(store)
    warning = "проверка, а игрок всегда требует развёрнутую (p)."
    assert not any(warning in line for line in t.view().status_lines())
    ok(t, ide4_steps.set_input, "level", "standard")
    assert any(warning in line for line in t.view().status_lines())


def test_ide4_only_an_impossible_base_asks_for_the_reason(tmp_path):
    """[00] «невозможно»: the GM says why and names another way; an ordinary check has no
    such rows."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "base", 3)
    assert not t.view().texts["reason"] and not t.view().texts["alternative"]
    ok(t, ide4_steps.set_input, "base", 8)
    assert t.view().texts["reason"] and t.view().texts["alternative"]


def test_starately_a_tie_names_the_rule_that_broke_it(tmp_path):
    """Сид: a tie of a встречный бросок goes to the initiator, else to the player character;
    the Журнал line says which."""
    store = _store(tmp_path, "starately")
    c = store.characters()[0]
    a = replace(starately_text.side_for(c, next(iter(c.qualities)), ""), pc=True)
    b = replace(a, name="Противник", pc=False)
    by_initiator = starately.resolve_opposed(starately.Opposed(a, b, "b"), [3, 4], [3, 4])
    by_pc = starately.resolve_opposed(starately.Opposed(a, b, None), [3, 4], [3, 4])
    assert by_initiator.tie and by_pc.tie
    assert starately_text.opposed_summary(by_initiator).endswith(" (ничья: инициатору)")
    assert starately_text.opposed_summary(by_pc).endswith(" (ничья: игроку)")


def test_wod_an_extended_roll_needs_an_extended_action(tmp_path):
    """After a contest (or a plain roll), «next roll of the extended action» is refused."""
    store = _store(tmp_path, "wod")
    t = table(store)
    ok(t, wod_steps.contest, wod.Pool(3, 2, name="Противник", attribute_name="Сила"))
    made = wod_steps.extend(t.state, t.world())
    assert made.refused == "Продолжительного действия нет: e — начать."


def test_starately_the_character_row_tells_players_from_npcs(tmp_path):
    store = _store(tmp_path, "starately")
    t = table(store)
    labels = dict((cid, label) for label, cid in t.view().rows["character"].options)
    for c in store.characters():
        assert labels[c.id] == f"{c.name} ({'игрок' if c.kind == 'pc' else 'НИП'})"
    assert {c.kind for c in store.characters()} >= {"pc", "npc"}


def test_ide4_without_a_skill_the_mastery_is_0(tmp_path):
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    assert t.view().input.mastery > 0  # Взлом 65
    ok(t, ide4_steps.set_input, "skill", "")
    assert t.view().input.skill == "" and t.view().input.mastery == 0


def test_ide4_a_risk_shared_with_an_ally_keeps_its_note(tmp_path):
    """Help «передать союзнику часть риска» keeps what the GM wrote of it; other help none."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "helpnote", "Гриша держит фонарь")
    ok(t, ide4_steps.set_input, "help", "risk")
    assert t.view().input.help_note == "Гриша держит фонарь"
    ok(t, ide4_steps.set_input, "help", "difficulty")
    assert t.view().input.help_note == ""


def test_ide4_the_energy_rows_follow_the_checks_own_nominal_even_without_attributes(tmp_path):
    """A sheet without attributes (level 3 assumed, as the check assumes it): the die row
    offers the check's own nominal die first, and a sheet without «energy» has a full pool."""
    store = _store(tmp_path, "ide4")
    vera = next(c for c in store.characters() if c.name == "Вера Стрижова")
    extra = {k: v for k, v in vera.extra.items() if k != "energy"}
    store.upsert_character(replace(vera, qualities={}, extra=extra))
    shown = _ide4_form(store).view()
    assert shown.input.attribute_level == 3
    assert shown.rows["die"].value == shown.input.nominal == ide4.energy_rules().nominal(3)
    assert shown.input.energy_pool == ide4.energy_rules().pool_max


def test_wod_a_skill_the_character_lost_is_said(tmp_path):
    """The form's skill is gone from the sheet (another window): «Навыка … больше нет»."""
    store = _store(tmp_path, "wod")
    t = table(store)
    c = t.view().character
    ok(t, wod_steps.set_input, "skill", "Фехтование на шпагах")
    assert f"Навыка «Фехтование на шпагах» больше нет у {c.name} — без навыка." in (
        t.view().changes
    )


def test_ide4_energy_the_pool_no_longer_pays_is_said_and_dropped(tmp_path):
    """Energy before the roll set, then the sheet's pool falls below it (another window): the
    form says what the dice cost, what the pool holds, that the check goes ahead without them
    and what to do (it read «2×d6 не по запасу Вера Стрижова (1) — нет.»)."""
    store = _store(tmp_path, "ide4")
    t = _ide4_form(store)
    ok(t, ide4_steps.set_input, "energy", 2)
    assert t.view().input.energy_dice == 2 and not t.view().changes
    vera = store.character(t.state.inputs.character)
    store.upsert_character(replace(vera, extra={**vera.extra, "energy": 1}))
    shown = t.view()
    assert shown.input.energy_dice == 0
    (said,) = [line for line in shown.changes if line.startswith("Энергия до броска: 2×d")]
    die = t.view().rows["die"].value
    assert said == (
        f"Энергия до броска: 2×d{die} стоят {2 * die}, в запасе 1 ({vera.name}) — проверка "
        "пойдёт без неё; выберите в строке «Энергия до» меньше кубов."
    ), said


def test_starately_only_an_automatic_result_gets_its_note(tmp_path):
    """Сид: natural 12 — success, natural 2 — failure, whatever the total: such a roll's
    record says so on a line of its own; an ordinary roll has none."""
    store = _store(tmp_path, "starately")
    check = table(store).view().check
    plain_roll = starately.resolve(check, [3, 4])
    twelve = starately.resolve(check, [6, 6])
    assert not plain_roll.auto and twelve.auto
    assert len(starately_text.result_lines(plain_roll)) == 3
    lines = starately_text.result_lines(twelve)
    assert len(lines) == 4 and "12" in lines[3]


def test_starately_a_form_saved_without_a_difficulty_reads_as_a_fresh_one():
    assert StaratelyInputs.from_dict({"character": "a"}) == StaratelyInputs(character="a")


def test_a_stored_check_of_another_system_is_left_alone(tmp_path):
    """The campaign's stored check is another system's (a file from elsewhere): the open
    check is a new form of this one, with no word of damage."""
    store = _store(tmp_path, "drevo")
    other = table(_store(tmp_path / "other", "ide4"))
    ok(other, ide4_steps.set_input, "level", "expanded")
    ok(other, ide4_steps.roll)
    store.put_doc("check", other.state.to_doc(), label="тест: проверка IDE4")
    t = table(store)
    assert t.notices == [] and t.state.rolled is None
