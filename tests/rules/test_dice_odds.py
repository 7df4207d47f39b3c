"""Exact odds against brute-force enumeration and hand-built explosion series."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import parse
from rules.errors import DiceLimitError, DiceSyntaxError
from rules.odds import odds
from tests.every_case import assert_every_case
from tests.rules.brute import shown
from tests.rules.dice_oracle import enumerate_totals

# (sign, count, faces as values, keep)
Spec = tuple[int, int, Sequence[int], tuple[str, int] | None]


def brute(terms: Sequence[Spec], constant: int = 0) -> dict[int, Fraction]:
    """Enumerate every roll of every term with itertools.product and add the totals up."""
    totals: Counter[int] = Counter({constant: 1})
    denominator = 1
    for sign, count, faces, keep in terms:
        term: Counter[int] = Counter()
        for dice in product(faces, repeat=count):
            ranked = sorted(dice, reverse=True)
            if keep is not None:
                ranked = ranked[: keep[1]] if keep[0] == "h" else ranked[-keep[1] :]
            term[sign * sum(ranked)] += 1
        combined: Counter[int] = Counter()
        for a, x in totals.items():
            for b, y in term.items():
                combined[a + b] += x * y
        totals = combined
        denominator *= len(faces) ** count
    return {k: Fraction(v, denominator) for k, v in sorted(totals.items())}


def d(faces: int) -> range:
    return range(1, faces + 1)


FUDGE = (-1, 0, 1)


MATCHES_BRUTE_FORCE = [
    ("2d6", [(1, 2, d(6), None)], 0),
    ("3d6", [(1, 3, d(6), None)], 0),
    ("3d6kh2", [(1, 3, d(6), ("h", 2))], 0),
    ("4d6kh3", [(1, 4, d(6), ("h", 3))], 0),
    ("3d4kl2", [(1, 3, d(4), ("l", 2))], 0),
    ("4dF", [(1, 4, FUDGE, None)], 0),
    ("4dFkh2", [(1, 4, FUDGE, ("h", 2))], 0),
    ("2d4-1d3+2", [(1, 2, d(4), None), (-1, 1, d(3), None)], 2),
    ("-3d4kl2 + 1", [(-1, 3, d(4), ("l", 2))], 1),
    ("-2d20kh1 - 2d6kl1", [(-1, 2, d(20), ("h", 1)), (-1, 2, d(6), ("l", 1))], 0),
    ("d%", [(1, 1, d(100), None)], 0),
    ("2d10 - 4dF - 3", [(1, 2, d(10), None), (-1, 4, FUDGE, None)], -3),
    ("5d3kh5", [(1, 5, d(3), ("h", 5))], 0),
    ("6d4kh2", [(1, 6, d(4), ("h", 2))], 0),
    ("5d6kl3", [(1, 5, d(6), ("l", 3))], 0),
    ("7", [], 7),
]


def test_matches_brute_force() -> None:
    """RULES §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling) computed from the same inputs as the roll»."""

    def check(text: str, terms: list[Spec], constant: int) -> None:
        distribution = odds(text)
        assert distribution.probs == brute(terms, constant)
        assert list(distribution.probs) == sorted(distribution.probs)
        assert distribution.truncated == 0
        assert sum(distribution.probs.values()) == 1

    assert_every_case(MATCHES_BRUTE_FORCE, check)


def depth(faces: int) -> int:
    """Explosions enumerated per die: the first n with faces**-(n+1) < 1e-12."""
    n = 0
    while Fraction(1, faces ** (n + 1)) >= Fraction(1, 10**12):
        n += 1
    return n


def exploding_die(faces: int) -> dict[int, Fraction]:
    """One ``dM!`` by the hand series P(kM + r) = M**-(k+1), r in 1..M-1, cut at depth."""
    return {
        k * faces + r: Fraction(1, faces ** (k + 1))
        for k in range(depth(faces) + 1)
        for r in range(1, faces)
    }


def test_one_d4_exploding_by_hand_series() -> None:
    """RULES §0: «Infinite explosions (10-again, `!`) are truncated where the remaining
    probability is below 1e-12 and the truncation is reported»."""
    assert depth(4) == 19  # 4**-20 ≈ 9.1e-13 is the first tail below 1e-12
    distribution = odds("1d4!")
    assert distribution.probs == exploding_die(4)
    assert distribution.truncated == Fraction(1, 4**20)
    assert distribution.truncated < Fraction(1, 10**12)
    assert sum(distribution.probs.values()) + distribution.truncated == 1
    assert abs(distribution.mean() - Fraction(10, 3)) < Fraction(1, 10**9)


def chains(
    faces: int, explodes: Callable[[int], bool], later: int, score: Callable[[int], int], cap: int
) -> Counter[tuple[int, int]]:
    """One exploding die roll by roll, up to ``cap`` explosions: (score of the chain,
    explosions) -> probability; an added roll counts ``raw + later`` (``!p``: -1)."""
    out: Counter[tuple[int, int]] = Counter()
    live: Counter[tuple[int, int]] = Counter({(0, 0): 1})  # (score so far, next roll's shift)
    for n in range(cap + 1):
        grown: Counter[tuple[int, int]] = Counter()
        for (total, shift), p in live.items():
            for raw in range(1, faces + 1):
                value = total + score(raw + shift)
                if not explodes(raw):
                    out[value, n] += Fraction(p, faces)  # type: ignore[assignment]
                elif n < cap:
                    grown[value, later] += Fraction(p, faces)  # type: ignore[assignment]
        live = grown
    return out


def combine(
    a: Counter[tuple[int, int]], b: Counter[tuple[int, int]], most: int
) -> Counter[tuple[int, int]]:
    """Two independent parts added: (score, explosions) pairs summed, more than ``most``
    explosions left out."""
    out: Counter[tuple[int, int]] = Counter()
    for (v1, n1), p1 in a.items():
        for (v2, n2), p2 in b.items():
            if n1 + n2 <= most:
                out[v1 + v2, n1 + n2] += p1 * p2
    return out


def pool_enumeration(
    count: int,
    faces: int,
    explodes: Callable[[int], bool],
    later: int = 0,
    score: Callable[[int], int] = lambda v: v,
    sign: int = 1,
) -> tuple[dict[int, Fraction], Fraction]:
    """``count`` such dice added die by die, kept while the pool's explosions are at most the
    least E with P(more than E in the pool) < 1e-12 (found from the same dice). Returns the
    totals' probabilities and the mass cut."""
    explosions: Counter[tuple[int, int]] = Counter()
    for (_, n), p in chains(faces, explodes, later, lambda v: 0, 80).items():
        explosions[0, n] += p  # type: ignore[assignment]
    pool = Counter({(0, 0): Fraction(1)})
    for _ in range(count):
        pool = combine(pool, explosions, 80)
    most, seen = 0, pool[0, 0]
    while 1 - seen >= Fraction(1, 10**12):
        most += 1
        seen += pool[0, most]
    die = chains(faces, explodes, later, score, most)
    rolls = Counter({(0, 0): Fraction(1)})
    for _ in range(count):
        rolls = combine(rolls, die, most)
    totals: Counter[int] = Counter()
    for (value, _), p in rolls.items():
        totals[sign * value] += p  # type: ignore[assignment]
    return dict(sorted(totals.items())), 1 - sum(totals.values(), Fraction(0))


