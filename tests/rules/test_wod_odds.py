"""Exact Мир Тьмы odds against enumeration of face sequences and against icepool."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest

from rules.wod import OUTCOMES, Modifier, Pool, pool_odds

TENTH = Fraction(1, 10)
DEPTH = 6  # brute force follows explosion chains this deep: exact for up to 6 successes


def chain_sequences(again: int | None, depth: int) -> Iterator[tuple[Fraction, int]]:
    """Every face sequence of one die's explosion chain: (probability, successes)."""
    for face in range(1, 11):
        hit = int(face >= 8)
        if again is not None and face >= again:
            if depth == 0:
                continue  # cut: more explosions than the brute force follows
            for p, s in chain_sequences(again, depth - 1):
                yield TENTH * p, hit + s
        else:
            yield TENTH, hit


def die_sequences(again: int | None, rote: bool) -> Iterator[tuple[Fraction, int]]:
    """Every face sequence of one pool die, rote reroll included."""
    for face in range(1, 11):
        if face < 8 and rote:
            for p, s in chain_sequences(again, DEPTH):
                yield TENTH * p, s
        elif again is not None and face >= again:
            for p, s in chain_sequences(again, DEPTH - 1):
                yield TENTH * p, 1 + s
        else:
            yield TENTH, int(face >= 8)


@cache
def brute_die(again: int | None, rote: bool) -> dict[int, Fraction]:
    tally: Counter[int] = Counter()
    for p, s in die_sequences(again, rote):
        tally[s] += p  # type: ignore[assignment]
    return dict(tally)


def brute_pool(n: int, again: int | None, rote: bool) -> dict[int, Fraction]:
    """Sum over every combination of the dice's enumerated outcomes (itertools.product)."""
    tally: Counter[int] = Counter()
    die = list(brute_die(again, rote).items())
    for combo in product(die, repeat=n):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        tally[sum(s for s, _ in combo)] += p  # type: ignore[assignment]
    return dict(tally)


@pytest.mark.parametrize("again", [10, 9, 8, None])
@pytest.mark.parametrize("rote", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_pool_odds_equal_enumeration(n: int, again: int | None, rote: bool) -> None:
    """RULES.md §3: «each die ≥ 8 is a success; 10-again (a 10 adds a die; options 9-again,
    8-again, none); rote (reroll failed dice once) as an option; 5+ successes → exceptional
    success; 0 → failure.»"""
    odds = pool_odds(Pool(n, again=again, rote=rote))
    brute = brute_pool(n, again, rote)
    for k in range(DEPTH + 1):  # every count the brute force enumerates in full
        assert odds.successes.get(k, Fraction(0)) == brute.get(k, Fraction(0)), k
    assert odds.outcomes["failure"] == brute[0]
    assert odds.outcomes["success"] == sum(brute.get(k, Fraction(0)) for k in range(1, 5))
    assert odds.outcomes["dramatic_failure"] == 0
    assert sum(odds.outcomes.values()) == 1
    assert list(odds.outcomes) == list(OUTCOMES)


@cache
def icepool_die(again: int | None, rote: bool, depth: int = 40) -> icepool.Die:
    """One pool die's success count built with icepool, independently of rules.wod."""
    d10 = icepool.d10

    @cache
    def chain(k: int) -> icepool.Die:
        if k == 0 or again is None:
            return d10.map(lambda x: int(x >= 8))
        return d10.map(lambda x: 1 + chain(k - 1) if x >= again else int(x >= 8))

    if not rote:
        return chain(depth)

    def first(x: int) -> icepool.Die | int:
        if x < 8:
            return chain(depth)
        return 1 + chain(depth - 1) if again is not None and x >= again else 1

    return d10.map(first)


@pytest.mark.parametrize(("again", "rote"), [(10, True), (10, False), (8, True), (None, True)])
@pytest.mark.parametrize("n", [4, 12, 30])
def test_pool_odds_match_icepool(n: int, again: int | None, rote: bool) -> None:
    """RULES.md §0: «Infinite explosions (10-again, `!`) are truncated where the remaining
    probability is below 1e-12 and the truncation is reported» — сверка с icepool."""
    odds = pool_odds(Pool(n, again=again, rote=rote))
    oracle = n @ icepool_die(again, rote)
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
    assert 0 < odds.truncated < Fraction(1, 10**12)


def test_chance_die_ignores_again_and_rote() -> None:
    """Сид: «независимо от того, сколько десяток вы перебросили, уровень сложности остаётся
    равен 10. Результаты 8 и 9 не дают успехов даже при перебрасывании дайса.»"""
    plain = pool_odds(Pool(0))
    assert pool_odds(Pool(0, again=8, rote=True)) == plain
    assert pool_odds(Pool(0, again=None)) == plain
