"""The Мир Тьмы health track ([default], ``data/rounds/health.toml``; the seed has none).

A track is a list of marks (``bashing`` / ``lethal`` / ``aggravated``), worst first, at most
``boxes`` long. The dice penalty grows as the last boxes fill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.data import load_table
from rules.errors import RulesError


@dataclass(frozen=True)
class HealthRules:
    """The campaign's health table."""

    stamina: str
    size: int
    penalty: tuple[int, ...]
    kinds: tuple[str, ...]
    names: dict[str, str]
    marks: dict[str, str]


def rules() -> HealthRules:
    """Return the campaign's health table (raises RulesError if it is malformed)."""
    t: dict[str, Any] = load_table("rounds/health.toml")
    try:
        h = t["health"]
        return HealthRules(
            str(h["stamina"]),
            int(h["size"]),
            tuple(int(p) for p in h["penalty"]),
            tuple(str(k) for k in h["kinds"]),
            {str(k): str(v) for k, v in t["names"].items()},
            {str(k): str(v) for k, v in t["marks"].items()},
        )
    except (KeyError, TypeError, ValueError) as err:
        raise RulesError(
            f"Таблица здоровья (rounds/health.toml) неполна: {err}. Верните её в настройках."
        ) from err


def boxes(qualities: dict[str, int]) -> int:
    """Return how many boxes a character's track has: Выносливость + size."""
    r = rules()
    return max(qualities.get(r.stamina, 0) + r.size, 1)


def _sorted(track: Sequence[str], kinds: tuple[str, ...]) -> list[str]:
    return sorted(track, key=lambda k: -kinds.index(k))


def damage(track: Sequence[str], kind: str, total: int) -> list[str]:
    """Mark one box of ``kind`` damage on a track of ``total`` boxes.

    On a full track the damage worsens the mildest mark not worse than it by one step
    (a bashing on a track full of bashing turns one into lethal); a full track of the
    worst kind stays as it is.

    Raises:
        RulesError: an unknown kind of damage.
    """
    kinds = rules().kinds
    if kind not in kinds:
        raise RulesError(f"Вид урона «{kind}» неизвестен: {', '.join(kinds)}.")
    marks = _sorted(track, kinds)
    if len(marks) < total:
        return _sorted([*marks, kind], kinds)
    for i in range(len(marks) - 1, -1, -1):  # the mildest first
        if kinds.index(marks[i]) <= kinds.index(kind) and marks[i] != kinds[-1]:
            marks[i] = kinds[kinds.index(marks[i]) + 1]
            break
    return _sorted(marks, kinds)


def heal(track: Sequence[str]) -> list[str]:
    """Clear the mildest filled box."""
    marks = _sorted(track, rules().kinds)
    return marks[:-1]


def penalty(track: Sequence[str], total: int) -> int:
    """Return the dice penalty of a track: the worst of the last boxes filled (0 if none)."""
    steps = rules().penalty
    filled = len(track)
    worst = 0
    for i, p in enumerate(steps):
        box = total - len(steps) + i + 1  # 1-based box this penalty belongs to
        if box >= 1 and filled >= box:
            worst = min(worst, p)
    return worst


def render(track: Sequence[str], total: int) -> str:
    """Return the track as boxes: «[X][/][ ][ ]»."""
    r = rules()
    marks = _sorted(track, r.kinds)
    return "".join(f"[{r.marks.get(m, '?')}]" for m in marks) + "[ ]" * max(total - len(marks), 0)


def compact(track: Sequence[str], total: int) -> str:
    """Return the track in one short word for a table cell: «XX/····» (· an empty box)."""
    r = rules()
    marks = _sorted(track, r.kinds)
    return "".join(r.marks.get(m, "?") for m in marks) + "·" * max(total - len(marks), 0)
