"""Brute force: run the roller itself on every possible sequence of die faces.

Each call of ``randint`` branches over its faces; the paths are walked like an odometer and
each one weighs ``1/faces`` per draw. Paths that would need more than ``cap`` draws are cut
and their mass reported, so explosions and rerolls are enumerated to a known depth. The
oracle shares no code with :mod:`rules.odds`: it only needs the roller's semantics.

While one text is walked, the roller's ``parse`` is memoised: parsing is a pure function of the
text and the limits (the expression is frozen), so every path still rolls the very expression
``roll`` would parse, without parsing it once per path (half the oracle's CPU before).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from rules.dice import roll
from rules.dice import roller as _roller


class _TooDeep(Exception):
    pass


class _Path(random.Random):
    """One path of faces: draw ``i`` takes face ``prefix[i]`` (0 past the prefix)."""

    def __init__(self, cap: int) -> None:
        super().__init__(0)
        self.cap = cap
        self.start([])

    def start(self, prefix: list[int]) -> None:
        """Walk the path ``prefix`` next (one object for all paths: seeding one costs more
        than rolling it)."""
        self.prefix = prefix
        self.taken: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        i = len(self.taken)
        if i >= self.cap:
            raise _TooDeep
        choice = self.prefix[i] if i < len(self.prefix) else 0
        self.taken.append((choice, b - a + 1))
        return a + choice


@contextmanager
def _parse_once() -> Iterator[None]:
    parse = _roller.parse
    _roller.parse = functools.lru_cache(maxsize=None)(parse)  # type: ignore[assignment]
    try:
        yield
    finally:
        _roller.parse = parse


def enumerate_totals(
    text: str, cap: int = 12, paths: int = 60_000
) -> tuple[dict[int, Fraction], Fraction]:
    """Return (total -> probability over complete paths, mass of cut paths)."""
    with _parse_once():
        return _enumerate(text, cap, paths)


def _enumerate(text: str, cap: int, paths: int) -> tuple[dict[int, Fraction], Fraction]:
    # A path's mass is 1/(product of its draws' faces): count paths per (total, denominator)
    # in integers and make the fractions once at the end.
    counts: Counter[tuple[int | None, int]] = Counter()
    rng = _Path(cap)
    prefix: list[int] = []
    for _ in range(paths):
        rng.start(prefix)
        try:
            total: int | None = roll(text, rng).total
        except _TooDeep:
            total = None
        denominator = 1
        for _, n in rng.taken:
            denominator *= n
        counts[total, denominator] += 1
        taken = rng.taken
        while taken and taken[-1][0] + 1 == taken[-1][1]:
            taken.pop()
        if not taken:
            weights: Counter[int] = Counter()
            cut = Fraction(0)
            for (done, denominator), ways in counts.items():
                if done is None:
                    cut += Fraction(ways, denominator)
                else:
                    weights[done] += Fraction(ways, denominator)  # type: ignore[assignment]
            return dict(sorted(weights.items())), cut
        prefix = [c for c, _ in taken[:-1]] + [taken[-1][0] + 1]
    raise AssertionError(f"{text}: more than {paths} paths — pick a smaller case")
