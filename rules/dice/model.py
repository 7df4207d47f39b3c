"""The parsed form of dice notation: compare points, modifiers, nodes, limits.

The notation follows rpg-dice-roller's documented syntax; modifiers of one dice pool run in its
order whatever order they were typed in: ``min`` (1), ``max`` (2), explode (3: ``!``, ``!!``,
``!p``), reroll (4: ``r``, ``ro``), unique (5: ``u``, ``uo``), keep (6: ``kh``, ``kl``), drop (7:
``dh``, ``dl``), success/failure (8: ``>=8f<=1``), critical success (9: ``cs``) and failure (10:
``cf``), sorting (11: ``s``, ``sa``, ``sd``). Keep and drop each look at the whole pool, so
together they keep the dice every one of them keeps (``3d10k1dh1`` keeps none).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from rules.dice.values import Value

__all__ = [
    "DEFAULT_LIMITS",
    "Binary",
    "Call",
    "Compare",
    "Dice",
    "Explode",
    "Expression",
    "Group",
    "Limits",
    "Mark",
    "Negate",
    "Node",
    "Number",
    "Reading",
    "Reroll",
    "Select",
    "Target",
    "Unique",
    "kept_range",
    "where",
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
    max_depth: int = 30


DEFAULT_LIMITS = Limits()


def where(position: int, message: str) -> str:
    """Return a message naming the 1-based position of a 0-based index."""
    return f"позиция {position + 1}: {message}"


#: The compare operators of a compare point (``<>`` is read as ``!=``).
OPERATORS = ("!=", "<=", ">=", "=", "<", ">")


def number_text(value: Value) -> str:
    """A number as notation writes it: ``3``, ``-2``, ``2.5`` (a typed decimal stays one)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        digits, rest = 0, value
        while rest.denominator != 1 and digits < 12:
            rest *= 10
            digits += 1
        if rest.denominator == 1:
            text = f"{abs(rest.numerator):0{digits + 1}d}"
            sign = "-" if value < 0 else ""
            return f"{sign}{text[:-digits]}.{text[-digits:]}"
        return f"({value.numerator}/{value.denominator})"
    return str(value)


@dataclass(frozen=True)
class Compare:
    """A compare point such as ``>=8``: which values match."""

    op: str
    value: int | Fraction

    def match(self, value: Value) -> bool:
        """Return whether ``value`` matches the compare point."""
        op, v = self.op, self.value
        if op == "=":
            return value == v
        if op == "!=":
            return value != v
        if op == "<":
            return value < v
        if op == ">":
            return value > v
        if op == "<=":
            return value <= v
        return value >= v

    def __str__(self) -> str:
        # "<>" rather than "!=": after a pool "!=" would read as an explosion
        return f"{'<>' if self.op == '!=' else self.op}{number_text(self.value)}"


def _point(point: Compare | None) -> str:
    """A compare point after ``!``, ``r`` or ``f``: ``=N`` is written as plain ``N``."""
    if point is None:
        return ""
    if point.op == "=" and isinstance(point.value, int) and point.value >= 0:
        return str(point.value)
    return str(point)


@dataclass(frozen=True)
class Explode:
    """``!`` (each explosion a new die), ``!!`` (compounded into one), ``!p`` (penetrating)."""

    compound: bool = False
    penetrate: bool = False
    point: Compare | None = None  # None: the die's maximum

    def __str__(self) -> str:
        bang = "!!" if self.compound else "!"
        return f"{bang}{'p' if self.penetrate else ''}{_point(self.point)}"


@dataclass(frozen=True)
class Reroll:
    """``r`` (until the value no longer matches) or ``ro`` (once)."""

    once: bool = False
    point: Compare | None = None  # None: the die's minimum

    def __str__(self) -> str:
        return f"r{'o' if self.once else ''}{_point(self.point)}"


@dataclass(frozen=True)
class Unique:
    """``u`` (reroll a value an earlier die already shows, until it is new) or ``uo`` (once);
    with a compare point only values that match it must be unique."""

    once: bool = False
    point: Compare | None = None  # None: every value

    def __str__(self) -> str:
        return f"u{'o' if self.once else ''}{_point(self.point)}"


@dataclass(frozen=True)
class Select:
    """Keep (``k``, ``kh``, ``kl``) or drop (``d``, ``dl``, ``dh``) the highest or lowest."""

    keep: bool
    high: bool
    count: int

    def __str__(self) -> str:
        return f"{'k' if self.keep else 'd'}{'h' if self.high else 'l'}{self.count}"


#: The canonical order of a pool's selections (each kind at most once).
SELECT_ORDER = ((True, True), (True, False), (False, True), (False, False))


def kept_range(selects: tuple[Select, ...], n: int) -> tuple[int, int]:
    """The ranks kept among ``n`` entries sorted ascending: ``[a, b)``.

    Each selection keeps one end of the sorted entries and they all look at the whole pool
    (rpg-dice-roller), so together they keep the ranks every one of them keeps.
    """
    a, b = 0, n
    for s in selects:
        count = min(s.count, n)
        if s.keep:
            lo, hi = (n - count, n) if s.high else (0, count)
        else:
            lo, hi = (0, n - count) if s.high else (count, n)
        a, b = max(a, lo), min(b, hi)
    return a, max(a, b)


