"""Pools, groups and the parsed tree, for :mod:`rules.odds`: which calculation each node takes.

A plain pool is a power of one die (or the highest of ``n``); an exploding one goes through
:mod:`rules.odds.explode`, a kept or dropped one through :mod:`rules.odds.select` (or, without
a closed form, :mod:`rules.odds.stream`), a unique one through :mod:`rules.odds.unique`; a
group adds its items (or counts them, or keeps some); operators and functions combine sub-trees
(:mod:`rules.odds.spread` where the values stop being consecutive integers).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import repeat
from operator import sub

from rules.dice import Binary, Call, Dice, Group, Negate, Node, Number, Target, kept_range
from rules.dice.values import Value, apply, call
from rules.odds.explode import (
    _chain,
    _kinds,
    _pooled_explosions,
    _reroll,
)
from rules.odds.keep import _extreme
from rules.odds.select import faces_of, select_exploding, select_fixed, select_union
from rules.odds.spread import Spread, _Any, combine, from_pairs, function, items, negate
from rules.odds.stream import Source, source_of, stream
from rules.odds.unique import unique_pool
from rules.odds.weights import _add, _power, _trim, _uniform_power, _Work


def _g(target: Target | None) -> Callable[[int], int]:
    return (lambda v: v) if target is None else target.outcome


def _plain(dice: Dice) -> bool:
    return (
        dice.faces is not None
        and dice.minimum is None
        and dice.maximum is None
        and not dice.explode
        and not dice.reroll
        and not dice.target
        and not dice.unique
        and all(s.keep and s.high == dice.selects[0].high for s in dice.selects)
        and len(dice.selects) <= 1
    )


def _pool(dice: Dice, max_chain: int, work: _Work) -> _Any:
    if dice.unique is not None:
        return unique_pool(dice, max_chain, work)
    if _plain(dice):
        faces = dice.high - dice.low + 1
        keep = dice.keep
        if keep is None or keep.count == dice.count:
            work.take(dice.count * faces * (1 + dice.count * faces.bit_length() // 60))
            return dice.count * dice.low, _uniform_power(faces, dice.count), faces**dice.count
        if keep.count == 1:  # the highest (lowest) of n: P(max <= v) = (v/M)**n
            n = dice.count
            work.take(faces * (1 + n * faces.bit_length() // 30))
            cdf = list(map(pow, range(faces + 1), repeat(n)))
            weights = list(map(sub, cdf[1:], cdf))
            return dice.low, weights if keep.high else weights[::-1], cdf[-1]
    target = dice.target
    g = _g(target)
    if dice.explode is None and not dice.selects:
        # one entry per die: its final value (or outcome) straight from the faces
        final, size = _reroll(dice)
        table: dict[int, int] = {}
        first, d1, _, _ = _kinds(dice)
        work.take(len(first) * size)
        for value, _, weight in first:
            for v, w in final(value):
                key = g(v)
                table[key] = table.get(key, 0) + weight * w
        low, high = min(table), max(table)
        die = (low, [table.get(v, 0) for v in range(low, high + 1)], d1 * size)
        return _power(die, dice.count, work)
    source = source_of(dice, max_chain, work, summed=not dice.selects)
    if not dice.selects:
        pooled = _pooled_explosions(
            source.first, source.d1, source.later, source.d2, dice.count, g, max_chain, work
        )
        if pooled is not None:
            return pooled
        die = _chain(source.first, source.d1, source.later, source.d2, source.steps, g, work)
        return _power(die, dice.count, work)
    if source.steps == 0:  # a fixed number of entries, one per die
        rows = faces_of([(v, w) for v, _, w in source.first], g)
        a, b = kept_range(dice.selects, dice.count)
        return select_fixed(rows, dice.count, a, b, work)
    selected = select_exploding(
        source.first, source.later, source.d1, dice.count, dice.selects, g, max_chain, work
    )
    if selected is not None:
        return selected
    return stream([source], dice.selects, g, work)  # a sparse result may come as a Spread


def _signed(node: Node, sign: int = 1) -> list[tuple[int, Node]]:
    if isinstance(node, Binary) and node.op in "+-":
        return _signed(node.left, sign) + _signed(node.right, sign if node.op == "+" else -sign)
    if isinstance(node, Negate):
        return _signed(node.operand, -sign)
    return [(sign, node)]


def _pools(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, Binary):
        return _pools(node.left) + _pools(node.right)
    if isinstance(node, Negate):
        return _pools(node.operand)
    if isinstance(node, Call):
        return [p for a in node.args for p in _pools(a)]
    return []


def _evaluate(node: Node, pools: list[Dice], sums: dict[int, int]) -> Value:
    """A one-expression group's value from each of its pools' kept sums."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Dice):
        return sums[next(i for i, p in enumerate(pools) if p is node)]
    if isinstance(node, Negate):
        return -_evaluate(node.operand, pools, sums)
    if isinstance(node, Binary):
        return apply(node.op, _evaluate(node.left, pools, sums), _evaluate(node.right, pools, sums))
    assert isinstance(node, Call)
    return call(node.name, tuple(_evaluate(a, pools, sums) for a in node.args))


