"""Keep and drop over a pool, for :mod:`rules.odds`, in time that grows with faces × kept dice.

Keep and drop (each looking at the whole pool, as rpg-dice-roller's) keep the entries whose
rank, sorted ascending, lies in one window ``[a, b)`` (:func:`rules.dice.kept_range`).

* **The top ``K`` of ``n`` dice of one kind** (``kh``, ``dl``; the bottom ``K``, ``kl``/``dh``, is
  the same read from the other end): for each face ``v``, the configurations whose lowest kept
  die shows ``v`` are ``m < K`` dice above ``v`` (any values: ``Q_v(x)**m``, ``Q_v`` the faces
  above ``v``) and, of the other ``n - m``, at least ``K - m`` on ``v`` (a binomial tail, a
  number). Their sum ``Σ_m C(n, m) T_m Q_v**m x**(v(K-m))`` is one Horner evaluation in
  ``Q_v``: ``K`` products of a big integer (the polynomial, packed) by a short one per face —
  work in faces × kept dice, never in the pool's outcomes. This is icepool's multiset
  evaluation with the state collapsed: once ``K`` dice are placed the rest have a closed form.
* **A middle window** (``kh3dh1``) counts the dice placed so far, face by face, from the nearer
  end (work in faces × window²).
* **An exploding pool** (``!``: an added roll is the same die as the first): a pool with ``E``
  explosions in all is ``n`` rolls that stopped and ``E`` that exploded (independent draws of
  their own faces, in ``C(n+E-1, E)`` orders). When the exploding faces lie above (or below)
  the others, the window splits into a window of each, so the pool is a mixture over ``E`` of
  two fixed pools. Where the kept sum stops changing with ``E`` (``20d10!kh10``: ten 10s once
  ten explosions happened) the rest of the mixture is added exactly; otherwise ``E`` is cut
  where more explosions are less likely than 1e-12, as for a plain exploding pool.

Anything else (penetration, ``min``/``max`` with an explosion, exploding faces among the others,
a one-expression group) follows the dice one by one (:mod:`rules.odds.stream`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import accumulate, repeat
from math import comb
from operator import mul

from rules.dice import Select, kept_range
from rules.odds.explode import _TAIL, _Kind
from rules.odds.keep import _keep_highest
from rules.odds.weights import _add, _Dist, _from_items, _power, _Work, mul_steps

#: One kind of die for a selection: (rank key, contribution, weight), ascending by rank key,
#: one row per distinct key (the contribution is the value, or its success count).
_Faces = list[tuple[int, int, int]]


def _pack(coefficients: list[int], size: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(size, "little") for c in coefficients), "little")


def _unpack(packed: int, size: int, length: int) -> list[int]:
    raw = packed.to_bytes(size * length, "little")
    return [int.from_bytes(raw[i : i + size], "little") for i in range(0, size * length, size)]


def _tail_sum(
    total: int, least: int, w: int, rest: int, powers: tuple[list[int], list[int]]
) -> int:
    """``Σ_{t >= least} C(total, t) w**t rest**(total - t)``, summing the shorter side."""
    if least <= 0:
        return (w + rest) ** total
    if least > total:
        return 0
    pw, pr = powers
    if least <= total - least + 1:
        head = sum(comb(total, t) * pw[t] * pr[total - t] for t in range(least))
        return (w + rest) ** total - head
    return sum(comb(total, t) * pw[t] * pr[total - t] for t in range(least, total + 1))


def keep_top(faces: _Faces, n: int, keep: int, work: _Work) -> _Dist:
    """The sum of the ``keep`` highest-ranked of ``n`` dice of one kind.

    Args:
        faces: (rank key, contribution, weight) ascending by rank key.
        n: dice rolled.
        keep: dice kept (``0 < keep < n``).
        work: the step counter.
    """
    total_weight = sum(w for _, _, w in faces)
    low = min(g for _, g, _ in faces)
    span = max(g for _, g, _ in faces) - low
    bits = (total_weight**n).bit_length()
    size = (bits + 8) // 8
    width = size * 8
    length = keep * span + 1
    few = len(faces) <= _FEW
    work.take(_horner_steps(faces, n, keep))
    acc = 0
    above_weight = 0
    groups: dict[int, list[int]] = {}  # the faces above, by weight: their shifts
    q = 0  # the faces above, packed (many faces: one product instead of shifted sums)
    for _, g, w in reversed(faces):  # from the top: the faces above grow one at a time
        below = total_weight - above_weight - w
        y = (g - low) * width
        powers = (
            list(accumulate(repeat(w, n), mul, initial=1)),
            list(accumulate(repeat(below, n), mul, initial=1)),
        )
        alphas = [comb(n, m) * _tail_sum(n - m, keep - m, w, below, powers) for m in range(keep)]
        r = alphas[keep - 1]
        for m in range(keep - 2, -1, -1):
            if few:  # a short polynomial: shifted copies added, cheaper than a product
                r = sum(
                    (wu * sum(r << shift for shift in shifts) for wu, shifts in groups.items()),
                    alphas[m] << ((keep - 1 - m) * y),
                )
            else:
                r = r * q + (alphas[m] << ((keep - 1 - m) * y))
        acc += r << y
        above_weight += w
        if keep > 1:
            if few:
                groups.setdefault(w, []).append(y)
            else:
                q += w << y
    return keep * low, _unpack(acc, size, length), total_weight**n


#: Up to this many faces above a face, a product by their polynomial is done as shifted sums.
_FEW = 12


def _horner_steps(faces: _Faces, n: int, keep: int) -> int:
    """The price of :func:`keep_top`, from the sizes it will multiply."""
    total_weight = sum(w for _, _, w in faces)
    span = max(g for _, g, _ in faces) - min(g for _, g, _ in faces)
    bits = (total_weight**n).bit_length()
    width = ((bits + 8) // 8) * 8
    few = len(faces) <= _FEW
    q_bits = (span + 1) * width
    horner = sum(
        _times_steps(((keep - 1 - m) * span + 1) * width, q_bits, len(faces), few)
        for m in range(keep - 1)
    )
    scalars = keep * min(keep, n - keep + 1) * (4 + bits // 64) + n * (2 + bits // 256)
    return len(faces) * (horner + scalars) + (keep * span + 1) * width // 32


def _times_steps(r_bits: int, q_bits: int, terms: int, few: bool) -> int:
    """Steps of ``r`` times the polynomial of the faces above (``terms`` of them)."""
    if few:
        return terms * (r_bits // 30 + 1) // 16 + terms
    return mul_steps(r_bits, q_bits)


def _window(faces: _Faces, n: int, a: int, b: int, work: _Work) -> _Dist:
    """The sum of ranks ``[a, b)`` (``0 < a < b < n``): the dice placed so far counted face by
    face from the nearer end; a die past ``b`` is dropped whatever it shows."""
    if n - a < b:  # nearer the top: the same from the other end
        faces, a, b = list(reversed(faces)), n - b, n - a
    total_weight = sum(w for _, _, w in faces)
    spread = max(g for _, g, _ in faces) - min(g for _, g, _ in faces) + 1
    bits = (total_weight**n).bit_length()
    work.take(len(faces) * (a * b + (b - a) ** 2 * (b - a) * spread) * (2 + bits // 64))
    counts: dict[int, int] = {0: 1}  # c < a: dice placed, all dropped
    sums: dict[int, dict[int, int]] = {}  # a <= c < b: dice placed -> kept sum -> weight
    final: dict[int, int] = {}
    remaining = total_weight
    for _, g, w in faces:
        remaining -= w  # the weight of the faces above this one
        powers = ([w**t for t in range(n + 1)], [remaining**t for t in range(n + 1)])
        new_counts: dict[int, int] = {}
        new_sums: dict[int, dict[int, int]] = {}
        for c, ways in counts.items():
            for j in range(0, min(n - c, b - c - 1) + 1):
                coefficient = ways * comb(n - c, j) * powers[0][j]
                if c + j < a:
                    new_counts[c + j] = new_counts.get(c + j, 0) + coefficient
                else:
                    bucket = new_sums.setdefault(c + j, {})
                    key = g * (c + j - a)
                    bucket[key] = bucket.get(key, 0) + coefficient
            tail = _tail_sum(n - c, b - c, w, remaining, powers)
            if tail:
                key = g * (b - a)
                final[key] = final.get(key, 0) + ways * tail
        for c, table in sums.items():
            steps = [comb(n - c, j) * powers[0][j] for j in range(min(n - c, b - c - 1) + 1)]
            tail = _tail_sum(n - c, b - c, w, remaining, powers)
            for total, ways in table.items():
                for j, step in enumerate(steps):
                    bucket = new_sums.setdefault(c + j, {})
                    key = total + g * j
                    bucket[key] = bucket.get(key, 0) + ways * step
                if tail:
                    key = total + g * (b - c)
                    final[key] = final.get(key, 0) + ways * tail
        counts, sums = new_counts, new_sums
    return _from_items(final.items(), total_weight**n)


def select_fixed(faces: _Faces, n: int, a: int, b: int, work: _Work) -> _Dist:
    """The sum of the ranks ``[a, b)`` of ``n`` dice of one kind (weights over ``W**n``)."""
    total_weight = sum(w for _, _, w in faces)
    if n == 0 or a >= b:
        return 0, [total_weight**n], total_weight**n
    if a == 0 and b == n:
        die = _from_items(((g, w) for _, g, w in faces), total_weight)
        return _power(die, n, work)
    if b - a == 1 and (a == 0 or b == n):  # the highest (lowest) of n: P(max <= v) = F(v)**n
        ranked = faces if b == n else list(reversed(faces))
        work.take(len(ranked) * (2 + n * total_weight.bit_length() // 60))
        cumulative = list(accumulate((w for _, _, w in ranked), initial=0))
        powers = [c**n for c in cumulative]
        return _from_items(
            ((g, powers[i + 1] - powers[i]) for i, (_, g, _) in enumerate(ranked)),
            total_weight**n,
        )
    if b == n:
        return _top(faces, n, n - a, work)
    if a == 0:
        return _top(list(reversed(faces)), n, b, work)
    return _window(faces, n, a, b, work)


def _top(faces: _Faces, n: int, keep: int, work: _Work) -> _Dist:
    """The top ``keep``: by Horner's evaluation, or, when few dice of many faces are kept, by
    counting the dice placed face by face from the top (whichever prices lower)."""
    span = max(g for _, g, _ in faces) - min(g for _, g, _ in faces) + 1
    counting = len(faces) * 10 * span * keep**3 // 6 + len(faces) * keep
    if counting < _horner_steps(faces, n, keep):
        work.take(counting)
        total_weight = sum(w for _, _, w in faces)
        best_first = [(g, w) for _, g, w in reversed(faces)]
        sums = _keep_highest(best_first, n, keep, work)
        return _from_items(sums.items(), total_weight**n)
    return keep_top(faces, n, keep, work)


def faces_of(kind: list[tuple[int, int]], contribution: Callable[[int], int]) -> _Faces:
    """(value, weight) rows as selection faces, merged by value, ascending."""
    table: dict[int, int] = {}
    for value, weight in kind:
        if weight:
            table[value] = table.get(value, 0) + weight
    return [(v, contribution(v), w) for v, w in sorted(table.items())]


def explosion_cut(count: int, go: int, den: int, max_chain: int) -> int | None:
    """The least ``E`` with P(more than ``E`` explosions in ``count`` dice) < 1e-12, or None
    when one chain could pass the roller's limit first (then each die is followed, capped)."""
    q = Fraction(go, den)
    if count * q ** (max_chain + 1) >= _TAIL:
        return None
    p = (1 - q) ** count
    mass, explosions = p, 0
    while 1 - mass >= _TAIL:
        p = p * (count + explosions) / (explosions + 1) * q
        explosions += 1
        mass += p
    return explosions


