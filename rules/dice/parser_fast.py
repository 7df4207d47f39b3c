"""The dice parser's fast path: the shapes a GM types most, read with one compiled regex.

``3d6``, ``2d20kh1 + 5``, ``4d6dl1``, ``2d6r1``, ``10d10>=8f1``, ``d20*d20``, ``(2d6+1)*3/2``:
numbers and pools (with ``min``, ``max``, ``r``/``ro``, ``k``, ``d``, success and failure
counting, written in rpg-dice-roller's order), joined by ``+ - * /`` and parentheses, with an
optional ``# label``. Anything else (``!``, groups, ``vs``, ``Nx``, a unary minus, a sign in a
modifier, tabs, modifiers in another order or case) and anything that would be an error is
left to the recursive-descent parser (:mod:`rules.dice.parser`), the one place messages come
from: :func:`fast_parse` returns ``None`` for those.

Where it answers, the result is equal (positions included) to the general parser's, which a
property test checks on generated text. It exists because the exact odds of a tiny expression
take a few microseconds, and the general parser took twice as long again.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from rules.dice.bounds import bounds
from rules.dice.model import (
    Binary,
    Compare,
    Dice,
    Expression,
    Limits,
    Node,
    Number,
    Reroll,
    Select,
    Target,
)
from rules.dice.parser_tokens import label_start
from rules.dice.values import MAX_MAGNITUDE

_INT = "[0-9]{1,9}"  # ASCII digits only, at most the general parser's nine
#: an operand: a pool with its modifiers (in this order), or a number
_OPERAND = re.compile(
    rf"""(?:({_INT})?[dDкКдД]({_INT}|%|[fFфФ])(
        (?:min({_INT}))?
        (?:max({_INT}))?
        (?:(r)(o)?(!=|<>|<=|>=|=|<|>)?({_INT})?)?
        (?:(k)([hl])?({_INT})?)?
        (?:(d)([hl])?({_INT})?)?
        (?:(=|<>|<=|>=|<|>)({_INT})(?:f(!=|<>|<=|>=|=|<|>)?({_INT}))?)?)
    |({_INT}))""",
    re.VERBOSE,
)
_OPS = {"+": "+", "-": "-", "\u2212": "-", "*": "*", "/": "/"}
#: What the fast path never reads: explosions, powers, groups, decimals, descriptions, tabs, the
#: new modifiers (u, cs/cf, s), ``vs``, repeats, a count or sides in parentheses, a remainder.
_NOT_FAST = re.compile(
    r"[!^{}.\[\]\tuUcCsS]|\*\*|\)\s*[dDкКдД]|[dDкКдД]\s*\(|%\s*[0-9(]|%\s+[^+\-−*/)]"
)
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
    """The pool of an operand token, or ``None`` if it breaks a bound or a check."""
    count_text, faces_text, mods, mn, mx, r, once, op, point, k, kside, kn, d, dside, dn = (
        m.groups()[:15]
    )
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
    minimum = maximum = reroll = target = None
    selects: tuple[Select, ...] = ()
    if mods:
        if mn is not None:
            minimum = int(mn)
            if not low <= minimum <= high:
                return None
        if mx is not None:
            maximum = int(mx)
            if not low <= maximum <= high or (minimum is not None and minimum > maximum):
                return None
        if r is not None:
            compare = None
            if point is not None:
                op = "!=" if op == "<>" else op or "="
                compare = _make(Compare, op=op, value=int(point))
            elif op is not None:
                return None  # «r<» without a number
            reroll = _make(Reroll, once=once is not None, point=compare)
            # a reroll that never stops (one value, «=», covers only a die of one face)
            if not reroll.once and (high == low or (compare is not None and compare.op != "=")):
                match = (compare or Compare("=", low)).match
                if all(match(v) for v in range(low, high + 1)):
                    return None
        if k is not None:
            n = 1 if kn is None else int(kn)
            if not 1 <= n <= count:
                return None
            selects = (_make(Select, keep=True, high=kside != "l", count=n),)
        if d is not None:
            if dn is None and dside is None:
                return None  # a bare «d» after a pool: the general parser explains
            n = 1 if dn is None else int(dn)
            if not 1 <= n <= count:
                return None
            if selects:
                return None  # keep and drop together: the general parser says what is kept
            selects = (_make(Select, keep=False, high=dside == "h", count=n),)
        success_op, success, failure_op, failure = m.groups()[15:19]
        if success is not None:
            fail = None
            if failure is not None:
                failure_op = "!=" if failure_op == "<>" else failure_op or "="
                fail = _make(Compare, op=failure_op, value=int(failure))
            success_op = "!=" if success_op == "<>" else success_op
            hit = _make(Compare, op=success_op, value=int(success))
            target = _make(Target, success=hit, failure=fail)
    return _make(
        Dice,
        count=count,
        faces=faces,
        minimum=minimum,
        maximum=maximum,
        explode=None,
        reroll=reroll,
        unique=None,
        selects=selects,
        target=target,
        crit_success=None,
        crit_failure=None,
        sort=None,
        fudge=2,
        description=None,
        position=m.start(),
    )


def fast_parse(text: str, limits: Limits) -> Expression | None:
    """The expression of a common shape, or ``None`` to let the general parser read it.

    Args:
        text: the expression as typed (its length already checked).
        limits: the bounds to apply.

    Returns:
        The same :class:`Expression` the general parser gives, or ``None``.
    """
    end = label_start(text)
    if _NOT_FAST.search(text, 0, end):
        return None
    label = None
    if end < len(text):
        skip = 1 if text[end] == "#" else 2
        label = " ".join(text[end + skip :].split()) or None
    # shunting-yard: operands, and operators (or "(") waiting for their right-hand side
    operands: list[Node] = []
    operators: list[tuple[str, int]] = []
    want_operand = True
    depth = 0
    most_depth = min(_MAX_PARENS, limits.max_depth)
    total = 0  # dice
    pos = 0
    match = _OPERAND.match
    while True:
        while pos < end and text[pos] == " ":
            pos += 1
        if pos == end:
            break
        ch = text[pos]
        if ch in _OPS:
            if want_operand:
                return None  # a unary sign: the general parser
            op = _OPS[ch]
            strong = op == "*" or op == "/"
            while operators and operators[-1][0] != "(":
                if strong and operators[-1][0] in "+-":
                    break
                if not _reduce(operands, operators, limits):
                    return None
            operators.append((op, pos))
            want_operand = True
            pos += 1
        elif ch == "(":
            if not want_operand or depth >= most_depth:
                return None
            depth += 1
            operators.append((ch, pos))
            pos += 1
        elif ch == ")":
            if want_operand or not depth:
                return None
            while operators[-1][0] != "(":
                if not _reduce(operands, operators, limits):
                    return None
            operators.pop()
            depth -= 1
            pos += 1
        else:
            m = match(text, pos, end)
            if m is None or not want_operand:
                return None  # not a shape of ours, or two operands in a row («2d6d6 2»)
            want_operand = False
            number = m.group(20)
            if number is not None:
                operands.append(_make(Number, value=int(number), position=pos))
            else:
                dice = _dice(m, limits)
                if dice is None:
                    return None
                operands.append(dice)
                total += dice.count
            pos = m.end()
    if want_operand or depth or total > limits.max_dice_total:
        return None
    while operators:
        if not _reduce(operands, operators, limits):
            return None
    return _make(
        Expression, text=text, root=operands[0], target=None, label=label, repeat=1, readings=()
    )


def _reduce(operands: list[Node], operators: list[tuple[str, int]], limits: Limits) -> bool:
    """Join the last two operands by the last operator; False for a divisor that may be 0 or a
    product that may pass ±10¹⁵."""
    op, at = operators.pop()
    right = operands.pop()
    if op == "/":
        low, high = bounds(right, limits)
        if low <= 0 <= high:
            return False
    node = _make(Binary, op=op, left=operands[-1], right=right, position=at)
    if op == "*":
        low, high = bounds(node, limits)
        if max(-low, high) > MAX_MAGNITUDE:
            return False  # may pass ±10¹⁵: the general parser says so
    operands[-1] = node
    return True
