"""Exact Древо odds against brute-force enumeration of every 4dF roll."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.drevo import (
    FOUR_DF,
    OPPOSED_OUTCOMES,
    OUTCOMES,
    Modifier,
    OneSidedCheck,
    OpposedCheck,
    Side,
    one_sided_odds,
    opposed_odds,
    resolve_one_sided,
    resolve_opposed,
)
from tests.every_case import assert_every_case
from tests.hypo import examples

FACES = (-1, 0, 1)


def brute_one_sided(bonus: int, difficulty: int) -> dict[str, Fraction]:
    """Count outcomes over all 81 rolls with the book's rule, written here independently."""
    tally: Counter[str] = Counter()
    rolls = list(product(FACES, repeat=4))
    for dice in rolls:
        if sum(dice) == 4:
            tally["crit_success"] += 1
        elif sum(dice) == -4:
            tally["crit_failure"] += 1
        elif sum(dice) + bonus >= difficulty:
            tally["success"] += 1
        else:
            tally["failure"] += 1
    return {k: Fraction(tally[k], len(rolls)) for k in OUTCOMES}


ROLLS = list(product(FACES, repeat=4))
#: Every 4dF roll up to the order of its dice, with the number of orders it comes in:
#: brute_opposed walks 15 x 15 of these instead of 81 x 81 ordered rolls (the same counts);
#: ``test_order_of_the_dice_changes_no_opposed_result`` proves the order does not matter.
SORTED_ROLLS = sorted(Counter(tuple(sorted(d)) for d in ROLLS).items())


@cache
def brute_opposed(a_bonus: int, b_bonus: int) -> dict[str, Fraction]:
    """Count win/tie/lose over all 6561 pairs of rolls via resolve_opposed."""
    check = OpposedCheck(a=Side(a_bonus), b=Side(b_bonus))
    tally: Counter[str] = Counter()
    for a, a_ways in SORTED_ROLLS:
        for b, b_ways in SORTED_ROLLS:
            tally[resolve_opposed(check, a, b).outcome] += a_ways * b_ways
    return {k: Fraction(tally[k], len(ROLLS) ** 2) for k in OPPOSED_OUTCOMES}


def test_order_of_the_dice_changes_no_opposed_result() -> None:
    """Сид: «Сравниваются суммы броска 4dF» — решают суммы, а не порядок кубиков: поэтому
    перебор встречных проверок проходит каждый набор граней один раз с весом числа его
    порядков."""
    check = OpposedCheck(a=Side(1, (Modifier(-1, "рана"),)), b=Side(2))
    for dice in ROLLS:
        ordered = tuple(sorted(dice))
        for other in ((1, 1, 1, 1), (-1, -1, -1, -1), (1, -1, 0, 0), (0, 1, 1, 0)):
            for a, b, a_sorted, b_sorted in (
                (dice, other, ordered, other),
                (other, dice, other, ordered),
            ):
                typed, sorted_ = (
                    resolve_opposed(check, a, b),
                    resolve_opposed(check, a_sorted, b_sorted),
                )
                assert (typed.outcome, typed.margin) == (sorted_.outcome, sorted_.margin), (a, b)
                seen = [(r.total, r.crit) for r in (typed.a, typed.b, sorted_.a, sorted_.b)]
                assert seen[:2] == seen[2:], (a, b)


def test_four_df_distribution() -> None:
    """Сид: «Сравниваются суммы броска 4dF» — распределение суммы четырёх кубиков Фудж."""
    assert FOUR_DF == dict(Counter(sum(d) for d in product(FACES, repeat=4)))
    assert sum(FOUR_DF.values()) == 81
    assert list(FOUR_DF) == sorted(FOUR_DF)


ONE_SIDED_ODDS_MATCH_ENUMERATION = range(-2, 6)


