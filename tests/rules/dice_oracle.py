"""Brute force: run the roller itself on every possible sequence of die faces.

Each call of ``randint`` branches over its faces; the paths are walked like an odometer and
each one weighs ``1/faces`` per draw. Paths that would need more than ``cap`` draws are cut
and their mass reported, so explosions and rerolls are enumerated to a known depth. The
oracle shares no code with :mod:`rules.odds`: it only needs the roller's semantics.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from rules.dice import roll


class _TooDeep(Exception):
    pass


class _Path(random.Random):
    def __init__(self, prefix: list[int], cap: int) -> None:
        super().__init__(0)
        self.prefix = prefix
        self.cap = cap
        self.taken: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        i = len(self.taken)
        if i >= self.cap:
            raise _TooDeep
        choice = self.prefix[i] if i < len(self.prefix) else 0
        self.taken.append((choice, b - a + 1))
        return a + choice


def enumerate_totals(
    text: str, cap: int = 12, paths: int = 60_000
) -> tuple[dict[int, Fraction], Fraction]:
    """Return (total -> probability over complete paths, mass of cut paths)."""
    weights: Counter[int] = Counter()
    cut = Fraction(0)
    prefix: list[int] = []
    for _ in range(paths):
        rng = _Path(prefix, cap)
        try:
            total = roll(text, rng).total
        except _TooDeep:
            total = None
        mass = Fraction(1)
        for _, n in rng.taken:
            mass /= n
        if total is None:
            cut += mass
        else:
            weights[total] += mass  # type: ignore[assignment]
        taken = rng.taken
        while taken and taken[-1][0] + 1 == taken[-1][1]:
            taken.pop()
        if not taken:
            return dict(sorted(weights.items())), cut
        prefix = [c for c, _ in taken[:-1]] + [taken[-1][0] + 1]
    raise AssertionError(f"{text}: more than {paths} paths — pick a smaller case")
