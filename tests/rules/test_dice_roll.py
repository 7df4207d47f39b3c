"""Rolling: determinism, every die kept in the result, explosion chains and the limits."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

from rules.dice import (
    ConstTerm,
    DiceTerm,
    Die,
    Expression,
    Limits,
    TermRoll,
    make_rng,
    parse,
    roll,
)
from rules.errors import DiceBoundsError, DiceLimitError, DiceSyntaxError


class Scripted(random.Random):
    """A random source that returns the given values from ``randint``, in order."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = iter(values)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        value = next(self.values)
        assert a <= value <= b, f"scripted {value} outside {a}..{b}"
        self.calls += 1
        return value


class Always(random.Random):
    """A broken random source that always shows the same face."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return self.value


def test_same_seed_same_result() -> None:
    """RULES §0: «Same seed, same inputs: same result, byte for byte»."""
    text = "4d6!kh3 + 3d6! - 2d20kl1 + 4dF - 3 vs 15"
    first = roll(text, make_rng(42)).to_dict()
    second = roll(text, make_rng(42)).to_dict()
    assert json.dumps(first, ensure_ascii=False) == json.dumps(second, ensure_ascii=False)
    results = {json.dumps(roll("10d6", make_rng(seed)).to_dict()) for seed in range(5)}
    assert len(results) > 1


def test_one_source_advances() -> None:
    """RULES §0: «One random source per session, `random.Random`, injectable and seedable»."""
    rng = make_rng(7)
    rolls = [roll("20d6", rng).total for _ in range(5)]
    again = make_rng(7)
    assert [roll("20d6", again).total for _ in range(5)] == rolls
    assert len(set(rolls)) > 1


def test_plain_dice_and_constants() -> None:
    """RULES §0: «`+`, `−` with integers and other dice terms»."""
    result = roll("2d6 - d4 + 3", Scripted([2, 5, 4]))
    assert result.parts == (
        TermRoll(DiceTerm(1, 2, 6), (Die((2,)), Die((5,))), 7),
        TermRoll(DiceTerm(-1, 1, 4, position=6), (Die((4,)),), -4),
        ConstTerm(1, 3, 11),
    )
    assert result.total == 6
    assert result.success is None


def test_leading_minus_negates_first_term() -> None:
    """RULES §0: «a leading `−` negates the first term»."""
    assert roll("\u22122d6 + 10", Scripted([3, 4])).total == 3


def test_fudge_dice() -> None:
    """RULES §0: «`NdF` (fudge: −1/0/+1)»."""
    result = roll("4dF", Scripted([-1, 0, 1, 1]))
    assert [die.value for die in result.parts[0].dice] == [-1, 0, 1, 1]  # type: ignore[union-attr]
    assert result.total == 1
    totals = {roll("4dF", make_rng(seed)).total for seed in range(200)}
    assert totals <= set(range(-4, 5)) and {-3, 0, 3} <= totals


@pytest.mark.parametrize(
    ("text", "script", "kept", "total"),
    [
        ("4d6kh3", [3, 6, 1, 5], [True, True, False, True], 14),
        ("4d6kl1", [3, 6, 1, 5], [False, False, True, False], 1),
        ("3d6kh1", [4, 4, 2], [True, False, False], 4),  # a tie keeps the earlier die
        ("3d6kl2", [4, 4, 4], [True, True, False], 8),
        ("2d20kh2", [7, 13], [True, True], 20),
    ],
)
def test_keep_marks_dropped_dice(
    text: str, script: list[int], kept: list[bool], total: int
) -> None:
    """RULES §0: «`NdMkhK` / `NdMklK` (keep highest / lowest K)»; «every rolled die is kept in
    the result so the log and the expanded view can show each die»."""
    result = roll(text, Scripted(script))
    part = result.parts[0]
    assert isinstance(part, TermRoll)
    assert [die.kept for die in part.dice] == kept
    assert [die.value for die in part.dice] == script
    assert result.total == total == part.value


def test_explosion_chains() -> None:
    """RULES §0: «`NdM!` (each die showing its maximum adds another die, which may explode
    again — the seed's `3d6!`)»."""
    rng = Scripted([6, 6, 2, 3, 6, 1])
    result = roll("3d6!", rng)
    part = result.parts[0]
    assert isinstance(part, TermRoll)
    assert [die.rolls for die in part.dice] == [(6, 6, 2), (3,), (6, 1)]
    assert [die.exploded for die in part.dice] == [True, False, True]
    assert result.total == 24
    assert rng.calls == 6


def test_explode_then_keep_chooses_among_chains() -> None:
    """RULES §0: «With both `!` and a keep (`4d6!kh3`), each die's explosion chain adds up to
    one die's value and the keep chooses among those values»."""
    result = roll("4d6!kh3", Scripted([6, 1, 5, 2, 6, 6, 3]))
    part = result.parts[0]
    assert isinstance(part, TermRoll)
    assert [die.value for die in part.dice] == [7, 5, 2, 15]
    assert [die.kept for die in part.dice] == [True, True, False, True]
    assert result.total == 27


def test_negative_exploding_term() -> None:
    """RULES §0: «`+`, `−` with integers and other dice terms» — a subtracted `d6!`."""
    assert roll("10 - d6!", Scripted([6, 4])).total == 0


@pytest.mark.parametrize(("target", "success"), [(11, True), (12, True), (13, False)])
def test_target(target: int, success: bool) -> None:
    """RULES §0: «an optional target `vs N` (success when total ≥ N)»."""
    result = roll(f"2d6 vs {target}", Scripted([6, 6]))
    assert result.success is success
    assert roll(f"-2d6 vs -{target}", Scripted([6, 6])).success is (-12 >= -target)


def test_to_dict_has_every_die() -> None:
    """RULES §0: «every rolled die is kept in the result so the log and the expanded view can
    show each die»."""
    result = roll("4d6!kh3 - 2 vs 10", Scripted([6, 1, 5, 2, 1]))
    data = json.loads(json.dumps(result.to_dict()))
    assert data == {
        "expression": "4d6!kh3 - 2 vs 10",
        "text": "4d6!kh3 - 2 vs 10",
        "target": 10,
        "total": 12,
        "success": True,
        "parts": [
            {
                "kind": "dice",
                "term": "4d6!kh3",
                "sign": 1,
                "value": 14,
                "dice": [
                    {"rolls": [6, 1], "value": 7, "kept": True, "exploded": True},
                    {"rolls": [5], "value": 5, "kept": True, "exploded": False},
                    {"rolls": [2], "value": 2, "kept": True, "exploded": False},
                    {"rolls": [1], "value": 1, "kept": False, "exploded": False},
                ],
            },
            {"kind": "const", "sign": -1, "value": -2},
        ],
    }


def test_chain_cap_stops_a_broken_source() -> None:
    """RULES §0: «explosion chain ≤ 100 per die» — «each a clear error, never a hang»."""
    rng = Always(6)
    with pytest.raises(DiceLimitError, match="больше 100 раз"):
        roll("d6!", rng)
    assert rng.calls == 101  # the first roll and 100 explosions


def test_chain_cap_is_exact() -> None:
    """RULES §0: «explosion chain ≤ 100 per die»."""
    limits = Limits(max_chain=3)
    result = roll("d6!", Scripted([6, 6, 6, 2]), limits)
    assert result.total == 20
    with pytest.raises(DiceLimitError, match="больше 3 раз"):
        roll("d6!", Scripted([6, 6, 6, 6, 2]), limits)


def test_explosions_count_toward_dice_total() -> None:
    """RULES §0: «dice rolled per expression ≤ 1000, explosions included»."""
    assert len(roll("998d6 + d6!", Scripted([1] * 998 + [6, 1])).parts[1].dice[0].rolls) == 2  # type: ignore[union-attr]
    rng = Scripted([1] * 998 + [6, 6, 1])
    with pytest.raises(DiceLimitError, match="до 1001"):
        roll("998d6 + d6!", rng)
    assert rng.calls == 1000


def test_thousand_exploding_dice_stop_not_hang() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    with pytest.raises(DiceLimitError):
        roll("1000d2!", make_rng(1))


def test_hand_built_expression_is_checked() -> None:
    """RULES §0: «dice per term 1…1000; faces 2…1000 (F aside)» — also for parsed objects."""
    with pytest.raises(DiceBoundsError):
        roll(Expression("x", (DiceTerm(1, 5000, 6),)), make_rng(1))
    with pytest.raises(DiceSyntaxError):
        roll(Expression("x", (DiceTerm(1, 1, 1, explode=True),)), make_rng(1))
    expression = parse("3d6 + 1")
    assert roll(expression, make_rng(3)).expression is expression


def test_biggest_legal_roll_is_fast_and_counted() -> None:
    """RULES §0: «dice rolled per expression ≤ 1000»."""
    result = roll("1000d1000", make_rng(5))
    part = result.parts[0]
    assert isinstance(part, TermRoll)
    assert len(part.dice) == 1000
    assert 1000 <= result.total <= 1_000_000
