"""Side initiative and declaration order (Древо seed, «Бой. Общие принципы»)."""

from __future__ import annotations

import random

import pytest

from rules.initiative import declaration_order, roll_side_initiative
from tests.every_case import assert_every_case


class ScriptedRandom(random.Random):
    """Return scripted fudge faces from randint(-1, 1)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_higher_initiative_goes_first():
    """Сид: «у кого результат больше, тот и выиграл»."""
    rng = ScriptedRandom([1, 1, 0, 0, -1, 0, 0, 0])  # Отряд +2, Противники −1
    rolls = roll_side_initiative(["Отряд", "Противники"], rng)
    assert [r.side for r in rolls] == ["Отряд", "Противники"]
    assert [r.final for r in rolls] == [2, -1]


def test_ties_are_rerolled_among_the_tied_sides_only():
    """RULES §4: «each side rolls initiative (4dF [default]; ties reroll)»."""
    faces = [0, 0, 0, 0] * 2 + [1, 1, 1, 1]  # A 0, B 0, C +4 ...
    faces += [-1, 0, 0, 0, 1, 0, 0, 0]  # reroll of the tie: A −1, B +1
    rolls = roll_side_initiative(["A", "B", "C"], ScriptedRandom(faces))
    assert [r.side for r in rolls] == ["C", "B", "A"]
    assert [len(r.rolls) for r in rolls] == [1, 2, 2]


ORDER_IS_STRICT_FOR_ANY_SEED = range(30)


def test_order_is_strict_for_any_seed():
    """RULES §4: «ties reroll» — every seeded roll ends in a strict order of distinct sides."""

    def check(seed) -> None:
        sides = ["A", "B", "C", "D"]
        rolls = roll_side_initiative(sides, random.Random(seed))
        assert sorted(r.side for r in rolls) == sorted(sides)

    assert_every_case(ORDER_IS_STRICT_FOR_ANY_SEED, check, star=False)


def test_two_sides_loser_declares_first_next_round():
    """Сид: «В следующем раунде первой ходит сторона, проигравшая бросок на инициативу»."""
    order = ["Отряд", "Противники"]
    assert [declaration_order(order, n) for n in range(1, 5)] == [
        ["Отряд", "Противники"],
        ["Противники", "Отряд"],
        ["Отряд", "Противники"],
        ["Противники", "Отряд"],
    ]


def test_three_sides_forward_then_reverse():
    """Сид: «сначала ходит сторона, выигравшая инициативу, потом — занявшая второе место, и т.д.
    В следующем раунде — обратная последовательность»."""
    order = ["A", "B", "C"]
    assert [declaration_order(order, n) for n in range(1, 5)] == [
        ["A", "B", "C"],
        ["C", "B", "A"],
        ["A", "B", "C"],
        ["C", "B", "A"],
    ]


def test_round_zero_is_rejected():
    with pytest.raises(ValueError):
        declaration_order(["A", "B"], 0)
