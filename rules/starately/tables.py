"""Старатели tables: characteristic DM, named difficulties, the unskilled penalty (data files)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.data import load_table, packaged_table
from rules.errors import RulesError

CHECK_FILE = "starately/check.toml"
DM_FILE = "starately/dm.toml"
SOURCES = ("seed", "default")


@dataclass(frozen=True)
class Difficulty:
    """One named difficulty, e.g. ``Difficulty("Тяжело", 10, "seed")``.

    Attributes:
        name: its Russian name.
        value: the number the total must reach (``10`` for «10+»).
        source: ``"seed"`` when the book names it, ``"default"`` when kubik does.
    """

    name: str
    value: int
    source: str


@dataclass(frozen=True)
class Settings:
    """The campaign's Старатели numbers (``data/starately/check.toml``).

    Attributes:
        default_difficulty: difficulty when none is given (8).
        unskilled: modifier for a character without the skill (−3).
        natural_success: the two kept dice showing this are a success whatever the total (12).
        natural_failure: the two kept dice showing this are a failure whatever the total (2).
        group_bonus: bonus to the main roll per successful helper (+1).
        min_helper_skill: the skill level a group helper needs (1).
        chain_step: how much lower a chain helper's difficulty is off the named ladder (2).
        naturals_decide: whether natural 12 / 2 decide an opposed roll (false, [default]).
    """

    default_difficulty: int
    unskilled: int
    natural_success: int
    natural_failure: int
    group_bonus: int
    min_helper_skill: int
    chain_step: int
    naturals_decide: bool = False


def _int(table: dict[str, Any], key: str, where: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{CHECK_FILE}: в разделе [{where}] нужно целое число «{key}».")
    return value


@cache
def settings() -> Settings:
    """Return the campaign's Старатели settings.

    Raises:
        RulesError: the file misses a number or has one of the wrong type.
    """
    table = load_table(CHECK_FILE)
    check, group, chain = table.get("check", {}), table.get("group", {}), table.get("chain", {})
    return Settings(
        default_difficulty=_int(check, "default_difficulty", "check"),
        unskilled=_int(check, "unskilled", "check"),
        natural_success=_int(check, "natural_success", "check"),
        natural_failure=_int(check, "natural_failure", "check"),
        group_bonus=_int(group, "bonus_per_success", "group"),
        min_helper_skill=_int(group, "min_helper_skill", "group"),
        chain_step=_int(chain, "step_below_ladder", "chain"),
        naturals_decide=_naturals_decide(table),
    )


def _naturals_decide(table: dict[str, Any]) -> bool:
    opposed = table.get("opposed")
    if opposed is None:  # a campaign table saved before [opposed] existed
        opposed = packaged_table(CHECK_FILE).get("opposed", {})
    value = opposed.get("naturals_decide", False) if isinstance(opposed, dict) else None
    if not isinstance(value, bool):
        raise RulesError(f"{CHECK_FILE}: в разделе [opposed] naturals_decide — true или false.")
    return value


def default_difficulty() -> int:
    """Return the difficulty of a check the book gives none for (Средне, 8)."""
    return settings().default_difficulty


def unskilled_penalty() -> int:
    """Return the modifier for rolling without the skill (−3)."""
    return settings().unskilled


@cache
def difficulties() -> tuple[Difficulty, ...]:
    """Return the named difficulties, ascending by value.

    Raises:
        RulesError: a row without a name or an integer value, or two rows with one value.
    """
    rows: list[Difficulty] = []
    for i, row in enumerate(load_table(CHECK_FILE).get("difficulty", []), start=1):
        name, value, source = row.get("name"), row.get("value"), row.get("source")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"{CHECK_FILE}: у сложности №{i} нет названия «name».")
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{CHECK_FILE}: у сложности №{i} нет целого значения «value».")
        if source not in SOURCES:
            raise RulesError(
                f"{CHECK_FILE}: у сложности №{i} поле «source» должно быть «seed» или «default»."
            )
        rows.append(Difficulty(name.strip(), value, source))
    if len({d.value for d in rows}) != len(rows):
        raise RulesError(f"{CHECK_FILE}: две сложности с одним и тем же числом.")
    return tuple(sorted(rows, key=lambda d: d.value))


def difficulty_name(value: int) -> str:
    """Name a difficulty: ``"Тяжело"`` for 10, ``"9+"`` for a number without a name."""
    for difficulty in difficulties():
        if difficulty.value == value:
            return difficulty.name
    return f"{value}+"


def difficulty_value(text: str | int) -> int:
    """Read a difficulty given by name (``"Тяжело"``, any case) or number (``10``, ``"10+"``).

    Raises:
        RulesError: neither a known name nor an integer; the message lists the names.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    cleaned = str(text).strip().replace("−", "-").removesuffix("+").strip()
    if re.fullmatch(r"[+-]?[0-9]{1,3}", cleaned):  # not «\d»: it reads «٣» or «３» as 3
        return int(cleaned)
    for difficulty in difficulties():
        if difficulty.name.casefold() == cleaned.casefold():
            return difficulty.value
    names = ", ".join(f"{d.name} ({d.value}+)" for d in difficulties())
    raise RulesError(f"«{text}» — не сложность; укажите число или название: {names}.")


def chain_difficulty(main: int) -> int:
    """Return a chain helper's difficulty: one named step below the main check's (12→10→8→6).

    Off the named ladder (a number between names, or at or below the lowest name), the
    helper's difficulty is ``main − chain_step`` (2, a campaign default).
    """
    values = [d.value for d in difficulties()]
    if main in values and values.index(main) > 0:
        return values[values.index(main) - 1]
    return main - settings().chain_step


@cache
def _dm_bands() -> tuple[tuple[int, int], ...]:
    bands: list[tuple[int, int]] = []
    for i, row in enumerate(load_table(DM_FILE).get("band", []), start=1):
        low, dm = row.get("min"), row.get("dm")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, dm)):
            raise RulesError(f"{DM_FILE}: у полосы №{i} нужны целые «min» и «dm».")
        bands.append((low, dm))
    if not bands:
        raise RulesError(f"{DM_FILE}: таблица DM пуста; добавьте хотя бы одну полосу [[band]].")
    return tuple(sorted(bands))


def characteristic_dm(value: int) -> int:
    """Return the DM of a characteristic value: ≤ 5 → −1, 6–8 → 0, 9–11 → +1, 12+ → +2.

    Raises:
        RulesError: the value is below the table (negative by default).
    """
    bands = _dm_bands()
    if value < bands[0][0]:
        raise RulesError(
            f"Значение характеристики {value} меньше {bands[0][0]}: в таблице DM такого нет."
        )
    dm = bands[0][1]
    for low, band_dm in bands:
        if value >= low:
            dm = band_dm
    return dm
