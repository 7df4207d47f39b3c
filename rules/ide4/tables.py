"""IDE4™ tables read from ``data/ide4/*.toml``: bands, energy, mastery thresholds, actions.

Each loader validates its file once (cached) and raises ``RulesError`` naming the file and
the row, so a GM who edits a campaign table learns what to fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.counts import genitive
from rules.data import load_table
from rules.errors import RulesError

BANDS_FILE = "ide4/bands.toml"
ENERGY_FILE = "ide4/energy.toml"
SKILLS_FILE = "ide4/skills.toml"
ACTIONS_FILE = "ide4/actions.toml"

ROLL_LEVELS = range(1, 8)  # difficulties that are rolled: [1] … [7]
DISTANCES = ("П", "Д", "Б", "К")  # [seed] combat distances
BONUS_KINDS = ("reroll", "soften", "triumph", "technique")
SUBROLL_DIE = 6


def _int(value: Any, where: str, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{where}: поле «{name}» должно быть целым числом.")
    return value


# -- bands ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    """The outcome bands of one final difficulty [1]…[7].

    Attributes:
        difficulty: the final difficulty this row is for.
        tragedy_max: natural d100 at or below it is Трагедия.
        middle_min: total at or above it is at least Средне.
        success_min: total (or natural, see ``success_natural``) at or above it is Успех.
        triumph_min: natural d100 at or above it is Триумф; ``None`` — never.
        success_natural: Успех is read from the natural d100 only (energy cannot reach it).
    """

    difficulty: int
    tragedy_max: int
    middle_min: int
    success_min: int
    triumph_min: int | None = None
    success_natural: bool = False

    def classify(self, natural: int, total: int) -> str:
        """Return the outcome id for a natural d100 and a total (d100 + energy, ≤ 100).

        Трагедия and Триумф are read from the natural die, so energy never makes or saves them.
        """
        if natural <= self.tragedy_max:
            return "tragedy"
        if self.triumph_min is not None and natural >= self.triumph_min:
            return "triumph"
        if (natural if self.success_natural else total) >= self.success_min:
            return "success"
        if total >= self.middle_min:
            return "middle"
        return "failure"


@cache
def bands() -> dict[int, Band]:
    """Return the bands of ``data/ide4/bands.toml`` keyed by difficulty 1…7.

    Raises:
        RulesError: a row is malformed, missing, duplicated or out of order.
    """
    result: dict[int, Band] = {}
    for i, row in enumerate(load_table(BANDS_FILE).get("band", []), start=1):
        where = f"{BANDS_FILE}, полоса №{i}"
        level = _int(row.get("difficulty"), where, "difficulty")
        triumph = row.get("triumph_min")
        band = Band(
            difficulty=level,
            tragedy_max=_int(row.get("tragedy_max"), where, "tragedy_max"),
            middle_min=_int(row.get("middle_min"), where, "middle_min"),
            success_min=_int(row.get("success_min"), where, "success_min"),
            triumph_min=None if triumph is None else _int(triumph, where, "triumph_min"),
            success_natural=bool(row.get("success_natural", False)),
        )
        if not 0 <= band.tragedy_max < band.middle_min <= band.success_min <= 100:
            raise RulesError(f"{where}: нужно 0 ≤ tragedy_max < middle_min ≤ success_min ≤ 100.")
        if band.triumph_min is not None and not band.tragedy_max < band.triumph_min <= 100:
            raise RulesError(f"{where}: triumph_min должен быть выше tragedy_max и не выше 100.")
        if level in result or level not in ROLL_LEVELS:
            raise RulesError(f"{where}: сложность [{level}] повторяется или не из [1]…[7].")
        result[level] = band
    missing = [level for level in ROLL_LEVELS if level not in result]
    if missing:
        raise RulesError(f"{BANDS_FILE}: нет полос для сложностей {missing}.")
    return result


def band_for(difficulty: int) -> Band:
    """Return the band of a rolled difficulty 1…7.

    Raises:
        RulesError: the difficulty is not rolled ([0] or [00]).
    """
    if difficulty not in ROLL_LEVELS:
        raise RulesError(f"Полосы исходов есть только для сложностей [1]…[7], а не [{difficulty}].")
    return bands()[difficulty]


# -- energy -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnergyRules:
    """Energy and reroll limits of ``data/ide4/energy.toml``.

    Attributes:
        pool_max: the most energy a character holds (100).
        before_max_dice: dice allowed before the d100 (10).
        after_max_dice: dice allowed after the d100 (3).
        reroll_cap: all rerolls of one check together (campaign setting, default 3).
        die_size: energy die size by main-attribute level.
    """

    pool_max: int
    before_max_dice: int
    after_max_dice: int
    reroll_cap: int
    die_size: dict[int, int]

    @property
    def sizes(self) -> tuple[int, ...]:
        """All die sizes the table knows, ascending (a check may use any up to its nominal)."""
        return tuple(sorted(set(self.die_size.values())))

    def nominal(self, attribute_level: int) -> int:
        """Return the die size for an attribute level.

        Raises:
            RulesError: the table has no such level.
        """
        if attribute_level not in self.die_size:
            levels = ", ".join(str(k) for k in sorted(self.die_size))
            raise RulesError(
                f"Уровень атрибута {attribute_level} не из таблицы номиналов ({levels})."
            )
        return self.die_size[attribute_level]


@cache
def dice_of(count: int) -> str:
    """Return «1 куба», «21 куба», «2 кубов»: an energy-dice count after «до», «не больше»."""
    return genitive(count, "куба", "кубов")


def energy_rules() -> EnergyRules:
    """Return the energy table.

    Raises:
        RulesError: the file is malformed.
    """
    table = load_table(ENERGY_FILE)
    sizes = {}
    for key, value in table.get("die_size", {}).items():
        if not key.isdigit():
            raise RulesError(f"{ENERGY_FILE}: в [die_size] ключ «{key}» — не уровень атрибута.")
        size = _int(value, f"{ENERGY_FILE}, [die_size]", key)
        if size < 2:
            raise RulesError(f"{ENERGY_FILE}: у кубика энергии должно быть хотя бы 2 грани.")
        sizes[int(key)] = size
    if not sizes:
        raise RulesError(f"{ENERGY_FILE}: пустая таблица [die_size].")
    rules = EnergyRules(
        pool_max=_int(table.get("pool_max"), ENERGY_FILE, "pool_max"),
        before_max_dice=_int(table.get("before_max_dice"), ENERGY_FILE, "before_max_dice"),
        after_max_dice=_int(table.get("after_max_dice"), ENERGY_FILE, "after_max_dice"),
        reroll_cap=_int(table.get("reroll_cap"), ENERGY_FILE, "reroll_cap"),
        die_size=dict(sorted(sizes.items())),
    )
    if min(rules.pool_max, rules.before_max_dice, rules.after_max_dice, rules.reroll_cap) < 0:
        raise RulesError(f"{ENERGY_FILE}: пределы не могут быть отрицательными.")
    return rules


# -- mastery ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Threshold:
    """A mastery level that unlocks one bonus (``source`` is ``"seed"`` or ``"default"``)."""

    mastery: int
    kind: str
    source: str


@cache
def mastery_thresholds() -> tuple[Threshold, ...]:
    """Return the thresholds of ``data/ide4/skills.toml``, ascending by mastery.

    Raises:
        RulesError: the file is malformed.
    """
    rows = []
    for i, row in enumerate(load_table(SKILLS_FILE).get("threshold", []), start=1):
        where = f"{SKILLS_FILE}, порог №{i}"
        mastery = _int(row.get("mastery"), where, "mastery")
        kind, source = row.get("kind"), row.get("source", "default")
        if not 0 <= mastery <= 100:
            raise RulesError(f"{where}: мастерство — от 0 до 100.")
        if kind not in BONUS_KINDS:
            raise RulesError(f"{where}: «kind» — одно из {', '.join(BONUS_KINDS)}.")
        if source not in ("seed", "default"):
            raise RulesError(f"{where}: «source» — «seed» или «default».")
        rows.append(Threshold(mastery, kind, source))
    return tuple(sorted(rows, key=lambda t: t.mastery))


@cache
def modified_seven_bars_mastery() -> bool:
    """Whether a [7] reached by modifiers (not pinned) bars mastery bonuses [default: true].

    Raises:
        RulesError: the value in ``data/ide4/skills.toml`` is not true/false.
    """
    value = load_table(SKILLS_FILE).get("modified_seven_bars_mastery", True)
    if not isinstance(value, bool):
        raise RulesError(f"{SKILLS_FILE}: modified_seven_bars_mastery — true или false.")
    return value


def unlocked(mastery: int, kind: str) -> int:
    """Return how many bonuses of ``kind`` a mastery level unlocks."""
    return sum(1 for t in mastery_thresholds() if t.kind == kind and t.mastery <= mastery)


def threshold_of(kind: str) -> int | None:
    """Return the lowest mastery that unlocks ``kind`` (``None``: the table has none)."""
    return next((t.mastery for t in mastery_thresholds() if t.kind == kind), None)


# -- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SubrollLevel:
    """A sub-roll band: a d6 at or below ``max`` (and above the previous band) means ``name``."""

    max: int
    name: str


@dataclass(frozen=True)
class Action:
    """An action («комплексная линза»).

    Attributes:
        name: e.g. ``"Взлом"``.
        attributes: main attributes it may be checked through (empty: any).
        base: its base difficulty.
        distances: combat distances it works at (empty: not a combat action).
        subroll: its own sub-roll bands, or empty for the general one.
    """

    name: str
    attributes: tuple[str, ...] = ()
    base: int = 3
    distances: tuple[str, ...] = ()
    subroll: tuple[SubrollLevel, ...] = ()


def _subroll(rows: Any, where: str) -> tuple[SubrollLevel, ...]:
    levels = []
    for i, row in enumerate(rows or [], start=1):
        name = row.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"{where}: у строки подброска №{i} нет «name».")
        levels.append(SubrollLevel(_int(row.get("max"), where, "max"), name.strip()))
    levels.sort(key=lambda level: level.max)
    if levels and levels[-1].max < SUBROLL_DIE:
        raise RulesError(f"{where}: подбросок должен покрывать d6 до {SUBROLL_DIE}.")
    return tuple(levels)


@cache
def actions() -> dict[str, Action]:
    """Return the actions of ``data/ide4/actions.toml`` by name.

    Raises:
        RulesError: the file is malformed.
    """
    result: dict[str, Action] = {}
    for i, row in enumerate(load_table(ACTIONS_FILE).get("action", []), start=1):
        where = f"{ACTIONS_FILE}, действие №{i}"
        name = row.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"{where}: нет названия «name».")
        distances = tuple(row.get("distances", ()))
        bad = [d for d in distances if d not in DISTANCES]
        if bad:
            raise RulesError(f"{where}: дистанции — только {' / '.join(DISTANCES)}, а не {bad}.")
        result[name.strip()] = Action(
            name=name.strip(),
            attributes=tuple(row.get("attributes", ())),
            base=_int(row.get("base", 3), where, "base"),
            distances=distances,
            subroll=_subroll(row.get("subroll"), where),
        )
    return result


def action(name: str) -> Action:
    """Return the action called ``name``.

    Raises:
        RulesError: no such action in the table.
    """
    found = actions().get(name)
    if found is None:
        raise RulesError(
            f"Действия «{name}» нет в таблице; есть: {', '.join(actions())}. "
            "Без подходящего действия проверка идёт прямо через атрибут."
        )
    return found


@cache
def general_subroll() -> tuple[SubrollLevel, ...]:
    """Return the general sub-roll bands (d6) of ``data/ide4/actions.toml``."""
    levels = _subroll(load_table(ACTIONS_FILE).get("subroll"), ACTIONS_FILE)
    if not levels:
        raise RulesError(f"{ACTIONS_FILE}: нет общей таблицы подброска [[subroll]].")
    return levels
