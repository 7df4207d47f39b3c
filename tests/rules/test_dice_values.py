"""The numbers of the notation: exact arithmetic, rpg-dice-roller's two-decimal total, and a
Russian refusal for every value that has no number."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from rules.dice.values import MAX_MAGNITUDE, apply, call, is_whole, norm, total_of
from rules.errors import RulesError
from tests.every_case import assert_every_case

TOTAL_IS_TWO_DECIMALS_HALF_AWAY_FROM_ZERO = [
    (3, 3),
    (Fraction(6, 2), 3),
    (Fraction(37, 2), Fraction(37, 2)),
    (Fraction(1, 3), Fraction(33, 100)),
    (Fraction(2, 3), Fraction(67, 100)),
    (Fraction(1, 8), Fraction(13, 100)),  # half: away from zero
    (Fraction(-1, 8), Fraction(-13, 100)),
    (Fraction(-1, 3), Fraction(-33, 100)),
    (Fraction(1, 200), Fraction(1, 100)),
    (Fraction(1, 201), 0),
    (Fraction(199, 100), Fraction(199, 100)),
    (Fraction(1999, 1000), 2),
    (1.005, 1),  # the float 1.005 is 1.00499…: toFixed gives 1.00
    (1.905, Fraction(191, 100)),  # and 1.905 is 1.90500…02: 1.91
    (2.0, 2),
    (-0.004, 0),
    (math.sqrt(2), Fraction(141, 100)),
]


def test_total_is_two_decimals_half_away_from_zero() -> None:
    """rpg-dice-roller: the total is «fixed to a max of 2 digits after the decimal point»
    (JavaScript's ``toFixed(2)``: half away from zero, on a float's exact binary value)."""

    def check(value: object, shown: object) -> None:
        assert total_of(value) == shown  # type: ignore[arg-type]
        assert type(total_of(value)) is type(shown)  # type: ignore[arg-type]

    assert_every_case(TOTAL_IS_TWO_DECIMALS_HALF_AWAY_FROM_ZERO, check)


def test_an_endless_total_is_refused() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    with pytest.raises(RulesError, match="бесконечным"):
        total_of(math.inf)


OPERATORS = [
    ("+", 2, Fraction(1, 2), Fraction(5, 2)),
    ("-", Fraction(1, 2), Fraction(1, 2), 0),
    ("*", 3, Fraction(1, 3), 1),
    ("/", 7, 2, Fraction(7, 2)),
    ("/", 1.5, 3, 0.5),
    ("/", 8, 4, 2),
    ("%", 7, 3, 1),
    ("%", -7, 3, 2),  # mathjs's mod: the sign of the divisor
    ("%", 7, -3, -2),
    ("%", Fraction(11, 2), 2, Fraction(3, 2)),
    ("^", 2, 10, 1024),
    ("^", 2, -2, Fraction(1, 4)),
    ("^", -2, 3, -8),
    ("^", 0, 0, 1),
    ("^", 0, 5, 0),
    ("^", 4, Fraction(1, 2), 2.0),
    ("^", 1.5, 2, 2.25),
    ("^", Fraction(1, 2), 400, (0.5) ** 400),  # far below what two decimals show
]


def test_operators() -> None:
    """rpg-dice-roller's maths page: «d6*5», «2d10/d20», «3d20^4», «d15%2» — here exact."""

    def check(op: str, a: object, b: object, result: object) -> None:
        assert apply(op, a, b) == result  # type: ignore[arg-type]
        assert type(apply(op, a, b)) is type(result)  # type: ignore[arg-type]

    assert_every_case(OPERATORS, check)