def select_exploding(
    first: _Kind,
    later: _Kind,
    den: int,
    n: int,
    selects: tuple[Select, ...],
    contribution: Callable[[int], int],
    max_chain: int,
    work: _Work,
) -> _Dist | None:
    """Keep/drop of ``n`` exploding dice (``!``) whose exploding faces lie above (or below)
    the others; None when that does not hold (the caller follows the dice one by one)."""
    if first != later:
        return None
    stop = faces_of([(v, w) for v, e, w in first if not e], contribution)
    go = faces_of([(v, w) for v, e, w in first if e], contribution)
    if not stop or not go:
        return None
    if stop[-1][0] <= go[0][0]:
        above = True
    elif go[-1][0] <= stop[0][0]:
        above = False
    else:
        return None
    w_stop, w_go = sum(w for *_, w in stop), sum(w for *_, w in go)
    cut = explosion_cut(n, w_go, den, max_chain)
    if cut is None:
        return None
    single = len(go) == 1
    # past this many entries the window moves linearly (no two selections cross any more)
    settled = 2 * max(s.count for s in selects) + 1 if len(selects) > 1 else n

    def ranges(e: int) -> tuple[tuple[int, int], tuple[int, int]]:
        a, b = kept_range(selects, n + e)
        if above:
            return (min(a, n), min(b, n)), (max(a - n, 0), max(b - n, 0))
        return (max(a - e, 0), max(b - e, 0)), (min(a, e), min(b, e))

    memo: dict[tuple[int, int], _Dist] = {}

    def part(e: int) -> _Dist:
        (sa, sb), (xa, xb) = ranges(e)
        if (sa, sb) not in memo:
            memo[sa, sb] = select_fixed(stop, n, sa, sb, work)
        stops = memo[sa, sb]
        if single:  # every exploding entry shows the same face: the kept ones add up
            _, g, w = go[0]
            kept = xb - xa
            return stops[0] + g * kept, [x * w**e for x in stops[1]], stops[2] * w**e
        return _add(stops, select_fixed(go, e, xa, xb, work), work)

    terms: list[tuple[int, _Dist]] = []
    tail_from = None
    for e in range(cut + 1):
        if single and n + e >= settled:
            (sa, sb), (xa, xb) = ranges(e)
            (sa2, sb2), (xa2, xb2) = ranges(e + 1)
            if (sa, sb) == (sa2, sb2) and xb - xa == xb2 - xa2:
                tail_from = e  # from here every E gives the same kept sum: add them at once
                break
        terms.append((e, part(e)))
    last = tail_from if tail_from is not None else cut
    work.take(sum(40 + 30 * len(d[1]) for _, d in terms))
    out: dict[int, int] = {}
    scale_all = 1
    tail_part = None
    if tail_from is not None:
        tail_part = part(tail_from)
        scale_all = sum(tail_part[1])  # the tail's own weights, to keep every weight whole
    for e, (offset, weights, _) in terms:
        factor = comb(n + e - 1, e) * den ** (last - e) * scale_all
        for i, weight in enumerate(weights):
            if weight:
                out[offset + i] = out.get(offset + i, 0) + weight * factor
    denominator = den ** (n + last) * scale_all
    if tail_part is not None:
        # P(E >= tail_from) exactly: one minus the mass below it
        below = sum(
            comb(n + e - 1, e) * w_stop**n * w_go**e * den ** (last - e) for e in range(last)
        )
        tail_weight = den ** (n + last) - below
        offset, weights, _ = tail_part
        for i, weight in enumerate(weights):
            if weight:
                out[offset + i] = out.get(offset + i, 0) + weight * tail_weight
    return _from_items(out.items(), denominator)


