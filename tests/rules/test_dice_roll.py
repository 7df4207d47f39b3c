"""Rolling: rpg-dice-roller's modifier order, every die's history, determinism and limits."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from fractions import Fraction

import pytest

from rules.dice import Dice, Expression, GroupRoll, Limits, PoolRoll, bounds, make_rng, parse, roll
from rules.errors import DiceBoundsError, DiceLimitError, DiceSyntaxError
from tests.every_case import assert_every_case


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


def pool(text: str, values: Iterable[int]) -> PoolRoll:
    tree = roll(text, Scripted(values)).outcomes[0].tree
    assert isinstance(tree, PoolRoll)
    return tree


def test_same_seed_same_result() -> None:
    """RULES §0: «Same seed, same inputs: same result, byte for byte»."""
    a = roll("6x 4d6!r1dl1 + {d8, d10}k1", make_rng(42)).to_dict()
    b = roll("6x 4d6!r1dl1 + {d8, d10}k1", make_rng(42)).to_dict()
    assert json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


def test_explosion_adds_a_new_die() -> None:
    """Issue 18: «`!`» — rpg-dice-roller: each explosion is a die of its own, rolled after the
    pool's first rolls, and it may explode again."""
    part = pool("2d6!", [6, 3, 6, 2])
    assert [d.value for d in part.dice] == [6, 6, 2, 3]
    assert [d.exploded for d in part.dice] == [True, True, False, False]
    assert [d.added for d in part.dice] == [False, True, True, False]
    assert part.value == 17


def test_compounding_adds_into_one_die() -> None:
    """Issue 18: «`!!`» — the explosion rolls add up to one die's value."""
    part = pool("3d6!!", [6, 2, 6, 6, 1, 3])
    assert [d.value for d in part.dice] == [13, 2, 9]
    assert part.dice[0].history == (("rolled", 6), ("exploded", 6), ("exploded", 1))
    assert part.dice[0].rolls == (6, 6, 1)
    assert part.value == 24


def test_penetration_subtracts_one_but_matches_the_roll() -> None:
    """Issue 18: «`!p`» — each added roll counts 1 less; it explodes on the face it showed."""
    part = pool("2d6!p", [6, 1, 6, 2])
    assert [d.value for d in part.dice] == [6, 5, 1, 1]
    assert [d.penetrated for d in part.dice] == [False, True, True, False]
    assert part.value == 13


def test_explode_on_a_compare_point() -> None:
    """Issue 18: «`d10!>=9`, 9-again»."""
    part = pool("d10!>=9", [9, 10, 4])
    assert [d.value for d in part.dice] == [9, 10, 4]
    assert part.value == 23


def test_reroll_until_it_no_longer_matches() -> None:
    """Issue 18: «`2d6r1`» — the new roll replaces the old; `r` goes on while it matches."""
    part = pool("2d6r1", [1, 4, 1, 5])
    assert [d.value for d in part.dice] == [5, 4]
    assert part.dice[0].history == (("rolled", 1), ("rerolled", 1), ("rerolled", 5))
    assert part.dice[0].rerolled and not part.dice[1].rerolled


def test_reroll_once() -> None:
    """Issue 18: «`4d6ro<3`» — once, whatever the new roll shows."""
    part = pool("4d6ro<3", [1, 4, 2, 6, 1, 5])
    assert [d.value for d in part.dice] == [1, 4, 5, 6]


def test_explode_runs_before_reroll() -> None:
    """rpg-dice-roller's order: explode (3rd) before reroll (4th), so a rerolled 6 does not
    explode and an added die can be rerolled."""
    part = pool("d6!r1", [6, 1, 3])
    assert [d.value for d in part.dice] == [6, 3]
    assert part.dice[1].added and part.dice[1].rerolled
    assert pool("d6r1!", [1, 6]).value == 6  # typed order does not matter


def test_min_and_max_clamp_the_first_roll() -> None:
    """Issue 18: «`min`, `max`»."""
    part = pool("3d6min2max5", [1, 6, 4])
    assert [d.value for d in part.dice] == [2, 5, 4]
    assert part.dice[0].history == (("rolled", 1), ("min", 2))
    assert part.dice[1].history == (("rolled", 6), ("max", 5))


KEEP_AND_DROP_MARK_DICE = [
    ("4d6kh3", [True, False, True, True], 10),
    ("4d6k3", [True, False, True, True], 10),
    ("4d6kl1", [False, True, False, False], 1),
    ("4d6d1", [True, False, True, True], 10),
    ("4d6dl2", [True, False, True, False], 9),
    ("4d6dh1", [True, True, False, True], 5),
    ("4d6k3d1", [True, False, True, True], 10),
    ("4d6kh3dh1", [True, False, False, True], 4),
]


