"""Exact Старатели odds against brute-force enumeration of every 2d6 / 3d6 roll."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.starately import (
    ChainResult,
    Check,
    GroupCheck,
    GroupResult,
    Opposed,
    OpposedResult,
    Side,
    TaskChain,
    chain_odds,
    check_odds,
    group_odds,
    natural_counts,
    opposed_odds,
    resolve,
    resolve_chain,
    resolve_group,
    resolve_opposed,
)
from tests.every_case import assert_every_case
from tests.hypo import examples

ALL = {n: list(product(range(1, 7), repeat=2 + abs(n))) for n in (-1, 0, 1)}
#: Every roll up to the order of its dice, with the number of orders it comes in: the tests that
#: enumerate two or three rolls together walk these (1,176 to 9,261 cases instead of 7,776 to
#: 46,656); ``test_order_of_the_dice_changes_no_result`` proves the order does not matter.
SORTED = {n: sorted(Counter(tuple(sorted(d)) for d in ALL[n]).items()) for n in (-1, 0, 1)}


def side(bonus: int, net: int = 0, **kwargs: object) -> Side:
    return Side(dm=bonus, skill=0, boons=max(net, 0), banes=max(-net, 0), **kwargs)  # type: ignore[arg-type]


def brute(bonus: int, net: int, difficulty: int) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """Count outcomes and Effects over every roll with the book's rule, written independently."""
    outcomes: Counter[str] = Counter()
    effects: Counter[int] = Counter()
    for dice in ALL[net]:
        ordered = sorted(dice)
        kept = ordered[-2:] if net > 0 else ordered[:2] if net < 0 else ordered
        natural, effect = sum(kept), sum(kept) + bonus - difficulty
        ok = natural == 12 or (natural != 2 and effect >= 0)
        outcomes["success" if ok else "failure"] += 1
        effects[effect] += 1
    n = len(ALL[net])
    return (
        {k: Fraction(outcomes[k], n) for k in ("success", "failure")},
        {e: Fraction(c, n) for e, c in sorted(effects.items())},
    )


@pytest.mark.parametrize("net", [-1, 0, 1])
def test_natural_distribution_matches_icepool(net: int) -> None:
    """Сид: «в таких случаях вы кидаете на одну кость больше, и убираете большую (в случае
    потери) или меньшую (в случае получения) из них» — сверка с icepool."""
    pool = icepool.d6.pool(2 + abs(net))
    die = pool.highest(2).sum() if net > 0 else pool.lowest(2).sum() if net < 0 else pool.sum()
    ours = dict(natural_counts(net))
    total = sum(ours.values())
    assert total == 6 ** (2 + abs(net))
    for natural, ways in ours.items():
        assert Fraction(ways, total) == Fraction(die.quantity(natural), die.denominator())


CHECK_ODDS_EQUAL_ENUMERATION = [
    (net, bonus, difficulty)
    for (bonus, difficulty) in [(-4, 8), (0, 8), (2, 10), (6, 6), (0, 14)]
    for net in [-1, 0, 1]
]


def test_check_odds_equal_enumeration() -> None:
    """Сид: «Если на кубах выпадает натуральное 12 - это автоматический успех. Натуральное 2 -
    это автоматический провал.» и «Разность между броском и сложностью называется Эффектом»."""

    def check(net: int, bonus: int, difficulty: int) -> None:
        odds = check_odds(Check(side(bonus, net), difficulty))
        outcomes, effects = brute(bonus, net, difficulty)
        assert odds.outcomes == outcomes
        assert odds.effect == effects
        assert sum(odds.outcomes.values()) == 1
        assert sum(odds.effect.values()) == 1

    assert_every_case(CHECK_ODDS_EQUAL_ENUMERATION, check)