EXPLODING_POOLS_MATCH_ENUMERATION = [
    ("2d4!", 2, 4, lambda v: v == 4, 0, None, 1),
    ("-2d6!", 2, 6, lambda v: v == 6, 0, None, -1),
    ("3d6!", 3, 6, lambda v: v == 6, 0, None, 1),
    ("2d4!!", 2, 4, lambda v: v == 4, 0, None, 1),
    ("2d4!p", 2, 4, lambda v: v == 4, -1, None, 1),
    ("d6!>=5", 1, 6, lambda v: v >= 5, 0, None, 1),
    ("d6!p>=5", 1, 6, lambda v: v >= 5, -1, None, 1),
    ("2d6!>=5>=4", 2, 6, lambda v: v >= 5, 0, lambda v: int(v >= 4), 1),
    ("3d4!=4>=3", 3, 4, lambda v: v == 4, 0, lambda v: int(v >= 3), 1),
    ("d4!<2", 1, 4, lambda v: v < 2, 0, None, 1),
    ("2d2!<>2", 2, 2, lambda v: v != 2, 0, None, 1),
    # several exploding faces of a penetrating Fate die (faces 1..3 stand for −1, 0, +1):
    # the added rolls go below zero, where the pooled sum pads its weights on the right
    ("dF!p<=0", 1, 3, lambda v: v <= 2, -1, lambda v: v - 2, 1),
    ("dF!p<>1", 1, 3, lambda v: v != 3, -1, lambda v: v - 2, 1),
    ("dF!p=-1", 1, 3, lambda v: v == 1, -1, lambda v: v - 2, 1),  # one face, going down
]