def test_keep_and_drop_mark_dice() -> None:
    """Issue 18: «`k`, `kh`, `kl`, `d`, `dh`, `dl`» — dropped dice stay in the result; on a
    tie the earlier die is dropped first. rpg-dice-roller: «They both look at the entire dice
    pool. So if a roll has been dropped, it will be still be included in the list of possible
    rolls to drop» (``4d6k3d1``: ``d1`` drops the 1 ``k3`` already dropped)."""

    def check(text: str, kept: list[bool], value: int) -> None:
        part = pool(text, [3, 1, 6, 1])
        assert [d.kept for d in part.dice] == kept
        assert part.value == value

    assert_every_case(KEEP_AND_DROP_MARK_DICE, check)


def test_success_and_failure_counting() -> None:
    """Issue 18: «success and failure counting (`10d10>=8`, `f<=1`)»."""
    part = pool("5d10>=8f<=1", [8, 1, 10, 5, 1])
    assert [d.outcome for d in part.dice] == [1, -1, 1, 0, -1]
    assert part.value == 0
    assert pool("3d10!=10>=8", [10, 3, 8, 9]).value == 3  # 10-again: the added 9 succeeds


def test_group_keeps_the_best_sub_total() -> None:
    """Issue 18: «groups `{4d6+2, 3d8}k1`»."""
    result = roll("{4d6+2, 3d8}k1", Scripted([1, 1, 1, 1, 8, 8, 8]))
    tree = result.outcomes[0].tree
    assert isinstance(tree, GroupRoll)
    assert tree.kept == (False, True)
    assert result.total == 24


def test_group_counts_successes_over_sub_totals() -> None:
    """Issue 18: «success counting over sub-totals»."""
    assert roll("{2d6, d8, d4}>=6", Scripted([3, 4, 5, 4])).total == 1
    assert roll("{2d6, d8, d4}>=6f1", Scripted([3, 4, 5, 1])).total == 0


def test_single_expression_group_acts_on_its_dice() -> None:
    """rpg-dice-roller: «For a single sub-roll, it will keep the specified number of individual
    die rolls from of all the rolls in the expression»; «Single sub-rolls, will only ever
    return a result of 1 or 0» (a success point compares the sub-roll's total)."""
    result = roll("{2d6+d8+1}k2", Scripted([6, 1, 5]))
    assert result.total == 12  # 6 and 5 kept, 1 dropped, the constant stays
    assert roll("{2d6+d8}>=5", Scripted([6, 1, 5])).total == 1  # 12 >= 5: one success
    assert roll("{2d6+d8}>=13", Scripted([6, 1, 5])).total == 0


def test_arithmetic_keeps_fractions_and_precedence() -> None:
    """Issue 31: «`1d100/2` rounds down; rpg-dice-roller keeps the fraction unless asked to
    round — follow it»; issue 18: «`+ - * /` and parentheses»."""
    assert roll("(0-7)/2", make_rng(0)).total == Fraction(-7, 2)
    assert roll("2+3*4", make_rng(0)).total == 14
    assert roll("(2+3)*4", make_rng(0)).total == 20
    assert roll("d6*2", Scripted([5])).total == 10
    assert roll("-d6", Scripted([5])).total == -5


def test_repeats_list_each_result() -> None:
    """Issue 18: «`Nx EXPR` repeats (each result listed)» — a character's six attributes."""
    result = roll("6x 4d6dl1", Scripted([6, 6, 6, 1] * 6))
    assert result.totals == (18,) * 6
    assert len(result.outcomes) == 6
    assert result.to_dict()["totals"] == [18] * 6


def test_label_and_target() -> None:
    """Issue 18: «`# label`»; «`vs N` stays»."""
    result = roll("2d6+3 vs 10 # топор", Scripted([3, 4]))
    assert result.total == 10 and result.success is True
    data = result.to_dict()
    assert data["label"] == "топор"
    assert data["success"] is True
    assert roll("10d10>=8 vs 3", Scripted([8, 9] + [1] * 8)).success is False


def test_to_dict_keeps_every_die_history() -> None:
    """Issue 18: «Every die's history (rolled, rerolled, exploded, dropped, counted) is kept»."""
    data = roll("3d6!r1kh2>=4", Scripted([6, 1, 2, 5, 3])).to_dict()
    dice = data["rolls"][0]["tree"]["dice"]
    json.dumps(data, ensure_ascii=False)
    assert [d["history"] for d in dice] == [
        [["rolled", 6]],
        [["rolled", 5]],
        [["rolled", 1], ["rerolled", 3]],
        [["rolled", 2]],
    ]
    assert [d["exploded"] for d in dice] == [True, False, False, False]
    assert [d["kept"] for d in dice] == [True, True, False, False]
    assert [d["outcome"] for d in dice] == [1, 1, 0, 0]


