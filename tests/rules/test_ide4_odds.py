"""Exact IDE4™ odds against brute-force enumeration, written here independently of the rules.

The reference classifier and bands come from RULES.md §1 (the campaign defaults shipped in
``data/ide4/bands.toml``); the sum of the energy dice is enumerated with ``itertools`` for few
dice and convolved by a plain ``Counter`` loop (or by icepool) for many.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case
from tests.hypo import examples

SIZES = (4, 6, 8, 10, 12, 20)
# RULES.md: final → (Трагедия natural ≤, Средне total ≥, Успех total ≥, Триумф natural ≥).
BANDS = {
    1: (1, 11, 26, 91),
    2: (2, 21, 41, 93),
    3: (3, 31, 56, 95),
    4: (4, 41, 71, 97),
    5: (5, 51, 81, 99),
    6: (6, 61, 91, 100),
    7: (10, 81, None, None),  # Успех on a natural 100 only, never Триумф
}


def reference(final: int, natural: int, energy: int) -> str:
    """Classify one roll straight from RULES.md, independently of rules.ide4."""
    tragedy, middle, success, triumph = BANDS[final]
    total = min(100, natural + energy)
    if natural <= tragedy:
        return "tragedy"
    if triumph is not None and natural >= triumph:
        return "triumph"
    if (success is None and natural == 100) or (success is not None and total >= success):
        return "success"
    return "middle" if total >= middle else "failure"


@cache
def classified(final: int) -> tuple[tuple[str, ...], ...]:
    """``reference`` for every natural 1…100 (row) and energy 0…99 (column), computed once per
    difficulty: the tallies below look each case up instead of classifying it again."""
    return tuple(
        tuple(reference(final, natural, energy) for energy in range(100))
        for natural in range(101)  # row 0 unused: the rows are the naturals
    )


def tally(final: int, sums: Counter[int]) -> dict[str, Fraction]:
    # Energy 99 or more brings every natural (1 at least) to the cap of 100, so those sums are
    # one case for ``reference``: classify it once with all their ways (up to 191 energy sums
    # become at most 100).
    capped: Counter[int] = Counter()
    for energy, ways in sums.items():
        capped[min(energy, 99)] += ways
    table = classified(final)
    counts: Counter[str] = Counter()
    for natural in range(1, 101):
        row = table[natural]
        for energy, ways in capped.items():
            counts[row[energy]] += ways
    whole = 100 * sum(sums.values())
    return {k: Fraction(counts[k], whole) for k in ide4.OUTCOMES}


def enumerated(final: int, count: int, die: int) -> dict[str, Fraction]:
    """Every energy roll listed by itertools.product."""
    return tally(final, Counter(sum(r) for r in product(range(1, die + 1), repeat=count)))


@cache
def convolved(count: int, die: int) -> Counter[int]:
    """The sum of ``count`` dice by repeated Counter convolution (no prefix-sum tricks)."""
    sums: Counter[int] = Counter({0: 1})
    for _ in range(count):
        nxt: Counter[int] = Counter()
        for s, ways in sums.items():
            for face in range(1, die + 1):
                nxt[s + face] += ways
        sums = nxt
    return sums


def test_bands_file_holds_the_documented_defaults() -> None:
    """RULES.md: «Outcome bands [default] (`data/ide4/bands.toml`; the seed refers to a band
    table it does not print)» — the shipped table is the one documented."""
    for final, (tragedy, middle, success, triumph) in BANDS.items():
        band = ide4.band_for(final)
        assert (band.tragedy_max, band.middle_min, band.triumph_min) == (tragedy, middle, triumph)
        assert band.success_min == (100 if success is None else success)
        assert band.success_natural == (success is None)


ODDS_MATCH_ITERTOOLS_ENUMERATION_FOR_FEW_DICE = range(1, 8)


def test_odds_match_itertools_enumeration_for_few_dice() -> None:
    """Сид: «Сумма прибавляется к d100 (итог не выше 100)» — every roll of the d100 and of up
    to two energy dice of each size (three for d4…d8), listed one by one."""

    def check(final: int) -> None:
        for die in SIZES:
            for count in range(0, 4 if die <= 8 else 3):
                assert ide4.outcome_odds(final, count, die) == enumerated(final, count, die), (
                    final,
                    count,
                    die,
                )

    assert_every_case(ODDS_MATCH_ITERTOOLS_ENUMERATION_FOR_FEW_DICE, check, star=False)


def test_odds_match_convolution_for_every_difficulty_and_up_to_ten_dice() -> None:
    """Сид: «Перед d100 игрок может потратить до 10 кубов» — every difficulty [1]…[7] with
    0…10 energy dice of this size, against an independent convolution."""

    def check(die: int) -> None:
        for count in range(0, 11):
            sums = convolved(count, die)
            for final in range(1, 8):
                got = ide4.outcome_odds(final, count, die)
                assert got == tally(final, sums), (final, count, die)
                assert sum(got.values()) == 1

    assert_every_case(SIZES, check, star=False)


@pytest.mark.parametrize(("final", "count", "die"), [(3, 10, 20), (7, 10, 12), (1, 5, 6)])
def test_odds_match_icepool(final: int, count: int, die: int) -> None:
    """Сид: «Не создаёт Триумф. Не спасает Трагедию.» — icepool as a second oracle."""
    energy = count @ icepool.Die(range(1, die + 1))
    dist = icepool.map(lambda n, e: reference(final, n, e), icepool.d100, energy)
    expected = {k: Fraction(dist.quantity(k), dist.denominator()) for k in ide4.OUTCOMES}
    assert ide4.outcome_odds(final, count, die) == expected


def test_energy_never_creates_triumph_nor_saves_tragedy() -> None:
    """Сид: «До броска … Не создаёт Триумф. Не спасает Трагедию.»"""
    for final in range(1, 8):
        bare = ide4.outcome_odds(final)
        for count, die in [(1, 4), (5, 10), (10, 20)]:
            boosted = ide4.outcome_odds(final, count, die)
            assert boosted["triumph"] == bare["triumph"]
            assert boosted["tragedy"] == bare["tragedy"]
            assert boosted["success"] >= bare["success"]


def test_zero_or_below_is_certain_success_unless_hidden_risk() -> None:
    """Сид: «Итоговая сложность ≤ 0 означает, что действие гарантировано. Кубик не
    бросается.» и «мастер может оставить сложность на уровне [1] и потребовать бросок»."""
    for final in (0, -3):
        certain = ide4.outcome_odds(final, 3, 8)
        assert certain["success"] == 1 and sum(certain.values()) == 1
        assert ide4.outcome_odds(final, 2, 6, hidden_risk=True) == ide4.outcome_odds(1, 2, 6)


def test_impossible_has_no_odds() -> None:
    """Сид: «[00] означает не «очень трудно», а «этим способом сейчас нельзя»»."""
    for final in (8, 12):
        with pytest.raises(RulesError, match=r"\[00\]: невозможно"):
            ide4.outcome_odds(final)


def test_energy_limits_are_enforced() -> None:
    """Сид: «Перед d100 игрок может потратить до 10 кубов»."""
    with pytest.raises(RulesError, match="10 кубов"):
        ide4.outcome_odds(3, 11, 4)
    with pytest.raises(RulesError, match="d7"):
        ide4.outcome_odds(3, 1, 7)


def test_check_odds_follow_the_input() -> None:
    """Сид: «Базовая сложность: [3] / Темнота: +1 / Хорошие инструменты: −1 / Итоговая
    сложность: [3]» — live odds read the final difficulty and the declared energy."""
    inp = ide4.CheckInput(
        attribute_level=2,
        base=3,
        modifiers=(ide4.Modifier(1, "темнота"), ide4.Modifier(-1, "инструменты")),
        energy_dice=4,
    )
    assert ide4.check_odds(inp) == ide4.outcome_odds(3, 4, 6)
    with pytest.raises(RulesError, match="d6"):
        ide4.check_odds(ide4.CheckInput(attribute_level=2, energy_dice=1, energy_die=8))


@settings(max_examples=examples(60), deadline=None)
@given(
    final=st.integers(1, 7),
    natural=st.integers(1, 100),
    energy=st.lists(st.integers(1, 8), max_size=4),
)
def test_roll_classifies_like_the_reference(final: int, natural: int, energy: list[int]) -> None:
    """Сид: «Сумма прибавляется к d100 (итог не выше 100)» — a rolled check agrees with the
    reference for any dice."""
    inp = ide4.CheckInput(base=final, energy_dice=len(energy))
    check = ide4.roll(ide4.start(inp), natural=natural, energy=energy)
    assert check.outcome == reference(final, natural, sum(energy))
    assert check.total == min(100, natural + sum(energy))
