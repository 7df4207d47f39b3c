"""The dice parser's checks: a parsed pool, group or tree that could not be rolled is refused.

A ``min`` or ``max`` off the die, an explosion or reroll that never stops, a keep or drop of
more dice than rolled, too many dice in all, a group whose modifiers cannot act on its dice, a
divisor that may be zero, a square root, logarithm or power that may have no value, a number
that may pass ±10¹⁵: each is a :class:`~rules.errors.DiceSyntaxError` or
:class:`~rules.errors.DiceBoundsError` naming the position.
"""

from __future__ import annotations

import math

from rules.dice.bounds import bounds, integral, loose_bounds, static_dice
from rules.dice.model import (
    Binary,
    Call,
    Dice,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
    Reading,
    Select,
    kept_range,
    walk,
    where,
)
from rules.dice.parser_tokens import Scanner, _bounds_error
from rules.dice.values import MAX_MAGNITUDE, magnitude
from rules.errors import DiceSyntaxError


class CheckMixin(Scanner):
    """The checks of one pool, with its modifiers' positions (mixed into the parser)."""

    def check_dice(self, dice: Dice, positions: dict[str, int]) -> None:
        low, high = dice.low, dice.high
        for key in ("minimum", "maximum"):
            value = getattr(dice, key)
            if value is not None and not low <= value <= high:
                word = "min" if key == "minimum" else "max"
                raise _bounds_error(
                    positions[key], f"«{word}» у d{dice.faces or 'F'} может быть от {low} до {high}"
                )
        if dice.minimum is not None and dice.maximum is not None and dice.minimum > dice.maximum:
            raise _bounds_error(positions["minimum"], "«min» больше «max» — поменяйте их местами")
        faces = range(low, high + 1)
        if dice.explode is not None and all(dice.explode_point.match(v) for v in faces):
            raise self.error(
                f"«{dice.explode}» срабатывает на любой грани — взрыв не остановился бы "
                "никогда; измените условие (например «!>=5»)",
                positions["explode"],
            )
        if (
            dice.reroll is not None
            and not dice.reroll.once
            and all(dice.reroll_point.match(v) for v in faces)
        ):
            raise self.error(
                f"«{dice.reroll}» срабатывает на любой грани — переброс не остановился бы "
                "никогда; измените условие или пишите «ro» (один переброс)",
                positions["reroll"],
            )
        if len(dice.selects) > 1:
            a, b = kept_range(dice.selects, dice.count)
            if a == b:
                first = min(positions[_slot(s)] for s in dice.selects)
                names = " и ".join(f"«{s}»" for s in dice.selects)
                self.readings.append(
                    Reading(
                        first,
                        "".join(str(s) for s in dice.selects),
                        "",
                        f"{names} вместе не оставляют ни одного из {dice.count} кубиков "
                        "(каждый смотрит на весь бросок, как в rpg-dice-roller) — итог всегда 0",
                    )
                )
        for select in dice.selects:
            if select.count > dice.count:
                word = "оставить" if select.keep else "отбросить"
                raise _bounds_error(
                    positions[_slot(select)],
                    f"из {dice.count} кубиков нельзя {word} {select.count} — "
                    f"возьмите число от 1 до {dice.count}",
                )


def _slot(select: Select) -> str:
    return ("k" if select.keep else "d") + ("h" if select.high else "l")


def _magnitude(node: Node, limits: Limits) -> None:
    """Refuse a node whose value may pass ±10¹⁵ (an unbounded ``tan`` over a pole excepted: its
    size is known only when rolled, and the roll says so then)."""
    low, high = bounds(node, limits)
    unknown = any(isinstance(n, Call) and n.name == "tan" for n in walk(node))
    if max(magnitude(low), magnitude(high)) > MAX_MAGNITUDE and not (
        unknown and not (math.isfinite(low) and math.isfinite(high))
    ):
        raise DiceSyntaxError(
            where(
                node.position,
                f"«{node}» может выйти за ±10¹⁵ — уменьшите степень или множители",
            ),
            node.position,
        )


def _refuse(node: Node, message: str) -> DiceSyntaxError:
    return DiceSyntaxError(where(node.position, message), node.position)


