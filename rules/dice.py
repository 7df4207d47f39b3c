"""Dice notation: parse an expression and roll it with one injectable random source.

Grammar (case-insensitive; spaces allowed between terms, not inside one)::

    expression := [sign] term {sign term} ["vs" [sign] INT]
    term       := INT | [INT] D faces ["!"] [("kh" | "kl") INT]
    D          := "d" | "к" | "д"            (Russian letters accepted for "d")
    faces      := INT | "%" | "F" | "Ф"       ("%" is 100, "F" is a fudge die: -1/0/+1)
    sign       := "+" | "-" | "−"             (U+2212 minus too)

Errors are all :class:`~rules.errors.RulesError`: a malformed expression raises
:class:`DiceSyntaxError`; a number outside a :class:`Limits` bound (dice count, faces, keep,
length, total dice) raises :class:`DiceBoundsError` (both a syntax and a limit error, with a
position). Integers are at most 9 digits long.

Rolling: each die of ``NdM!`` that shows its maximum rolls again and the chain adds up to one
die's value (the keep, if any, chooses among those values). A chain longer than
``Limits.max_chain`` explosions, or more than ``Limits.max_dice_total`` dice rolled in all,
stops the roll with :class:`DiceLimitError` rather than silently cutting the chain: the bound is
astronomically unlikely on fair dice (2**-100 for a d2), so hitting it means a broken source.
Every die is drawn with ``rng.randint`` (``randint(1, M)``, or ``randint(-1, 1)`` for F),
terms left to right, dice in order, each chain before the next die.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.errors import DiceBoundsError, DiceLimitError, DiceSyntaxError
from rules.rng import make_rng

__all__ = [
    "DEFAULT_LIMITS",
    "ConstTerm",
    "DiceTerm",
    "Die",
    "Expression",
    "Limits",
    "RollResult",
    "TermRoll",
    "make_rng",
    "parse",
    "roll",
    "validate",
]


@dataclass(frozen=True)
class Limits:
    """Bounds against abuse for one evaluation (parse, roll or odds)."""

    max_length: int = 200
    max_dice_per_term: int = 1000
    min_faces: int = 2
    max_faces: int = 1000
    max_dice_total: int = 1000
    max_chain: int = 100


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class DiceTerm:
    """``NdM``, ``NdF``, ``NdM!``, ``NdMkhK`` or ``NdMklK`` with its sign."""

    sign: int
    count: int
    faces: int | None
    explode: bool = False
    keep: tuple[str, int] | None = None
    position: int = 0

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        faces = "F" if self.faces is None else str(self.faces)
        bang = "!" if self.explode else ""
        keep = f"k{self.keep[0]}{self.keep[1]}" if self.keep else ""
        return f"{count}d{faces}{bang}{keep}"


@dataclass(frozen=True)
class ConstTerm:
    """An integer added or subtracted."""

    sign: int
    value: int
    position: int = 0

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Expression:
    """A parsed dice expression; ``str()`` gives the canonical notation."""

    text: str
    terms: tuple[DiceTerm | ConstTerm, ...]
    target: int | None = None

    def __str__(self) -> str:
        out = []
        for i, term in enumerate(self.terms):
            if i == 0:
                out.append(f"-{term}" if term.sign < 0 else str(term))
            else:
                out.append(f"{'-' if term.sign < 0 else '+'} {term}")
        if self.target is not None:
            out.append(f"vs {self.target}")
        return " ".join(out)


_DIGITS = frozenset("0123456789")
_D = frozenset("dDкКдД")
_FUDGE = frozenset("fFфФ")
_SIGNS = {"+": 1, "-": -1, "\u2212": -1}
_MAX_DIGITS = 9


def _where(position: int, message: str) -> str:
    return f"позиция {position + 1}: {message}"


def _check_term(
    term: DiceTerm,
    limits: Limits,
    faces_at: int | None = None,
    keep_at: int | None = None,
) -> None:
    """Raise if a dice term breaks a bound; positions default to the term's start."""
    start = term.position
    faces_at = start if faces_at is None else faces_at
    keep_at = start if keep_at is None else keep_at
    if not 1 <= term.count <= limits.max_dice_per_term:
        raise DiceBoundsError(
            _where(
                start,
                f"кубиков в одном броске может быть от 1 до {limits.max_dice_per_term}, "
                f"а не {term.count} — исправьте число перед «d»",
            ),
            start,
        )
    if term.faces is None:
        if term.explode:
            raise DiceSyntaxError(
                _where(faces_at, "кубики Фейт (dF) не взрываются — уберите «!»"), faces_at
            )
    else:
        if term.explode and term.faces == 1:
            raise DiceSyntaxError(
                _where(
                    faces_at,
                    "у кубика с одной гранью каждый бросок максимальный, «!» взрывался бы "
                    "бесконечно — уберите «!» или возьмите больше граней",
                ),
                faces_at,
            )
        if not limits.min_faces <= term.faces <= limits.max_faces:
            raise DiceBoundsError(
                _where(
                    faces_at,
                    f"граней у кубика может быть от {limits.min_faces} до {limits.max_faces}, "
                    f"а не {term.faces} — исправьте число после «d»",
                ),
                faces_at,
            )
    if term.keep is not None:
        mode, kept = term.keep
        if mode not in ("h", "l"):
            raise DiceSyntaxError(
                _where(keep_at, "оставлять можно старшие (kh) или младшие (kl) кубики"), keep_at
            )
        if not 1 <= kept <= term.count:
            raise DiceBoundsError(
                _where(
                    keep_at,
                    f"из {term.count} кубиков можно оставить от 1 до {term.count}, "
                    f"а не {kept} — исправьте число после «k{mode}»",
                ),
                keep_at,
            )


