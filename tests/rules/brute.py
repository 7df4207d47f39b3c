"""Brute force written for the tests: rpg-dice-roller's semantics over every sequence of faces.

This shares no code with the project's roller (:mod:`rules.dice.roller`), its arithmetic
(:mod:`rules.dice.values`) or its odds (:mod:`rules.odds`): it takes the parsed tree and
re-implements what each modifier does, literally as rpg-dice-roller's documentation and source
say (a reroll or a unique roll draws again and again; keep and drop each sort the whole pool),
over every path of die faces. Paths that would need more than ``cap`` draws are cut and their
mass reported, so rerolls and explosions are enumerated to a known depth.

Whole values stay Python ints (exact, and several times quicker than ``Fraction`` over a
million paths); a division makes a ``Fraction``, never a float.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from rules.dice import Binary, Call, Dice, Expression, Group, Negate, Number, parse


class _Cut(Exception):
    pass


class _Path:
    """One path of faces: draw ``i`` takes face ``prefix[i]`` (0 past the prefix)."""

    def __init__(self, prefix: list[int], cap: int) -> None:
        self.prefix = prefix
        self.cap = cap
        self.taken: list[tuple[int, int]] = []

    def face(self, sides: int) -> int:
        """A face index 0..sides-1."""
        i = len(self.taken)
        if i >= self.cap:
            raise _Cut
        choice = self.prefix[i] if i < len(self.prefix) else 0
        self.taken.append((choice, sides))
        return choice


def _raw(dice: Dice, path: _Path) -> int:
    if dice.faces is None:
        if dice.fudge == 1:  # a d6: 1 is minus, 6 is plus
            return {0: -1, 5: 1}.get(path.face(6), 0)
        return path.face(3) - 1
    return path.face(dice.faces) + 1


def _match(op: str, value: object, point: object) -> bool:
    return {
        "=": value == point,
        "!=": value != point,
        "<": value < point,  # type: ignore[operator]
        ">": value > point,  # type: ignore[operator]
        "<=": value <= point,  # type: ignore[operator]
        ">=": value >= point,  # type: ignore[operator]
    }[op]


def _pool(dice: Dice, path: _Path) -> list[int]:
    """The kept entries' contributions of one pool (a dropped entry contributes nothing)."""
    high = 1 if dice.faces is None else dice.faces
    low = -1 if dice.faces is None else 1
    rolls = []
    for _ in range(dice.count):
        v = _raw(dice, path)
        if dice.minimum is not None and v < dice.minimum:
            v = dice.minimum
        if dice.maximum is not None and v > dice.maximum:
            v = dice.maximum
        rolls.append(v)
    if dice.explode is not None:
        ex = dice.explode
        op, point = (ex.point.op, ex.point.value) if ex.point else ("=", high)
        out = []
        for v in rolls:
            chain = [v]
            compare = v
            while _match(op, compare, point):
                raw = _raw(dice, path)
                compare = raw
                chain.append(raw - 1 if ex.penetrate else raw)
            out += [sum(chain)] if ex.compound else chain
        rolls = out
    if dice.reroll is not None:
        rr = dice.reroll
        op, point = (rr.point.op, rr.point.value) if rr.point else ("=", low)
        for i, v in enumerate(rolls):
            while _match(op, v, point):
                v = _raw(dice, path)
                if rr.once:
                    break
            rolls[i] = v
    if dice.unique is not None:
        un = dice.unique
        faces = range(low, high + 1)

        def must(value: int) -> bool:
            return un.point is None or _match(un.point.op, value, un.point.value)

        for i in range(1, len(rolls)):
            free = [f for f in faces if not (must(f) and f in rolls[:i])]
            if not free and not un.once:
                continue  # kubik: no face could ever be new, the die keeps its value
            while must(rolls[i]) and rolls[i] in rolls[:i]:
                rolls[i] = _raw(dice, path)
                if un.once:
                    break
    kept = _kept(rolls, dice.selects)
    if dice.target is not None:
        t = dice.target
        out = []
        for v, k in zip(rolls, kept, strict=True):
            if not k:
                out.append(0)
            elif _match(t.success.op, v, t.success.value):
                out.append(1)
            elif t.failure is not None and _match(t.failure.op, v, t.failure.value):
                out.append(-1)
            else:
                out.append(0)
        return out
    return [v if k else 0 for v, k in zip(rolls, kept, strict=True)]


def _kept(values: list, selects: tuple) -> list[bool]:
    """rpg-dice-roller: each keep or drop sorts the whole pool (stably) and drops a slice."""
    kept = [True] * len(values)
    n = len(values)
    for s in selects:
        order = sorted(range(n), key=lambda i: values[i])
        q = s.count
        if s.keep:
            drop = order[: n - q] if s.high else order[q:]
        else:
            drop = order[n - q :] if s.high else order[:q]
        for i in drop:
            kept[i] = False
    return kept


def _arith(op: str, a: object, b: object) -> object:
    if op == "+":
        return a + b  # type: ignore[operator]
    if op == "-":
        return a - b  # type: ignore[operator]
    if op == "*":
        return a * b  # type: ignore[operator]
    if op == "/":
        return _divided(a, b)
    if op == "%":
        return a - b * math.floor(_divided(a, b))  # type: ignore[operator]
    whole = isinstance(b, int) or (isinstance(b, Fraction) and b.denominator == 1)
    if whole and not isinstance(a, float):
        return Fraction(a) ** int(b)  # type: ignore[arg-type]
    return float(a) ** float(b)  # type: ignore[arg-type]


