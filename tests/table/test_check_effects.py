"""An effect's modifier in the open check of each system, through the engine alone: the check
has it among its modifiers, named with its reason, and the builder's odds line says the chance
without and with it — both figures equal an exact count, not the rules' own odds. (What the
builders draw is the view's text: «с эффектом …» on screen, tests/tui/test_rounds.py.)"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool

from rules import ide4
from rules.effects import EffectSet, EffectSpec, Now
from tests.table.check_helpers import ok, percent, table
from tui.bridge.effects import EFFECTS_DOC
from tui.store import Store
from tui.systems.ide4.check import steps as ide4_steps
from tui.systems.starately.check import steps as starately_steps
from tui.systems.wod.check import steps as wod_steps


def put_effect(store: Store, name: str, spec: EffectSpec) -> None:
    """Add an effect on ``name`` ("": the scene) through the store, as the pane does."""
    c = next(c for c in store.characters() if c.name == name) if name else None
    spec = EffectSpec(**{**vars(spec), "target": c.id if c else ""})
    effects, _ = EffectSet.from_dict(store.get_doc(EFFECTS_DOC)).add(spec, Now())
    store.put_doc(EFFECTS_DOC, effects.to_dict(), label="test effect")


def opened(tmp_path, system: str, name: str, steps):
    """The open check of ``system`` on ``name``, as the builder's character row chooses."""
    store = Store.open(tmp_path / "c.json", system=system)
    t = table(store)
    ok(t, steps.set_input, "character", next(c.id for c in store.characters() if c.name == name))
    return store, t


def brute_starately(bonus: int, difficulty: int) -> Fraction:
    """Enumerate 2d6: a natural 12 succeeds, a natural 2 fails, else total ≥ difficulty."""
    wins = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        natural = a + b
        wins += natural == 12 or (natural != 2 and natural + bonus >= difficulty)
    return Fraction(wins, 36)


def wod_any_success(dice: int) -> Fraction:
    """The first throw of a pool: a success needs one die ≥ 8 (rerolls only add), counted
    exactly by icepool (the tests' independent oracle), not by rules.wod."""
    return Fraction((dice @ (icepool.d10 >= 8)).probability(">=", 1))


def test_starately_odds_with_an_effect_equal_brute_force(tmp_path):
    """«the builder's odds include every active modifier, and the line shows «с эффектом
    «Оглушён −1»: 38 % → 27 %»» — both percentages equal a 2d6 enumeration."""
    store, t = opened(tmp_path, "starately", "Хаим", starately_steps)
    put_effect(store, "Хаим", EffectSpec("Оглушён", modifier=-1))
    shown = t.view()
    check = shown.check
    assert check.side.name == "Хаим"
    assert ("эффект «Оглушён»", -1) in [(m.reason, m.value) for m in check.side.modifiers]
    after = brute_starately(check.side.bonus, check.difficulty)
    before = brute_starately(check.side.bonus + 1, check.difficulty)
    assert before != after
    assert f"с эффектом «Оглушён −1»: {percent(before)} → {percent(after)}" in shown.notes()


def test_wod_odds_with_an_effect_equal_an_exact_count(tmp_path):
    """Мир Тьмы: an effect's −1 is one die fewer; the chance of a success equals the count."""
    store, t = opened(tmp_path, "wod", "Вера Соколова", wod_steps)
    put_effect(store, "Вера Соколова", EffectSpec("Оглушён", modifier=-1))
    put_effect(store, "", EffectSpec("Темнота", modifier=-1))
    shown = t.view()
    pool = shown.pool
    assert pool.name == "Вера Соколова" and 2 <= pool.size <= 5
    before, after = wod_any_success(pool.size + 2), wod_any_success(pool.size)
    line = f"с эффектами «Оглушён −1», «Темнота −1»: {percent(before)} → {percent(after)}"
    assert line in shown.notes()


def test_ide4_effect_is_a_step_of_difficulty(tmp_path):
    """IDE4: an effect's −1 to checks is one step of difficulty harder, named with its reason;
    the status shows the chance of Успех or better without and with it."""
    store, t = opened(tmp_path, "ide4", "Вера Стрижова", ide4_steps)
    put_effect(store, "Вера Стрижова", EffectSpec("Оглушён", modifier=-1))
    shown = t.view()
    inp = shown.input
    assert ("эффект «Оглушён»", 1) in [(m.reason, m.value) for m in inp.modifiers]
    final = ide4.resolve_difficulty(inp).final
    with_it = ide4.outcome_odds(final, 0, 0)
    without = ide4.outcome_odds(final - 1, 0, 0)
    p = [percent(o["triumph"] + o["success"]) for o in (without, with_it)]
    assert f"с эффектом «Оглушён −1»: {p[0]} → {p[1]}" in "\n".join(shown.status_lines())
