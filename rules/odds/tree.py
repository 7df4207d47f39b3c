"""Pools, groups and the parsed tree, for :mod:`rules.odds`: which calculation each node takes.

A plain pool is a power of one die (or the highest of ``n``); an exploding one goes through
:mod:`rules.odds.explode`, a kept or dropped one through :mod:`rules.odds.keep`; a group adds
its items (or counts them, or keeps some); ``+``/``-``/``*``/``/`` combine sub-trees.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import sub

from rules.dice import Binary, Dice, Group, Negate, Node, Number, Target
from rules.odds.explode import (
    _after_reroll,
    _chain,
    _compound_value,
    _depth,
    _kinds,
    _pooled_explosions,
    _reroll,
)
from rules.odds.keep import _extreme, _select_fixed, _Source, _stream
from rules.odds.weights import (
    _add,
    _binary,
    _Dist,
    _from_items,
    _items,
    _neg,
    _power,
    _trim,
    _uniform_power,
    _Work,
)


def _g(target: Target | None) -> Callable[[int], int]:
    return (lambda v: v) if target is None else target.outcome


def _plain(dice: Dice) -> bool:
    return not (
        dice.minimum is not None
        or dice.maximum is not None
        or dice.explode
        or dice.reroll
        or dice.target
        or dice.drop
    )


def _pool(dice: Dice, max_chain: int, work: _Work, target: Target | None = None) -> _Dist:
    if target is None and _plain(dice):
        faces = dice.high - dice.low + 1
        if dice.keep is None or dice.keep.count == dice.count:
            work.take(dice.count * faces * (1 + dice.count * faces.bit_length() // 30))
            return dice.count * dice.low, _uniform_power(faces, dice.count), faces**dice.count
        if dice.keep.count == 1:  # the highest (lowest) of n: P(max <= v) = (v/M)**n
            n = dice.count
            cdf = list(map(pow, range(faces + 1), repeat(n)))
            weights = list(map(sub, cdf[1:], cdf))
            return dice.low, weights if dice.keep.high else weights[::-1], cdf[-1]
    target = target or dice.target
    if dice.explode is None and dice.keep is None and dice.drop is None:
        # one entry per die: its final value (or outcome) straight from the faces
        final, size = _reroll(dice)
        count_as = None if target is None else target.outcome
        table: dict[int, int] = {}
        get = table.get
        for value, _, _ in _kinds(dice)[0]:
            for v, w in final(value):
                if count_as is not None:
                    v = count_as(v)
                table[v] = get(v, 0) + w
        low, high = min(table), max(table)
        die = (
            low,
            list(map(get, range(low, high + 1), repeat(0))),
            (dice.high - dice.low + 1) * size,
        )
        return _power(die, dice.count, work)
    g = _g(target)
    first, d1, later, d2 = _kinds(dice)
    explodes = dice.explode is not None
    steps = _depth(first, d1, later, d2, max_chain, dice.count) if explodes else 0
    compound = dice.explode is not None and dice.explode.compound
    selected = dice.keep is not None or dice.drop is not None
    if compound and (selected or target is not None or dice.reroll is not None):
        # without rerolls, keep or counting, a compounded chain adds up like separate dice;
        # here the chain's sum is one value and _compound_value has already rerolled it
        values, den = _compound_value(dice, steps, work)
        first, d1, later, d2, steps = [(v, False, w) for v, w in values], den, [], 1, 0
    else:
        first, d1 = _after_reroll(first, d1, dice)
        if later:
            later, d2 = _after_reroll(later, d2, dice)
    if not selected:
        pooled = _pooled_explosions(first, d1, later, d2, dice.count, g, max_chain, work)
        if pooled is not None:
            return pooled
        die = _chain(first, d1, later, d2, steps, g, work)
        return _power(die, dice.count, work)
    if steps == 0:
        return _select_fixed(first, d1, dice.count, dice.keep, dice.drop, g, work)
    return _stream([(dice.count, first, d1, later, d2, steps)], dice.keep, dice.drop, g, work)


def _signed(node: Node, sign: int = 1) -> list[tuple[int, Node]]:
    if isinstance(node, Binary) and node.op in "+-":
        return _signed(node.left, sign) + _signed(node.right, sign if node.op == "+" else -sign)
    if isinstance(node, Negate):
        return _signed(node.operand, -sign)
    return [(sign, node)]


def _group(group: Group, max_chain: int, work: _Work) -> _Dist:
    selected = group.keep is not None or group.drop is not None
    if len(group.items) == 1 and (selected or group.target is not None):
        parts = _signed(group.items[0])
        pools = [(s, n) for s, n in parts if isinstance(n, Dice)]
        constant = sum(s * n.value for s, n in parts if isinstance(n, Number))
        if not selected:
            result: _Dist = (0, [1], 1)
            for _, pool in pools:
                result = _add(result, _pool(pool, max_chain, work, group.target), work)
            return result
        g = _g(group.target)
        signs = {s for s, _ in pools}
        sources: list[_Source] = []
        for _, pool in pools:
            first, d1, later, d2 = _kinds(pool)
            explodes = pool.explode is not None
            steps = _depth(first, d1, later, d2, max_chain, pool.count) if explodes else 0
            if pool.explode is not None and pool.explode.compound:
                values, den = _compound_value(pool, steps, work)
                sources.append((pool.count, [(v, False, w) for v, w in values], den, [], 1, 0))
                continue
            first, d1 = _after_reroll(first, d1, pool)
            if later:
                later, d2 = _after_reroll(later, d2, pool)
            sources.append((pool.count, first, d1, later, d2, steps))
        sign = -1 if signs == {-1} else 1
        dist = _stream(sources, group.keep, group.drop, g, work, sign)
        return dist if group.target is not None else (dist[0] + constant, dist[1], dist[2])
    dists = [_node(item, max_chain, work) for item in group.items]
    g = _g(group.target)
    if not selected:
        result = (0, [1], 1)
        for dist in dists:
            mapped = _from_items(((g(v), w) for v, w in _items(dist)), dist[2])
            result = _add(result, mapped, work)
        return result
    select = group.keep or group.drop
    assert select is not None
    one_left = (group.keep is not None and select.count == 1) or (
        group.keep is None and select.count == len(dists) - 1
    )
    if group.target is None and one_left and (group.keep is None or group.drop is None):
        # the best (worst) of independent sub-totals: P(max <= v) is the product of the CDFs
        high = select.high if select.keep else not select.high
        return _extreme([_trim(d) for d in dists], high, work)
    sources = [(1, [(v, False, w) for v, w in _items(dist)], dist[2], [], 1, 0) for dist in dists]
    return _stream(sources, group.keep, group.drop, g, work)


def _node(node: Node, max_chain: int, work: _Work) -> _Dist:
    if isinstance(node, Number):
        return node.value, [1], 1
    if isinstance(node, Dice):
        return _pool(node, max_chain, work)
    if isinstance(node, Negate):
        return _neg(_node(node.operand, max_chain, work))
    if isinstance(node, Binary):
        a = _node(node.left, max_chain, work)
        b = _node(node.right, max_chain, work)
        return _binary(node.op, a, b, work)
    return _group(node, max_chain, work)