def test_exploding_pools_match_enumeration() -> None:
    """RULES §0: «`NdM!` (each die showing its maximum adds another die, which may explode
    again)»; «Infinite explosions (10-again, `!`) are truncated where the remaining
    probability is below 1e-12 and the truncation is reported» — for the whole pool."""

    def check(
        text: str,
        count: int,
        faces: int,
        explodes: Callable[[int], bool],
        later: int,
        score: Callable[[int], int] | None,
        sign: int,
    ) -> None:
        expected, cut = pool_enumeration(
            count, faces, explodes, later, score or (lambda v: v), sign
        )
        distribution = odds(text)
        assert distribution.probs == expected
        assert distribution.truncated == cut
        assert 0 < distribution.truncated < Fraction(1, 10**12)

    assert_every_case(EXPLODING_POOLS_MATCH_ENUMERATION, check)


def test_explode_keep_looks_at_every_added_die() -> None:
    """Issue 18: «The notation of rpg-dice-roller» — there, `!` adds each explosion as a die of
    its own, so `4d6!kh3` keeps the three highest of all rolled dice (never above 18)."""
    distribution = odds("4d6!kh3")
    assert distribution.maximum == 18 and distribution.minimum == 3
    assert distribution.probs[18] > odds("4d6kh3").probs[18]
    # issue 31: the kept sum stops changing once three 6s exploded, so the rest of the
    # explosions are added exactly: nothing is cut
    assert distribution.truncated == 0
    assert sum(distribution.probs.values()) == 1


def test_target_does_not_change_distribution() -> None:
    """RULES §0: «an optional target `vs N` (success when total ≥ N)»."""
    with_target = odds("3d6 vs 12")
    assert with_target == odds("3d6")
    assert with_target.p_at_least(12) == Fraction(81, 216)
    assert with_target.p_at_least(3) == 1
    assert with_target.p_at_least(19) == 0
    assert with_target.mean() == Fraction(21, 2)


def test_expression_object_and_percent() -> None:
    """RULES §0: «`d%` (= d100)» — odds of a parsed expression equal odds of its text."""
    assert odds(parse("d%")) == odds("d100")
    assert odds("d100").probs == {k: Fraction(1, 100) for k in d(100)}


def test_too_big_is_refused_without_hanging() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    start = time.perf_counter()
    for text in ("1000d1000", "500d1000!", "20d1000kh10", "1000dF!", "1000d6!"):
        with pytest.raises(DiceLimitError, match="слишком много вариантов"):
            odds(text)
    assert time.perf_counter() - start < 5  # a hang, not a speed goal (see tests/benchmarks)