def _one_expression(group: Group, max_chain: int, work: _Work) -> _Any:
    """``{…}k2``: keep/drop over every die of the one expression's pools, then the expression."""
    body = group.items[0]
    pools = _pools(body)
    signed = _signed(body)
    # a pool with ``u``/``uo`` keeps its entries unique as they are drawn (the stream's
    # ``unique``); counted by value, its dice would be independent rolls
    sources = [
        replace(source_of(p, max_chain, work, tag), unique=p if p.unique else None)
        for tag, p in enumerate(pools)
    ]
    if all(isinstance(n, (Dice, Number)) for _, n in signed):
        # a sum of pools and numbers: one running sum, each kept entry signed by its pool
        constant = sum(s * n.value for s, n in signed if isinstance(n, Number))
        signs = tuple(s for s, n in signed if isinstance(n, Dice))
        # a fixed number of independent dice (no explosion, no u/uo): counted by value
        if not any(src.steps or src.unique for src in sources):
            union = [
                ([(v, w) for v, _, w in src.first], src.count, sign)
                for src, sign in zip(sources, signs, strict=True)
            ]
            a, b = kept_range(group.selects, sum(src.count for src in sources))
            dens = 1
            for src in sources:
                dens *= src.d1**src.count
            out: _Any = select_union(union, a, b, work)
            out = (out[0], out[1], dens)  # type: ignore[index]
        else:
            out = stream(sources, group.selects, lambda v: v, work, signs=signs)
        return combine("+", out, from_pairs([(constant, 1)], 1), work) if constant else out
    return stream(sources, group.selects, lambda v: v, work, lambda s: _evaluate(body, pools, s))


def _group(group: Group, max_chain: int, work: _Work) -> _Any:
    if len(group.items) == 1:
        if group.selects:
            inner = _one_expression(group, max_chain, work)
        else:
            inner = _node(group.items[0], max_chain, work)
        if group.target is None:
            return inner
        target = group.target
        return from_pairs(((target.outcome(v), w) for v, w in items(inner)), _den(inner))
    dists = [_node(item, max_chain, work) for item in group.items]
    if group.target is not None:
        target = group.target
        dists = [from_pairs(((target.outcome(v), w) for v, w in items(d)), _den(d)) for d in dists]
    if not group.selects:
        result: _Any = (0, [1], 1)
        for dist in dists:
            result = combine("+", result, dist, work)
        return result
    a, b = kept_range(group.selects, len(dists))
    lattice = all(not isinstance(d, Spread) for d in dists)
    if lattice and b - a == 1 and (a == 0 or b == len(dists)) and group.target is None:
        # the best (worst) of independent sub-totals: P(max <= v) is the product of the CDFs
        return _extreme([_trim(d) for d in dists], b == len(dists), work)  # type: ignore[arg-type]
    # each sub-total one entry (its value may be a fraction: ranked, not counted)
    sources = [
        Source(1, [(v, False, w) for v, w in items(d)], _den(d), [], 1, 0)  # type: ignore[misc]
        for d in dists
    ]
    return stream(sources, group.selects, lambda v: v, work)


def _den(a: _Any) -> int:
    return a.denominator if isinstance(a, Spread) else a[2]


def _node(node: Node, max_chain: int, work: _Work) -> _Any:
    if isinstance(node, Number):
        value = node.value
        return (value, [1], 1) if type(value) is int else Spread({value: 1}, 1)
    if isinstance(node, Dice):
        return _pool(node, max_chain, work)
    if isinstance(node, Negate):
        return negate(_node(node.operand, max_chain, work))
    if isinstance(node, Binary):
        a = _node(node.left, max_chain, work)
        b = _node(node.right, max_chain, work)
        return combine(node.op, a, b, work)
    if isinstance(node, Call):
        args = [_node(arg, max_chain, work) for arg in node.args]
        if node.name in ("max", "min") and all(not isinstance(x, Spread) for x in args):
            return _extreme([_trim(x) for x in args], node.name == "max", work)  # type: ignore[arg-type]
        return function(node.name, args, work)
    return _group(node, max_chain, work)


__all__ = ["_add", "_node"]