@settings(max_examples=examples(60), deadline=None)
@given(
    bonus=st.integers(-8, 8),
    difficulty=st.integers(2, 16),
    boons=st.integers(0, 4),
    banes=st.integers(0, 4),
)
def test_check_odds_property(bonus: int, difficulty: int, boons: int, banes: int) -> None:
    """Сид: «Несколько таких модификаторов могут отменять друг друга, но в любом случае
    кидается не более 3 костей» — шансы равны перебору для любого числа +d6/−d6."""
    net = (boons > banes) - (boons < banes)
    check = Check(Side(dm=bonus, skill=0, boons=boons, banes=banes), difficulty)
    assert check_odds(check).outcomes == brute(bonus, net, difficulty)[0]


def test_natural_rolls_are_reported() -> None:
    """Сид: «Натуральное 12 - это автоматический успех. Натуральное 2 - это автоматический
    провал.»"""
    plain = check_odds(Check(side(0), 8))
    assert plain.natural_success == Fraction(1, 36)
    assert plain.natural_failure == Fraction(1, 36)
    hopeless = check_odds(Check(side(-10), 8))
    assert hopeless.outcomes["success"] == Fraction(1, 36)  # only the natural 12
    boon = check_odds(Check(side(0, 1), 8))
    assert boon.natural_success == Fraction(16, 216)  # two or three sixes
    assert boon.natural_failure == Fraction(1, 216)


def test_risk_odds() -> None:
    """Сид: «При провале любой проверки игрок может заявить, что он Рискует – в таком случае
    проверка совершается повторно, давая еще один шанс на успех.»"""
    odds = check_odds(Check(side(0), 8))
    p = Fraction(15, 36)
    assert odds.outcomes["success"] == p
    assert odds.with_risk == p + (1 - p) * p


def test_chain_odds_equal_enumeration() -> None:
    """Сид: «весь Эффект этого броска станет модификатором для броска Хаима» — шансы цепочки
    равны перебору обоих бросков."""
    chain = TaskChain(side(2, 1), Check(side(1), 12))
    tally: Counter[str] = Counter()
    effects: Counter[int] = Counter()
    for helper_dice, h_ways in SORTED[1]:
        for main_dice, m_ways in SORTED[0]:
            result = resolve_chain(chain, helper_dice, main_dice).main
            tally[result.outcome] += h_ways * m_ways
            effects[result.effect] += h_ways * m_ways
    n = len(ALL[1]) * len(ALL[0])
    odds = chain_odds(chain)
    assert odds.outcomes == {k: Fraction(tally[k], n) for k in ("success", "failure")}
    assert odds.effect == {e: Fraction(c, n) for e, c in sorted(effects.items())}


def test_group_odds_equal_enumeration() -> None:
    """Сид: «Все остальные персонажи могут совершить бросок по той же сложности, в случае
    успеха к основному броску добавляется модификатор +1, в случае провала штрафов нет.»"""
    group = GroupCheck(Check(Side(dm=1, skill=3), 10), (Side(dm=0, skill=1), Side(dm=0, skill=1)))
    tally: Counter[str] = Counter()
    for (a, a_ways), (b, b_ways), (main, m_ways) in product(SORTED[0], SORTED[0], SORTED[0]):
        tally[resolve_group(group, [a, b], main).outcome] += a_ways * b_ways * m_ways
    n = 36**3
    assert group_odds(group).outcomes == {k: Fraction(tally[k], n) for k in ("success", "failure")}
    assert group_odds(group).outcomes["success"] > check_odds(group.main).outcomes["success"]


@pytest.mark.parametrize(("initiator", "a_pc"), [("a", True), ("b", True), (None, False)])
def test_opposed_odds_equal_enumeration(initiator: str | None, a_pc: bool) -> None:
    """Сид: «кто бросит выше, тот и победил. В случае ничьёй побеждает инициатор проверки, если
    такого нельзя определить однозначно – то персонаж игрока»."""
    check = Opposed(side(1, 1, pc=a_pc), side(2, -1, pc=not a_pc), initiator)
    wins: Counter[str] = Counter()
    ties = 0
    for a, a_ways in SORTED[1]:
        for b, b_ways in SORTED[-1]:
            result = resolve_opposed(check, a, b)
            wins[result.winner] += a_ways * b_ways
            ties += result.tie * a_ways * b_ways
    n = len(ALL[1]) * len(ALL[-1])
    odds = opposed_odds(check)
    assert (odds.a, odds.b, odds.tie) == (
        Fraction(wins["a"], n),
        Fraction(wins["b"], n),
        Fraction(ties, n),
    )