def test_moderate_sizes_are_computed() -> None:
    """RULES §0: «every check has an exact outcome distribution»."""
    distribution = odds("100d100")
    assert len(distribution.probs) == 9901
    assert distribution.mean() == 5050
    assert distribution.probs[100] == Fraction(1, 100**100)
    two_pools = odds("50d6!+50d8!")  # each pool's explosions cut below 1e-12
    assert 0 < two_pools.truncated < 2 * Fraction(1, 10**12)
    assert two_pools.minimum == 100


def test_bad_text_raises_rules_error() -> None:
    """RULES §0: «A parse error names the position and what was expected»."""
    with pytest.raises(DiceSyntaxError):
        odds("2d")


TRUNCATION_IS_BELOW_ONE_IN_A_TRILLION = [
    ("d10!", 10**13, 12 * 10 + 9),
    ("d100!", 100**7, 6 * 100 + 99),
    ("d6!", 6**16, 15 * 6 + 5),
]


def test_truncation_is_below_one_in_a_trillion() -> None:
    """RULES §0: «Infinite explosions … are truncated where the remaining probability is below
    1e-12» — a tail of exactly 1e-12 is still enumerated."""

    def check(text: str, tail: int, highest: int) -> None:
        distribution = odds(text)
        assert distribution.truncated == Fraction(1, tail)
        assert max(distribution.probs) == highest

    assert_every_case(TRUNCATION_IS_BELOW_ONE_IN_A_TRILLION, check)


@pytest.mark.parametrize("mode", ["h", "l"])
def test_keep_one_of_many_matches_closed_form(mode: str) -> None:
    """RULES §0: «`NdMkhK` / `NdMklK` (keep highest / lowest K)» — with many more dice than
    kept: P(highest ≤ v) = (v/20)**200, P(lowest ≥ v) = ((21 - v)/20)**200."""
    distribution = odds(f"200d20k{mode}1")
    for v in range(1, 21):
        if mode == "h":
            expected = Fraction(v, 20) ** 200 - Fraction(v - 1, 20) ** 200
        else:
            expected = Fraction(21 - v, 20) ** 200 - Fraction(20 - v, 20) ** 200
        assert distribution.probs[v] == expected


def test_success_count_is_binomial() -> None:
    """Issue 18: «the distribution of the total (or of the success count)» — `10d10>=8` is the
    Мир Тьмы pool written as dice: P(k) = C(10, k) 0.3^k 0.7^(10-k)."""
    from math import comb

    distribution = odds("10d10>=8")
    assert distribution.probs == {
        k: comb(10, k) * Fraction(3, 10) ** k * Fraction(7, 10) ** (10 - k) for k in range(11)
    }
    assert distribution.mean() == 3


def test_ten_again_mean() -> None:
    """Issue 18: «exploding on a compare point (`d10!>=9`, 9-again)» — with 10-again each die
    rolls 10/9 dice on average, each a success with 3/10: a mean of 1/3 per die."""
    distribution = odds("10d10!=10>=8")
    assert abs(distribution.mean() - Fraction(10, 3)) < Fraction(1, 10**9)
    assert 0 < distribution.truncated < Fraction(1, 10**10)


def test_failures_subtract() -> None:
    """Issue 18: «failures that subtract (`f<=1`)» — one die: +1 at 3/10, -1 at 1/10."""
    assert odds("d10>=8f<=1").probs == {-1: Fraction(1, 10), 0: Fraction(6, 10), 1: Fraction(3, 10)}


def test_reroll_conditions_on_the_other_faces() -> None:
    """Issue 18: «rerolls (`2d6r1`, `4d6ro<3`)» — `r` never ends on a 1, `ro` rolls once more."""
    assert odds("d6r1").probs == {v: Fraction(1, 5) for v in range(2, 7)}
    once = odds("d6ro1").probs
    assert once[1] == Fraction(1, 36) and once[2] == Fraction(7, 36)
    assert odds("d6r1").truncated == 0  # a reroll's series is summed exactly