def _too_many_dice(position: int, limits: Limits) -> DiceBoundsError:
    return DiceBoundsError(
        _where(
            position,
            f"в выражении больше {limits.max_dice_total} кубиков — уменьшите их число",
        ),
        position,
    )


def validate(expression: Expression, limits: Limits = DEFAULT_LIMITS) -> None:
    """Check a (possibly hand-built) expression against the limits.

    Args:
        expression: the expression to check.
        limits: the bounds to apply.

    Raises:
        DiceSyntaxError: a term that cannot be rolled (``1d1!``, ``dF!``).
        DiceBoundsError: a count, faces, keep or total dice out of bounds.
    """
    total = 0
    for term in expression.terms:
        if isinstance(term, DiceTerm):
            _check_term(term, limits)
            total += term.count
            if total > limits.max_dice_total:
                raise _too_many_dice(term.position, limits)


class _Parser:
    """Recursive-descent parser over the raw text (no lowering: positions stay exact)."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.text = text
        self.limits = limits
        self.i = 0
        self.dice = 0

    def error(self, message: str, position: int) -> DiceSyntaxError:
        return DiceSyntaxError(_where(position, message), position)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i].isspace():
            self.i += 1

    def number(self) -> int | None:
        start = self.i
        while self.i < len(self.text) and self.text[self.i] in _DIGITS:
            self.i += 1
        if self.i == start:
            return None
        digits = self.text[start : self.i].lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise DiceBoundsError(
                _where(start, f"слишком большое число — не больше {_MAX_DIGITS} цифр"), start
            )
        return int(digits or "0")

    def expression(self) -> Expression:
        self.skip_ws()
        if self.i >= len(self.text):
            raise self.error("пустое выражение — введите бросок, например «2d6+3»", 0)
        sign, after = 1, ""
        if self.peek() in _SIGNS:
            after = self.peek()
            sign = _SIGNS[after]
            self.i += 1
            self.skip_ws()
        terms = [self.term(sign, after)]
        target = None
        while True:
            self.skip_ws()
            if self.i >= len(self.text):
                break
            ch = self.peek()
            if ch in _SIGNS:
                self.i += 1
                self.skip_ws()
                terms.append(self.term(_SIGNS[ch], ch))
            elif self.text[self.i : self.i + 2].lower() == "vs":
                target = self.target()
                self.skip_ws()
                if self.i < len(self.text):
                    raise self.error("после «vs N» ничего не должно быть — уберите лишнее", self.i)
                break
            else:
                raise self.error(f"ожидалось «+», «-» или «vs N», а встретилось «{ch}»", self.i)
        return Expression(self.text, tuple(terms), target)

    def target(self) -> int:
        self.i += 2
        self.skip_ws()
        sign = 1
        if self.peek() in _SIGNS:
            sign = _SIGNS[self.peek()]
            self.i += 1
        value = self.number()
        if value is None:
            raise self.error("после «vs» ожидалось число — цель броска, например «vs 12»", self.i)
        return sign * value

    def term(self, sign: int, after: str) -> DiceTerm | ConstTerm:
        start = self.i
        count = self.number()
        if self.peek() in _D:
            return self.dice_term(sign, start, 1 if count is None else count)
        if count is None:
            if self.i >= len(self.text):
                where = f"после «{after}» " if after else ""
                raise self.error(
                    f"выражение обрывается: {where}ожидалось число или кубик, например «d6»",
                    self.i,
                )
            raise self.error(
                f"ожидалось число или кубик (например, «2d6»), а встретилось «{self.peek()}»",
                self.i,
            )
        return ConstTerm(sign, count, start)

    def dice_term(self, sign: int, start: int, count: int) -> DiceTerm:
        letter = self.peek()
        self.i += 1
        faces_at = self.i
        faces: int | None
        if self.peek() == "%":
            faces = 100
            self.i += 1
        elif self.peek() in _FUDGE:
            faces = None
            self.i += 1
        else:
            faces = self.number()
            if faces is None:
                raise self.error(
                    f"ожидалось число граней после «{letter}» (например, «{letter}6»), «%» или «F»",
                    self.i,
                )
        explode = self.peek() == "!"
        if explode:
            self.i += 1
        keep = None
        keep_at = self.i
        if self.peek() in ("k", "K"):
            self.i += 1
            mode = self.peek().lower()
            if mode not in ("h", "l"):
                raise self.error(
                    "после «k» ожидалось «h» (оставить старшие) или «l» (оставить младшие), "
                    "например «kh3»",
                    self.i,
                )
            self.i += 1
            keep_at = self.i
            kept = self.number()
            if kept is None:
                raise self.error(
                    f"после «k{mode}» ожидалось, сколько кубиков оставить, например «k{mode}1»",
                    self.i,
                )
            keep = (mode, kept)
        term = DiceTerm(sign, count, faces, explode, keep, start)
        _check_term(term, self.limits, faces_at, keep_at)
        self.dice += count
        if self.dice > self.limits.max_dice_total:
            raise _too_many_dice(start, self.limits)
        return term


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Parse dice notation such as ``"4d6!kh3 - 2 vs 10"`` or ``"2к6+1"``.

    Args:
        text: the expression as typed.
        limits: the bounds to apply.

    Returns:
        The parsed expression (``str()`` of it is the canonical notation).

    Raises:
        DiceSyntaxError: malformed text; ``.position`` is the 0-based index and the message
            names the 1-based position and what was expected.
        DiceBoundsError: a number out of bounds or text longer than ``limits.max_length``.
    """
    if len(text) > limits.max_length:
        raise DiceBoundsError(
            _where(
                limits.max_length,
                f"выражение длиннее {limits.max_length} символов — сократите его",
            ),
            limits.max_length,
        )
    return _Parser(text, limits).expression()