OPERATORS_REFUSE_WHAT_HAS_NO_NUMBER = [
    ("/", 3, 0, "на ноль не делят"),
    ("%", 3, 0, "на ноль не делят"),
    ("^", 0, -1, "ноль в отрицательной степени"),
    ("^", 0.0, -0.5, "ноль в отрицательной степени"),
    ("^", -8, Fraction(1, 3), "дробная степень отрицательного"),
    ("^", 10, 16, "больше ±10¹⁵"),
    ("^", 10.0, 400.5, "больше ±10¹⁵"),
    ("*", MAX_MAGNITUDE, 2, "больше ±10¹⁵"),
    ("-", -MAX_MAGNITUDE, 2, "меньше ±10¹⁵"),
    ("+", math.inf, 1, "бесконечным"),
]


def test_operators_refuse_what_has_no_number() -> None:
    """RULES §0: «Bad input gets a clear Russian message»; the roller never crashes on a value
    the parser could not rule out."""

    def check(op: str, a: object, b: object, fragment: str) -> None:
        with pytest.raises(RulesError, match=fragment):
            apply(op, a, b)  # type: ignore[arg-type]

    assert_every_case(OPERATORS_REFUSE_WHAT_HAS_NO_NUMBER, check)


FUNCTIONS = [
    ("abs", (-3,), 3),
    ("abs", (Fraction(-1, 2),), Fraction(1, 2)),
    ("ceil", (Fraction(7, 3),), 3),
    ("floor", (Fraction(7, 3),), 2),
    ("floor", (-0.5,), -1),
    ("round", (Fraction(3, 2),), 2),
    ("round", (Fraction(-3, 2),), -2),  # «round(-1.5) === -2»
    ("round", (Fraction(-13, 10),), -1),
    ("round", (Fraction(-8, 5),), -2),
    ("round", (1.3,), 1),
    ("sign", (-4,), -1),
    ("sign", (0,), 0),
    ("sign", (Fraction(1, 9),), 1),
    ("max", (2, Fraction(5, 2)), Fraction(5, 2)),
    ("min", (2, Fraction(4, 2)), 2),
    ("pow", (3, 2), 9),
    ("sqrt", (9,), 3),
    ("sqrt", (Fraction(9, 4),), Fraction(3, 2)),
    ("sqrt", (2,), math.sqrt(2)),
    ("sqrt", (2.25,), 1.5),
    ("log", (1,), 0.0),
    ("exp", (0,), 1.0),
    ("sin", (0,), 0.0),
    ("cos", (0,), 1.0),
    ("tan", (0,), 0.0),
]


def test_functions() -> None:
    """rpg-dice-roller's maths page: «abs, ceil, cos, exp, floor, log, max, min, pow, round,
    sign, sin, sqrt, tan»; «round() always rounds half away from zero»."""

    def check(name: str, args: tuple, result: object) -> None:
        assert call(name, args) == result
        assert type(call(name, args)) is type(result)

    assert_every_case(FUNCTIONS, check)


FUNCTIONS_REFUSE_WHAT_HAS_NO_NUMBER = [
    ("sqrt", (-1,), "корень из отрицательного"),
    ("log", (0,), "больше нуля"),
    ("exp", (40,), "больше ±10¹⁵"),
    ("exp", (1000,), "уменьшите показатель exp"),
    ("pow", (0, -2), "ноль в отрицательной степени"),
    ("tan", (Fraction(math.pi / 2),), "больше ±10¹⁵"),  # at a pole, to the float
]


def test_functions_refuse_what_has_no_number() -> None:
    """RULES §0: «Bad input gets a clear Russian message»."""

    def check(name: str, args: tuple, fragment: str) -> None:
        with pytest.raises(RulesError, match=fragment):
            call(name, args)

    assert_every_case(FUNCTIONS_REFUSE_WHAT_HAS_NO_NUMBER, check)


def test_whole_numbers() -> None:
    assert is_whole(3) and is_whole(Fraction(4, 2)) and is_whole(2.0)
    assert not is_whole(Fraction(1, 2)) and not is_whole(0.5)
    assert norm(Fraction(4, 2)) == 2 and type(norm(Fraction(4, 2))) is int
    assert norm(Fraction(1, 2)) == Fraction(1, 2) and norm(0.5) == 0.5