def test_compounding_sums_like_exploding() -> None:
    """Issue 18: «compounding and penetrating explosions (`!!`, `!p`)» — the same sum."""
    assert odds("3d6!!") == odds("3d6!")
    penetrating = odds("d6!p")
    assert penetrating.probs[5] == Fraction(1, 6)  # a plain 5
    assert penetrating.probs[6] == Fraction(1, 36)  # never a plain 6: 6, then a 1 counted as 0
    assert penetrating.probs[7] == Fraction(1, 36)  # 6, then a 2 counted as 1


def test_groups_and_arithmetic() -> None:
    """Issue 18: «groups `{4d6+2, 3d8}k1`»; issue 31: «rpg-dice-roller keeps the fraction
    unless asked to round — follow it»."""
    best = odds("{d6, d6}k1").probs
    assert best == {v: Fraction(2 * v - 1, 36) for v in range(1, 7)}
    assert odds("d6/2").probs == {Fraction(v, 2): Fraction(1, 6) for v in range(1, 7)}
    assert odds("d4*d4").probs[4] == Fraction(3, 16)


def test_vs_after_counting() -> None:
    """Issue 18: «`P(≥ N)` for `vs`»."""
    distribution = odds("3d10>=8 vs 2")
    assert distribution.p_at_least(2) == 3 * Fraction(9, 100) * Fraction(7, 10) + Fraction(27, 1000)


ARITHMETIC_WITH_A_CONSTANT_MATCHES_ENUMERATION = [
    ("3*d6", 1, 6, lambda v: 3 * v[0]),
    ("d6*3", 1, 6, lambda v: v[0] * 3),
    ("-2*d6", 1, 6, lambda v: -2 * v[0]),
    ("d6*-2", 1, 6, lambda v: v[0] * -2),
    ("d6*0", 1, 6, lambda v: 0),
    ("(3d6-10)/3", 3, 6, lambda v: shown(Fraction(sum(v) - 10, 3))),
    ("(2d6+1)*3/2", 2, 6, lambda v: shown(Fraction((sum(v) + 1) * 3, 2))),
    ("2d4/1", 2, 4, lambda v: sum(v)),
    ("4/d4", 1, 4, lambda v: shown(Fraction(4, v[0]))),
    ("2d3*d3", 3, 3, lambda v: (v[0] + v[1]) * v[2]),
    ("d3/2d3", 3, 3, lambda v: shown(Fraction(v[0], v[1] + v[2]))),
    ("(2d3-4)*2d3", 4, 3, lambda v: (v[0] + v[1] - 4) * (v[2] + v[3])),
    ("(2d3-4)*(d3-2)", 3, 3, lambda v: (v[0] + v[1] - 4) * (v[2] - 2)),
    ("(d3-3)*(2d3-5)", 3, 3, lambda v: (v[0] - 3) * (v[1] + v[2] - 5)),
    ("d20*d20", 2, 20, lambda v: v[0] * v[1]),
    ("d4*d4*d4", 3, 4, lambda v: v[0] * v[1] * v[2]),
]


def test_arithmetic_with_a_constant_matches_enumeration() -> None:
    """Issue 18: «arithmetic with `*`, `/` and parentheses» — every roll enumerated with
    itertools.product; issue 31: ``/`` keeps the fraction and the total is rpg-dice-roller's,
    two decimals (``shown``)."""

    def check(text: str, count: int, faces: int, total: Callable[[tuple[int, ...]], int]) -> None:
        expected: Counter[int] = Counter(
            total(v) for v in product(range(1, faces + 1), repeat=count)
        )
        n = faces**count
        assert odds(text).probs == {k: Fraction(c, n) for k, c in sorted(expected.items())}

    assert_every_case(ARITHMETIC_WITH_A_CONSTANT_MATCHES_ENUMERATION, check)


