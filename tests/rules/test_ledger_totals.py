"""The luck of a roll whose total is not whole: placed by its exact value (issue 31)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import RulesError
from rules.ledger.checks import _total, entry_luck


def test_a_json_total_is_read_exactly() -> None:
    """Issue 31: «rpg-dice-roller keeps the fraction» — the Журнал keeps ``18.5`` as a JSON
    number; the ledger reads it back as 37/2 (it was ``int()``-ed to 18, another total)."""
    assert _total(18.5) == Fraction(37, 2)
    assert _total(0.33) == Fraction(33, 100)
    assert _total(7) == 7 and type(_total(7)) is int
    assert _total(7.0) == 7 and type(_total(7.0)) is int
    with pytest.raises(RulesError, match="не число"):
        _total(True)


def test_every_repeat_of_a_fractional_roll_is_placed() -> None:
    data = {"expression": "2x d4 / 2", "total": 0.5, "totals": [0.5, 2]}
    luck = entry_luck("roll", None, data)
    assert luck is not None
    assert [float(r.luck.percentile) for r in luck.rolls] == [0.125, 0.875]