def test_explosion_chain_cap_stops_a_broken_source() -> None:
    """RULES §0: «explosion chain ≤ 100 per die» — «each a clear error, never a hang»."""
    rng = Always(6)
    with pytest.raises(DiceLimitError, match="больше 100 раз"):
        roll("d6!", rng)
    assert rng.calls == 101  # the first roll and 100 explosions


def test_reroll_cap_stops_a_broken_source() -> None:
    """Issue 18: «1000 dice with explosions and rerolls, 100 per chain»."""
    rng = Always(1)
    with pytest.raises(DiceLimitError, match="переброс больше 100 раз"):
        roll("d6r1", rng)
    assert rng.calls == 101


def test_chain_cap_is_exact() -> None:
    """RULES §0: «explosion chain ≤ 100 per die»."""
    limits = Limits(max_chain=3)
    assert roll("d6!", Scripted([6, 6, 6, 2]), limits).total == 20
    with pytest.raises(DiceLimitError, match="больше 3 раз"):
        roll("d6!", Scripted([6, 6, 6, 6, 2]), limits)


def test_explosions_and_rerolls_count_toward_dice_total() -> None:
    """RULES §0: «dice rolled per expression ≤ 1000, explosions included»."""
    assert roll("998d6 + d6!", Scripted([1] * 998 + [6, 1])).total == 1005
    rng = Scripted([1] * 998 + [6, 6, 1])
    with pytest.raises(DiceLimitError, match="до 1001"):
        roll("998d6 + d6!", rng)
    assert rng.calls == 1000
    with pytest.raises(DiceLimitError, match="до 1001"):
        roll("999d6r1", Scripted([1] * 999 + [2] * 2))


def test_thousand_exploding_dice_stop_not_hang() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    with pytest.raises(DiceLimitError):
        roll("1000d2!", make_rng(1))


def test_hand_built_expression_is_checked() -> None:
    """RULES §0: «dice per term 1…1000» — also for expressions built in code."""
    with pytest.raises(DiceBoundsError):
        roll(Expression("x", Dice(5000, 6)), make_rng(1))
    with pytest.raises(DiceSyntaxError):
        roll(Expression("x", Dice(1, 6, reroll=parse("d6r<=6").root.reroll)), make_rng(1))  # type: ignore[union-attr]
    expression = parse("3d6 + 1")
    assert roll(expression, make_rng(3)).expression is expression


def test_biggest_legal_roll_is_counted() -> None:
    """RULES §0: «dice rolled per expression ≤ 1000»."""
    result = roll("1000d1000", make_rng(5))
    tree = result.outcomes[0].tree
    assert isinstance(tree, PoolRoll)
    assert len(tree.dice) == 1000
    assert 1000 <= result.total <= 1_000_000


def test_not_equal_compare_points_match_every_other_face() -> None:
    """RULES §0: «`<>`» — a success (or failure, reroll, explosion) on every face but the one
    named; scripted faces, so the roller's own reading is checked, not its odds."""
    assert roll("5d6<>3", Scripted([3, 1, 6, 3, 2])).total == 3
    assert roll("5d6>=5f<>2", Scripted([2, 2, 5, 6, 1])).total == 1  # 0, 0, +1, +1, −1
    assert [d.value for d in pool("2d6ro<>3", [3, 4, 5]).dice] == [3, 5]
    assert [d.value for d in pool("d6!<>6", [2, 6]).dice] == [2, 6]  # 2 explodes; 6 stops


BOUNDS_HOLD_THE_LONGEST_CHAIN_THE_ROLLER_ALLOWS = [
    ("dF!!=-1", -1, 0, -100),  # compounding downwards: 100 × −1, then a 0
    ("dF!!p<=0", -1, 1, -199),  # penetrating: −1, then 99 × (−1 − 1), then 1 − 1
    ("d6!!", 6, 1, 601),
    ("d6!!p", 6, 1, 501),  # 6, then 99 × (6 − 1), then 1 − 1
]


def test_bounds_hold_the_longest_chain_the_roller_allows() -> None:
    """RULES §0: explosions are capped (the roller stops a chain past 100 and says so); the
    longest chain it rolls, scripted face by face, lands within the expression's bounds — at
    the low end for a die that compounds downwards."""

    def check(text: str, face: int, stop: int, extreme: int) -> None:
        expression = parse(text)
        low, high = bounds(expression.root)
        totals = []
        for chain in range(90, 110):
            try:
                totals.append(roll(expression, Scripted([face] * chain + [stop])).total)
            except DiceLimitError:
                break
        reached = min(totals) if extreme < 0 else max(totals)
        assert reached == extreme
        assert low <= reached <= high

    assert_every_case(BOUNDS_HOLD_THE_LONGEST_CHAIN_THE_ROLLER_ALLOWS, check)