def test_a_remembered_text_gives_its_own_distribution() -> None:
    """RULES §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling)» — remembered by the text typed, the distribution is that text's, the same as the
    parsed expression's and the canonical text's."""
    from rules.odds import _compute

    _compute.cache_clear()  # type: ignore[attr-defined]
    first = odds("2d6 + 1")
    assert odds("2d6 + 1") is first
    assert odds("2d6 - 1").probs != first.probs
    assert odds(parse("2d6 + 1")) == first == odds("2d6+1")
    assert first.probs == brute([(1, 2, range(1, 7), None)], 1)
    _compute.cache_clear()  # type: ignore[attr-defined]
    again = odds("2d6 + 1")
    assert again is not first and again == first


def reroll_by_hand(
    values: Counter[int], faces: int, match: Callable[[int], bool], once: bool
) -> Counter[int]:
    """rpg-dice-roller's reroll on finished values: a value that matches is replaced by one
    fresh roll (``ro``), or by a face that does not match (``r``: rolled until one does not)."""
    fresh = [f for f in range(1, faces + 1) if once or not match(f)]
    out: Counter[int] = Counter()
    for value, p in values.items():
        if match(value):
            for f in fresh:
                out[f] += p / len(fresh)
        else:
            out[value] += p
    return out


def chain_cap(count: int, faces: int, explodes: Callable[[int], bool]) -> int:
    """Explosions followed per die: the least n >= 1 whose longer chain in any of ``count``
    dice is less likely than 1e-12 (none if no face explodes)."""
    q = Fraction(sum(1 for f in range(1, faces + 1) if explodes(f)), faces)
    if not q:
        return 0
    n = 1
    while count * q ** (n + 1) >= Fraction(1, 10**12):
        n += 1
    return n


COMPOUND_THEN_REROLL_MATCHES_ENUMERATION = [
    ("d2!!0ro1", 1, 2, lambda v: v == 0, 0, lambda v: v == 1, True, None),
    ("d2!0ro1", 1, 2, lambda v: v == 0, 0, lambda v: v == 1, True, None),
    ("d2!p0ro1", 1, 2, lambda v: v == 0, -1, lambda v: v == 1, True, None),
    ("d2!!p0ro1", 1, 2, lambda v: v == 0, -1, lambda v: v == 1, True, None),
    ("d2!!0r1", 1, 2, lambda v: v == 0, 0, lambda v: v == 1, False, None),
    ("d6!!0ro1", 1, 6, lambda v: v == 0, 0, lambda v: v == 1, True, None),
    ("2d2!!0ro1", 2, 2, lambda v: v == 0, 0, lambda v: v == 1, True, None),
    ("d2!!0ro1>=2", 1, 2, lambda v: v == 0, 0, lambda v: v == 1, True, lambda v: v >= 2),
    ("{d2!!0ro1}>=2", 1, 2, lambda v: v == 0, 0, lambda v: v == 1, True, lambda v: v >= 2),
    ("d4!!ro1", 1, 4, lambda v: v == 4, 0, lambda v: v == 1, True, None),
    ("d4!!>=3ro<3", 1, 4, lambda v: v >= 3, 0, lambda v: v < 3, True, None),
    ("d4!!>=3r<3", 1, 4, lambda v: v >= 3, 0, lambda v: v < 3, False, None),
    ("d4!!pro1", 1, 4, lambda v: v == 4, -1, lambda v: v == 1, True, None),
    ("d6!!ro7", 1, 6, lambda v: v == 6, 0, lambda v: v == 7, True, None),
    ("2d3!!ro<=2", 2, 3, lambda v: v == 3, 0, lambda v: v <= 2, True, None),
    ("d4!!>=3ro1>=4", 1, 4, lambda v: v >= 3, 0, lambda v: v == 1, True, lambda v: v >= 4),
]


