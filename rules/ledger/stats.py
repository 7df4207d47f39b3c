"""The luck of many rolls: sessions, the mean percentile and how unusual it is under fair dice.

Each roll's percentile has its own distribution under fair dice (``Luck.spread``): mean 1/2,
variance ``(1 − Σ pᵢ³) / 12``. The mean of ``n`` rolls is compared with the exact distribution
of the mean of those ``n`` independent rolls — each with its own spread — convolved one roll at
a time; past ``exact_max_rolls`` rolls (or when a roll kept only its summary, or the support
grows too large to enumerate) with the normal approximation, and the verdict says which.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

from rules.data import load_table
from rules.errors import RulesError

SETTINGS_FILE = "ledger/sessions.toml"
_GRID = 10**9  # percentiles are summed as integers in units of 1e-9 (exact ties stay ties)
_MAX_SUPPORT = 200_000  # distinct sums kept while convolving; more → normal approximation
DECILES = 10


@dataclass(frozen=True)
class LedgerSettings:
    """The ledger's tunables (``data/ledger/sessions.toml``)."""

    gap: timedelta
    exact_max_rolls: int
    edge: float


@cache
def settings() -> LedgerSettings:
    """Return the ledger's settings (campaign overrides applied).

    Raises:
        RulesError: a value out of range; the message names the key.
    """
    table = load_table(SETTINGS_FILE)
    gap, exact, edge = table["gap_hours"], table["exact_max_rolls"], table["edge"]
    if not (isinstance(gap, int | float) and gap > 0):
        raise RulesError(f"ledger/sessions.toml: gap_hours — число часов больше 0, а не {gap!r}.")
    if not (isinstance(exact, int) and 0 <= exact <= 200):
        raise RulesError(f"ledger/sessions.toml: exact_max_rolls — от 0 до 200, а не {exact!r}.")
    if not (isinstance(edge, int | float) and 0 < edge < 0.5):
        raise RulesError(f"ledger/sessions.toml: edge — доля от 0 до 0,5, а не {edge!r}.")
    return LedgerSettings(timedelta(hours=gap), exact, float(edge))


# -- sessions ---------------------------------------------------------------------------------


def session_numbers(
    items: Sequence[tuple[datetime | None, bool]], gap: timedelta | None = None
) -> list[int]:
    """Number the game session (1, 2, …) of each Журнал item, oldest first.

    Args:
        items: ``(when, is_mark)`` per entry, oldest first; ``is_mark`` for the GM's
            «новая сессия» entry; ``when`` may be ``None`` (an unreadable timestamp).
        gap: a pause longer than this between two entries starts a session
            (default: ``settings().gap``).

    Returns:
        One session number per item. A mark starts a new session unless the current one
        has nothing in it yet; so does a pause longer than ``gap`` after an entry.
    """
    gap = settings().gap if gap is None else gap
    numbers: list[int] = []
    session, empty, last = 1, True, None
    for when, is_mark in items:
        paused = when is not None and last is not None and when - last > gap
        if (is_mark or paused) and not empty:
            session += 1
            empty = True
        if not is_mark:
            empty = False
        if when is not None:
            last = when
        numbers.append(session)
    return numbers


# -- the mean and its verdict -----------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """One roll as the stats see it.

    Attributes:
        percentile: where it landed, 0…1.
        probs: the chance of each outcome of its distribution, worst first (``None`` when the
            log kept only the summary of a large distribution).
        variance: the percentile's variance under fair dice.
    """

    percentile: float
    probs: tuple[float, ...] | None
    variance: float


@dataclass(frozen=True)
class Verdict:
    """How unusual a mean percentile is under fair dice.

    Attributes:
        direction: ``"lucky"``, ``"unlucky"`` or ``"even"`` (the mean is 1/2 to 1e-9).
        tail: the chance, under fair dice, of a mean at least this far on this side of 1/2.
        exact: whether ``tail`` comes from the exact distribution (else normal).
    """

    direction: str
    tail: float
    exact: bool


@dataclass(frozen=True)
class Summary:
    """The numbers of a set of rolls (a character's, the table's, a session's)."""

    rolls: int
    mean: float | None
    top: float | None
    bottom: float | None
    histogram: tuple[int, ...]
    verdict: Verdict | None


def _spread(sample: Sample) -> list[tuple[int, float]]:
    assert sample.probs is not None
    out, below = [], 0.0
    for p in sample.probs:
        if p > 0:
            out.append((round((below + p / 2) * _GRID), p))
        below += p
    return out


def _observed(spread: list[tuple[int, float]], percentile: float) -> int:
    """The grid value of the outcome rolled (the stored percentile is rounded)."""
    return min(spread, key=lambda kv: abs(kv[0] - percentile * _GRID))[0]


def exact_tail(samples: Sequence[Sample]) -> float | None:
    """Return P(sum ≥ observed) if the mean is above 1/2, else P(sum ≤ observed), exactly.

    Returns ``None`` if a sample lacks its outcome chances or the sums get too many to list.
    """
    if any(s.probs is None for s in samples):
        return None
    dist: dict[int, float] = {0: 1.0}
    observed = 0
    for sample in samples:
        spread = _spread(sample)
        observed += _observed(spread, sample.percentile)
        step: dict[int, float] = {}
        for total, p in dist.items():
            for value, q in spread:
                key = total + value
                step[key] = step.get(key, 0.0) + p * q
        if len(step) > _MAX_SUPPORT:
            return None
        dist = step
    half = len(samples) * _GRID // 2
    slack = len(samples)  # rounding to the grid moves a sum by at most one unit per roll
    if observed >= half - slack:  # a mean of 1/2 to the grid's rounding counts upwards
        return min(1.0, sum(p for total, p in dist.items() if total >= observed - slack))
    return min(1.0, sum(p for total, p in dist.items() if total <= observed + slack))


def normal_tail(samples: Sequence[Sample]) -> float:
    """Return the normal approximation of the same tail (mean n/2, variance Σ varᵢ)."""
    n = len(samples)
    sd = math.sqrt(sum(s.variance for s in samples))
    if sd == 0:
        return 1.0
    z = abs(sum(s.percentile for s in samples) - n / 2) / sd
    return 0.5 * math.erfc(z / math.sqrt(2))


def verdict(samples: Sequence[Sample]) -> Verdict | None:
    """Return how unusual the samples' mean is under fair dice, or ``None`` without samples."""
    if not samples:
        return None
    mean = sum(s.percentile for s in samples) / len(samples)
    direction = "even" if abs(mean - 0.5) < 1e-9 else "lucky" if mean > 0.5 else "unlucky"
    tail = None
    if len(samples) <= settings().exact_max_rolls:
        tail = exact_tail(samples)
    if tail is not None:
        return Verdict(direction, tail, True)
    return Verdict(direction, normal_tail(samples), False)


def summarise(samples: Sequence[Sample]) -> Summary:
    """Return the count, mean, top and bottom shares, decile histogram and verdict."""
    n = len(samples)
    histogram = [0] * DECILES
    for s in samples:
        histogram[min(DECILES - 1, int(s.percentile * DECILES))] += 1
    if not n:
        return Summary(0, None, None, None, tuple(histogram), None)
    edge = settings().edge
    return Summary(
        rolls=n,
        mean=sum(s.percentile for s in samples) / n,
        top=sum(s.percentile >= 1 - edge for s in samples) / n,
        bottom=sum(s.percentile <= edge for s in samples) / n,
        histogram=tuple(histogram),
        verdict=verdict(samples),
    )