def _check_binary(node: Binary, limits: Limits, loose: bool) -> None:
    span = loose_bounds if loose else bounds
    if node.op in "/%":
        low, high = span(node.right, limits)
        if low <= 0 <= high:
            raise _refuse(node, f"делитель «{node.right}» может оказаться нулём — на ноль не делят")
    elif node.op == "^":
        base, power = span(node.left, limits), span(node.right, limits)
        if base[0] <= 0 <= base[1] and power[0] < 0:
            raise _refuse(
                node, f"«{node.left}» может оказаться нулём в отрицательной степени «{node.right}»"
            )
        if base[0] < 0 and not integral(node.right):
            raise _refuse(
                node,
                f"«{node.left}» может оказаться отрицательным, а степень «{node.right}» — "
                "дробной: такого числа нет",
            )
        _magnitude(node, limits)
    elif node.op == "*":
        _magnitude(node, limits)


def _check_call(node: Call, limits: Limits, loose: bool) -> None:
    span = loose_bounds if loose else bounds
    low, _ = span(node.args[0], limits)
    if node.name == "sqrt" and low < 0:
        raise _refuse(node, f"«{node.args[0]}» может оказаться отрицательным — корня из него нет")
    if node.name == "log" and low <= 0:
        raise _refuse(node, f"«{node.args[0]}» может оказаться не больше нуля — логарифма нет")
    if node.name == "pow":
        _check_binary(Binary("^", node.args[0], node.args[1], node.position), limits, loose)
    if node.name == "exp":
        _magnitude(node, limits)


def _check(expression: Expression, limits: Limits) -> None:
    """Checks over the whole tree: dice total, groups, divisors that may be zero."""
    total = 0
    stack: list[tuple[Node, bool]] = [(expression.root, False)]
    while stack:
        node, loose = stack.pop()
        if isinstance(node, Dice):
            total += node.count * expression.repeat
            if total > limits.max_dice_total:
                raise _bounds_error(
                    node.position,
                    f"в выражении больше {limits.max_dice_total} кубиков — уменьшите их число",
                )
        elif isinstance(node, Group):
            _check_group(node, limits)
            inner = loose or (len(node.items) == 1 and bool(node.selects))
            stack += [(item, inner) for item in reversed(node.items)]
        elif isinstance(node, Binary):
            _check_binary(node, limits, loose)
            stack += [(node.right, loose), (node.left, loose)]
        elif isinstance(node, Negate):
            stack.append((node.operand, loose))
        elif isinstance(node, Call):
            _check_call(node, limits, loose)
            stack += [(arg, loose) for arg in reversed(node.args)]


def _check_group(group: Group, limits: Limits) -> None:
    if len(group.items) > 1:
        for select in group.selects:
            if select.count > len(group.items):
                raise _bounds_error(
                    group.position,
                    f"в группе {len(group.items)} выражения, а «{select}» просит больше — "
                    "уменьшите число",
                )
        return
    if not group.selects:
        return
    # One sub-expression: keep and drop act on the dice of its pools (rpg-dice-roller), so
    # those pools must leave their dice to the group.
    for node in _own(group.items[0]):
        if isinstance(node, Group):
            raise _refuse(
                group,
                "в группе из одного выражения с k или d не бывает вложенных групп — "
                "перечислите части через «,»",
            )
        if isinstance(node, Dice) and (node.selects or node.target is not None):
            raise _refuse(
                group,
                f"в группе из одного выражения с k или d кубики «{node}» не могут сами "
                "оставлять, отбрасывать или считать успехи — перенесите это на группу",
            )
    dice = static_dice(group.items[0])
    for select in group.selects:
        if select.count > dice:
            raise _bounds_error(
                group.position,
                f"в группе {dice} кубиков, а «{select}» просит больше — уменьшите число",
            )


def _own(node: Node) -> list[Node]:
    """The pools and groups of a sub-expression (not looking inside its groups)."""
    if isinstance(node, (Dice, Group)):
        return [node]
    if isinstance(node, Binary):
        return _own(node.left) + _own(node.right)
    if isinstance(node, Negate):
        return _own(node.operand)
    if isinstance(node, Call):
        return [n for a in node.args for n in _own(a)]
    assert isinstance(node, Number)
    return []
