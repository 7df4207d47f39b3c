"""The parsed form of dice notation: compare points, modifiers, nodes, limits.

The notation follows rpg-dice-roller's documented syntax; modifiers of one dice pool run in its
order whatever order they were typed in: ``min``, ``max``, explode (``!``, ``!!``, ``!p``),
reroll (``r``, ``ro``), keep (``k``), drop (``d``), success/failure (``>=8f<=1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

__all__ = [
    "DEFAULT_LIMITS",
    "Binary",
    "Compare",
    "Dice",
    "Explode",
    "Expression",
    "Group",
    "Limits",
    "Negate",
    "Node",
    "Number",
    "Reroll",
    "Select",
    "Target",
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


OPERATORS = ("!=", "<=", ">=", "=", "<", ">")


@dataclass(frozen=True)
class Compare:
    """A compare point such as ``>=8``: which values match."""

    op: str
    value: int

    def match(self, value: int) -> bool:
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
        return f"{'<>' if self.op == '!=' else self.op}{self.value}"


def _point(point: Compare | None) -> str:
    """A compare point after ``!``, ``r`` or ``f``: ``=N`` is written as plain ``N``."""
    if point is None:
        return ""
    if point.op == "=" and point.value >= 0:
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
class Select:
    """Keep (``k``, ``kh``, ``kl``) or drop (``d``, ``dl``, ``dh``) the highest or lowest."""

    keep: bool
    high: bool
    count: int

    def __str__(self) -> str:
        return f"{'k' if self.keep else 'd'}{'h' if self.high else 'l'}{self.count}"


@dataclass(frozen=True)
class Target:
    """Count successes (``>=8``) minus failures (``f<=1``) instead of adding values."""

    success: Compare
    failure: Compare | None = None

    def outcome(self, value: int) -> int:
        """Return +1 for a success, -1 for a failure, 0 otherwise."""
        if self.success.match(value):
            return 1
        if self.failure is not None and self.failure.match(value):
            return -1
        return 0

    def __str__(self) -> str:
        return f"{self.success}{f'f{_point(self.failure)}' if self.failure else ''}"


@dataclass(frozen=True)
class Number:
    """An integer constant."""

    value: int
    position: int = 0

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``NdM`` (``faces`` None for Fudge ``dF``) with its modifiers."""

    count: int
    faces: int | None
    minimum: int | None = None
    maximum: int | None = None
    explode: Explode | None = None
    reroll: Reroll | None = None
    keep: Select | None = None
    drop: Select | None = None
    target: Target | None = None
    position: int = 0

    @property
    def low(self) -> int:
        """The lowest face."""
        return -1 if self.faces is None else 1

    @property
    def high(self) -> int:
        """The highest face."""
        return 1 if self.faces is None else self.faces

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

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        faces = "F" if self.faces is None else ("%" if self.faces == 100 else str(self.faces))
        mods = [
            "" if self.minimum is None else f"min{self.minimum}",
            "" if self.maximum is None else f"max{self.maximum}",
            str(self.explode or ""),
            str(self.reroll or ""),
            str(self.keep or ""),
            str(self.drop or ""),
            str(self.target or ""),
        ]
        return f"{count}d{faces}{''.join(mods)}"


@dataclass(frozen=True)
class Group:
    """``{a, b, ...}`` with keep/drop and success counting over sub-totals.

    With a single sub-expression the modifiers act on its dice instead (rpg-dice-roller).
    """

    items: tuple[Node, ...]
    keep: Select | None = None
    drop: Select | None = None
    target: Target | None = None
    position: int = 0

    def __str__(self) -> str:
        mods = f"{self.keep or ''}{self.drop or ''}{self.target or ''}"
        return "{" + ", ".join(str(item) for item in self.items) + "}" + mods


@dataclass(frozen=True)
class Binary:
    """``left op right`` for ``+ - * /`` (``/`` rounds down)."""

    op: str
    left: Node
    right: Node
    position: int = 0

    def __str__(self) -> str:
        left, right = str(self.left), str(self.right)
        if self.op in "*/":
            if isinstance(self.left, Binary) and self.left.op in "+-":
                left = f"({left})"
            if isinstance(self.right, Binary):
                right = f"({right})"
        elif self.op == "-" and isinstance(self.right, Binary) and self.right.op in "+-":
            right = f"({right})"
        if isinstance(self.right, Negate):
            right = f"({right})"
        return f"{left} {self.op} {right}"


@dataclass(frozen=True)
class Negate:
    """A leading minus."""

    operand: Node
    position: int = 0

    def __str__(self) -> str:
        inner = str(self.operand)
        if isinstance(self.operand, (Binary, Negate)):
            inner = f"({inner})"
        return f"-{inner}"


Node = Union[Number, Dice, Group, Binary, Negate]


@dataclass(frozen=True)
class Expression:
    """A parsed expression; ``str()`` gives the canonical notation.

    Attributes:
        text: the text as typed.
        root: the expression tree.
        target: ``vs N``: success when the total (or the success count) is at least N.
        label: the text after ``#``, stripped (None without one).
        repeat: ``Nx EXPR`` rolls the expression N times (1 without).
    """

    text: str
    root: Node
    target: int | None = None
    label: str | None = None
    repeat: int = 1

    def __str__(self) -> str:
        out = str(self.root)
        if self.repeat != 1:
            out = f"{self.repeat}x {out}"
        if self.target is not None:
            out += f" vs {self.target}"
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
