"""Initiative in IDE4, Старатели and Мир Тьмы, each system's way ([default] in
``data/rounds/initiative.toml``), and the turn order it gives.

A :class:`Fighter` is what the rules need of a combatant (the app builds it from the
campaign's character). :func:`roll_initiative` rolls for every fighter (or side) and orders
them: by each system's key, ties by the rule the campaign names.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.data import load_table
from rules.errors import RulesError
from rules.modifiers import Modifier
from rules.systems import SYSTEMS, load, rounds

TIE_RULES = ("reroll", "pc_first", "bonus")
PER = ("combatant", "side")
MAX_REROLLS = 50


@dataclass(frozen=True)
class Fighter:
    """A combatant as the initiative rules see it.

    Attributes:
        id, name, side: who and on which side; pc: a player character.
        qualities: attributes / characteristics by name; skills: skill values by name.
        initiative: the sheet's initiative (Мир Тьмы), if it has one.
        energy: IDE4 energy now.
        modifiers: active modifiers (effects) on this fighter's checks.
    """

    id: str
    name: str
    side: str = ""
    pc: bool = True
    qualities: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    initiative: int | None = None
    energy: int = 100
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class InitiativeRoll:
    """One fighter's (or side's) initiative: the key it is ordered by and how it came.

    Attributes:
        id: the fighter's id (per side: the side's name).
        key: compared highest first (IDE4: (outcome rank, total); others: (total,)).
        bonus: the fixed part (DM, sheet initiative) the ``bonus`` tie rule compares.
        text: «Успех · 57» (IDE4: outcome · total), «4+5 +1 = 10» (2d6 + DM),
            «7 +5 = 12» (d10 + initiative); an effect's modifier is a further «−1».
        rerolls: the tie-break rolls it made, in order (ordering only).
        check: IDE4 only: the check's final difficulty, hidden risk and outcome (what the
            luck ledger needs to place the roll); ``None`` without a d100 roll.
    """

    id: str
    key: tuple[int, ...]
    bonus: int
    text: str
    pc: bool = True
    rerolls: tuple[int, ...] = ()
    check: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out = {
            "id": self.id,
            "key": list(self.key),
            "bonus": self.bonus,
            "text": self.text,
            "pc": self.pc,
            "rerolls": list(self.rerolls),
        }
        if self.check is not None:
            out["check"] = dict(self.check)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> InitiativeRoll:
        """Rebuild a roll saved by :meth:`to_dict`."""
        return cls(
            str(d["id"]),
            tuple(int(k) for k in d["key"]),
            int(d["bonus"]),
            str(d["text"]),
            bool(d.get("pc", True)),
            tuple(int(r) for r in d.get("rerolls", [])),
            dict(d["check"]) if isinstance(d.get("check"), dict) else None,
        )


def _table() -> dict[str, Any]:
    return load_table("rounds/initiative.toml")


def setting(system: str, key: str) -> Any:
    """Return the campaign's ``[system] key`` of the initiative table.

    Raises:
        RulesError: the system has no round tracker, or the table lacks the key.
    """
    if not rounds(system):
        raise RulesError(f"Для системы «{system}» раунды ведёт вкладка Бой Древа, не этот трекер.")
    try:
        return _table()[system][key]
    except KeyError as err:
        raise RulesError(
            f"В таблице rounds/initiative.toml нет [{system}] {key}: верните значение в "
            "настройках кампании (Ctrl+T)."
        ) from err


def per_side() -> bool:
    """Whether initiative is rolled per side (else per combatant) — a campaign setting."""
    per = str(_table().get("initiative", {}).get("per", "combatant"))
    if per not in PER:
        raise RulesError(
            f"Настройка [initiative] per = «{per}» неизвестна: «combatant» или «side»."
        )
    return per == "side"


def tie_rule(system: str) -> str:
    """Return the tie rule the campaign names for ``system``."""
    rule = str(setting(system, "tie"))
    if rule not in TIE_RULES:
        raise RulesError(
            f"Правило ничьей «{rule}» неизвестно: {', '.join(TIE_RULES)} (rounds/initiative.toml)."
        )
    return rule


def modifiers_sum(f: Fighter) -> int:
    """Return the sum of the fighter's active modifiers."""
    return sum(m.value for m in f.modifiers)


def _rule(system: str) -> Any:
    """The module of ``system``'s initiative (its ``rules/<system>/initiative.py``: ``roll``,
    ``bonus``, ``TIE_FACES``), as its line in :mod:`rules.systems` names it.

    Raises:
        RulesError: a system whose fights the round tracker does not run.
    """
    target = SYSTEMS[system].initiative if rounds(system) else None
    if target is None:
        raise RulesError(f"Для системы «{system}» раунды ведёт вкладка Бой Древа, не этот трекер.")
    return load(target)