@dataclass(frozen=True)
class Die:
    """One die: its chain of rolls (first roll, then each explosion) and whether it counts."""

    rolls: tuple[int, ...]
    kept: bool = True

    @property
    def value(self) -> int:
        return sum(self.rolls)

    @property
    def exploded(self) -> bool:
        return len(self.rolls) > 1


@dataclass(frozen=True)
class TermRoll:
    """Every die of one dice term; ``value`` is the signed sum of the kept dice."""

    term: DiceTerm
    dice: tuple[Die, ...]
    value: int


@dataclass(frozen=True)
class RollResult:
    """The outcome of rolling an expression, keeping every die."""

    expression: Expression
    parts: tuple[TermRoll | ConstTerm, ...]
    total: int
    success: bool | None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict; each part's ``value`` is its signed contribution."""
        parts: list[dict[str, Any]] = []
        for part in self.parts:
            if isinstance(part, ConstTerm):
                parts.append({"kind": "const", "sign": part.sign, "value": part.sign * part.value})
                continue
            dice = [
                {
                    "rolls": list(die.rolls),
                    "value": die.value,
                    "kept": die.kept,
                    "exploded": die.exploded,
                }
                for die in part.dice
            ]
            parts.append(
                {
                    "kind": "dice",
                    "term": str(part.term),
                    "sign": part.term.sign,
                    "value": part.value,
                    "dice": dice,
                }
            )
        return {
            "expression": str(self.expression),
            "text": self.expression.text,
            "target": self.expression.target,
            "total": self.total,
            "success": self.success,
            "parts": parts,
        }


