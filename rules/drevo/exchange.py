"""A Древо combat exchange as data: distances, actions, fighters, and the plan of a check.

One exchange is one attacker's action against one defender's answer at a distance. These are
the pieces ``rules.drevo.plan`` chooses between (``plan_exchange``: which check, which traits,
which modifiers) and ``rules.drevo.resolve`` rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any

from rules.data import load_table
from rules.drevo.check import Modifier, OneSidedCheck, Side
from rules.drevo.opposed import OpposedCheck
from rules.drevo.traits import ACTIONS, SheetLike, TraitChoice
from rules.drevo.weapons import BARE_HANDS, Weapon
from rules.drevo.wounds import WoundTrack
from rules.errors import RulesError

ACTIONS_FILE = "drevo/actions.toml"
DISTANCES = ("close", "near", "medium", "far")
ACTION_KINDS = ("melee", "throw", "shoot", "shield", "dodge", "parry", "none")
ATTACK_KINDS = ("melee", "throw", "shoot")
EXCHANGE_KINDS = ("opposed", "one_sided", "two_one_sided")
ROLES = ("attacker", "defender")

#: Outcome ids of an exchange, per kind, best for the attacker first.
EXCHANGE_OUTCOMES: dict[str, tuple[str, ...]] = {
    "opposed": ("attacker_wins", "tie", "defender_wins"),
    "one_sided": ("hit", "miss"),
    "two_one_sided": ("attacker_hits", "both_hit", "neither", "defender_hits"),
}
EXCHANGE_OUTCOME_NAMES = {
    "attacker_wins": "Победа нападающего",
    "tie": "Ничья",
    "defender_wins": "Победа защищающегося",
    "hit": "Попадание",
    "miss": "Промах",
    "attacker_hits": "Попал только нападающий",
    "both_hit": "Попали оба",
    "neither": "Оба промахнулись",
    "defender_hits": "Попал только защищающийся",
}
KIND_NAMES = {
    "opposed": "встречная проверка",
    "one_sided": "односторонняя проверка",
    "two_one_sided": "две односторонние проверки",
}


@dataclass(frozen=True)
class Distance:
    """A combat distance.

    Attributes:
        id: one of ``DISTANCES``.
        name: Russian («вплотную», «близко», «средне», «далеко»).
        ranged_difficulty: a shot's or throw's difficulty against a defenceless target.
        throw: whether throwing reaches this far.
    """

    id: str
    name: str
    ranged_difficulty: int
    throw: bool


@cache
def distances() -> dict[str, Distance]:
    """Return the distances of ``data/drevo/actions.toml`` keyed by id.

    Raises:
        RulesError: a distance of ``DISTANCES`` is missing.
    """
    rows = {row.get("id"): row for row in load_table(ACTIONS_FILE).get("distance", [])}
    table: dict[str, Distance] = {}
    for key in DISTANCES:
        row = rows.get(key)
        if row is None or not isinstance(row.get("ranged_difficulty"), int):
            raise RulesError(f"{ACTIONS_FILE}: добавьте дистанцию «{key}» с «ranged_difficulty».")
        table[key] = Distance(
            key, str(row.get("name", key)), row["ranged_difficulty"], bool(row.get("throw", True))
        )
    return table


#: Distance id → Russian name.
DISTANCE_NAMES: dict[str, str] = {key: d.name for key, d in distances().items()}


def defenceless_melee_difficulty() -> int:
    """Return the difficulty of striking a defenceless target in melee (seed: −2, Легко)."""
    return int(load_table(ACTIONS_FILE).get("defenceless", {}).get("melee_difficulty", -2))


@dataclass(frozen=True)
class Action:
    """What a fighter does in the exchange.

    Attributes:
        kind: one of ``ACTION_KINDS`` (``"none"``: does not defend).
        weapon: the weapon used; ``None`` takes the fighter's (melee without one: bare hands).
        parry_ability: the special ability to parry thrown weapons and arrows.
        gm_exception: the GM allowed what the seed rules out «как правило» (melee beyond
            «вплотную», a throw far away, a shield or parry without what it needs):
            «исключения определяет ведущий».
    """

    kind: str
    weapon: Weapon | None = None
    parry_ability: bool = False
    gm_exception: bool = False


#: An attack is an ``Action`` whose kind is one of ``ATTACK_KINDS``.
Attack = Action


@dataclass(frozen=True)
class Fighter:
    """One participant of an exchange.

    Attributes:
        name: shown in the plan and the log.
        sheet: qualities and skills, for the automatic trait choice.
        weapon: the weapon in hand, used when the action names none.
        wounds: the wound track (its penalty applies automatically; heavy → defenceless).
        modifiers: the GM's modifiers (items, situation, state).
        trait_choice: a trait the GM picked (e.g. from ``rank_traits``); wins over the sheet.
        trait: an explicit trait value (with ``trait_name``) when there is no sheet.
        trait_name: the name for ``trait``.
    """

    name: str
    sheet: SheetLike | None = None
    weapon: Weapon | None = None
    wounds: WoundTrack = field(default_factory=WoundTrack)
    modifiers: tuple[Modifier, ...] = ()
    trait_choice: TraitChoice | None = None
    trait: int | None = None
    trait_name: str = ""


@dataclass(frozen=True)
class PlanSide:
    """One side of a planned exchange.

    Attributes:
        role: ``"attacker"`` or ``"defender"``.
        fighter: who.
        action: what, with the weapon resolved.
        trait: the trait rolled with; ``None`` when this side does not roll.
        modifiers: automatic modifiers (wounds, weapons) then the GM's.
        rolls: whether this side rolls dice.
        deals_damage: whether winning or hitting lets this side deal damage.
        difficulty: the difficulty of this side's one-sided check, if any.
    """

    role: str
    fighter: Fighter
    action: Action
    trait: TraitChoice | None
    modifiers: tuple[Modifier, ...]
    rolls: bool
    deals_damage: bool
    difficulty: int | None = None

    @property
    def side(self) -> Side:
        """The ``Side`` this plan side rolls as."""
        trait = self.trait
        return Side(
            trait=trait.value if trait else 0,
            modifiers=self.modifiers,
            name=self.fighter.name,
            trait_name=trait.name if trait else "",
        )

    @property
    def damage_mod(self) -> int:
        """МУ of the weapon this side would hit with (bare hands −1)."""
        return (self.action.weapon or BARE_HANDS).damage_mod

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        weapon = self.action.weapon
        return {
            "role": self.role,
            "name": self.fighter.name,
            "action": self.action.kind,
            "action_name": ACTIONS[self.action.kind].name if self.action.kind in ACTIONS else "",
            "weapon": weapon.name if weapon else None,
            "trait": self.trait.to_dict() if self.trait else None,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "rolls": self.rolls,
            "deals_damage": self.deals_damage,
            "difficulty": self.difficulty,
        }


@dataclass(frozen=True)
class ExchangePlan:
    """A planned exchange, ready to roll.

    Attributes:
        kind: ``"opposed"``, ``"one_sided"`` or ``"two_one_sided"``.
        distance: one of ``DISTANCES``.
        attacker, defender: the two sides.
        notes: Russian lines explaining the plan (why one-sided, who deals damage, …).
        odds: exact chance of each ``EXCHANGE_OUTCOMES[kind]`` outcome, without Судьба.
    """

    kind: str
    distance: str
    attacker: PlanSide
    defender: PlanSide
    notes: tuple[str, ...]
    odds: dict[str, Fraction]

    @property
    def fate_use_before_roll(self) -> str:
        """The Судьба use a side may declare before this roll (3 opposed, 1 one-sided)."""
        return "auto_plus4" if self.kind == "opposed" else "auto_success"

    def side(self, role: str) -> PlanSide:
        """Return the attacker's or defender's plan side."""
        if role not in ROLES:
            raise RulesError(f"Сторона обмена — «attacker» или «defender», а не {role!r}.")
        return self.attacker if role == "attacker" else self.defender

    def opposed_check(self, fate: frozenset[str] = frozenset()) -> OpposedCheck:
        """Return the opposed check, attacker as side a (``fate``: roles that spent Судьба)."""
        if self.kind != "opposed":
            raise RulesError("Это не встречная проверка.")
        a, b = self.attacker.side, self.defender.side
        return OpposedCheck(
            a=replace(a, fate_auto="attacker" in fate), b=replace(b, fate_auto="defender" in fate)
        )

    def one_sided_checks(self, fate: frozenset[str] = frozenset()) -> tuple[OneSidedCheck, ...]:
        """Return the one-sided checks, the attacker's first (``fate``: roles using Судьба)."""
        if self.kind == "opposed":
            raise RulesError("Это встречная проверка, а не односторонняя.")
        sides = [s for s in (self.attacker, self.defender) if s.rolls]
        return tuple(
            OneSidedCheck(s.side, s.difficulty or 0, fate_auto=s.role in fate) for s in sides
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (odds as ``"n/d"`` strings)."""
        return {
            "system": "drevo",
            "kind": self.kind,
            "kind_name": KIND_NAMES[self.kind],
            "distance": self.distance,
            "distance_name": DISTANCE_NAMES[self.distance],
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
            "notes": list(self.notes),
            "odds": {k: str(v) for k, v in self.odds.items()},
        }
