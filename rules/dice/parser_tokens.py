"""The dice parser's tokens: the characters it knows, numbers and descriptions at a position.

:class:`Scanner` holds the raw text and the position (no lowering, so positions stay exact) and
makes the errors that name them; the grammar (:mod:`rules.dice.parser`), the modifiers
(:mod:`rules.dice.parser_modifiers`) and the checks (:mod:`rules.dice.parser_checks`) read
through it.

Descriptions are rpg-dice-roller's: ``# …`` or ``// …`` to the end is the roll's label; ``[ … ]``
or ``/* … */`` right after a pool or a group describes it. Notation inside either is not read.
"""

from __future__ import annotations

from fractions import Fraction

from rules.dice.model import Limits, Reading, where
from rules.errors import DiceBoundsError, DiceSyntaxError

_DIGITS = frozenset("0123456789")
_D = frozenset("dDкКдД")
_FUDGE = frozenset("fFфФ")
_SIGNS = {"+": 1, "-": -1, "\u2212": -1}
_REPEAT = frozenset("xXхХ×")
_MAX_DIGITS = 9


def _bounds_error(position: int, message: str) -> DiceBoundsError:
    return DiceBoundsError(where(position, message), position)


def label_start(text: str) -> int:
    """Where the roll's label (``#`` or ``//``) starts, skipping block descriptions; or the
    text's length without one."""
    if "[" not in text and "/*" not in text:  # no block to skip: the first # or // is it
        ends = [at for at in (text.find("#"), text.find("//")) if at >= 0]
        return min(ends) if ends else len(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#" or text.startswith("//", i):
            return i
        if ch == "[":
            close = text.find("]", i + 1)
            i = n if close < 0 else close + 1
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2
        else:
            i += 1
    return n


class Scanner:
    """The text being parsed, the position in it, and the errors that name it."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.text = text
        self.limits = limits
        self.i = 0
        self.end = len(text)
        self.depth = 0
        self.readings: list[Reading] = []

    # -- helpers ------------------------------------------------------------------------------

    def error(self, message: str, position: int | None = None) -> DiceSyntaxError:
        at = self.i if position is None else position
        return DiceSyntaxError(where(at, message), at)

    def peek(self, n: int = 1) -> str:
        return self.text[self.i : min(self.i + n, self.end)].lower()

    def at_end(self) -> bool:
        return self.i >= self.end

    def skip_ws(self) -> None:
        while self.i < self.end and self.text[self.i].isspace():
            self.i += 1

    def shown(self) -> str:
        return self.text[self.i] if self.i < self.end else ""

    def digits(self) -> str:
        start = self.i
        while self.i < self.end and self.text[self.i] in _DIGITS:
            self.i += 1
        return self.text[start : self.i]

    def number(self) -> int | None:
        """A whole number (no sign, no decimals) at the position, or None."""
        start = self.i
        text = self.digits()
        if not text:
            return None
        digits = text.lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise _bounds_error(start, f"слишком большое число — не больше {_MAX_DIGITS} цифр")
        return int(digits or "0")

    def decimal(self) -> int | Fraction | None:
        """A number that may have decimals (``2.5``), kept exact; None if there is none."""
        start = self.i
        whole = self.number()
        if whole is None:
            return None
        if self.shown() == "." and self.i + 1 < self.end and self.text[self.i + 1] in _DIGITS:
            self.i += 1
            at = self.i
            tail = self.digits()
            if len(tail) > _MAX_DIGITS:
                raise _bounds_error(
                    at, f"слишком много знаков после точки — не больше {_MAX_DIGITS}"
                )
            value = whole + Fraction(int(tail), 10 ** len(tail))
            return value.numerator if value.denominator == 1 else value
        if self.shown() == "." and start < self.i:
            raise self.error("после точки ожидались цифры, например «2.5»")
        return whole

    def signed_number(self, what: str) -> int:
        sign = 1
        if self.shown() in _SIGNS:
            sign = _SIGNS[self.shown()]
            self.i += 1
        at = self.i
        value = self.number()
        if value is None:
            raise self.error(f"после «{what}» ожидалось число")
        if self.shown() == ".":
            raise self.error(f"после «{what}» нужно целое число", at)
        return sign * value

    def signed_decimal(self, what: str) -> int | Fraction:
        sign = 1
        if self.shown() in _SIGNS:
            sign = _SIGNS[self.shown()]
            self.i += 1
        value = self.decimal()
        if value is None:
            raise self.error(f"после «{what}» ожидалось число")
        return sign * value

    def description(self) -> str | None:
        """A ``[ … ]`` or ``/* … */`` after a pool or group (spaces before it allowed)."""
        start = self.i
        self.skip_ws()
        if self.shown() == "[":
            close = self.text.find("]", self.i + 1, self.end)
            if close < 0:
                raise self.error("описание «[» не закрыто — добавьте «]»")
            text = self.text[self.i + 1 : close]
            self.i = close + 1
            return " ".join(text.split())
        if self.text.startswith("/*", self.i) and self.i + 1 < self.end:
            close = self.text.find("*/", self.i + 2, self.end)
            if close < 0:
                raise self.error("описание «/*» не закрыто — добавьте «*/»")
            text = self.text[self.i + 2 : close]
            self.i = close + 2
            return " ".join(text.split())
        self.i = start
        return None
