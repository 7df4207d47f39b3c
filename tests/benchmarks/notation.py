"""Exact odds of dice notation, kubik against icepool on the same distributions.

For each expression kubik's :func:`rules.odds.odds` runs cold (its cache cleared, the least of
a few tries) and icepool builds the same distribution once (its first build: what a GM typing
a new expression waits for). The values must be identical:

* without explosions the two distributions are compared outcome by outcome as fractions;
* with explosions kubik follows each chain until a longer one is less likely than 1e-12 and
  reports the rest as truncated; icepool's ``explode(depth=K)`` with the same ``K`` keeps that
  rest as one extra outcome (the last die not exploding), which is removed, so both give the
  same distribution given no chain was cut: ``kubik weight / kubik mass == icepool chance``.

Then generated expressions (the property tests' strategy) are parsed and rolled: each within
50 ms.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import icepool

from rules.dice import make_rng, parse, roll
from rules.odds import Distribution, _compute, odds

COLD_REPEATS = 3
TAIL = Fraction(1, 10**12)

#: Targets: up to 100 dice in ≤ 100 ms, any accepted expression in ≤ 1 s, ≥ 5× icepool.
SMALL_DICE, SMALL_MS, ANY_MS, SPEEDUP, GENERATED_MS = 100, 100.0, 1000.0, 5.0, 50.0


def depth(p_explode: Fraction) -> int:
    """Explosions kubik follows per die: the least K ≥ 1 with p**(K+1) < 1e-12."""
    k = 1
    while p_explode ** (k + 1) >= TAIL:
        k += 1
    return k


def exploded(die: icepool.Die, on: list[int], p: Fraction) -> icepool.Die:
    """``die`` exploding on ``on`` to kubik's depth, the cut chains' outcome removed."""
    k = depth(p)
    chain = die.explode(on, depth=k)
    cut = (k + 1) * max(on)  # only reachable by K+1 explosions and one more exploding face
    return icepool.Die({o: q for o, q in chain.items() if o != cut})


d6, d8, d10, d20, d100 = icepool.d6, icepool.d8, icepool.d10, icepool.d20, icepool.d100
WOD = {0: 7, 1: 3}  # d10 ≥ 8: three faces of ten succeed


def ten_again() -> icepool.Die:
    # faces 1-7: 0 successes; 8-9: 1; 10: 1 and explodes (encoded 100 + 10 → chains of 110s)
    die = icepool.Die({0: 7, 1: 2, 110: 1})
    k = depth(Fraction(1, 10))
    chain = die.explode([110], depth=k)
    decoded: dict[int, int] = {}
    for o, q in chain.items():
        n, last = divmod(o, 110)
        if n == k + 1:
            continue  # the cut chain
        decoded[n + last] = decoded.get(n + last, 0) + q
    return icepool.Die(decoded)


#: icepool takes minutes on these (265d% ~6 min on a busy machine); ``--quick`` skips them.
HEAVY = {"100d100", "265d%", "1000d6", "100d6!", "50d6!"}

CASES: list[tuple[str, Callable[[], icepool.Die]]] = [
    ("4d6kh3", lambda: d6.highest(4, 3)),
    ("5d6dl2", lambda: d6.highest(5, 3)),
    ("2d20kh1", lambda: d20.highest(2, 1)),
    ("2d20kl1 + 5", lambda: d20.lowest(2, 1) + 5),
    ("20d20kh10", lambda: d20.highest(20, 10)),
    ("100d6kh3", lambda: d6.highest(100, 3)),
    ("3d6", lambda: 3 @ d6),
    ("100d6", lambda: 100 @ d6),
    ("100d100", lambda: 100 @ d100),
    ("265d%", lambda: 265 @ d100),
    ("1000d6", lambda: 1000 @ d6),
    ("d6!", lambda: exploded(d6, [6], Fraction(1, 6))),
    ("3d6!", lambda: 3 @ exploded(d6, [6], Fraction(1, 6))),
    ("3d6!!", lambda: 3 @ exploded(d6, [6], Fraction(1, 6))),
    ("10d6!", lambda: 10 @ exploded(d6, [6], Fraction(1, 6))),
    ("50d6!", lambda: 50 @ exploded(d6, [6], Fraction(1, 6))),
    ("20d10!", lambda: 20 @ exploded(d10, [10], Fraction(1, 10))),
    ("100d6!", lambda: 100 @ exploded(d6, [6], Fraction(1, 6))),
    ("10d10>=8", lambda: 10 @ icepool.Die(WOD)),
    ("100d10>=8", lambda: 100 @ icepool.Die(WOD)),
    ("10d10>=8f1", lambda: 10 @ icepool.Die({0: 6, 1: 3, -1: 1})),
    ("10d10!=10>=8", lambda: 10 @ ten_again()),
    ("100d10!=10>=8", lambda: 100 @ ten_again()),
    ("2d6r1", lambda: 2 @ d6.reroll([1], depth="inf")),
    ("8d6r<3", lambda: 8 @ d6.reroll([1, 2], depth="inf")),
    ("4d6ro1", lambda: 4 @ d6.reroll([1], depth=1)),
    ("6d6min3", lambda: 6 @ d6.clip(3, None)),
    ("4dF + 2", lambda: 4 @ icepool.Die([-1, 0, 1]) + 2),
    ("{4d6+2, 3d8}k1", lambda: icepool.highest(4 @ d6 + 2, 3 @ d8)),
    ("(2d6+1)*3/2", lambda: ((2 @ d6) + 1) * 3 // 2),
    ("d20*d20", lambda: d20 * d20),
]


@dataclass
class Case:
    text: str
    dice: int
    kubik: float  # seconds, cold
    icepool: float
    identical: bool
    detail: str = ""


@dataclass
class NotationFigures:
    cases: list[Case] = field(default_factory=list)
    generated_worst: float = 0.0
    generated_worst_text: str = ""
    generated_count: int = 0


def cold(text: str) -> tuple[float, Distribution]:
    best, dist = float("inf"), None
    for _ in range(COLD_REPEATS):
        _compute.cache_clear()
        start = time.perf_counter()
        dist = odds(text)
        best = min(best, time.perf_counter() - start)
    assert dist is not None
    return best, dist


def identical(dist: Distribution, die: icepool.Die) -> tuple[bool, str]:
    mass = sum(dist.weights)
    ours = {dist.offset + i: w for i, w in enumerate(dist.weights) if w}
    theirs = {int(o): q for o, q in die.items() if q}
    if set(ours) != set(theirs):
        return False, f"outcomes differ: {sorted(set(ours) ^ set(theirs))[:5]}"
    den = die.denominator()
    for outcome, weight in ours.items():
        if weight * den != theirs[outcome] * mass:
            return False, f"P({outcome}) differs"
    return True, ""


def generated(count: int = 300) -> tuple[float, str]:
    """The slowest parse + roll over generated expressions, in seconds."""
    from hypothesis.errors import NonInteractiveExampleWarning

    from tests.rules.test_dice_properties import expressions

    strategy = expressions()
    worst, worst_text = 0.0, ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        texts = [strategy.example() for _ in range(count)]
    from rules.errors import RulesError

    for text in texts:
        start = time.perf_counter()
        try:
            roll(parse(text), make_rng(0))
        except RulesError:
            pass
        elapsed = time.perf_counter() - start
        if elapsed > worst:
            worst, worst_text = elapsed, text
    return worst, worst_text


def measure(
    log: Callable[[str], Any] = print, count: int = 300, quick: bool = False
) -> NotationFigures:
    from rules.dice.bounds import static_dice

    figures = NotationFigures()
    for text, build in CASES:
        if quick and text in HEAVY:
            continue
        seconds, dist = cold(text)
        start = time.perf_counter()
        die = build()
        ice = time.perf_counter() - start
        same, detail = identical(dist, die)
        case = Case(text, static_dice(parse(text).root), seconds, ice, same, detail)
        figures.cases.append(case)
        log(
            f"  {text:18} {seconds * 1e3:9.2f} ms   icepool {ice * 1e3:10.2f} ms   "
            f"{ice / seconds:8.1f}×   {'identical' if same else 'DIFFERENT ' + detail}"
        )
    figures.generated_worst, figures.generated_worst_text = generated(count)
    figures.generated_count = count
    log(
        f"  generated: worst parse+roll of {count}: {figures.generated_worst * 1e3:.2f} ms "
        f"({figures.generated_worst_text!r})"
    )
    return figures


if __name__ == "__main__":
    import sys

    measure(quick="--quick" in sys.argv)
