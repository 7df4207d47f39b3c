"""Survivors of the seeded mutation run in rules/odds and rules/dice, each pinned both ways.

The odds engine's step budget is pinned where it decides: an expression accepted, one refused.

The notation issue's counted bound: «past the budget the calculation is refused, by a count that
does not depend on the machine or its load» (``rules/odds``), with «слишком много вариантов для
точного расчёта шансов». Each estimate below is pinned by a pool it must still answer and one it
must refuse; the answered odds are compared with brute force written here.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import icepool
import pytest

from rules.dice import parse
from rules.dice.values import apply
from rules.errors import DiceLimitError, RulesError
from rules.odds import odds


def _refused(text: str) -> None:
    with pytest.raises(DiceLimitError, match="слишком много вариантов"):
        odds(text)


def test_product_of_two_dice_is_answered_and_a_triple_product_refused() -> None:
    """rpg-dice-roller: ``d100*d100`` multiplies the two rolls; its 10,000 pairs are well inside
    the counted bound (so is ``d1000*d1000``), a product of three d1000 is past it."""
    dist = odds("d100*d100")
    brute = Counter(a * b for a in range(1, 101) for b in range(1, 101))
    assert dist.probs == {t: Fraction(c, 10_000) for t, c in brute.items()}
    assert odds("d1000*d1000").maximum == 1_000_000
    _refused("(d1000*d1000)*d1000")


def test_compounded_pool_kept_is_answered_and_a_wide_one_refused() -> None:
    """rpg-dice-roller: ``!!`` compounds a die's explosions into one value and ``kh2`` keeps the
    two highest of those; three such d6 are within the counted bound, ten d10 keeping five are
    not."""
    dist = odds("3d6!!kh2")
    assert dist.minimum == 2
    assert sum(dist.probs.values()) + dist.truncated == 1
    _refused("10d10!!kh5")


def test_a_remainder_by_a_positive_divisor_is_never_negative() -> None:
    """rpg-dice-roller's maths page: «d15%2» is the remainder, and ``sqrt`` of what may be
    negative has no number; the remainder of a positive roll by a positive number is at least 0,
    so its root is accepted, while a difference that may fall below 0 is refused."""
    assert parse("sqrt(d6%4)").root is not None
    with pytest.raises(RulesError, match="может оказаться отрицательным"):
        parse("sqrt(d6-d4)")


@pytest.mark.parametrize("text", ["{sqrt(d6)}kh1", "{sqrt(d6*d6)}kh1"])
def test_a_kept_group_body_of_products_is_never_negative(text: str) -> None:
    """rpg-dice-roller: a one-expression group's keep (``{…}kh1``) keeps or drops the dice inside
    it, so a die may count as 0 but never below; a root of a die, or of a product of dice, is
    accepted, and a root of a difference is refused."""
    assert parse(text).root is not None
    with pytest.raises(RulesError, match="может оказаться отрицательным"):
        parse("{sqrt(d6-d4)}kh1")


def test_a_fractional_power_of_zero_or_of_a_positive_number_has_a_value() -> None:
    """rpg-dice-roller's maths page: «3d20^4» raises to a power; only zero to a negative power
    is a division by zero: 4^(-1/2) is 0.5 and 0^(1/2) is 0."""
    assert apply("^", 4, Fraction(-1, 2)) == 0.5
    assert apply("^", 0, Fraction(1, 2)) == 0
    with pytest.raises(RulesError, match="ноль в отрицательной степени"):
        apply("^", 0, Fraction(-1, 2))


def test_a_group_keeping_over_two_pools_is_exact_and_a_wide_one_refused() -> None:
    """rpg-dice-roller: a one-expression group's ``kh3`` keeps the three highest dice rolled in
    it, across its pools (``{4d6+3d8}kh3``); its odds are icepool's, and twenty d20 with twenty
    d12 keeping ten are past the counted bound: «слишком много вариантов»."""
    ref = icepool.Pool([icepool.d6] * 4 + [icepool.d8] * 3).highest(3).sum()
    expected = {o: Fraction(q, ref.denominator()) for o, q in ref.items()}
    assert odds("{4d6+3d8}kh3").probs == expected
    _refused("{20d20+20d12}kh10")
