"""Exact Мир Тьмы odds against enumeration of face sequences and against icepool."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import count, product

import icepool
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules.wod import OUTCOMES, Modifier, Pool, pool_counts, pool_odds
from tests.every_case import assert_every_case
from tests.hypo import examples

TENTH = Fraction(1, 10)
DEPTH = 6  # brute force follows explosion chains this deep: exact for up to 6 successes


def chain_sequences(again: int | None, depth: int, threshold: int = 8) -> Iterator[tuple[int, int]]:
    """Every face sequence of one die's explosion chain: (faces drawn, successes); each sequence
    of ``k`` faces has probability 1/10**k."""
    for face in range(1, 11):
        hit = int(face >= threshold)
        if again is not None and face >= again:
            if depth == 0:
                continue  # cut: more explosions than the brute force follows
            for k, s in chain_sequences(again, depth - 1, threshold):
                yield 1 + k, hit + s
        else:
            yield 1, hit


def die_sequences(again: int | None, rote: bool, threshold: int = 8) -> Iterator[tuple[int, int]]:
    """Every face sequence of one pool die, rote reroll included: (faces drawn, successes)."""
    for face in range(1, 11):
        if face < threshold and rote:
            for k, s in chain_sequences(again, DEPTH, threshold):
                yield 1 + k, s
        elif again is not None and face >= again:
            for k, s in chain_sequences(again, DEPTH - 1, threshold):
                yield 1 + k, 1 + s
        else:
            yield 1, int(face >= threshold)


@cache
def brute_die(again: int | None, rote: bool, threshold: int = 8) -> dict[int, Fraction]:
    # Count the sequences per (successes, length) in integers; fractions once at the end.
    ways = Counter(die_sequences(again, rote, threshold))
    tally: Counter[int] = Counter()
    for (k, s), n in ways.items():
        tally[s] += Fraction(n, 10**k)  # type: ignore[assignment]
    return dict(tally)


def brute_pool(n: int, again: int | None, rote: bool, threshold: int = 8) -> dict[int, Fraction]:
    """Sum over every combination of the dice's enumerated outcomes (itertools.product)."""
    tally: Counter[int] = Counter()
    die = list(brute_die(again, rote, threshold).items())
    for combo in product(die, repeat=n):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        tally[sum(s for s, _ in combo)] += p  # type: ignore[assignment]
    return dict(tally)


POOL_ODDS_EQUAL_ENUMERATION = [
    (n, again, rote) for n in [1, 2, 3] for rote in [False, True] for again in [10, 9, 8, None]
]


def test_pool_odds_equal_enumeration() -> None:
    """RULES.md §3: «each die ≥ 8 is a success; 10-again (a 10 adds a die; options 9-again,
    8-again, none); rote (reroll failed dice once) as an option; 5+ successes → exceptional
    success; 0 → failure.»"""

    def check(n: int, again: int | None, rote: bool) -> None:
        odds = pool_odds(Pool(n, again=again, rote=rote))
        brute = brute_pool(n, again, rote)
        for k in range(DEPTH + 1):  # every count the brute force enumerates in full
            assert odds.successes.get(k, Fraction(0)) == brute.get(k, Fraction(0)), k
        assert odds.outcomes["failure"] == brute[0]
        assert odds.outcomes["success"] == sum(brute.get(k, Fraction(0)) for k in range(1, 5))
        assert odds.outcomes["dramatic_failure"] == 0
        assert sum(odds.outcomes.values()) == 1
        assert list(odds.outcomes) == list(OUTCOMES)

    assert_every_case(POOL_ODDS_EQUAL_ENUMERATION, check)


@cache
def icepool_die(again: int | None, rote: bool, depth: int = 40, threshold: int = 8) -> icepool.Die:
    """One pool die's success count built with icepool, independently of rules.wod."""
    d10 = icepool.d10

    @cache
    def chain(k: int) -> icepool.Die:
        if k == 0 or again is None:
            return d10.map(lambda x: int(x >= threshold))
        return d10.map(lambda x: 1 + chain(k - 1) if x >= again else int(x >= threshold))

    if not rote:
        return chain(depth)

    def first(x: int) -> icepool.Die | int:
        if x < threshold:
            return chain(depth)
        return 1 + chain(depth - 1) if again is not None and x >= again else 1

    return d10.map(first)


def oracle_depth(n: int, again: int | None) -> int:
    """The chain depth at which icepool's ``n`` dice are exact to 1e-14, far inside the test's
    1e-12: a die's chain (its rote reroll's too) goes past ``depth`` explosions with chance at
    most ``p**depth`` (``p`` the chance of an n-again), so no count of the pool moves by more than
    ``2 * n * p**depth``. (A fixed 40 cost 2.5× the CPU for digits far past the tolerance.)"""
    if again is None:
        return 1
    p = Fraction(11 - again, 10)
    return next(depth for depth in count(1) if 2 * n * p**depth < Fraction(1, 10**14))