@dataclass(frozen=True)
class Target:
    """Count successes (``>=8``) minus failures (``f<=1``) instead of adding values."""

    success: Compare
    failure: Compare | None = None

    def outcome(self, value: Value) -> int:
        """Return +1 for a success, -1 for a failure, 0 otherwise."""
        if self.success.match(value):
            return 1
        if self.failure is not None and self.failure.match(value):
            return -1
        return 0

    def __str__(self) -> str:
        return f"{self.success}{f'f{_point(self.failure)}' if self.failure else ''}"


@dataclass(frozen=True)
class Mark:
    """``cs`` / ``cf``: mark a critical success / failure (it changes no value)."""

    point: Compare | None = None  # None: the die's maximum (cs) or minimum (cf)


@dataclass(frozen=True)
class Number:
    """A constant: an integer, or a typed decimal (``2.5``, kept as an exact fraction)."""

    value: int | Fraction
    position: int = 0

    def __str__(self) -> str:
        return number_text(self.value)


@dataclass(frozen=True)
class Dice:
    """``NdM`` (``faces`` None for Fudge ``dF``) with its modifiers.

    Attributes:
        fudge: for ``dF``: how many faces of each sign on six, 2 (``dF``, ``dF.2``: a third
            each) or 1 (``dF.1``: one plus, one minus, four blanks).
        selects: keep and drop, in canonical order (``kh``, ``kl``, ``dh``, ``dl``).
        description: the text of a ``[ … ]`` or ``/* … */`` right after the pool.
    """

    count: int
    faces: int | None
    minimum: int | None = None
    maximum: int | None = None
    explode: Explode | None = None
    reroll: Reroll | None = None
    unique: Unique | None = None
    selects: tuple[Select, ...] = ()
    target: Target | None = None
    crit_success: Mark | None = None
    crit_failure: Mark | None = None
    sort: str | None = None  # "a" ascending, "d" descending
    fudge: int = 2
    description: str | None = None
    position: int = 0

    @property
    def low(self) -> int:
        """The lowest face."""
        return -1 if self.faces is None else 1

    @property
    def high(self) -> int:
        """The highest face."""
        return 1 if self.faces is None else self.faces

    def face_weights(self) -> dict[int, int]:
        """Each face's weight on one roll (a Fudge ``dF.1`` shows 0 four times in six)."""
        if self.faces is None:
            return {-1: 1, 0: 4, 1: 1} if self.fudge == 1 else {-1: 1, 0: 1, 1: 1}
        return dict.fromkeys(range(1, self.faces + 1), 1)

    @property
    def explode_point(self) -> Compare:
        """The compare point of the explosion (the maximum by default)."""
        assert self.explode is not None
        return self.explode.point or Compare("=", self.high)

    @property
    def reroll_point(self) -> Compare:
        """The compare point of the reroll (the minimum by default)."""
        assert self.reroll is not None
        return self.reroll.point or Compare("=", self.low)

    def unique_match(self, value: Value) -> bool:
        """Whether a value must be unique (``u`` without a point: every value)."""
        assert self.unique is not None
        return self.unique.point is None or self.unique.point.match(value)

    def critical(self, value: Value) -> tuple[bool, bool]:
        """Whether a value is a critical success and whether a critical failure."""
        success = failure = False
        if self.crit_success is not None:
            point = self.crit_success.point or Compare("=", self.high)
            success = point.match(value)
        if self.crit_failure is not None:
            point = self.crit_failure.point or Compare("=", self.low)
            failure = point.match(value)
        return success, failure

    @property
    def keep(self) -> Select | None:
        """The first keep (``kh`` or ``kl``), if any."""
        return next((s for s in self.selects if s.keep), None)

    @property
    def drop(self) -> Select | None:
        """The first drop (``dh`` or ``dl``), if any."""
        return next((s for s in self.selects if not s.keep), None)

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        if self.faces is None:
            faces = "F" if self.fudge == 2 else f"F.{self.fudge}"
        else:
            faces = "%" if self.faces == 100 else str(self.faces)
        mods = [
            "" if self.minimum is None else f"min{self.minimum}",
            "" if self.maximum is None else f"max{self.maximum}",
        ]
        # a modifier whose compare point is optional, right before a success point, would take
        # that point for its own (rpg-dice-roller's caveat): write its default out instead
        before_target = ""
        for kind, text in (
            ("explode", str(self.explode or "")),
            ("reroll", str(self.reroll or "")),
            ("unique", str(self.unique or "")),
        ):
            if text:
                mods.append(text)
                before_target = kind
        if self.selects:
            mods += [str(s) for s in self.selects]
            before_target = ""
        if self.target is not None:
            if before_target == "explode" and self.explode and not self.explode.point:
                mods[-1] += _point(Compare("=", self.high))
            elif before_target == "reroll" and self.reroll and not self.reroll.point:
                mods[-1] += _point(Compare("=", self.low))
            elif before_target == "unique" and self.unique and not self.unique.point:
                mods[-1] += str(Compare(">=", self.low))
            mods.append(str(self.target))
        for word, mark in (("cs", self.crit_success), ("cf", self.crit_failure)):
            if mark is not None:
                mods.append(f"{word}{mark.point or ''}")
        if self.sort is not None:
            mods.append(f"s{self.sort}")
        return f"{count}d{faces}{''.join(mods)}{_described(self.description)}"