def check_setting(system: str) -> None:
    """Read ``system``'s own keys of the initiative table the way its roll will.

    Raises:
        RulesError: a value its initiative cannot use; the message names it.
    """
    _rule(system).check_setting()


def roll_one(system: str, f: Fighter, rng: random.Random) -> InitiativeRoll:
    """Roll one fighter's initiative the ``system``'s way.

    Raises:
        RulesError: an unknown system or a table value the rules cannot use.
    """
    result: InitiativeRoll = _rule(system).roll(f, rng)
    return result


def _tie_roll(system: str, rng: random.Random) -> int:
    return rng.randint(1, int(_rule(system).TIE_FACES))


def order(
    system: str, rolls: Sequence[InitiativeRoll], rng: random.Random
) -> tuple[InitiativeRoll, ...]:
    """Order the rolls best first; break ties by the campaign's rule (rerolls recorded).

    Equal keys are split by the tie rule («pc_first»: players first; «bonus»: the higher
    fixed bonus first), and whatever is still equal rolls again among itself.
    """
    rule = tie_rule(system)
    extra: dict[str, list[int]] = {r.id: [] for r in rolls}

    def rank(group: list[InitiativeRoll], depth: int) -> list[InitiativeRoll]:
        if len(group) <= 1 or depth > MAX_REROLLS:
            return group
        scores = {r.id: _tie_roll(system, rng) for r in group}
        for r in group:
            extra[r.id].append(scores[r.id])
        out: list[InitiativeRoll] = []
        for score in sorted(set(scores.values()), reverse=True):
            out += rank([r for r in group if scores[r.id] == score], depth + 1)
        return out

    def split(group: list[InitiativeRoll]) -> list[InitiativeRoll]:
        if len(group) <= 1:
            return group
        if rule == "pc_first" and len({r.pc for r in group}) > 1:
            return rank([r for r in group if r.pc], 0) + rank([r for r in group if not r.pc], 0)
        if rule == "bonus" and len({r.bonus for r in group}) > 1:
            out: list[InitiativeRoll] = []
            for b in sorted({r.bonus for r in group}, reverse=True):
                out += rank([r for r in group if r.bonus == b], 0)
            return out
        return rank(group, 0)

    ranked: list[InitiativeRoll] = []
    for key in sorted({r.key for r in rolls}, reverse=True):
        ranked += split([r for r in rolls if r.key == key])
    return tuple(replace(r, rerolls=tuple(extra[r.id])) for r in ranked)


def roll_initiative(
    system: str, fighters: Sequence[Fighter], rng: random.Random
) -> tuple[tuple[str, ...], dict[str, InitiativeRoll]]:
    """Roll initiative for everyone and return the turn order and each fighter's roll.

    Per side (a campaign setting), each side rolls once with its best member's bonus (in
    IDE4: its first member's check) and its members act together, in the given order.

    Args:
        system: ``ide4``, ``starately`` or ``wod``.
        fighters: the combatants, in the roster's order (unique ids, at least one).
        rng: the session's random source.

    Returns:
        (fighter ids in turn order, {fighter id or side: its roll}).

    Raises:
        RulesError: no combatants, or a system without this tracker.
    """
    if not fighters:
        raise RulesError("В бою никого нет: добавьте участников (пробел — сторона).")
    if not per_side():
        rolls = [roll_one(system, f, rng) for f in fighters]
        ranked = order(system, rolls, rng)
        return tuple(r.id for r in ranked), {r.id: r for r in ranked}
    sides: dict[str, list[Fighter]] = {}
    for f in fighters:
        sides.setdefault(f.side or "—", []).append(f)
    side_rolls = []
    for side, members in sides.items():
        best = max(members, key=lambda m: roll_bonus(system, m))
        r = roll_one(system, best, rng)
        side_rolls.append(InitiativeRoll(side, r.key, r.bonus, r.text, best.pc, check=r.check))
    ranked = order(system, side_rolls, rng)
    turn = tuple(f.id for r in ranked for f in sides[r.id])
    return turn, {r.id: r for r in ranked}


def roll_bonus(system: str, f: Fighter) -> int:
    """Return the fixed part of a fighter's initiative (who rolls for a side); a system
    without the round tracker: 0 for everyone (its roll is then refused)."""
    if not rounds(system):
        return 0
    return int(_rule(system).bonus(f))