@pytest.mark.parametrize(("again", "rote"), [(10, True), (10, False), (8, True), (None, True)])
@pytest.mark.parametrize("n", [4, 12, 30])
def test_pool_odds_match_icepool(n: int, again: int | None, rote: bool) -> None:
    """RULES.md §0: «Infinite explosions (10-again, `!`) are truncated where the remaining
    probability is below 1e-12 and the truncation is reported» — сверка с icepool."""
    odds = pool_odds(Pool(n, again=again, rote=rote))
    oracle = n @ icepool_die(again, rote, oracle_depth(n, again))
    for k, p in odds.successes.items():
        assert abs(float(p) - float(oracle.probability(k))) < 1e-12, k
    assert abs(float(odds.outcomes["exceptional_success"]) - oracle.probability(">=", 5)) < 1e-12
    assert odds.outcomes["failure"] == Fraction(oracle.quantity(0), oracle.denominator())
    assert odds.truncated < Fraction(1, 10**12)


def test_truncation_is_reported_and_bounded() -> None:
    """RULES.md §0: «truncated where the remaining probability is below 1e-12 and the
    truncation is reported» — даже для запаса в 100 кубов с «8-снова»."""
    big = pool_odds(Pool(50, 50, again=8, rote=True))
    assert 0 < big.truncated < Fraction(1, 10**12)
    assert sum(big.successes.values()) + big.truncated == 1
    assert sum(big.outcomes.values()) == 1
    none = pool_odds(Pool(6, again=None))
    assert none.truncated == 0
    assert sum(none.successes.values()) == 1


# -- the exact low counts behind the four outcomes (what the builder shows) ---------------------

# (n-again, threshold): the book's 8+ with each n-again, and campaign thresholds from 2 to 10.
AGAIN_THRESHOLDS = [(10, 8), (9, 8), (8, 8), (None, 8), (10, 6), (9, 9), (10, 10), (None, 2)]


LOW_COUNTS_EQUAL_ENUMERATION = [
    (n, again, threshold, rote)
    for n in [1, 2, 3]
    for rote in [False, True]
    for (again, threshold) in AGAIN_THRESHOLDS
]


def test_low_counts_equal_enumeration() -> None:
    """RULES.md §3: «each die ≥ 8 is a success; 10-again (a 10 adds a die; options 9-again,
    8-again, none); rote (reroll failed dice once) as an option; 5+ successes → exceptional
    success; 0 → failure.» RULES.md: «Every [default] value lives in a data file under `data/`
    … and a GM can change it per campaign» — so the threshold and the 5 vary too."""

    def check(n: int, again: int | None, threshold: int, rote: bool) -> None:
        brute = brute_pool(n, again, rote, threshold)
        for exceptional in (1, 3, 5, DEPTH + 1):  # the brute force is exact up to DEPTH successes
            pool = Pool(
                n, again=again, rote=rote, success_threshold=threshold, exceptional=exceptional
            )
            odds = pool_odds(pool)
            assert odds.low == {k: brute.get(k, Fraction(0)) for k in range(exceptional)}
            assert odds.outcomes["exceptional_success"] == 1 - sum(odds.low.values())
            assert odds.outcomes["success"] == sum(list(odds.low.values())[1:], Fraction(0))
            assert odds.outcomes["failure"] == odds.low[0]
            assert odds.outcomes["dramatic_failure"] == 0

    assert_every_case(LOW_COUNTS_EQUAL_ENUMERATION, check)


LOW_COUNTS_EQUAL_ICEPOOL = [
    (12, 10, True, 8, 5),
    (30, 10, True, 8, 5),
    (30, 10, False, 8, 5),
    (20, 9, False, 8, 5),
    (30, 8, True, 8, 5),
    (25, None, True, 8, 5),
    (15, 10, False, 7, 6),
    (15, 9, True, 9, 3),
    (60, 8, False, 6, 8),
]


def test_low_counts_equal_icepool() -> None:
    """RULES.md §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling)» — и для больших запасов: те же дроби, что у icepool."""

    def check(n: int, again: int | None, rote: bool, threshold: int, exceptional: int) -> None:
        pool = Pool(n, again=again, rote=rote, success_threshold=threshold, exceptional=exceptional)
        odds = pool_odds(pool)
        # Events cut from a chain `exceptional` explosions deep all have more successes than that.
        oracle = n @ icepool_die(again, rote, exceptional, threshold)
        assert odds.low == {k: oracle.probability(k) for k in range(exceptional)}
        assert odds.outcomes["exceptional_success"] == oracle.probability(">=", exceptional)

    assert_every_case(LOW_COUNTS_EQUAL_ICEPOOL, check)


