"""The odds engine's step budget pinned where it decides: an expression accepted, one refused.

The notation issue's counted bound: «past the budget the calculation is refused, by a count that
does not depend on the machine or its load» (``rules/odds``), with «слишком много вариантов для
точного расчёта шансов». Each estimate below is pinned by a pool it must still answer and one it
must refuse; the answered odds are compared with brute force written here.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules.errors import DiceLimitError
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