def test_odds_match_resolve_for_every_roll() -> None:
    """Сид: «Основной её бросок - это бросок 2д6 по заданной сложности» — шансы и бросок
    считаются из одних и тех же входных данных."""
    check = Check(Side(dm=1, skill=None, banes=2, boons=1), 6)
    tally = Counter(resolve(check, dice).outcome for dice in ALL[-1])
    odds = check_odds(check)
    assert odds.outcomes["success"] == Fraction(tally["success"], 216)


def test_opposed_odds_equal_enumeration_when_naturals_decide() -> None:
    """RULES [default]: «Natural 12 and 2 are flagged but decide nothing there» — a campaign may
    switch ``[opposed] naturals_decide`` on; the odds still equal the enumeration."""
    from rules import data

    table = {
        k: (dict(v) if isinstance(v, dict) else v)
        for k, v in data.packaged_table("starately/check.toml").items()
    }
    table["opposed"] = {"naturals_decide": True}
    data.set_overrides({"starately/check.toml": table})
    try:
        check = Opposed(side(-1), side(6, 1, pc=False), "a")
        result = resolve_opposed(check, (6, 6), (5, 5, 5))
        assert (result.winner, result.decided_by) == ("a", "natural")
        wins: Counter[str] = Counter()
        for a, a_ways in SORTED[0]:
            for b, b_ways in SORTED[1]:
                wins[resolve_opposed(check, a, b).winner] += a_ways * b_ways
        n = len(ALL[0]) * len(ALL[1])
        assert opposed_odds(check).a == Fraction(wins["a"], n)
        table["opposed"] = {"naturals_decide": "да"}
        data.set_overrides({"starately/check.toml": table})
        with pytest.raises(RulesError, match="naturals_decide"):
            opposed_odds(check)
    finally:
        data.set_overrides(None)


def _opposed(result: OpposedResult) -> tuple[object, ...]:
    return (result.winner, result.tie, result.margin, result.a.total, result.b.total)


def _main(result: ChainResult | GroupResult) -> tuple[object, ...]:
    return (result.main.outcome, result.main.effect, result.main.auto)


def test_order_of_the_dice_changes_no_result() -> None:
    """Сид: «вы кидаете на одну кость больше, и убираете большую (в случае потери) или меньшую
    (в случае получения) из них» — которую кость убрать, решает её значение, а не место: поэтому
    перебор выше проходит каждый набор граней один раз с весом числа его порядков."""
    chain = TaskChain(side(2, 1), Check(side(1), 12))
    group = GroupCheck(Check(Side(dm=1, skill=3), 10), (Side(dm=0, skill=1), Side(dm=0, skill=1)))
    opposed = Opposed(side(1, 1), side(2, -1), "a")
    even = Opposed(side(-1), side(6, 1, pc=False), "a")
    Decide = Callable[[tuple[int, ...]], tuple[object, ...]]
    cases: list[tuple[int, Decide]] = [
        (1, lambda d: _main(resolve_chain(chain, d, (3, 4)))),
        (0, lambda d: _main(resolve_chain(chain, (2, 6, 4), d))),
        (0, lambda d: _main(resolve_group(group, [d, (3, 3)], (4, 4)))),
        (0, lambda d: _main(resolve_group(group, [(5, 6), d], (4, 2)))),
        (0, lambda d: _main(resolve_group(group, [(1, 1), (6, 6)], d))),
        (1, lambda d: _opposed(resolve_opposed(opposed, d, (2, 3, 4)))),
        (-1, lambda d: _opposed(resolve_opposed(opposed, (5, 1, 6), d))),
        (0, lambda d: _opposed(resolve_opposed(even, d, (4, 4, 4)))),
        (1, lambda d: _opposed(resolve_opposed(even, (6, 6), d))),
    ]
    for net, decide in cases:
        for dice in ALL[net]:
            assert decide(dice) == decide(tuple(sorted(dice))), dice