def test_whole_distribution_is_built_on_first_use_and_agrees() -> None:
    """RULES.md §0: «Exact odds: every check has an exact outcome distribution … and the
    truncation is reported» — the outcomes need only the counts below the exceptional
    threshold; the cut distribution of every count is built when asked for."""
    pool_counts.cache_clear()
    odds = pool_odds(Pool(23, again=9, rote=True, success_threshold=7, exceptional=4))
    assert pool_counts.cache_info().currsize == 0  # the outcomes did not need it
    assert {k: odds.successes[k] for k in range(4)} == odds.low
    assert pool_counts.cache_info().currsize > 0
    assert 0 < odds.truncated < Fraction(1, 10**12)
    assert odds.outcomes["exceptional_success"] == sum(
        (p for k, p in odds.successes.items() if k >= 4), odds.truncated
    )


@settings(deadline=None, max_examples=examples(60))
@given(
    size=st.integers(1, 40),
    again=st.sampled_from([10, 9, 8, None]),
    rote=st.booleans(),
    threshold=st.integers(2, 10),
    exceptional=st.integers(1, 8),
)
def test_low_counts_agree_with_the_whole_distribution(
    size: int, again: int | None, rote: bool, threshold: int, exceptional: int
) -> None:
    """RULES.md §3: «each die ≥ 8 is a success; 10-again …; rote (reroll failed dice once) as
    an option; 5+ successes → exceptional success» — with any campaign's numbers the outcomes
    sum to 1 and the low counts equal the whole distribution's."""
    assume(again is None or again >= threshold)
    pool = Pool(size, again=again, rote=rote, success_threshold=threshold, exceptional=exceptional)
    odds = pool_odds(pool)
    assert sum(odds.outcomes.values()) == 1
    assert list(odds.low) == list(range(exceptional))
    assert all(0 <= p <= 1 for p in odds.low.values())
    assert odds.low == {k: odds.successes.get(k, Fraction(0)) for k in range(exceptional)}


def test_low_counts_of_a_hundred_dice() -> None:
    """RULES.md §3: «Pool … attribute + skill + modifiers dice of d10» — up to 100 dice."""
    odds = pool_odds(Pool(50, 50, again=8, rote=True))
    assert odds.low == {k: odds.successes.get(k, Fraction(0)) for k in range(5)}
    assert odds.low[0] == Fraction(49, 100) ** 100  # every die fails twice (7 of 10 faces each)


def test_modifiers_change_the_pool() -> None:
    """RULES.md §3: «attribute + skill + modifiers dice of d10»."""
    assert pool_odds(Pool(3, 2, (Modifier(-2, "рана"),))) == pool_odds(Pool(3))


def chance_sequences(depth: int) -> Iterator[tuple[Fraction, int, bool]]:
    """Every face sequence of a chance die: (probability, successes, dramatic)."""
    for face in range(1, 11):
        if face == 10:
            if depth:
                for p, s, _ in chance_sequences(depth - 1):
                    yield TENTH * p, 1 + s, False
        else:
            yield TENTH, 0, face == 1 and depth == DEPTH


def test_chance_die_odds() -> None:
    """Сид: «Вы должны выкинуть 10. … Как и обычно, вы можете перебросить полученную
    “десятку”.» «Полный провал может произойти только тогда, когда персонаж делает бросок на
    удачу и получает результат 1.» «Результаты 8 и 9 не дают успехов даже при перебрасывании
    дайса.»"""
    odds = pool_odds(Pool(1, 0, (Modifier(-1, "штраф"),)))
    assert odds.outcomes == {
        "exceptional_success": Fraction(1, 10**5),
        "success": Fraction(1, 10) - Fraction(1, 10**5),
        "failure": Fraction(8, 10),
        "dramatic_failure": Fraction(1, 10),
    }
    tally: Counter[tuple[int, bool]] = Counter()
    for p, s, dramatic in chance_sequences(DEPTH):
        tally[(s, dramatic)] += p  # type: ignore[assignment]
    assert tally[(0, True)] == odds.outcomes["dramatic_failure"]
    assert tally[(0, False)] == odds.outcomes["failure"]
    for k in range(DEPTH):
        assert odds.successes[k] == tally[(k, False)] + tally[(k, True)], k
    assert odds.low == {k: tally[(k, False)] + tally[(k, True)] for k in range(5)}
    assert 0 < odds.truncated < Fraction(1, 10**12)
    deep = pool_odds(Pool(0, exceptional=15))  # past the 12 successes the distribution lists
    assert deep.outcomes["exceptional_success"] == Fraction(1, 10**15)
    assert deep.low[14] == Fraction(9, 10**15)


def test_chance_die_ignores_again_and_rote() -> None:
    """Сид: «независимо от того, сколько десяток вы перебросили, уровень сложности остаётся
    равен 10. Результаты 8 и 9 не дают успехов даже при перебрасывании дайса.»"""
    plain = pool_odds(Pool(0))
    assert pool_odds(Pool(0, again=8, rote=True)) == plain
    assert pool_odds(Pool(0, again=None)) == plain
