"""Exact odds of dice notation, kubik against icepool on the same distributions.

For each expression kubik's :func:`rules.odds.odds` runs cold (its cache cleared, the least of
a few tries) and icepool builds the same distribution once (its first build: what a GM typing
a new expression waits for). The values must be identical:

* without explosions the two distributions are compared outcome by outcome as fractions;
* with explosions kubik follows a pool's explosions until more of them in the whole pool are
  less likely than 1e-12 (``E`` at most), and reports the rest as truncated. For icepool each
  exploding face also carries ``B`` (a count of explosions far above any total), the die
  explodes to depth ``E`` with ``explode(depth=E)``, the pool is summed by icepool, totals with
  more than ``E`` explosions are removed and ``B`` taken off: ``kubik weight / kubik mass ==
  icepool chance``. ``E`` is the negative binomial's tail (``pool_explosions`` below). For
  the big exploding pools that takes icepool minutes to hours, so there icepool is timed on
  what its users write (each die exploding to a per-chain cut, ``per_die``) and the values are
  checked on the same die in a smaller pool (``CHECKED_SMALLER``).

Keep and drop of exploding pools (issue 31's rows) are timed against what an icepool user writes,
``explode_to_pool(n, depth=9)``; where icepool's per-die depth is not kubik's distribution (a
keep of the lowest, a drop) the values are checked against the same distribution built in
icepool from its parts (``CHECKED_EXACT``).

Then generated expressions (the property tests' strategy) are parsed and rolled, each within
50 ms, and their exact odds taken: every one of up to 100 dice that the counted bound accepts
within 100 ms.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import icepool

from rules.dice import make_rng, parse, roll
from rules.odds import Distribution, _compute, odds
from rules.odds.select import explosion_cut

COLD_REPEATS = 3
TAIL = Fraction(1, 10**12)

#: Targets: up to 100 dice in ≤ 100 ms, any accepted expression in ≤ 1 s, ≥ 5× icepool.
SMALL_DICE, SMALL_MS, ANY_MS, SPEEDUP, GENERATED_MS = 100, 100.0, 1000.0, 5.0, 50.0


B = 10**6  # one explosion in the encoded outcome; totals stay far below it


def pool_explosions(count: int, p: Fraction) -> int:
    """Explosions kubik follows in a pool: the least E with P(more than E) < 1e-12, where the
    pool's explosion count is negative binomial: C(count+e-1, e) p**e (1-p)**count."""
    e, term = 0, (1 - p) ** count
    mass = term
    while 1 - mass >= TAIL:
        term = term * (count + e) / (e + 1) * p
        e += 1
        mass += term
    return e


