"""The dice parser's fast path: the shapes a GM types most, read with one compiled regex.

``3d6``, ``2d20kh1 + 5``, ``4d6dl1``, ``2d6r1``, ``d20*d20``, ``(2d6+1)*3/2``: numbers and pools
(with ``min``, ``max``, ``r``/``ro``, ``k``, ``d`` written in rpg-dice-roller's order), joined
by ``+ - * /`` and parentheses, with an optional ``# label``. Anything else (``!``, success
counting, groups, ``vs``, ``Nx``, a unary minus, tabs, modifiers in another order or case) and
anything that would be an error is left to the recursive-descent parser
(:mod:`rules.dice.parser`), the one place messages come from: :func:`fast_parse` returns
``None`` for those.

Where it answers, the result is equal (positions included) to the general parser's, which a
property test checks on generated text. It exists because the exact odds of a tiny expression
take a few microseconds, and the general parser took twice as long again.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from rules.dice.bounds import bounds
from rules.dice.model import Binary, Compare, Dice, Expression, Limits, Node, Number, Reroll, Select

_INT = "[0-9]{1,9}"  # ASCII digits only, at most the general parser's nine
_TOKEN = re.compile(
    rf"""\ *(?:
     (?P<dice>(?P<count>{_INT})?[dDкКдД](?P<faces>{_INT}|%|[fFфФ])(?P<mods>
        (?:min(?P<min>{_INT}))?
        (?:max(?P<max>{_INT}))?
        (?:(?P<r>r)(?P<once>o)?(?P<op>!=|<>|<=|>=|=|<|>)?(?P<point>{_INT})?)?
        (?:(?P<k>k)(?P<kside>[hl])?(?P<kn>{_INT})?)?
        (?:(?P<d>d)(?P<dside>[hl])?(?P<dn>{_INT})?)?)?)
    |(?P<number>{_INT})
    |(?P<sign>[-+\u2212*/()])
    |(?P<end>\Z))""",
    re.VERBOSE,
)
_OPS = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "/": "/"}
_FUDGE = frozenset("fFфФ")
_MAX_PARENS = 8  # deeper nesting goes to the general parser (and its depth limit)

_T = TypeVar("_T")
_new = object.__new__


def _make(cls: type[_T], **fields: Any) -> _T:
    """A frozen model object without its ``__init__``, whose ``object.__setattr__`` per field
    cost about as much as the rest of reading ``3d6``. Every field must be given (the models
    have no checks of their own); the property test compares with the general parser's."""
    made = _new(cls)
    made.__dict__.update(fields)
    return made


def _dice(m: re.Match[str], limits: Limits) -> Dice | None:
    """The pool of a ``dice`` token, or ``None`` if it breaks a bound or a check."""
    count_text, faces_text = m["count"], m["faces"]
    count = 1 if count_text is None else int(count_text)
    if not 1 <= count <= limits.max_dice_per_term:
        return None
    low, high = 1, 100
    faces: int | None = 100
    if faces_text in _FUDGE:
        faces, low, high = None, -1, 1
    elif faces_text != "%":
        faces = high = int(faces_text)
        if not limits.min_faces <= faces <= limits.max_faces:
            return None
    minimum = maximum = reroll = keep = drop = None
    if m["mods"]:
        if m["min"] is not None:
            minimum = int(m["min"])
            if not low <= minimum <= high:
                return None
        if m["max"] is not None:
            maximum = int(m["max"])
            if not low <= maximum <= high or (minimum is not None and minimum > maximum):
                return None
        if m["r"] is not None:
            point, op = m["point"], m["op"]
            compare = None
            if point is not None:
                op = "!=" if op == "<>" else op or "="
                compare = _make(Compare, op=op, value=int(point))
            elif op is not None:
                return None  # «r<» without a number
            reroll = _make(Reroll, once=m["once"] is not None, point=compare)
            if not reroll.once:
                match = (compare or Compare("=", low)).match
                if all(match(v) for v in range(low, high + 1)):
                    return None  # a reroll that never stops
        if m["k"] is not None:
            n = 1 if m["kn"] is None else int(m["kn"])
            if not 1 <= n <= count:
                return None
            keep = _make(Select, keep=True, high=m["kside"] != "l", count=n)
        if m["d"] is not None:
            if m["dn"] is None and m["dside"] is None:
                return None  # a bare «d» after a pool: the general parser explains
            n = 1 if m["dn"] is None else int(m["dn"])
            if not 1 <= n <= count:
                return None
            drop = _make(Select, keep=False, high=m["dside"] == "h", count=n)
    return _make(
        Dice,
        count=count,
        faces=faces,
        minimum=minimum,
        maximum=maximum,
        explode=None,
        reroll=reroll,
        keep=keep,
        drop=drop,
        target=None,
        position=m.start("dice"),
    )


def fast_parse(text: str, limits: Limits) -> Expression | None:
    """The expression of a common shape, or ``None`` to let the general parser read it.

    Args:
        text: the expression as typed (its length already checked).
        limits: the bounds to apply.

    Returns:
        The same :class:`Expression` the general parser gives, or ``None``.
    """
    hash_at = text.find("#")
    label = None
    end = len(text)
    if hash_at >= 0:
        label = text[hash_at + 1 :].strip() or None
        end = hash_at
    # shunting-yard: operands, and operators (or "(") waiting for their right-hand side
    operands: list[Node] = []
    operators: list[tuple[str, int]] = []
    want_operand = True
    depth = 0
    most_depth = min(_MAX_PARENS, limits.max_depth)
    total = 0  # dice
    pos = 0
    match = _TOKEN.match
    while True:
        m = match(text, pos, end)
        if m is None:
            return None
        pos = m.end()
        kind = m.lastgroup
        if kind == "dice" or kind == "number":
            if not want_operand:
                return None  # two operands in a row («2d6d6 2»)
            want_operand = False
            if kind == "number":
                operands.append(_make(Number, value=int(m["number"]), position=m.start(kind)))
                continue
            dice = _dice(m, limits)
            if dice is None:
                return None
            operands.append(dice)
            total += dice.count
            continue
        if kind == "end":
            break
        ch = m["sign"]
        if ch == "(":
            if not want_operand or depth >= most_depth:
                return None
            depth += 1
            operators.append((ch, 0))
        elif ch == ")":
            if want_operand or not depth:
                return None
            while operators[-1][0] != "(":
                if not _reduce(operands, operators, limits):
                    return None
            operators.pop()
            depth -= 1
        else:
            if want_operand:
                return None  # a unary sign: the general parser
            op = _OPS[ch]
            strong = op == "*" or op == "/"
            while operators and operators[-1][0] != "(":
                if strong and operators[-1][0] in "+-":
                    break
                if not _reduce(operands, operators, limits):
                    return None
            operators.append((op, m.start("sign")))
            want_operand = True
    if want_operand or depth or total > limits.max_dice_total:
        return None
    while operators:
        if not _reduce(operands, operators, limits):
            return None
    return _make(Expression, text=text, root=operands[0], target=None, label=label, repeat=1)


def _reduce(operands: list[Node], operators: list[tuple[str, int]], limits: Limits) -> bool:
    """Join the last two operands by the last operator; False for a divisor that may be 0."""
    op, at = operators.pop()
    right = operands.pop()
    if op == "/":
        low, high = bounds(right, limits)
        if low <= 0 <= high:
            return False
    operands[-1] = _make(Binary, op=op, left=operands[-1], right=right, position=at)
    return True
