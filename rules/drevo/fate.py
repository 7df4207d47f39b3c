"""Судьба: the five uses of Fate points, each switchable per campaign (``data/drevo/fate.toml``).

1. ``auto_success`` — declared before a one-sided check: an automatic critical success
   (``OneSidedCheck(fate_auto=True)``; no dice are rolled).
2. ``shift`` — after the roll: ±1 to the result per point (:func:`shift`). A shift moves the
   total only; crits stay as the dice made them (the seed decides crits by the dice).
3. ``auto_plus4`` — declared before an opposed check: the dice count as +4 without rolling
   (``Side(fate_auto=True)``); an opponent's real +4 cancels it like any crit.
4. ``reduce_damage`` — right after damage: one level lower per point (:func:`reduce_damage`);
   Смерть counts as a level too (Смерть → Тяжёлая рана costs 1).
5. ``circumstance`` — a favourable turn of events with the GM's consent: only a note.

:func:`spend_fate` checks a use against the campaign and the points left.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, overload

from rules.data import load_table
from rules.drevo.wounds import LEVELS, check_level, level_name
from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.drevo.check import OneSidedResult
    from rules.drevo.opposed import OpposedResult

FATE_FILE = "drevo/fate.toml"


class FateUse(StrEnum):
    """The five uses of Судьба, in the seed's order."""

    AUTO_SUCCESS = "auto_success"
    SHIFT = "shift"
    AUTO_PLUS4 = "auto_plus4"
    REDUCE_DAMAGE = "reduce_damage"
    CIRCUMSTANCE = "circumstance"

    @property
    def number(self) -> int:
        """The use's number in the seed (1–5)."""
        return list(FateUse).index(self) + 1

    @property
    def label(self) -> str:
        """The Russian name from ``fate.toml``."""
        return fate_use_names()[self.value]


@cache
def fate_use_names() -> dict[str, str]:
    """Return use id → Russian name."""
    names = load_table(FATE_FILE).get("names", {})
    return {use.value: str(names.get(use.value, use.value)) for use in FateUse}


@dataclass(frozen=True)
class FateRules:
    """A campaign's Судьба rules.

    Attributes:
        starting_points: points a new player's character starts with (seed: 1–5,
            default 3).
        enabled: the ids of the uses the GM allows.
        npc_starting_points: points a new NPC starts with (kubik's default 0: the seed's
            Судьба is the players' — «Очки Судьбы расходуются игроком»).
    """

    starting_points: int = 3
    enabled: frozenset[str] = frozenset(use.value for use in FateUse)
    npc_starting_points: int = 0

    def start(self, npc: bool) -> int:
        """Points a new character starts with: an NPC's or a player's."""
        return self.npc_starting_points if npc else self.starting_points

    def allows(self, use: str) -> bool:
        """Whether the campaign allows ``use``."""
        return use in self.enabled

    def with_use(self, use: str, allowed: bool) -> FateRules:
        """Return the rules with ``use`` switched on or off."""
        _use(use)
        enabled = self.enabled | {use} if allowed else self.enabled - {use}
        return FateRules(self.starting_points, frozenset(enabled), self.npc_starting_points)


@cache
def fate_rules() -> FateRules:
    """Return the default rules from ``data/drevo/fate.toml``.

    Raises:
        RulesError: ``starting_points`` or ``npc_starting_points`` is not a non-negative
            integer.
    """
    table = load_table(FATE_FILE)
    starts = []
    for key, default in (("starting_points", 3), ("npc_starting_points", 0)):
        start = table.get(key, default)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise RulesError(f"{FATE_FILE}: «{key}» — целое число от 0.")
        starts.append(start)
    flags = table.get("uses", {})
    enabled = frozenset(use.value for use in FateUse if flags.get(use.value, True))
    return FateRules(starts[0], enabled, starts[1])


def _use(use: str) -> FateUse:
    try:
        return FateUse(use)
    except ValueError:
        ids = ", ".join(u.value for u in FateUse)
        raise RulesError(f"Неизвестное применение Судьбы {use!r}: одно из {ids}.") from None