def select_union(
    pools: list[tuple[list[tuple[int, int]], int, int]], a: int, b: int, work: _Work
) -> _Dist:
    """The signed sum of the ranks ``[a, b)`` over the dice of several pools (``{4d6+2d8-3d30}d3``).

    Each pool is ((value, weight) of one die, dice, sign). The dice are ranked together by value,
    a tie going lower to the earlier pool (rpg-dice-roller's stable sort); a kept die adds its
    value times its pool's sign. The dice placed so far are counted value by value, from the end
    nearer the window, per pool (a pool's count decides its binomials); once the window is
    passed the rest are dropped whatever they show, a closed form.
    """
    total = sum(n for _, n, _ in pools)
    if total - a < b:  # nearer the top: the same from the other end, ties the other way round
        # values negated (the order turns over) and signs too (each die adds the same)
        mirrored = [([(-v, w) for v, w in faces], n, -s) for faces, n, s in reversed(pools)]
        return select_union(mirrored, total - b, total - a, work)
    p = len(pools)
    tables = [dict(faces) for faces, _, _ in pools]
    values = sorted({v for faces, _, _ in pools for v, _ in faces})
    contributions = [s * v for faces, _, s in pools for v, _ in faces]
    least = min(contributions + [0])
    span = max(contributions + [0]) - least
    weights_total = [sum(t.values()) for t in tables]
    whole = 1
    for (_, n, _), wt in zip(pools, weights_total, strict=True):
        whole *= wt**n
    size = (whole.bit_length() + 8) // 8
    width = size * 8
    kept_most = b - a
    length = kept_most * span + 1
    placed = [1]  # how many ways to have placed c dice in all (c < b), each pool at most its n
    for _, n, _ in pools:
        placed = [sum(placed[max(0, c - n) : c + 1]) for c in range(min(len(placed) + n, b))]
    states_most = sum(placed)
    per_move = 6 + mul_steps(length * width, 64) + size // 16
    moves = sum(n + 1 for faces, n, _ in pools for _ in faces)  # (value, pool, j) triples
    work.take(states_most * moves * per_move + len(values) * p * 20)
    above = list(weights_total)  # each pool's weight of the values not yet passed
    current: dict[tuple[int, ...], int] = {(0,) * p: 1}  # dice placed per pool -> packed sums
    done = 0
    for v in values:
        for i in range(p):
            w = tables[i].get(v, 0)
            if not w:
                continue
            n_i, sign = pools[i][1], pools[i][2]
            shift = (sign * v - least) * width
            later = list(above)
            later[i] -= w  # pool i's dice still to come must now show more than v
            nxt: dict[tuple[int, ...], int] = {}
            for counts, poly in current.items():
                c = sum(counts)
                left = n_i - counts[i]
                for j in range(left + 1):
                    ways = comb(left, j) * w**j
                    kept = max(0, min(c + j, b) - max(c, a))
                    moved = (poly * ways) << (kept * shift)
                    if c + j >= b:  # past the window: the rest are dropped whatever they show
                        rest = 1
                        for k in range(p):
                            remaining = pools[k][1] - counts[k] - (j if k == i else 0)
                            rest *= later[k] ** remaining
                        done += moved * rest
                        continue
                    key = counts[:i] + (counts[i] + j,) + counts[i + 1 :]
                    nxt[key] = nxt.get(key, 0) + moved
            current = nxt
            above = later
    return least * kept_most, _unpack(done, size, length), whole
