"""Exact odds of every system's builder states, against icepool computing the same distributions.

For each state kubik's odds function runs three ways and icepool once:

* **cold**: every ``functools`` cache of ``rules/**/odds.py`` (and ``rules/odds.py``) cleared
  just before the call — what the first look at a state costs. Table loaders (TOML) stay warm:
  they are read once per session, not per state;
* **warm**: the same call again (the builder redrawing a state it has shown);
* **icepool**: the distribution built from icepool dice (``4 @ dF``, ``d6.highest(3, 2)``,
  exploding d10 success chains, ``d100`` + ``k @ dN``), mapped to the outcome by the rule.

Every outcome's chance is compared as a ``Fraction``: they must be identical, state by state.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import icepool

import rules
from rules import drevo, starately, wod
from rules.ide4 import odds as ide4_odds
from rules.ide4.tables import band_for, energy_rules

# Noise (another process, a GC pass) only ever adds time, so each figure is the least of
# several tries: cold, of COLD_REPEATS (clear, call) pairs; warm, of WARM_BLOCKS blocks' means.
COLD_REPEATS = 5
WARM_REPEATS = 20
WARM_BLOCKS = 3


def odds_caches() -> list[Any]:
    """Every ``functools`` cache of the odds modules (``rules.odds``, ``rules.*.odds``)."""
    caches = []
    for info in pkgutil.walk_packages(rules.__path__, "rules."):
        if info.name.split(".")[-1] != "odds":
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and (
                getattr(value, "__module__", None) == module.__name__
            ):
                caches.append(value)
    return caches


CACHES = odds_caches()


def clear_caches() -> None:
    for cached in CACHES:
        cached.cache_clear()


@dataclass
class State:
    """One builder state: a label, kubik's odds, and icepool's odds (``{key: Fraction}``)."""

    label: str
    kubik: Callable[[], dict[str, Fraction]]
    icepool: Callable[[], dict[str, Fraction]]


# -- Древо ---------------------------------------------------------------------------------------

FUDGE = icepool.Die([-1, 0, 1])


def _drevo_side(trait: int, mod: int) -> drevo.Side:
    modifiers = (drevo.Modifier(mod, "модификатор"),) if mod else ()
    return drevo.Side(trait=trait, modifiers=modifiers)


def _crit(dice_sum: int) -> int:
    return 1 if dice_sum == 4 else -1 if dice_sum == -4 else 0


def drevo_one_sided_icepool(bonus: int, difficulty: int) -> dict[str, Fraction]:
    def outcome(s: int) -> str:
        crit = _crit(s)
        if crit:
            return "crit_success" if crit > 0 else "crit_failure"
        return "success" if s + bonus >= difficulty else "failure"

    die = (4 @ FUDGE).map(outcome)
    return {key: die.probability(key) for key in drevo.OUTCOMES}


def drevo_opposed_icepool(diff: int) -> dict[str, Fraction]:
    def outcome(a: int, b: int) -> str:
        crit_a, crit_b = _crit(a), _crit(b)
        if crit_a == crit_b:
            crit_a = crit_b = 0
        key_a, key_b = (crit_a, a + diff), (crit_b, b)
        return "win" if key_a > key_b else "lose" if key_a < key_b else "tie"

    die = icepool.map(outcome, 4 @ FUDGE, 4 @ FUDGE)
    return {key: die.probability(key) for key in drevo.OPPOSED_OUTCOMES}


def drevo_states() -> Iterator[tuple[str, State]]:
    difficulties = [rung.value for rung in drevo.ladder()]
    for trait in range(-1, 6):
        for mod in range(-3, 4):
            for difficulty in difficulties:
                check = drevo.OneSidedCheck(_drevo_side(trait, mod), difficulty)
                yield (
                    "Древо, одна сторона",
                    State(
                        f"trait {trait} mod {mod:+d} vs {difficulty}",
                        lambda c=check: drevo.one_sided_odds(c),
                        lambda b=trait + mod, d=difficulty: drevo_one_sided_icepool(b, d),
                    ),
                )
    for trait_a in range(0, 6):
        for mod_a in range(-2, 3):
            for trait_b in range(0, 6):
                check = drevo.OpposedCheck(_drevo_side(trait_a, mod_a), _drevo_side(trait_b, 0))
                yield (
                    "Древо, встречная",
                    State(
                        f"{trait_a}{mod_a:+d} vs {trait_b}",
                        lambda c=check: drevo.opposed_odds(c),
                        lambda d=trait_a + mod_a - trait_b: drevo_opposed_icepool(d),
                    ),
                )


# -- Старатели -----------------------------------------------------------------------------------


def starately_icepool(net: int, bonus: int, difficulty: int) -> dict[str, Any]:
    table = starately.tables.settings()
    d6 = icepool.d6
    natural = d6.highest(3, 2) if net > 0 else d6.lowest(3, 2) if net < 0 else 2 @ d6

    def outcome(n: int) -> str:
        if n == table.natural_success:
            return "success"
        if n == table.natural_failure:
            return "failure"
        return "success" if n + bonus >= difficulty else "failure"

    outcomes = natural.map(outcome)
    effect = natural + (bonus - difficulty)
    return {
        "success": outcomes.probability("success"),
        "failure": outcomes.probability("failure"),
        "natural_success": natural.probability(table.natural_success),
        "natural_failure": natural.probability(table.natural_failure),
        **{f"effect {e:+d}": effect.probability(e) for e in effect.outcomes()},
    }


def starately_kubik(check: starately.Check) -> dict[str, Any]:
    odds = starately.check_odds(check)
    return {
        **odds.outcomes,
        "natural_success": odds.natural_success,
        "natural_failure": odds.natural_failure,
        **{f"effect {e:+d}": p for e, p in odds.effect.items()},
    }


def starately_states() -> Iterator[tuple[str, State]]:
    for value in (4, 7, 10, 13):  # DM −1, 0, +1, +2
        for skill in (None, 0, 1, 2, 3):
            for boons in range(3):
                for banes in range(3):
                    for difficulty in (6, 8, 10, 12):
                        side = starately.Side.of(value, skill, boons=boons, banes=banes)
                        check = starately.Check(side, difficulty)
                        yield (
                            "Старатели 2d6",
                            State(
                                f"{value}/{skill} +{boons}d6 -{banes}d6 vs {difficulty}",
                                lambda c=check: starately_kubik(c),
                                lambda s=side, d=difficulty: starately_icepool(
                                    s.net_dice, s.bonus, d
                                ),
                            ),
                        )


# -- Мир Тьмы ------------------------------------------------------------------------------------


def wod_icepool(pool: wod.Pool) -> dict[str, Fraction]:
    """Successes of one d10 as an icepool die, then ``size @`` it.

    A roll is encoded as 0 (fail), 1 (success) or 100 (success that explodes); the exploded
    chain's sum ``100·n + last`` decodes to ``n + last`` successes. The chain is followed
    ``exceptional`` rolls deep, so every event below an exceptional success is exact and the
    exceptional chance is exact as the rest.
    """
    threshold, again, depth = pool.success_threshold, pool.again, pool.exceptional
    boom = 0 if again is None else 11 - again
    roll = icepool.Die({0: threshold - 1, 1: 11 - threshold - boom, 100: boom})
    chain = roll.explode([100], depth=depth)
    if pool.rote:
        chain = roll.map(lambda f: chain if f == 0 else f if f == 1 else 100 + chain)
    successes = pool.size @ chain.map(lambda t: t // 100 + t % 100)
    low = [successes.probability(k) for k in range(pool.exceptional)]
    return {
        "exceptional_success": 1 - sum(low, Fraction(0)),
        "success": sum(low[1:], Fraction(0)),
        "failure": low[0],
        "dramatic_failure": Fraction(0),
        **{f"{k} успех.": low[k] for k in range(pool.exceptional)},
    }


def wod_kubik(pool: wod.Pool) -> dict[str, Fraction]:
    """What the builder shows: the four outcomes and the chance of each count below the
    exceptional threshold (``low``); the whole distribution (CLI only) is not built."""
    odds = wod.pool_odds(pool)
    return {
        **odds.outcomes,
        **{f"{k} успех.": odds.low[k] for k in range(pool.exceptional)},
    }


def wod_states() -> Iterator[tuple[str, State]]:
    for rote in (False, True):
        for size in range(1, 31):
            pool = wod.Pool(attribute=size, skill=0, again=10, rote=rote)
            yield (
                "Мир Тьмы, запас",
                State(
                    f"{size}d10 10-again{' rote' if rote else ''}",
                    lambda p=pool: wod_kubik(p),
                    lambda p=pool: wod_icepool(p),
                ),
            )


# -- IDE4 ----------------------------------------------------------------------------------------


def ide4_icepool(final: int, count: int, die: int) -> dict[str, Fraction]:
    band = band_for(final)
    energy = count @ icepool.d(die) if count else icepool.Die([0])
    outcome = icepool.map(
        lambda natural, e: band.classify(natural, min(100, natural + e)), icepool.d100, energy
    )
    return {key: outcome.probability(key) for key in ide4_odds.OUTCOMES}


def ide4_states() -> Iterator[tuple[str, State]]:
    rules_ = energy_rules()
    for die in rules_.sizes:
        for count in range(rules_.before_max_dice + 1):
            for final in range(1, 8):
                yield (
                    "IDE4, энергия",
                    State(
                        f"[{final}] {count}d{die}",
                        lambda f=final, c=count, d=die: ide4_odds.outcome_odds(f, c, d),
                        lambda f=final, c=count, d=die: ide4_icepool(f, c, d),
                    ),
                )


SYSTEMS = (drevo_states, starately_states, wod_states, ide4_states)


# -- measuring -----------------------------------------------------------------------------------


@dataclass
class SystemFigures:
    """Seconds per state for one group of builder states."""

    name: str
    states: int = 0
    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    icepool: list[float] = field(default_factory=list)
    #: In builder order, the caches cleared only before the first state: what one step of a
    #: builder row (one more die, the next difficulty) costs.
    stepped: list[float] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    @property
    def speedup(self) -> float:
        """icepool's total time over kubik's cold total."""
        return sum(self.icepool) / sum(self.cold)


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = call()
    return time.perf_counter() - t0, value


def measure(log: Callable[[str], None] = print) -> list[SystemFigures]:
    """Run every state of every system; return the figures per group of states."""
    groups: dict[str, SystemFigures] = {}
    by_group: dict[str, list[State]] = {}
    for states in SYSTEMS:
        for name, state in states():
            by_group.setdefault(name, []).append(state)
    for name, group in by_group.items():
        clear_caches()
        figures = groups[name] = SystemFigures(name)
        for state in group:
            figures.stepped.append(_timed(state.kubik)[0])
    for name, group in by_group.items():
        for state in group:
            figures = groups[name]
            figures.states += 1
            colds = []
            for _ in range(COLD_REPEATS):
                clear_caches()
                seconds, kubik = _timed(state.kubik)
                colds.append(seconds)
            figures.cold.append(min(colds))
            blocks = []
            for _ in range(WARM_BLOCKS):
                t0 = time.perf_counter()
                for _ in range(WARM_REPEATS):
                    state.kubik()
                blocks.append((time.perf_counter() - t0) / WARM_REPEATS)
            figures.warm.append(min(blocks))
            seconds, reference = _timed(state.icepool)
            figures.icepool.append(seconds)
            kubik = dict(kubik)
            if kubik != reference or not all(isinstance(v, Fraction) for v in kubik.values()):
                diff = {
                    k: (kubik.get(k), reference.get(k))
                    for k in kubik.keys() | reference.keys()
                    if kubik.get(k) != reference.get(k)
                }
                figures.mismatches.append(f"{name} {state.label}: {diff}")
    for figures in groups.values():
        log(
            f"  {figures.name}: {figures.states} states, cold max "
            f"{max(figures.cold) * 1e3:.3f} ms, icepool {sum(figures.icepool):.2f} s, "
            f"{len(figures.mismatches)} mismatches"
        )
    return list(groups.values())


if __name__ == "__main__":
    for fig in measure():
        for line in fig.mismatches[:5]:
            print("   ", line)