class _DiceCounter:
    """Counts dice rolled in one evaluation, explosions included."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rolled = 0

    def take(self) -> None:
        self.rolled += 1
        if self.rolled > self.limits.max_dice_total:
            raise DiceLimitError(
                f"взрывы довели число кубиков до {self.rolled}, больше "
                f"{self.limits.max_dice_total} за бросок — бросок остановлен; "
                "уменьшите число кубиков или уберите «!»"
            )


def _roll_chain(term: DiceTerm, rng: random.Random, counter: _DiceCounter) -> tuple[int, ...]:
    counter.take()
    if term.faces is None:
        return (rng.randint(-1, 1),)
    rolls = [rng.randint(1, term.faces)]
    while term.explode and rolls[-1] == term.faces:
        if len(rolls) > counter.limits.max_chain:
            raise DiceLimitError(
                f"кубик d{term.faces}! взорвался больше {counter.limits.max_chain} раз "
                "подряд — бросок остановлен; проверьте источник случайности или уберите «!»"
            )
        counter.take()
        rolls.append(rng.randint(1, term.faces))
    return tuple(rolls)


def _kept(values: list[int], keep: tuple[str, int] | None) -> set[int]:
    """Indices of the kept dice; ties go to the earlier die."""
    if keep is None:
        return set(range(len(values)))
    mode, count = keep
    direction = -1 if mode == "h" else 1
    order = sorted(range(len(values)), key=lambda i: (direction * values[i], i))
    return set(order[:count])


def roll(expr: str | Expression, rng: random.Random, limits: Limits = DEFAULT_LIMITS) -> RollResult:
    """Roll an expression, keeping every die (dropped ones too, with ``kept=False``).

    Args:
        expr: dice notation or an already parsed expression.
        rng: the session's random source; same seed and input give the same result.
        limits: the bounds to apply.

    Returns:
        The result with every die, the total and success against ``vs N`` (None without).

    Raises:
        DiceSyntaxError: the text cannot be parsed.
        DiceLimitError: a bound is broken, including explosions past the dice or chain cap.
    """
    expression = parse(expr, limits) if isinstance(expr, str) else expr
    validate(expression, limits)
    counter = _DiceCounter(limits)
    parts: list[TermRoll | ConstTerm] = []
    total = 0
    for term in expression.terms:
        if isinstance(term, ConstTerm):
            parts.append(term)
            total += term.sign * term.value
            continue
        chains = [_roll_chain(term, rng, counter) for _ in range(term.count)]
        values = [sum(chain) for chain in chains]
        kept = _kept(values, term.keep)
        value = term.sign * sum(values[i] for i in kept)
        dice = tuple(Die(chain, i in kept) for i, chain in enumerate(chains))
        parts.append(TermRoll(term, dice, value))
        total += value
    success = None if expression.target is None else total >= expression.target
    return RollResult(expression, tuple(parts), total, success)