def _divided(a: object, b: object) -> object:
    """``a / b``: exact (a ``Fraction``) unless either is a float."""
    if isinstance(a, float) or isinstance(b, float):
        return a / b
    return Fraction(a) / b  # type: ignore[arg-type, operator]


def _function(name: str, args: list) -> object:
    x = args[0]
    if name == "round":
        r = math.floor(abs(x) + Fraction(1, 2))
        return Fraction(r if x >= 0 else -r)
    if name in ("floor", "ceil"):
        return Fraction(getattr(math, name)(x))
    if name == "sign":
        return Fraction((x > 0) - (x < 0))
    if name == "abs":
        return abs(x)
    if name == "max":
        return max(args)
    if name == "min":
        return min(args)
    if name == "pow":
        return _arith("^", x, args[1])
    if name == "sqrt":
        r = Fraction(x).limit_denominator(10**6)
        top, bottom = math.isqrt(r.numerator), math.isqrt(r.denominator)
        if Fraction(top, bottom) ** 2 == x:
            return Fraction(top, bottom)
        return math.sqrt(x)
    return getattr(math, name)(x)


def _value(node: object, path: _Path) -> object:
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Dice):
        return sum(_pool(node, path))
    if isinstance(node, Negate):
        return -_value(node.operand, path)  # type: ignore[operator]
    if isinstance(node, Binary):
        return _arith(node.op, _value(node.left, path), _value(node.right, path))
    if isinstance(node, Call):
        return _function(node.name, [_value(a, path) for a in node.args])
    assert isinstance(node, Group)
    if len(node.items) == 1:
        if node.selects:
            total = _one_group(node, path)
        else:
            total = _value(node.items[0], path)
        if node.target is None:
            return total
        return _outcome(node.target, total)
    totals = [_value(item, path) for item in node.items]
    kept = _kept(totals, node.selects)  # type: ignore[arg-type]
    if node.target is not None:
        return sum(_outcome(node.target, t) for t, k in zip(totals, kept, strict=True) if k)
    return sum(t for t, k in zip(totals, kept, strict=True) if k)  # type: ignore[misc]


def _outcome(target: object, value: object) -> int:
    if _match(target.success.op, value, target.success.value):  # type: ignore[attr-defined]
        return 1
    failure = target.failure  # type: ignore[attr-defined]
    if failure is not None and _match(failure.op, value, failure.value):
        return -1
    return 0


def _one_group(group: Group, path: _Path) -> object:
    """``{a*(b+c)}k2``: every die of the expression's pools ranked together, then the sum."""
    pools: list[tuple[Dice, list[int]]] = []

    def collect(node: object) -> None:
        if isinstance(node, Dice):
            rolls = [int(v) for v in _pool(Dice(**{**node.__dict__, "selects": ()}), path)]
            pools.append((node, rolls))
        elif isinstance(node, Binary):
            collect(node.left)
            collect(node.right)
        elif isinstance(node, Negate):
            collect(node.operand)
        elif isinstance(node, Call):
            for a in node.args:
                collect(a)

    collect(group.items[0])
    flat = [v for _, rolls in pools for v in rolls]
    kept = _kept(flat, group.selects)
    sums = []
    i = 0
    for _, rolls in pools:
        sums.append(sum(v for v, k in zip(rolls, kept[i : i + len(rolls)], strict=True) if k))
        i += len(rolls)
    it = iter(sums)

    def evaluate(node: object) -> object:
        if isinstance(node, Number):
            return node.value
        if isinstance(node, Dice):
            return next(it)
        if isinstance(node, Negate):
            return -evaluate(node.operand)  # type: ignore[operator]
        if isinstance(node, Binary):
            left = evaluate(node.left)
            return _arith(node.op, left, evaluate(node.right))
        assert isinstance(node, Call)
        return _function(node.name, [evaluate(a) for a in node.args])

    return evaluate(group.items[0])


def shown(value: object) -> int | Fraction:
    """rpg-dice-roller's total: two decimals, half away from zero."""
    if isinstance(value, int):
        return value
    exact = Decimal(value) if isinstance(value, float) else None
    if exact is None:
        q = Fraction(value)  # type: ignore[arg-type]
        cents = abs(q) * 100
        whole = math.floor(cents)
        if cents - whole >= Fraction(1, 2):
            whole += 1
        out = Fraction(whole if q >= 0 else -whole, 100)
    else:
        out = Fraction(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return out.numerator if out.denominator == 1 else out


def distribution(
    text: str | Expression, cap: int = 12, paths: int = 200_000
) -> tuple[dict[int | Fraction, Fraction], Fraction]:
    """(total -> probability over complete paths, mass of the paths cut at ``cap`` draws)."""
    expression = parse(text) if isinstance(text, str) else text
    counts: Counter[tuple[object, int]] = Counter()
    prefix: list[int] = []
    for _ in range(paths):
        path = _Path(prefix, cap)
        try:
            total: object = shown(_value(expression.root, path))
        except _Cut:
            total = None
        denominator = 1
        for _, n in path.taken:
            denominator *= n
        counts[total, denominator] += 1
        taken = path.taken
        while taken and taken[-1][0] + 1 == taken[-1][1]:
            taken.pop()
        if not taken:
            out: Counter = Counter()
            cut = Fraction(0)
            for (done, den), ways in counts.items():
                if done is None:
                    cut += Fraction(ways, den)
                else:
                    out[done] += Fraction(ways, den)
            return dict(sorted(out.items())), cut
        prefix = [c for c, _ in taken[:-1]] + [taken[-1][0] + 1]
    raise AssertionError(f"{text}: more than {paths} paths — pick a smaller case")
