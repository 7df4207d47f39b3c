"""The state of one IDE4™ check: every die and every step, so each view is a rendering of it.

A ``Check`` is immutable; ``rules.ide4.procedure`` returns a new one for each move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.ide4.model import OUTCOME_NAMES, CheckInput, Difficulty
from rules.ide4.tables import SubrollLevel, action, general_subroll

#: Reroll sources [seed]; only ``skill`` counts toward the two skill rerolls.
REROLL_SOURCES = {
    "skill": "навык",
    "food": "еда",
    "calm": "спокойствие",
    "equipment": "снаряжение",
    "help": "помощь союзника",
    "arbitrium": "Арбитриум",
    "fatum": "Фатум",
}
#: [seed] «обычные перебросы → Арбитриум/Фатум»: these come last among rerolls.
LATE_SOURCES = ("arbitrium", "fatum")
#: Mastery bonuses that act after energy-after; ``reroll`` is a skill reroll (see ``bonus``).
AFTER_BONUSES = {
    "soften": "смягчение исхода",
    "triumph": "Успех → Триумф",
    "technique": "именованная техника",
}
STATUSES = ("ready", "rolled", "auto", "impossible")


@dataclass(frozen=True)
class Step:
    """One recorded step after the inputs.

    Attributes:
        kind: ``"auto"``, ``"impossible"``, ``"energy_before"``, ``"d100"``, ``"reroll"``,
            ``"energy_after"``, ``"bonus"``, ``"subroll"`` or ``"level"`` (the level of detail
            changed: never silently).
        source: a reroll source, a bonus kind or the new level; ``""`` otherwise.
        dice: the dice this step rolled (energy dice, the d100, the sub-roll d6).
        die: their size (100 for the d100).
        replaced: the natural d100 a reroll replaced.
        outcome_before, outcome: the outcome before and after this step (``None``: none yet).
        total: d100 + energy (≤ 100) after this step.
        energy_spent: energy this step cost; pool: the pool after it.
        note: words for a ``"level"`` step (which level, and why it changed).
    """

    kind: str
    source: str = ""
    dice: tuple[int, ...] = ()
    die: int = 0
    replaced: int | None = None
    outcome_before: str | None = None
    outcome: str | None = None
    total: int | None = None
    energy_spent: int = 0
    pool: int = 0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "kind": self.kind,
            "source": self.source,
            "dice": list(self.dice),
            "die": self.die,
            "replaced": self.replaced,
            "outcome_before": self.outcome_before,
            "outcome": self.outcome,
            "total": self.total,
            "energy_spent": self.energy_spent,
            "pool": self.pool,
            "note": self.note,
        }


@dataclass(frozen=True)
class Check:
    """One IDE4™ check at some point of its procedure.

    Attributes:
        input: the inputs; difficulty: resolved from them.
        status: ``"ready"`` (waiting for the d100), ``"rolled"``, ``"auto"`` ([0], Успех
            without a roll) or ``"impossible"`` ([00], no roll, no outcome).
        natural: the d100 that counts now (the last reroll's, if any).
        before_dice: energy dice rolled before the d100 (size ``input.before_die``).
        after_dice, after_die: energy dice after the roll and their size.
        rerolls: sources of the rerolls made, in order.
        bonuses: mastery bonuses applied after energy-after, in order.
        outcome: one of ``OUTCOMES``, or ``None`` before the roll and for [00].
        subroll_value: the sub-roll d6, if made.
        meaning, consequence: the GM's words for steps 13–14 («смысл», «последствия»).
        steps: the record, in order.
    """

    input: CheckInput
    difficulty: Difficulty
    status: str
    natural: int | None = None
    before_dice: tuple[int, ...] = ()
    after_dice: tuple[int, ...] = ()
    after_die: int = 0
    rerolls: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    outcome: str | None = None
    subroll_value: int | None = None
    meaning: str = ""
    consequence: str = ""
    steps: tuple[Step, ...] = ()

    @property
    def first_natural(self) -> int | None:
        """The first d100, before any reroll."""
        return next((s.dice[0] for s in self.steps if s.kind == "d100"), None)

    @property
    def before_sum(self) -> int:
        """The sum of the energy dice before the roll."""
        return sum(self.before_dice)

    @property
    def after_sum(self) -> int:
        """The sum of the energy dice after the roll."""
        return sum(self.after_dice)

    @property
    def total(self) -> int | None:
        """d100 + energy before + energy after, at most 100 (``None`` before the roll)."""
        if self.natural is None:
            return None
        return min(100, self.natural + self.before_sum + self.after_sum)

    @property
    def energy_spent(self) -> int:
        """Energy spent by this check (each die costs its size; spent when declared)."""
        return sum(s.energy_spent for s in self.steps)

    @property
    def pool_after(self) -> int:
        """The character's energy after this check (the store writes it back)."""
        return self.input.energy_pool - self.energy_spent

    @property
    def skill_rerolls(self) -> int:
        """Rerolls from skills so far (at most two per check)."""
        return self.rerolls.count("skill")

    @property
    def daily_triumph_spent(self) -> bool:
        """This check used the character's once-a-day Успех → Триумф (the store records it)."""
        return "triumph" in self.bonuses

    @property
    def outcome_name(self) -> str:
        """The outcome in Russian (``"Невозможно"`` for [00], ``""`` before the roll)."""
        if self.status == "impossible":
            return "Невозможно"
        return OUTCOME_NAMES[self.outcome] if self.outcome else ""

    @property
    def level(self) -> str:
        """The level of detail to show: the one asked for, raised to ``"expanded"`` when the
        player demands it always or when a step only the expanded check has was used."""
        inp = self.input
        expanded_only = (
            inp.always_expanded
            or self.before_dice
            or inp.energy_dice
            or self.rerolls
            or self.after_dice
            or self.bonuses
            or self.subroll_value is not None
        )
        return "expanded" if expanded_only else inp.level

    @property
    def subroll_levels(self) -> tuple[SubrollLevel, ...]:
        """The sub-roll bands in force: the action's own, else the general one."""
        if self.input.action:
            own = action(self.input.action).subroll
            if own:
                return own
        return general_subroll()

    @property
    def subroll_name(self) -> str:
        """The strength of the consequence the sub-roll gave, or ``""``."""
        if self.subroll_value is None:
            return ""
        return next(lv.name for lv in self.subroll_levels if self.subroll_value <= lv.max)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die and step."""
        return {
            "system": "ide4",
            "input": self.input.to_dict(),
            "difficulty": self.difficulty.to_dict(),
            "status": self.status,
            "level": self.level,
            "nominal": self.input.nominal,
            "natural": self.natural,
            "first_natural": self.first_natural,
            "energy_before": {
                "dice": list(self.before_dice),
                "die": self.input.before_die,
                "sum": self.before_sum,
            },
            "energy_after": {
                "dice": list(self.after_dice),
                "die": self.after_die,
                "sum": self.after_sum,
            },
            "total": self.total,
            "rerolls": list(self.rerolls),
            "bonuses": list(self.bonuses),
            "outcome": self.outcome,
            "outcome_name": self.outcome_name,
            "subroll": self.subroll_value,
            "subroll_name": self.subroll_name,
            "pool_before": self.input.energy_pool,
            "pool_after": self.pool_after,
            "energy_spent": self.energy_spent,
            "daily_triumph_spent": self.daily_triumph_spent,
            "meaning": self.meaning,
            "consequence": self.consequence,
            "steps": [s.to_dict() for s in self.steps],
        }
