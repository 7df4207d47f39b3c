"""The dice followed one by one, for what :mod:`rules.odds.select` has no closed form for.

Entries are visited in the roller's order (each die's first roll, then its explosion chain; die
after die, pool after pool), each drawn from its kind (value, explodes, weight). A state keeps
only what the result still depends on:

* for keep/drop, the entries the window may still use: the ``H`` highest (``kh``), the ``L``
  lowest (``kl``), or both ends and the running sum (``dl``, ``dh``), or, when the window
  depends on the number of entries in a way none of these covers, all of them;
* for ``u``/``uo``, the values already shown that must stay unique (the next entry is drawn
  again among the faces still free, as the roller does);
* for a one-expression group, which pool each held entry came from, so that each pool's kept
  sum, and then the expression, can be worked out at the end.

The number of states is what the counted bound prices, so a pool too big for this way is
refused before the work, never half-way.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass
from math import lcm

from rules.dice import Dice, Select, kept_range
from rules.dice.values import Value
from rules.odds.explode import _after_reroll, _compound_value, _depth, _Kind, _kinds
from rules.odds.spread import _Any, settle
from rules.odds.weights import _Work


@dataclass(frozen=True)
class Source:
    """One pool's dice for the stream.

    Attributes:
        count: dice (chains).
        first: the first roll's kind (after rerolls); ``later``: a roll an explosion adds.
        d1, d2: their denominators.
        steps: explosions followed per chain (0: none).
        tag: the pool's index among the group's pools (0 for a lone pool).
        unique: the pool, when ``u``/``uo`` applies to its entries.
    """

    count: int
    first: _Kind
    d1: int
    later: _Kind
    d2: int
    steps: int
    tag: int = 0
    unique: Dice | None = None


def _plan(selects: tuple[Select, ...], least: int, varies: bool) -> tuple[str, int, int]:
    """How much of the entries to hold: ("top", H, 0), ("bottom", L, 0), ("ends", L, H) with a
    running sum, or ("all", 0, 0)."""
    if not selects:
        return "ends", 0, 0
    sizes = range(least, least + 2 * sum(s.count for s in selects) + 4) if varies else [least]
    windows = [(n, *kept_range(selects, n)) for n in sizes]
    options = []
    top = [n - a for n, a, _ in windows]
    bottom = [b for _, _, b in windows]
    low_ends = [a for _, a, _ in windows]
    high_ends = [n - b for n, _, b in windows]
    stable = not varies or len(windows) < 2
    if stable or top[-1] == top[-2]:
        options.append((max(top), "top", max(top), 0))
    if stable or bottom[-1] == bottom[-2]:
        options.append((max(bottom), "bottom", max(bottom), 0))
    if stable or (low_ends[-1] == low_ends[-2] and high_ends[-1] == high_ends[-2]):
        both = max(low_ends) + max(high_ends)
        options.append((both + 1, "ends", max(low_ends), max(high_ends)))
    if not options:
        return "all", 0, 0
    _, how, first, second = min(options)
    return how, first, second


def stream(
    sources: list[Source],
    selects: tuple[Select, ...],
    contribution: Callable[[int], int],
    work: _Work,
    finish: Callable[[dict[int, int]], Value] | None = None,
    signs: tuple[int, ...] | None = None,
) -> _Any:
    """The distribution of the kept entries' sum (or, with ``finish``, of a value made from
    each pool's kept sum), following the entries one by one.

    Args:
        sources: the pools, in the roller's order.
        selects: keep and drop over all their entries.
        contribution: an entry's value to its sum (its success count when counting).
        work: the step counter.
        finish: pool tag -> kept sum, to the value (a one-expression group's expression).
        signs: each pool's sign in a sum (``{4d6+2d8-3d30}d3``): one running sum, the held
            entries knowing their pool only to rank ties and sign their value.
    """
    least = sum(s.count for s in sources)
    varies = any(s.steps for s in sources)
    how, low, high = _plan(selects, least, varies)
    tagged = finish is not None or signs is not None  # held entries carry their pool
    by_pool = finish is not None  # a running sum per pool (else one, signed)
    sign_of = signs or (1,) * len(sources)
    # the number of entries matters only for a window over a varying number of them, and not
    # past where the window moves linearly
    cap = least + 2 * sum(s.count for s in selects) + 3 if varies and selects else 0
    size = low + high

    # a state: (values that must stay unique, held entries ascending, running sums by tag,
    # entries so far, capped)
    start: tuple = (frozenset(), (), (0,) * (len(sources) if by_pool else 1), 0)
    current: dict[tuple, int] = {start: 1}
    denominator = 1

    def insert(state: tuple, value: int, tag: int) -> tuple:
        seen, held, running, n = state
        item = (value, tag) if tagged else value
        if how in ("ends", "all"):
            i = tag if by_pool else 0
            add = contribution(value) * (1 if by_pool else sign_of[tag])
            running = running[:i] + (running[i] + add,) + running[i + 1 :]
        if how == "top" and len(held) >= low:
            if not held or item <= held[0]:
                return seen, held, running, min(n + 1, cap)
            items = list(held[1:])
        elif how == "bottom" and len(held) >= low:
            if not held or item >= held[-1]:
                return seen, held, running, min(n + 1, cap)
            items = list(held[:-1])
        else:
            items = list(held)
        insort(items, item)
        if how == "ends" and len(items) > size:
            del items[low]
        return seen, tuple(items), running, min(n + 1, cap)

    def step(
        states: dict, kind: _Kind, source: Source, scale: int, done: dict, pending: dict
    ) -> None:
        """Draw one entry in every state (``scale``: what a unique draw multiplies by)."""
        unique = source.unique
        held_cost = 60 + 4 * size + (4 * least if how == "all" else 0)
        if unique is None:
            work.take(len(states) * len(kind) * held_cost)
            for state, weight in states.items():
                for value, explodes, w in kind:
                    new = insert(state, value, source.tag)
                    bucket = pending if explodes else done
                    bucket[new] = bucket.get(new, 0) + weight * w
            return
        faces = unique.face_weights()
        once = unique.unique is not None and unique.unique.once
        work.take(len(states) * len(kind) * held_cost * (2 + len(faces) // 2))
        for state, weight in states.items():
            seen = state[0]
            for value, explodes, w in kind:
                bucket = pending if explodes else done
                if value in seen:  # an earlier entry shows it, and it must be unique
                    choices = faces if once else {f: c for f, c in faces.items() if f not in seen}
                    if not choices:
                        choices = {value: 1}  # no face is free: it keeps its value
                    total = sum(choices.values())
                    outcomes = [(f, c * scale // total) for f, c in choices.items()]
                else:
                    outcomes = [(value, scale)]
                for final, fw in outcomes:
                    new = insert(state, final, source.tag)
                    if unique.unique_match(final):
                        new = (seen | {final}, *new[1:])
                    bucket[new] = bucket.get(new, 0) + weight * w * fw

    for source in sources:
        scale = 1
        if source.unique is not None:
            scale = lcm(*range(1, sum(source.unique.face_weights().values()) + 1))
        for _ in range(source.count):
            done: dict[tuple, int] = {}
            pending: dict[tuple, int] = {}
            step(current, source.first, source, scale, done, pending)
            denominator *= source.d1 * scale
            for _ in range(source.steps):
                if not pending:
                    break
                factor = source.d2 * scale
                work.take(len(done))
                done = {s: w * factor for s, w in done.items()}
                waiting, pending = pending, {}
                step(waiting, source.later, source, scale, done, pending)
                denominator *= factor
            current = done  # chains still exploding past the steps are the truncated mass
        if source.unique is not None:  # uniqueness is per pool: the next one starts afresh
            merged: dict[tuple, int] = {}
            for state, weight in current.items():
                key = (frozenset(), *state[1:])
                merged[key] = merged.get(key, 0) + weight
            current = merged
    work.take(len(current) * (80 + 4 * size + (4 * least if how == "all" else 0)))
    table: dict[Value, int] = {}
    pools = len(sources) if by_pool else 1
    signed = None if by_pool else sign_of
    for (_, held, running, n), weight in current.items():
        n = n if cap else least
        sums = _kept(held, running, n, how, low, selects, contribution, tagged, pools, signed)
        result = finish(sums) if finish is not None else sums[0]
        table[result] = table.get(result, 0) + weight
    return settle(table, denominator)


def _kept(
    held: tuple,
    running: tuple,
    n: int,
    how: str,
    low: int,
    selects: tuple[Select, ...],
    contribution: Callable[[int], int],
    tagged: bool,
    pools: int,
    signs: tuple[int, ...] | None,
) -> dict[int, int]:
    """Each pool's kept sum from a final state (tag 0 alone: the sum of all, signed by pool)."""
    sums = dict.fromkeys(range(pools), 0)

    def add(items: tuple, sign: int) -> None:
        for item in items:
            value, tag = item if tagged else (item, 0)
            if signs is None:
                sums[tag] += sign * contribution(value)
            else:
                sums[0] += sign * signs[tag] * contribution(value)

    if how == "all":
        n = len(held)
    if how in ("ends", "all") and not selects:
        for tag, total in enumerate(running):
            sums[tag] += total
        return sums
    a, b = kept_range(selects, n)
    if how == "all" or how == "bottom":
        add(held[a:b], 1)
    elif how == "top":  # the window, counted from the top (n may be capped: the same there)
        add(held[max(len(held) - (n - a), 0) : len(held) - (n - b)], 1)
    else:
        for tag, total in enumerate(running):
            sums[tag] += total
        add(held[:a], -1)
        add(held[len(held) - (n - b) :] if n > b else (), -1)
    return sums


def source_of(
    dice: Dice, max_chain: int, work: _Work, tag: int = 0, summed: bool = False
) -> Source:
    """A pool's dice as the stream follows them (compounded chains as one entry each; with
    ``summed``, a compounded chain that is only added up stays a chain: the same sum)."""
    first, d1, later, d2 = _kinds(dice)
    steps = _depth(first, d1, later, d2, max_chain, dice.count) if dice.explode else 0
    plain_sum = summed and dice.reroll is None and dice.target is None
    if dice.explode is not None and dice.explode.compound and not plain_sum:
        values, den = _compound_value(dice, steps, work)
        return Source(dice.count, [(v, False, w) for v, w in values], den, [], 1, 0, tag, None)
    first, d1 = _after_reroll(first, d1, dice)
    if later:
        later, d2 = _after_reroll(later, d2, dice)
    return Source(dice.count, first, d1, later, d2, steps, tag, None)