def _described(description: str | None) -> str:
    if description is None:
        return ""
    return f" /* {description} */" if "]" in description else f" [{description}]"


@dataclass(frozen=True)
class Group:
    """``{a, b, ...}`` with keep/drop, success counting and sorting over sub-totals.

    With a single sub-expression keep and drop act on its dice instead, and a success point
    compares its total (rpg-dice-roller).
    """

    items: tuple[Node, ...]
    selects: tuple[Select, ...] = ()
    target: Target | None = None
    sort: str | None = None
    description: str | None = None
    position: int = 0

    @property
    def keep(self) -> Select | None:
        return next((s for s in self.selects if s.keep), None)

    @property
    def drop(self) -> Select | None:
        return next((s for s in self.selects if not s.keep), None)

    def __str__(self) -> str:
        mods = "".join(str(s) for s in self.selects) + str(self.target or "")
        if self.sort is not None:
            mods += f"s{self.sort}"
        items = ", ".join(str(item) for item in self.items)
        return "{" + items + "}" + mods + _described(self.description)


#: How tightly each operator binds (higher: tighter); a leading minus binds at 3.
_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "^": 4}


def _level(node: Node) -> int:
    if isinstance(node, Binary):
        return _LEVEL[node.op]
    if isinstance(node, Negate):
        return 3
    if isinstance(node, Number) and node.value < 0:
        return 3
    return 5


def _wrap(node: Node, least: int) -> str:
    text = str(node)
    return f"({text})" if _level(node) < least else text


@dataclass(frozen=True)
class Binary:
    """``left op right`` for ``+ - * / % ^`` (``/`` keeps the fraction, ``^`` is a power)."""

    op: str
    left: Node
    right: Node
    position: int = 0

    def __str__(self) -> str:
        level = _LEVEL[self.op]
        if self.op == "^":  # right-associative; a leading minus binds looser than a power
            left, right = _wrap(self.left, 5), _wrap(self.right, 3)
        else:
            left, right = _wrap(self.left, level), _wrap(self.right, level + 1)
            if isinstance(self.right, Negate):
                right = f"({self.right})"
        return f"{left} {self.op} {right}"


@dataclass(frozen=True)
class Negate:
    """A leading minus."""

    operand: Node
    position: int = 0

    def __str__(self) -> str:
        return f"-{_wrap(self.operand, 4)}"


@dataclass(frozen=True)
class Call:
    """A maths function: ``floor(4d10/3)``, ``max(4d6, 2d10)``."""

    name: str
    args: tuple[Node, ...]
    position: int = 0

    def __str__(self) -> str:
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


Node = Union[Number, Dice, Group, Binary, Negate, Call]


@dataclass(frozen=True)
class Reading:
    """What the parser read in place of what was typed (``++`` as ``+``), to say so.

    Attributes:
        position: 0-based index of what was typed.
        typed: the text as typed.
        read: what it was read as.
        note: a sentence for what needs more than «read as» (``2d6kh1kl1`` keeps nothing).
    """

    position: int
    typed: str
    read: str
    note: str = ""


@dataclass(frozen=True)
class Expression:
    """A parsed expression; ``str()`` gives the canonical notation.

    Attributes:
        text: the text as typed.
        root: the expression tree.
        target: ``vs N``: success when the total (or the success count) is at least N.
        label: the text after ``#`` or ``//``, stripped (None without one).
        repeat: ``Nx EXPR`` rolls the expression N times (1 without).
        readings: what was read differently from how it was typed (``3d6++2``: ``+``).
    """

    text: str
    root: Node
    target: int | Fraction | None = None
    label: str | None = None
    repeat: int = 1
    readings: tuple[Reading, ...] = ()

    def __str__(self) -> str:
        out = str(self.root)
        if self.repeat != 1:
            out = f"{self.repeat}x {out}"
        if self.target is not None:
            out += f" vs {number_text(self.target)}"
        if self.label:
            out += f" # {self.label}"
        return out


def walk(node: Node):  # type: ignore[no-untyped-def]
    """Yield every node of a tree, parents first."""
    yield node
    if isinstance(node, Group):
        for item in node.items:
            yield from walk(item)
    elif isinstance(node, Binary):
        yield from walk(node.left)
        yield from walk(node.right)
    elif isinstance(node, Negate):
        yield from walk(node.operand)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from walk(arg)