def spend_fate(use: str, points: int, cost: int = 1, *, rules: FateRules | None = None) -> int:
    """Check that ``cost`` points may be spent on ``use`` and return the points left.

    Args:
        use: a ``FateUse`` id.
        points: the character's current Судьба.
        cost: points to spend (≥ 1).
        rules: the campaign's rules; ``fate.toml`` defaults when omitted.

    Raises:
        RulesError: the campaign disabled the use, the cost is below 1, or too few points.
    """
    kind = _use(use)
    rules = rules or fate_rules()
    if not rules.allows(kind.value):
        raise RulesError(
            f"В этой кампании Судьбу нельзя тратить так: «{kind.label}». "
            "Включите это в настройках кампании или выберите другое."
        )
    if cost < 1:
        raise RulesError("Потратить можно только целое число очков Судьбы, от одного.")
    if cost > points and points <= 0:
        raise RulesError(f"Нужно очков Судьбы: {cost}, а у персонажа нет ни одного.")
    if cost > points:
        raise RulesError(
            f"Нужно очков Судьбы: {cost}, а у персонажа только {points} — потратьте меньше."
        )
    return points - cost


@overload
def shift(result: OneSidedResult, points: int, side: str | None = None) -> OneSidedResult: ...
@overload
def shift(result: OpposedResult, points: int, side: str | None = None) -> OpposedResult: ...
def shift(
    result: OneSidedResult | OpposedResult, points: int, side: str | None = None
) -> OneSidedResult | OpposedResult:
    """Raise (+) or lower (−) a rolled result by ``points`` (Судьба use 2; costs ``|points|``).

    Args:
        result: a one-sided or opposed result.
        points: signed shift.
        side: for an opposed result, ``"a"`` or ``"b"``.

    Returns:
        A new result with ``fate_shift`` recorded and the outcome recomputed; crits are
        not made or unmade by a shift.

    Raises:
        RulesError: an opposed result without a valid side.
    """
    # Imported here: the party tab asks fate_rules() at start, which needs no dice.
    from rules.drevo.check import OneSidedResult, shift_one_sided
    from rules.drevo.opposed import shift_opposed

    if isinstance(result, OneSidedResult):
        return shift_one_sided(result, points)
    if side is None:
        raise RulesError("Во встречной проверке укажите, чей результат сдвигает Судьба.")
    return shift_opposed(result, side, points)


def fate_cost(from_level: str, to_level: str) -> int:
    """Return the points needed to lower damage from one level to another (use 4).

    Лёгкая рана → Царапина costs 1, Тяжёлая рана → Царапина 3.

    Raises:
        RulesError: an unknown level, or ``to_level`` is worse than ``from_level``.
    """
    start, end = LEVELS.index(check_level(from_level)), LEVELS.index(check_level(to_level))
    if end > start:
        raise RulesError(
            f"Судьба только снижает урон: «{level_name(to_level)}» тяжелее, "
            f"чем «{level_name(from_level)}»."
        )
    return start - end


def reduce_damage(level: str, points: int) -> str:
    """Return the damage level after spending ``points`` of Судьба on it (use 4).

    Raises:
        RulesError: an unknown level, negative points, or lowering below Царапина.
    """
    index = LEVELS.index(check_level(level))
    if points < 0:
        raise RulesError("Очков Судьбы не может быть меньше нуля.")
    if points > index:
        raise RulesError(
            f"«{level_name(level)}» можно снизить самое большее на {index} ур. — до Царапины."
        )
    return LEVELS[index - points]


def reduce_options(
    level: str, points: int, *, rules: FateRules | None = None
) -> tuple[tuple[str, int], ...]:
    """Return what use 4 can turn ``level`` into: ``(level, cost)``, mildest reduction first.

    Empty when the campaign disabled the use, the character has no points, or the damage
    is a Царапина already.
    """
    rules = rules or fate_rules()
    if not rules.allows(FateUse.REDUCE_DAMAGE.value):
        return ()
    index = LEVELS.index(check_level(level))
    return tuple((LEVELS[index - cost], cost) for cost in range(1, min(points, index) + 1))