def test_compound_then_reroll_matches_enumeration() -> None:
    """Seed (Старатели): «восклицательный знак в конце формулы (3d6!) означает, что за каждую
    шестерку к сумме добавляется еще один брошенный куб»; README: modifiers run in
    rpg-dice-roller's order «(`min`, `max`, explode, reroll, …)» — a compounded (`!!`) die's
    whole chain is one value, and `ro` rerolls that value once (not twice), `r` until it does
    not match; a `!`/`!!` that never explodes (`!!0` on a d2) leaves the reroll alone, so
    `d2!!0ro1` is `d2ro1`. Found by hypothesis: `d2!!0ro1` gave 1 at 1/8, rerolled twice."""

    def check(
        text: str,
        count: int,
        faces: int,
        explodes: Callable[[int], bool],
        later: int,
        reroll: Callable[[int], bool],
        once: bool,
        score: Callable[[int], bool] | None,
    ) -> None:
        cap = chain_cap(count, faces, explodes)
        die: Counter[int] = Counter()
        for (value, _), p in chains(faces, explodes, later, lambda v: v, cap).items():
            die[value] += p
        die = reroll_by_hand(die, faces, reroll, once)
        if score is not None:
            counted: Counter[int] = Counter()
            for value, p in die.items():
                counted[int(score(value))] += p
            die = counted
        pool: Counter[int] = Counter({0: Fraction(1)})
        for _ in range(count):
            grown: Counter[int] = Counter()
            for a, p in pool.items():
                for b, q in die.items():
                    grown[a + b] += p * q
            pool = grown
        expected = {v: p for v, p in sorted(pool.items()) if p}
        distribution = odds(text)
        assert distribution.probs == expected
        assert distribution.truncated == 1 - sum(expected.values())
        if cap:
            assert 0 < distribution.truncated < Fraction(1, 10**12)

    assert_every_case(COMPOUND_THEN_REROLL_MATCHES_ENUMERATION, check)


def test_never_exploding_compound_rerolls_like_a_plain_die() -> None:
    """README: «`ro` | `4d6ro<3` | reroll once»; «`!!` | compounding: the explosion rolls add
    up into one die» — `!!0` on a d2 never explodes, so `d2!!0ro1` is `d2ro1`: a 1 stays a 1
    only if the one reroll is a 1 too (1/4)."""
    assert odds("d2!!0ro1").probs == {1: Fraction(1, 4), 2: Fraction(3, 4)}
    assert odds("d2!!0ro1") == odds("d2ro1") == odds("d2!0ro1")
    assert odds("d6!!0ro1") == odds("d6ro1")
    assert odds("d2!!0r1").probs == {2: Fraction(1)}


COMPOUND_REROLL_IN_GROUPS_AND_COUNTS_MATCHES_THE_ROLLER = [
    "2d2!!ro1>=2",
    "{d3!!ro<3}",
    "-d2!!0ro1",
    "{d2!!ro1, d2}kh1",
    "dF!!ro0",
    "d3!!pro1min2",
]


def test_compound_reroll_in_groups_and_counts_matches_the_roller() -> None:
    """RULES §0: «every check has an exact outcome distribution (fractions, not sampling)
    computed from the same inputs as the roll» — a compounded die with a reroll inside a
    group, a negation, a count or a keep: the odds lie between the roller's enumerated paths
    and those plus the mass of the paths cut (tests/rules/dice_oracle.py)."""

    def check(text: str) -> None:
        oracle, cut = enumerate_totals(text, cap=7, paths=6000)
        distribution = odds(text)
        assert sum(distribution.probs.values()) + distribution.truncated == 1
        for total in set(oracle) | set(distribution.probs):
            low = oracle.get(total, Fraction(0))
            assert low <= distribution.probs.get(total, Fraction(0)) <= low + cut

    assert_every_case(COMPOUND_REROLL_IN_GROUPS_AND_COUNTS_MATCHES_THE_ROLLER, check, star=False)


# -- compare points, against Python's own operators ------------------------------------------

# Written here, not taken from rules.dice: the corpus's oracle rolls the project's own roller,
# so a compare point matching the wrong faces would agree with itself there.
OPERATORS: dict[str, Callable[[int, int], bool]] = {
    "=": lambda v, p: v == p,
    "<>": lambda v, p: v != p,
    "<": lambda v, p: v < p,
    ">": lambda v, p: v > p,
    "<=": lambda v, p: v <= p,
    ">=": lambda v, p: v >= p,
}


