"""The numbers of dice notation: exact where they can be, and rpg-dice-roller's rounded total.

rpg-dice-roller keeps fractions through a calculation (``1d100/2`` may be ``18.5``) and shows
the total fixed to two decimals (``{3d8*2, 20/2d10, 2d10-d4}`` = ``33.82``). Here every value
is exact while it can be: an ``int``, or a :class:`~fractions.Fraction` after ``/``, a decimal
number (``2.5``) or ``^`` with a negative exponent; the functions whose results are irrational
(``sqrt`` of a non-square, ``exp``, ``log``, ``sin``, ``cos``, ``tan``, a fractional power) give a
``float``. The total is :func:`total_of` the exact value: rounded to two decimals, half away
from zero (JavaScript's ``toFixed``; for a float, on its exact binary value, as ``toFixed``
does), an ``int`` when whole.

:func:`apply` and :func:`call` are the one arithmetic the roller and the exact odds share, so a
rolled total and a total of the distribution are always the same number.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Union

from rules.errors import RulesError

__all__ = [
    "FUNCTIONS",
    "OPERATORS",
    "Value",
    "apply",
    "call",
    "is_whole",
    "magnitude",
    "norm",
    "total_of",
]

Value = Union[int, Fraction, float]

#: Binary operators: rpg-dice-roller's, ``**`` read as ``^``.
OPERATORS = ("+", "-", "*", "/", "%", "^")

#: The maths functions of rpg-dice-roller's maths page, with how many arguments each takes.
FUNCTIONS = {
    "abs": 1,
    "ceil": 1,
    "cos": 1,
    "exp": 1,
    "floor": 1,
    "log": 1,
    "max": 2,
    "min": 2,
    "pow": 2,
    "round": 1,
    "sign": 1,
    "sin": 1,
    "sqrt": 1,
    "tan": 1,
}

#: The largest magnitude a value may reach (beyond it a JavaScript roller loses digits).
MAX_MAGNITUDE = 10**15

_CENT = Decimal("0.01")


def norm(value: Value) -> Value:
    """A whole Fraction as an int; anything else unchanged."""
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


def magnitude(value: Value) -> Value:
    """``abs`` of a value, typed as one."""
    return -value if value < 0 else value


def is_whole(value: Value) -> bool:
    """Whether a value is a whole number."""
    if isinstance(value, int):
        return True
    if isinstance(value, Fraction):
        return value.denominator == 1
    return value.is_integer()


def total_of(value: Value) -> int | Fraction:
    """The total rpg-dice-roller shows for an exact value: two decimals, half away from zero.

    Args:
        value: the exact value of the expression.

    Returns:
        An ``int`` when the rounded total is whole, else a Fraction over 100 (or a divisor).
    """
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
        if 100 % value.denominator == 0:  # already two decimals at most (halves, quarters…)
            return value
        cents = abs(value) * 100
        whole = cents.numerator // cents.denominator
        if (cents - whole) * 2 >= 1:
            whole += 1
        rounded = Fraction(whole if value >= 0 else -whole, 100)
    else:
        if not math.isfinite(value):
            raise RulesError("итог вышел бесконечным — проверьте деление и степени")
        exact = Decimal(value)  # the float's exact binary value, as toFixed rounds it
        rounded = Fraction(exact.quantize(_CENT, rounding=ROUND_HALF_UP))
    return rounded.numerator if rounded.denominator == 1 else rounded


def _floor_fraction(x: Value) -> int:
    return math.floor(x)


def _round_half_away(x: Value) -> int:
    """``round``: half away from zero (rpg-dice-roller's, not JavaScript's ``Math.round``)."""
    if isinstance(x, float):
        x = Fraction(x)
    whole = math.floor(magnitude(x))
    if magnitude(x) - whole >= Fraction(1, 2):
        whole += 1
    return whole if x >= 0 else -whole


def _check(value: Value) -> Value:
    if isinstance(value, float) and not math.isfinite(value):
        raise RulesError("число вышло бесконечным — проверьте деление и степени")
    if magnitude(value) > MAX_MAGNITUDE:
        raise RulesError(
            f"число {'больше' if value > 0 else 'меньше'} ±10¹⁵ — уменьшите степень или множители"
        )
    return norm(value)


def _power(base: Value, exponent: Value) -> Value:
    if is_whole(exponent):
        k = int(exponent)
        if base == 0:
            if k < 0:
                raise RulesError("ноль в отрицательной степени — это деление на ноль")
            return 1 if k == 0 else 0
        size = k * math.log2(magnitude(base))  # log2 of the result's magnitude
        if size > 50:
            raise RulesError("число больше ±10¹⁵ — уменьшите степень или основание")
        if size < -200 or isinstance(base, float):
            return float(base) ** k  # far below what two decimals show: no exact digits kept
        return Fraction(base) ** k
    if base < 0:
        raise RulesError("дробная степень отрицательного числа не определена")
    if base == 0 and exponent < 0:
        raise RulesError("ноль в отрицательной степени — это деление на ноль")
    try:
        return float(base) ** float(exponent)
    except OverflowError:
        raise RulesError("число больше ±10¹⁵ — уменьшите степень или основание") from None


def apply(op: str, a: Value, b: Value) -> Value:
    """``a op b`` exactly (``/`` keeps the fraction; ``%`` is the floored remainder, as
    mathjs's ``mod``; ``^`` the power).

    Raises:
        RulesError: a division or remainder by zero, a power with no real value, or a
            result beyond ±10¹⁵.
    """
    if op == "+":
        return _check(a + b)
    if op == "-":
        return _check(a - b)
    if op == "*":
        return _check(a * b)
    if op in "/%":
        if b == 0:
            raise RulesError("делитель оказался нулём — на ноль не делят")
        if op == "/":
            if isinstance(a, float) or isinstance(b, float):
                return _check(a / b)
            return _check(Fraction(a) / b)
        return _check(a % b)
    return _check(_power(a, b))


def call(name: str, args: tuple[Value, ...]) -> Value:
    """A maths function of rpg-dice-roller (JavaScript's, ``round`` half away from zero).

    Raises:
        RulesError: an argument outside the function's domain (``sqrt`` of a negative,
            ``log`` of zero or less), or a result beyond ±10¹⁵.
    """
    x = args[0]
    if name == "abs":
        return norm(magnitude(x))
    if name == "ceil":
        return math.ceil(x)
    if name == "floor":
        return _floor_fraction(x)
    if name == "round":
        return _round_half_away(x)
    if name == "sign":
        return (x > 0) - (x < 0)
    if name in ("max", "min"):
        return norm(max(x, args[1]) if name == "max" else min(x, args[1]))
    if name == "pow":
        return _check(_power(x, args[1]))
    if name == "sqrt":
        if x < 0:
            raise RulesError("корень из отрицательного числа не определён")
        if not isinstance(x, float):
            q = Fraction(x)
            top, bottom = math.isqrt(q.numerator), math.isqrt(q.denominator)
            if top * top == q.numerator and bottom * bottom == q.denominator:
                return norm(Fraction(top, bottom))
        return math.sqrt(x)
    if name == "log":
        if x <= 0:
            raise RulesError("логарифм определён только для чисел больше нуля")
        return math.log(x)
    if name == "exp":
        try:
            return _check(math.exp(x))
        except OverflowError:
            raise RulesError("число больше ±10¹⁵ — уменьшите показатель exp") from None
    if name == "sin":
        return math.sin(x)
    if name == "cos":
        return math.cos(x)
    assert name == "tan", name
    return _check(math.tan(x))
