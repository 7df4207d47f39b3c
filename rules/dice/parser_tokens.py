"""The dice parser's tokens: the characters it knows and reading numbers at a position.

:class:`Scanner` holds the raw text and the position (no lowering, so positions stay exact) and
makes the errors that name them; the grammar (:mod:`rules.dice.parser`), the modifiers
(:mod:`rules.dice.parser_modifiers`) and the checks (:mod:`rules.dice.parser_checks`) read
through it.
"""

from __future__ import annotations

from rules.dice.model import Limits, where
from rules.errors import DiceBoundsError, DiceSyntaxError

_DIGITS = frozenset("0123456789")
_D = frozenset("dDкКдД")
_FUDGE = frozenset("fFфФ")
_SIGNS = {"+": 1, "-": -1, "\u2212": -1}
_REPEAT = frozenset("xXхХ×")
_MAX_DIGITS = 9


def _bounds_error(position: int, message: str) -> DiceBoundsError:
    return DiceBoundsError(where(position, message), position)


class Scanner:
    """The text being parsed, the position in it, and the errors that name it."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.text = text
        self.limits = limits
        self.i = 0
        self.end = len(text)
        self.depth = 0

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

    def number(self) -> int | None:
        start = self.i
        while self.i < self.end and self.text[self.i] in _DIGITS:
            self.i += 1
        if self.i == start:
            return None
        digits = self.text[start : self.i].lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise _bounds_error(start, f"слишком большое число — не больше {_MAX_DIGITS} цифр")
        return int(digits or "0")

    def signed_number(self, what: str) -> int:
        sign = 1
        if self.shown() in _SIGNS:
            sign = _SIGNS[self.shown()]
            self.i += 1
        value = self.number()
        if value is None:
            raise self.error(f"после «{what}» ожидалось число")
        return sign * value