def test_one_sided_odds_match_enumeration() -> None:
    """Сид: «Если Успех персонажа больше или равен Сложности задачи — он попал в цель.
    Если меньше — промахнулся.»"""

    def check_case(trait: int) -> None:
        for modifier, difficulty in product(range(-2, 3), range(-3, 4)):
            check = OneSidedCheck(Side(trait, (Modifier(modifier, "ситуация"),)), difficulty)
            odds = one_sided_odds(check)
            assert list(odds) == list(OUTCOMES)
            assert odds == brute_one_sided(trait + modifier, difficulty)
            assert sum(odds.values()) == 1

    assert_every_case(ONE_SIDED_ODDS_MATCH_ENUMERATION, check_case, star=False)


def test_one_sided_odds_agree_with_resolve() -> None:
    """Сид: «Если при броске 4dF выпадает «+4» — это критический успех ... вне зависимости
    от Сложности задачи» — шансы и разбор броска считают одно и то же."""
    check = OneSidedCheck(Side(1, (Modifier(-1, "Лёгкая рана"),)), 2)
    rolls = list(product(FACES, repeat=4))
    tally = Counter(resolve_one_sided(check, d).outcome for d in rolls)
    assert one_sided_odds(check) == {k: Fraction(tally[k], len(rolls)) for k in OUTCOMES}


OPPOSED_ODDS_MATCH_ENUMERATION = [-2, 0, 1, 3, 5]


def test_opposed_odds_match_enumeration() -> None:
    """Сид: «При встречных проверках критический успех персонажа аннулируется критическим
    успехом противника, а критический провал — критическим провалом.»"""

    def check(a_trait: int) -> None:
        for b_trait in (-1, 0, 2, 4):
            odds = opposed_odds(OpposedCheck(a=Side(a_trait), b=Side(b_trait)))
            assert list(odds) == list(OPPOSED_OUTCOMES)
            assert odds == brute_opposed(a_trait, b_trait)
            assert sum(odds.values()) == 1

    assert_every_case(OPPOSED_ODDS_MATCH_ENUMERATION, check, star=False)


def test_opposed_odds_count_modifiers_and_mirror() -> None:
    """Сид: «Модификатор имеет числовое значение (положительное или отрицательное)
    и складывается с результатом проверки.»"""
    a = Side(2, (Modifier(-2, "Ранение"),))
    b = Side(1, (Modifier(1, "щит"),))
    odds = opposed_odds(OpposedCheck(a=a, b=b))
    assert odds == brute_opposed(0, 2)
    mirror = opposed_odds(OpposedCheck(a=b, b=a))
    assert (mirror["win"], mirror["tie"], mirror["lose"]) == (
        odds["lose"],
        odds["tie"],
        odds["win"],
    )


@settings(max_examples=examples(20), deadline=None)
@given(
    trait=st.integers(-20, 20),
    mods=st.lists(st.integers(-5, 5), max_size=3),
    difficulty=st.integers(-20, 20),
)
def test_one_sided_odds_property(trait: int, mods: list[int], difficulty: int) -> None:
    """Сид: «Если его Успех больше или равен Сложности задачи — он поразил цель.»
    — для любых чисел шансы точны и в сумме дают 1."""
    check = OneSidedCheck(Side(trait, tuple(Modifier(m, "") for m in mods)), difficulty)
    odds = one_sided_odds(check)
    assert sum(odds.values()) == 1
    assert odds == brute_one_sided(trait + sum(mods), difficulty)
    assert odds["crit_success"] == odds["crit_failure"] == Fraction(1, 81)


@settings(max_examples=examples(25), deadline=None)
@given(a=st.integers(-8, 8), b=st.integers(-8, 8))
def test_opposed_odds_property(a: int, b: int) -> None:
    """Сид: «тот, чей результат выше, — победил» — для любых чисел шансы точны,
    в сумме дают 1 и не убывают с навыком."""
    odds = opposed_odds(OpposedCheck(a=Side(a), b=Side(b)))
    assert sum(odds.values()) == 1
    assert odds == brute_opposed(a, b)
    better = opposed_odds(OpposedCheck(a=Side(a + 1), b=Side(b)))
    assert better["win"] >= odds["win"]
