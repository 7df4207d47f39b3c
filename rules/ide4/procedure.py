"""The IDE4™ procedure, move by move: each function takes a ``Check`` and returns a new one.

Dice come from ``rng`` or, for dice rolled on the table, from explicit values. A move the rules
forbid raises ``RulesError`` with the sentence ``rules.ide4.moves`` gives for it.

Order [seed]: energy before → d100 → ordinary rerolls → Арбитриум/Фатум → energy after →
mastery bonuses → sub-roll → meaning → consequences.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from rules.errors import RulesError
from rules.ide4.model import LEVEL_NAMES, LEVELS, CheckInput, validate
from rules.ide4.moves import (
    SOFTEN_STEP,
    bonus_refusal,
    energy_after_futile,
    energy_after_refusal,
    reroll_refusal,
    roll_refusal,
    subroll_refusal,
)
from rules.ide4.state import LATE_SOURCES, Check, Step
from rules.ide4.tables import SUBROLL_DIE, band_for


def _dice(
    rng: random.Random | None, given: Sequence[int] | None, count: int, sides: int, what: str
) -> tuple[int, ...]:
    """Roll ``count`` dice with ``rng``, or validate the values rolled on the table."""
    if given is None and count == 0:
        return ()
    if given is None:
        if rng is None:
            raise RulesError(f"{what}: нужен генератор случайных чисел или выпавшие значения.")
        return tuple(rng.randint(1, sides) for _ in range(count))
    values = tuple(given)
    if len(values) != count:
        raise RulesError(f"{what}: нужно {count} знач., а передано {len(values)}.")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RulesError(f"{what}: на d{sides} бывает от 1 до {sides}, а не {value!r}.")
    return values


def _refuse(refusal: str | None) -> None:
    if refusal is not None:
        raise RulesError(refusal)


def _classified(check: Check) -> str:
    """The outcome the dice give now (natural for Трагедия/Триумф, total for the rest)."""
    assert check.natural is not None and check.total is not None
    return band_for(check.difficulty.final).classify(check.natural, check.total)


#: Steps only the expanded check walks: taking one on a quick or standard check raises the
#: check to expanded, and the record says so.
EXPANDED_STEPS = {
    "reroll": "перебросы",
    "energy_after": "энергия после броска",
    "bonus": "бонусы мастерства",
    "subroll": "подбросок",
}


def _expanded_for(check: Check, move: str) -> Check:
    """Raise a quick or standard check to expanded before an expanded-only move, recorded."""
    if check.level == "expanded":
        return check
    why = f"шаг «{EXPANDED_STEPS[move]}» есть только в развёрнутой проверке"
    return set_level(check, "expanded", why)


def start(inp: CheckInput) -> Check:
    """Validate the inputs and open a check.

    Args:
        inp: the inputs, energy before the roll included.

    Returns:
        A check waiting for the d100 (``status == "ready"``), or a finished one: [0] is an
        automatic Успех, [00] has no roll and no outcome.

    Raises:
        RulesError: a rule forbids the inputs ([00] without a reason, energy beyond the nominal
            or the pool, a combat skill at a distance it does not list, …).
    """
    difficulty = validate(inp)
    kind = difficulty.kind
    if kind == "auto":
        step = Step("auto", outcome="success", pool=inp.energy_pool)
        return Check(inp, difficulty, "auto", outcome="success", steps=(step,))
    if kind == "impossible":
        step = Step("impossible", pool=inp.energy_pool)
        return Check(inp, difficulty, "impossible", steps=(step,))
    return Check(inp, difficulty, "ready")


def roll(
    check: Check,
    rng: random.Random | None = None,
    *,
    natural: int | None = None,
    energy: Sequence[int] | None = None,
) -> Check:
    """Spend the declared energy, roll its dice, then the d100, and classify.

    Args:
        check: a check waiting for the d100.
        rng: the session's random source (unused for values given explicitly).
        natural: the d100 rolled on the table; energy: the energy dice rolled on the table.

    Raises:
        RulesError: the check has no roll ([0], [00]) or is already rolled; bad dice values.
    """
    _refuse(roll_refusal(check))
    inp = check.input
    die, count = inp.before_die, inp.energy_dice
    before = _dice(rng, energy, count, die, "Энергия до броска")
    steps = list(check.steps)
    pool = inp.energy_pool
    if count:
        pool -= count * die
        steps.append(
            Step("energy_before", dice=before, die=die, energy_spent=count * die, pool=pool)
        )
    d100 = _dice(rng, None if natural is None else (natural,), 1, 100, "d100")
    rolled = replace(check, status="rolled", natural=d100[0], before_dice=before)
    outcome = _classified(rolled)
    steps.append(Step("d100", dice=d100, die=100, outcome=outcome, total=rolled.total, pool=pool))
    return replace(rolled, outcome=outcome, steps=tuple(steps))


def reroll(
    check: Check, source: str, rng: random.Random | None = None, *, natural: int | None = None
) -> Check:
    """Replace the natural d100 with a new one; the energy-before sum stays.

    Args:
        check: a rolled check.
        source: one of ``REROLL_SOURCES`` (``"skill"`` is a mastery bonus).
        rng: the random source; natural: the new d100 rolled on the table.

    Raises:
        RulesError: the caps (two from skills, all together the campaign's cap) or the order
            (ordinary → Арбитриум/Фатум → energy after → bonuses) forbid it.
    """
    _refuse(reroll_refusal(check, source))
    check = _expanded_for(check, "reroll")
    new = _dice(rng, None if natural is None else (natural,), 1, 100, "Переброс d100")[0]
    rerolled = replace(check, natural=new, rerolls=(*check.rerolls, source))
    outcome = _classified(rerolled)
    step = Step(
        "reroll",
        source=source,
        dice=(new,),
        die=100,
        replaced=check.natural,
        outcome_before=check.outcome,
        outcome=outcome,
        total=rerolled.total,
        pool=check.pool_after,
    )
    return replace(rerolled, outcome=outcome, steps=(*check.steps, step))


def energy_after(
    check: Check,
    count: int,
    die: int = 0,
    rng: random.Random | None = None,
    *,
    dice: Sequence[int] | None = None,
) -> Check:
    """Spend ``count`` energy dice after the roll and recompute the outcome.

    Args:
        check: a rolled check.
        count: 1…3 dice; die: their size, at most the nominal (0: the nominal).
        rng: the random source; dice: the values rolled on the table.

    Raises:
        RulesError: the outcome is Трагедия or Триумф, too many dice, a die above the nominal,
            not enough energy, or a step out of order.
    """
    _refuse(energy_after_refusal(check, count, die))
    check = _expanded_for(check, "energy_after")
    size = die or check.input.nominal
    after = _dice(rng, dice, count, size, "Энергия после броска")
    spent = replace(check, after_dice=after, after_die=size)
    outcome = _classified(spent)
    step = Step(
        "energy_after",
        dice=after,
        die=size,
        outcome_before=check.outcome,
        outcome=outcome,
        total=spent.total,
        energy_spent=count * size,
        pool=check.pool_after - count * size,
    )
    return replace(spent, outcome=outcome, steps=(*check.steps, step))


def bonus(
    check: Check, kind: str, rng: random.Random | None = None, *, natural: int | None = None
) -> Check:
    """Apply a mastery bonus.

    Args:
        check: a rolled check.
        kind: ``"soften"`` (Трагедия → Провал or Провал → Средне), ``"triumph"`` (Успех →
            Триумф, once per game day), ``"technique"`` (the declared named technique; the
            outcome stays, its effect is the technique's text) or ``"reroll"`` (a skill reroll,
            the same as ``reroll(check, "skill")``).
        rng, natural: for ``"reroll"`` only.

    Raises:
        RulesError: no skill, not unlocked, against [7] or [00], a cap reached, or an outcome
            the bonus cannot change.
    """
    if kind == "reroll":
        return reroll(check, "skill", rng, natural=natural)
    _refuse(bonus_refusal(check, kind))
    check = _expanded_for(check, "bonus")
    outcome = check.outcome
    if kind == "soften":
        outcome = SOFTEN_STEP[outcome or ""]
    elif kind == "triumph":
        outcome = "triumph"
    step = Step(
        "bonus",
        source=kind,
        outcome_before=check.outcome,
        outcome=outcome,
        total=check.total,
        pool=check.pool_after,
    )
    return replace(
        check, outcome=outcome, bonuses=(*check.bonuses, kind), steps=(*check.steps, step)
    )


def subroll(check: Check, rng: random.Random | None = None, *, value: int | None = None) -> Check:
    """Roll the sub-roll d6: it sets the consequence's strength, never the outcome.

    Raises:
        RulesError: no d100 was rolled, or the sub-roll is already made.
    """
    _refuse(subroll_refusal(check))
    check = _expanded_for(check, "subroll")
    die = _dice(rng, None if value is None else (value,), 1, SUBROLL_DIE, "Подбросок")
    step = Step(
        "subroll",
        dice=die,
        die=SUBROLL_DIE,
        outcome_before=check.outcome,
        outcome=check.outcome,
        total=check.total,
        pool=check.pool_after,
    )
    return replace(check, subroll_value=die[0], steps=(*check.steps, step))


def conclude(check: Check, meaning: str = "", consequence: str = "") -> Check:
    """Record the meaning of the outcome and its consequences in the scene (steps 13–14)."""
    return replace(check, meaning=meaning.strip(), consequence=consequence.strip())


def set_level(check: Check, level: str, why: str = "") -> Check:
    """Switch the level of detail at any time (the expanded one is always reachable).

    A change of the level a check shows is recorded as a ``"level"`` step, never silent.

    Args:
        check: the check.
        level: ``"quick"``, ``"standard"`` or ``"expanded"``.
        why: the reason to record (the player's demand, a step only the expanded check has).

    Raises:
        RulesError: an unknown level.
    """
    if level not in LEVELS:
        raise RulesError(f"Уровень проверки — одно из: {', '.join(LEVELS)}.")
    before = check.level
    changed = replace(check, input=replace(check.input, level=level))
    if changed.level == before:
        return changed
    note = f"{LEVEL_NAMES[before]} → {LEVEL_NAMES[changed.level]}" + (f": {why}" if why else "")
    step = Step(
        "level",
        source=changed.level,
        outcome_before=check.outcome,
        outcome=check.outcome,
        total=check.total,
        pool=check.pool_after,
        note=note,
    )
    return replace(changed, steps=(*check.steps, step))


def play(
    inp: CheckInput,
    rng: random.Random,
    *,
    rerolls: Sequence[str] = (),
    energy_after_dice: int = 0,
    energy_after_die: int = 0,
    bonuses: Sequence[str] = (),
    with_subroll: bool = False,
    notes: list[str] | None = None,
) -> Check:
    """Run a whole check with the moves put in the seed's order (the CLI's ``check``).

    Ordinary rerolls (and skill ``reroll`` bonuses) in the order given, then Арбитриум/Фатум,
    then energy after, then the other bonuses, then the sub-roll. No move is dropped: one the
    rules forbid raises. A move that cannot change the outcome (energy after on Успех) is said
    in ``notes`` before it spends anything.

    Raises:
        RulesError: the first move the rules forbid, with the rule named.
    """
    check = start(inp)
    if check.status == "ready":
        check = roll(check, rng)
    skill_bonuses = ["skill" for kind in bonuses if kind == "reroll"]
    ordinary = [s for s in rerolls if s not in LATE_SOURCES] + skill_bonuses
    for source in [*ordinary, *(s for s in rerolls if s in LATE_SOURCES)]:
        check = reroll(check, source, rng)
    if energy_after_dice:
        futile = energy_after_futile(check, energy_after_dice, energy_after_die)
        if futile and notes is not None:
            notes.append(futile)
        check = energy_after(check, energy_after_dice, energy_after_die, rng)
    for kind in bonuses:
        if kind != "reroll":
            check = bonus(check, kind, rng)
    if with_subroll:
        check = subroll(check, rng)
    return check