def exploding_pool(
    count: int,
    faces: dict[int, int],
    on: list[int],
    shift: int = 0,
    score: Callable[[int], int] = lambda v: v,
) -> icepool.Die:
    """``count`` dice of ``faces`` (value -> weight) exploding on ``on``, summed by icepool to
    kubik's depth; an added roll counts ``shift`` more (``!p``: -1), ``score`` maps a roll."""
    weight = sum(faces.values())
    p = Fraction(sum(faces[f] for f in on), weight)
    most = pool_explosions(count, p)
    encoded: dict[int, int] = {}
    for f, w in faces.items():
        key = score(f + shift) + B if f in on else score(f)
        encoded[key] = encoded.get(key, 0) + w
    exploding = sorted({score(f + shift) + B for f in on})
    chain = icepool.Die(encoded).explode(exploding, depth=most)
    pool = count @ chain
    kept: dict[int, int] = {}
    for o, q in pool.items():
        explosions, rest = divmod(int(o) + B // 2, B)  # totals stay within ±B/2
        if explosions <= most:
            kept[rest - B // 2] = kept.get(rest - B // 2, 0) + q
    return icepool.Die(kept)


def per_die(count: int, faces: int, on: list[int]) -> icepool.Die:
    """What an icepool user writes for the same notation: each die explodes until a longer
    chain is below 1e-12 (icepool has no pool-wide cut). Timed against kubik for the big
    exploding pools, where the pool-wide reference below takes icepool minutes to hours."""
    p = Fraction(len(on), faces)
    depth = 1
    while p ** (depth + 1) >= TAIL:
        depth += 1
    return count @ icepool.Die(range(1, faces + 1)).explode(on, depth=depth)


def ten_again_per_die(count: int) -> icepool.Die:
    """``count`` Мир Тьмы dice with 10-again as an icepool user writes them: a die is 0 (1-7),
    1 (8-9) or a 10 that succeeds and explodes (encoded as 110, so chains are 110s), each die
    to a per-chain cut of 1e-12, decoded to successes."""
    depth = 1
    while Fraction(1, 10) ** (depth + 1) >= TAIL:
        depth += 1
    chain = icepool.Die({0: 7, 1: 2, 110: 1}).explode([110], depth=depth)
    die: dict[int, int] = {}
    for o, q in chain.items():
        n, last = divmod(int(o), 110)
        die[n + last] = die.get(n + last, 0) + q
    return count @ icepool.Die(die)


def uniform(n: int) -> dict[int, int]:
    return {f: 1 for f in range(1, n + 1)}


def success(v: int) -> int:  # d10 ≥ 8 counts one
    return int(v >= 8)


d6, d8, d10, d20, d100 = icepool.d6, icepool.d8, icepool.d10, icepool.d20, icepool.d100
WOD = {0: 7, 1: 3}  # d10 ≥ 8: three faces of ten succeed


#: icepool takes minutes on these (265d% ~6 min on a busy machine); ``--quick`` skips them.
HEAVY = {"100d100", "265d%", "1000d6", "100d6!", "50d6!", "100d10!", "100d6!p", "20d10!"}

#: Big exploding pools: icepool is timed on :func:`per_die`; the values are checked on the
#: same die at a pool icepool can sum pool-wide (:func:`exploding_pool`) in seconds.
CHECKED_SMALLER: dict[str, tuple[str, Callable[[], icepool.Die]]] = {
    "50d6!": ("10d6!", lambda: exploding_pool(10, uniform(6), [6])),
    "20d10!": ("6d10!", lambda: exploding_pool(6, uniform(10), [10])),
    "100d10!": ("6d10!", lambda: exploding_pool(6, uniform(10), [10])),
    "20d10!>=9": ("4d10!>=9", lambda: exploding_pool(4, uniform(10), [9, 10])),
    "100d6!": ("10d6!", lambda: exploding_pool(10, uniform(6), [6])),
    "100d6!p": ("10d6!p", lambda: exploding_pool(10, uniform(6), [6], shift=-1)),
    "100d10!=10>=8": (
        "10d10!=10>=8",
        lambda: exploding_pool(10, uniform(10), [10], score=success),
    ),
}


def exploding_keep_reference(
    count: int, keep: Callable[[icepool.Pool], icepool.Die]
) -> icepool.Die:
    """``count`` d10 that explode (``!``) and keep by ``keep``, as kubik computes it: with ``E``
    explosions the entries are ``count`` stopping rolls (d9) and ``E`` tens, in ``C(count+E-1,
    E)`` orders; ``E`` is cut where more are less likely than 1e-12 (``keep`` takes the pool of
    stopping rolls and the number of tens)."""
    cut = explosion_cut(count, 1, 10, 100)
    assert cut is not None
    d9 = icepool.Die(range(1, 10))
    dice = [keep(d9.pool(count), e) for e in range(cut + 1)]
    times = [comb(count + e - 1, e) * 10 ** (cut - e) for e in range(cut + 1)]
    return icepool.Die(dice, times=times)


#: Issue 31's exploding keeps whose values icepool's per-die depth does not give: checked
#: against the same distribution built from its parts (the rows are still timed on what an
#: icepool user writes).
CHECKED_EXACT: dict[str, Callable[[], icepool.Die]] = {
    # the lowest ten of twenty: never a ten while twenty stopping rolls are there
    "20d10!kl10": lambda: icepool.Die(range(1, 10)).pool(20).lowest(10).sum(),
    # all but the lowest ten: the ten highest stopping rolls and every ten
    "20d10!dl10": lambda: exploding_keep_reference(20, lambda p, e: p.highest(10).sum() + 10 * e),
}

CASES: list[tuple[str, Callable[[], icepool.Die]]] = [
    ("20d10!kh10", lambda: d10.explode_to_pool(20, depth=9).highest(10).sum()),
    ("15d10!kh10", lambda: d10.explode_to_pool(15, depth=9).highest(10).sum()),
    ("20d10!kl10", lambda: d10.explode_to_pool(20, depth=9).lowest(10).sum()),
    ("20d10!dl10", lambda: d10.explode_to_pool(20, depth=9).lowest(drop=10).sum()),
    ("100d6dl10", lambda: d6.pool(100).lowest(drop=10).sum()),
    ("4dF.1", lambda: 4 @ icepool.Die({-1: 1, 0: 4, 1: 1})),
    ("10d100/2", lambda: (10 @ d100).map(lambda x: Fraction(x, 2))),
    ("floor(10d10/3)", lambda: (10 @ d10).map(lambda x: x // 3)),
    ("10d20^2", lambda: (10 @ d20).map(lambda x: x * x)),
    ("10d15%7", lambda: (10 @ icepool.Die(range(1, 16))).map(lambda x: x % 7)),
    ("(25-5)d10", lambda: 20 @ d10),
    ("2d10u", lambda: icepool.Deck(range(1, 11)).deal(2).sum()),
    ("10d20u", lambda: icepool.Deck(range(1, 21)).deal(10).sum()),
    ("20d20k5d1", lambda: d20.highest(20, 5)),  # keep 5 and drop the lowest: the top 5
    ("max(4d6, 2d10)", lambda: icepool.highest(4 @ d6, 2 @ d10)),
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
    ("d6!", lambda: exploding_pool(1, uniform(6), [6])),
    ("3d6!", lambda: exploding_pool(3, uniform(6), [6])),
    ("3d6!!", lambda: exploding_pool(3, uniform(6), [6])),
    ("10d6!", lambda: exploding_pool(10, uniform(6), [6])),
    ("50d6!", lambda: per_die(50, 6, [6])),
    ("20d10!", lambda: per_die(20, 10, [10])),
    ("100d10!", lambda: per_die(100, 10, [10])),
    ("20d10!>=9", lambda: per_die(20, 10, [9, 10])),
    ("100d6!", lambda: per_die(100, 6, [6])),
    ("100d6!p", lambda: per_die(100, 6, [6])),  # icepool has no `!p`: timed as `!`
    ("10d10>=8", lambda: 10 @ icepool.Die(WOD)),
    ("100d10>=8", lambda: 100 @ icepool.Die(WOD)),
    ("10d10>=8f1", lambda: 10 @ icepool.Die({0: 6, 1: 3, -1: 1})),
    ("10d10!=10>=8", lambda: exploding_pool(10, uniform(10), [10], score=success)),
    ("100d10!=10>=8", lambda: ten_again_per_die(100)),
    ("2d6r1", lambda: 2 @ d6.reroll([1], depth="inf")),
    ("8d6r<3", lambda: 8 @ d6.reroll([1, 2], depth="inf")),
    ("4d6ro1", lambda: 4 @ d6.reroll([1], depth=1)),
    ("6d6min3", lambda: 6 @ d6.clip(3, None)),
    ("4dF + 2", lambda: 4 @ icepool.Die([-1, 0, 1]) + 2),
    ("{4d6+2, 3d8}k1", lambda: icepool.highest(4 @ d6 + 2, 3 @ d8)),
    ("(2d6+1)*3/2", lambda: ((2 @ d6) + 1).map(lambda x: Fraction(x * 3, 2))),
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
    odds_worst: float = 0.0  # the slowest accepted exact odds of up to 100 dice, generated
    odds_worst_text: str = ""
    odds_accepted: int = 0


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
    ours = dict(zip(dist.totals, dist.weights, strict=True))
    theirs = {Fraction(o): q for o, q in die.items() if q}
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


def generated_odds(count: int = 300) -> tuple[float, str, int]:
    """The slowest exact odds (cold) of generated expressions of up to 100 dice that the counted
    bound accepts, in seconds; and how many it accepted."""
    from hypothesis.errors import NonInteractiveExampleWarning

    from rules.dice.bounds import static_dice
    from rules.errors import RulesError
    from tests.rules.test_dice_properties import expressions

    strategy = expressions()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        texts = [strategy.example() for _ in range(count)]
    worst, worst_text, accepted = 0.0, "", 0
    for text in texts:
        try:
            expression = parse(text)
        except RulesError:
            continue
        if static_dice(expression.root) > SMALL_DICE:
            continue
        _compute.cache_clear()
        start = time.perf_counter()
        try:
            odds(expression)
        except RulesError:
            continue
        elapsed = time.perf_counter() - start
        accepted += 1
        if elapsed > worst:
            worst, worst_text = elapsed, text
    return worst, worst_text, accepted


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
        if text in CHECKED_SMALLER:
            small, reference = CHECKED_SMALLER[text]
            same, detail = identical(cold(small)[1], reference())
            detail = detail or f"(values checked at {small})"
        elif text in CHECKED_EXACT:
            same, detail = identical(dist, CHECKED_EXACT[text]())
            detail = detail or "(values checked on icepool's parts)"
        else:
            same, detail = identical(dist, die)
        case = Case(text, static_dice(parse(text).root), seconds, ice, same, detail)
        figures.cases.append(case)
        log(
            f"  {text:18} {seconds * 1e3:9.2f} ms   icepool {ice * 1e3:10.2f} ms   "
            f"{ice / seconds:8.1f}×   {'identical ' if same else 'DIFFERENT '}{detail}"
        )
    figures.generated_worst, figures.generated_worst_text = generated(count)
    figures.generated_count = count
    log(
        f"  generated: worst parse+roll of {count}: {figures.generated_worst * 1e3:.2f} ms "
        f"({figures.generated_worst_text!r})"
    )
    figures.odds_worst, figures.odds_worst_text, figures.odds_accepted = generated_odds(count)
    log(
        f"  generated: worst exact odds of {figures.odds_accepted} accepted (≤ {SMALL_DICE} "
        f"dice): {figures.odds_worst * 1e3:.2f} ms ({figures.odds_worst_text!r})"
    )
    return figures


if __name__ == "__main__":
    import sys

    measure(quick="--quick" in sys.argv)
