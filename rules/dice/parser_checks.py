"""The dice parser's checks: a parsed pool, group or tree that could not be rolled is refused.

A ``min`` or ``max`` off the die, an explosion or reroll that never stops, a keep or drop of
more dice than rolled, too many dice in all, a group whose modifiers cannot act on its dice, a
divisor that may be zero: each is a :class:`~rules.errors.DiceSyntaxError` or
:class:`~rules.errors.DiceBoundsError` naming the position.
"""

from __future__ import annotations

from rules.dice.bounds import bounds, static_dice
from rules.dice.model import Binary, Dice, Expression, Group, Limits, Negate, Number, walk, where
from rules.dice.parser_tokens import Scanner, _bounds_error
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
        for key in ("keep", "drop"):
            select = getattr(dice, key)
            if select is not None and select.count > dice.count:
                word = "оставить" if select.keep else "отбросить"
                raise _bounds_error(
                    positions[key],
                    f"из {dice.count} кубиков нельзя {word} {select.count} — "
                    f"возьмите число от 1 до {dice.count}",
                )


def _check(expression: Expression, limits: Limits) -> None:
    """Checks over the whole tree: dice total, groups, divisors that may be zero."""
    total = 0
    for node in walk(expression.root):
        if isinstance(node, Dice):
            total += node.count * expression.repeat
            if total > limits.max_dice_total:
                raise _bounds_error(
                    node.position,
                    f"в выражении больше {limits.max_dice_total} кубиков — уменьшите их число",
                )
        elif isinstance(node, Group):
            _check_group(node, limits)
        elif isinstance(node, Binary) and node.op == "/":
            low, high = bounds(node.right, limits)
            if low <= 0 <= high:
                raise DiceSyntaxError(
                    where(
                        node.position,
                        f"делитель «{node.right}» может оказаться нулём — на ноль не делят",
                    ),
                    node.position,
                )


def _check_group(group: Group, limits: Limits) -> None:
    selects = [s for s in (group.keep, group.drop) if s is not None]
    modified = bool(selects) or group.target is not None
    if len(group.items) > 1:
        for select in selects:
            if select.count > len(group.items):
                raise _bounds_error(
                    group.position,
                    f"в группе {len(group.items)} выражения, а «{select}» просит больше — "
                    "уменьшите число",
                )
        return
    if not modified:
        return
    # One sub-expression: the modifiers act on its dice, so it must be a plain sum of dice.
    stack = [(1, group.items[0])]
    signs = set()
    while stack:
        sign, node = stack.pop()
        if isinstance(node, Binary) and node.op in "+-":
            stack += [(sign, node.left), (sign if node.op == "+" else -sign, node.right)]
        elif isinstance(node, Negate):
            stack.append((-sign, node.operand))
        elif isinstance(node, Dice) and not (node.keep or node.drop or node.target):
            signs.add(sign)
            continue
        elif isinstance(node, Number):
            continue
        else:
            raise DiceSyntaxError(
                where(
                    group.position,
                    "в группе из одного выражения с k, d или условием успеха допустимы только "
                    "кубики без k/d/условий, числа, «+» и «-» — или перечислите части через «,»",
                ),
                group.position,
            )
    if selects and len(signs) > 1:
        raise DiceSyntaxError(
            where(
                group.position,
                "в группе с k или d кубики должны все прибавляться или все вычитаться — "
                "перечислите части через «,», например «{4d6, -2d4}k1»",
            ),
            group.position,
        )
    dice = static_dice(group.items[0])
    for select in selects:
        if select.count > dice:
            raise _bounds_error(
                group.position,
                f"в группе {dice} кубиков, а «{select}» просит больше — уменьшите число",
            )