def counted(outcomes: Counter[int], denominator: int) -> dict[int, Fraction]:
    return {k: Fraction(n, denominator) for k, n in sorted(outcomes.items()) if n}


A_TARGET_COUNTS_THE_FACES_ITS_COMPARE_POINT_NAMES = [
    (op, point) for op in list(OPERATORS) for point in [1, 3, 6]
]


def test_a_target_counts_the_faces_its_compare_point_names() -> None:
    """RULES §0: «`>=` `>` `<=` `<` `=` `!=` … count successes instead of adding» (`<>` is
    the `!=` that cannot read as an explosion after a pool)."""

    def check(op: str, point: int) -> None:
        match = OPERATORS[op]
        successes: Counter[int] = Counter(
            sum(match(v, point) for v in dice) for dice in product(range(1, 7), repeat=3)
        )
        assert odds(f"3d6{op}{point}").probs == counted(successes, 216)

    assert_every_case(A_TARGET_COUNTS_THE_FACES_ITS_COMPARE_POINT_NAMES, check)


FAILURES_SUBTRACT_THE_FACES_THEIR_COMPARE_POINT_NAMES = [
    (op, point) for op in list(OPERATORS) for point in [1, 2, 4]
]


def test_failures_subtract_the_faces_their_compare_point_names() -> None:
    """RULES §0: «`10d10>=8f1` … successes minus failures»; a die that is a success is not
    also a failure."""

    def check(op: str, point: int) -> None:
        match = OPERATORS[op]
        net: Counter[int] = Counter()
        for dice in product(range(1, 7), repeat=3):
            net[sum(1 if v >= 5 else (-1 if match(v, point) else 0) for v in dice)] += 1
        assert odds(f"3d6>=5f{op}{point}").probs == counted(net, 216)

    assert_every_case(FAILURES_SUBTRACT_THE_FACES_THEIR_COMPARE_POINT_NAMES, check)


A_REROLL_ONCE_ROLLS_AGAIN_THE_FACES_ITS_COMPARE_POINT_NAMES = [
    (op, point) for op in list(OPERATORS) for point in [1, 3, 5]
]


def test_a_reroll_once_rolls_again_the_faces_its_compare_point_names() -> None:
    """RULES §0: «`r` / `ro` reroll (until the value no longer matches / once)»."""

    def check(op: str, point: int) -> None:
        match = OPERATORS[op]
        totals: Counter[int] = Counter()
        for first, second in product(range(1, 7), repeat=2):
            totals[second if match(first, point) else first] += 1
        assert odds(f"d6ro{op}{point}").probs == counted(totals, 36)

    assert_every_case(A_REROLL_ONCE_ROLLS_AGAIN_THE_FACES_ITS_COMPARE_POINT_NAMES, check)


A_REROLL_ENDS_ON_A_FACE_ITS_COMPARE_POINT_DOES_NOT_NAME = [
    (op, point) for op in list(OPERATORS) for point in [1, 3, 5]
]


def test_a_reroll_ends_on_a_face_its_compare_point_does_not_name() -> None:
    """RULES §0: «`r` … reroll (until the value no longer matches)»: the die ends evenly on
    the faces that do not match."""

    def check(op: str, point: int) -> None:
        match = OPERATORS[op]
        kept = [v for v in range(1, 7) if not match(v, point)]
        if kept:
            assert odds(f"d6r{op}{point}").probs == {v: Fraction(1, len(kept)) for v in kept}
        else:  # every face matches: the reroll would never stop
            with pytest.raises(DiceSyntaxError, match="на любой грани"):
                odds(f"d6r{op}{point}")

    assert_every_case(A_REROLL_ENDS_ON_A_FACE_ITS_COMPARE_POINT_DOES_NOT_NAME, check)
