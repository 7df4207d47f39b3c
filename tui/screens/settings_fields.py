"""The settings tables as form fields: each value's Russian name, its range and whose word it
is — the book's (a rule of the seed) or kubik's (a campaign default where the book is silent).

The tables stay TOML (data/ and the campaign's ``settings_text``); this module only says how
to show one value and how to read back what the GM typed, so every field is checked as typed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tui import registry
from tui.numbers import MAX_NUMBER, read_typed_whole
from tui.screens.settings_tables import SettingsError

BOOK, KUBIK = "книга", "kubik"
WORDS = {"seed": BOOK, "default": KUBIK}

#: Russian names of the tables' keys (the same key means the same thing in every table).
KEY_NAMES = {
    "value": "Значение",
    "name": "Название",
    "level": "Уровень раны",
    "from": "Урон от",
    "damage_mod": "МУ (урон)",
    "kind": "Вид",
    "skill": "Навык",
    "base_skill": "Общий навык",
    "starting_points": "Очков в начале",
    "npc_starting_points": "Очков в начале у НИП",
    "auto_success": "Крит без броска",
    "shift": "Сдвиг ±1",
    "auto_plus4": "«+4» во встречной",
    "reduce_damage": "Снижение урона",
    "circumstance": "Стечение обстоятельств",
    "absent_skill": "Навык без обучения",
    "absent_skill_mode": "Если навыков нет",
    "id": "Код",
    "description": "Описание",
    "penalty": "Штраф к проверкам",
    "cascade": "Сколько дают следующую",
    "acts": "Может действовать",
    "healing": "Лечение",
    "skills": "Навыки",
    "weapon_kinds": "Виды оружия",
    "quality": "Качество",
    "attack": "Атака",
    "ranged_difficulty": "Сложность выстрела",
    "throw": "Можно метать",
    "melee_difficulty": "Сложность по беззащитному",
    "difficulty": "Сложность",
    "tragedy_max": "Трагедия до",
    "middle_min": "Средне от",
    "success_min": "Успех от",
    "triumph_min": "Триумф от",
    "success_natural": "Успех по чистому d100",
    "pool_max": "Запас энергии",
    "before_max_dice": "Кубов до броска",
    "after_max_dice": "Кубов после броска",
    "reroll_cap": "Перебросов за проверку",
    "mastery": "Мастерство от",
    "attributes": "Атрибуты",
    "base": "Базовая сложность",
    "distances": "Дистанции",
    "max": "До (d6)",
    "min": "Характеристика от",
    "dm": "DM (модификатор)",
    "default_difficulty": "Сложность по умолчанию",
    "unskilled": "Без навыка",
    "natural_success": "Автоуспех (2d6)",
    "natural_failure": "Автопровал (2d6)",
    "bonus_per_success": "Бонус за успех помощника",
    "min_helper_skill": "Навык помощника от",
    "step_below_ladder": "Шаг ниже лестницы",
    "success_threshold": "Успех от (d10)",
    "again": "«Снова» от (d10)",
    "exceptional": "Исключительный от",
    "withdrawal_allowed": "Можно отказаться",
    "one_sided_bonus": "Прибавка в односторонней",
    "crit_floor": "Разница при крите не меньше",
    "wounds": "Раны, полученные в раунде",
    "others": "Против других нападающих",
    "modified_seven_bars_mastery": "[7] от модификаторов запрещает бонусы",
    "naturals_decide": "Натуральные 12 и 2 решают",
    "tie": "При ничьей",
    "max_rolls": "Бросков не больше (0 — без предела)",
    "dramatic_failure_ends": "Полный провал прекращает",
    "ends": "Когда кончаются «N раундов»",
    "stamina": "Клетки от характеристики",
    "size": "Клеток сверх неё",
    "kinds": "Виды урона",
    "bashing": "Ушиб",
    "lethal": "Рана",
    "aggravated": "Тяжкий урон",
    "per": "Инициатива",
    "action": "Действие",
    "characteristic": "Характеристика",
    "gap_hours": "Новая сессия после паузы (ч)",
    "exact_max_rolls": "Точный расчёт до (бросков)",
    "edge": "Края шкалы удачи (доля)",
    "mode": "НИП из одного шаблона",
    "qualities": "Разброс качеств (±)",
    "quality_min": "Качество не ниже",
    "quality_max": "Качество не выше",
    "skill_min": "Навык не ниже",
    "skill_max": "Навык не выше",
}
#: Names of the sections (sub-tables and arrays of tables).
SECTION_NAMES = {
    "rung": "Ступень",
    "band": "Полоса",
    "weapons": "Оружие",
    "uses": "Применения Судьбы",
    "names": "Названия применений",
    "level": "Уровень",
    "action": "Действие",
    "distance": "Дистанция",
    "defenceless": "Беззащитный",
    "die_size": "Номинал куба по уровню атрибута",
    "threshold": "Порог",
    "subroll": "Подбросок",
    "check": "Проверка",
    "group": "Групповая проверка",
    "chain": "Цепочка задач",
    "difficulty": "Сложность",
    "pool": "Запас",
    "chance": "Бросок на удачу",
    "opposed": "Встречный бросок",
    "contested": "Состязание",
    "extended": "Накопительный бросок",
    "usual_attribute": "Обычный атрибут навыка",
    "rounds": "Раунды",
    "health": "Здоровье",
    "marks": "Значки в клетках",
    "initiative": "Инициатива",
    "variation": "НИП из шаблона",
    "spread": "Разброс черт",
}


def _section(key: str) -> str:
    """A section's Russian name (a system's section: the system's name)."""
    return registry.title(key) if key in registry.names() else SECTION_NAMES.get(key, key)


#: Section names that mean something else in one table.
TABLE_SECTION_NAMES = {("rounds/health.toml", "names"): "Названия видов урона"}
#: The words a text value may take (shown as a choice, not typed).
CHOICES = {
    "absent_skill_mode": ("value", "quality"),
    "wounds": ("next_round", "at_once"),
    "others": ("meet", "helpless"),
    "ends": ("same_turn", "round_end"),
    "per": ("combatant", "side"),
    "kind": ("melee", "thrown", "bow", "firearm", "shield"),
    "level": ("scratch", "light", "wound", "heavy", "death"),
    "mode": ("none", "spread"),
}
#: (table, key) → the words a text value may take there (a key alone: ``CHOICES``).
TABLE_CHOICES = {("ide4/skills.toml", "kind"): ("technique", "reroll", "soften", "triumph")}
CHOICE_NAMES = {
    "technique": "именованная техника",
    "reroll": "переброс",
    "soften": "смягчение исхода",
    "triumph": "Успех → Триумф",
    "value": "навык = значение",
    "quality": "берётся качество",
    "melee": "ближнее",
    "thrown": "метательное",
    "bow": "лук",
    "firearm": "огнестрельное",
    "shield": "щит",
    "scratch": "Царапина",
    "light": "Лёгкая рана",
    "wound": "Ранение",
    "heavy": "Тяжёлая рана",
    "death": "Смерть",
    "same_turn": "когда снова ход того, при ком начался",
    "round_end": "в конце раунда",
    "combatant": "у каждого участника",
    "next_round": "действуют со следующего раунда",
    "at_once": "действуют сразу (важен порядок схваток)",
    "meet": "его бросок встречает и их",
    "helpless": "беззащитен против них",
    "side": "у каждой стороны",
    "none": "все одинаковы, как шаблон",
    "spread": "каждая черта ± разброс",
}
#: (table, key) → the range of a number; a key alone applies in every table.
RANGES: dict[tuple[str, str] | str, tuple[int, int]] = {
    ("drevo/ladder.toml", "value"): (-10, 10),
    ("bestiary/variation.toml", "qualities"): (0, 20),
    ("bestiary/variation.toml", "skills"): (0, 100),
    "quality_min": (-100, 1000),
    "quality_max": (-100, 1000),
    "skill_min": (-100, 1000),
    "skill_max": (-100, 1000),
    ("drevo/damage.toml", "from"): (-1000, 100),
    "damage_mod": (-10, 10),
    "starting_points": (0, 10),
    "npc_starting_points": (0, 10),
    "absent_skill": (-5, 5),
    "penalty": (-10, 0),
    "cascade": (1, 10),
    "ranged_difficulty": (-10, 10),
    "melee_difficulty": (-10, 10),
    ("ide4/bands.toml", "difficulty"): (1, 7),
    "tragedy_max": (0, 100),
    "middle_min": (1, 100),
    "success_min": (1, 100),
    "triumph_min": (1, 100),
    "pool_max": (1, 1000),
    "before_max_dice": (0, 20),
    "after_max_dice": (0, 20),
    "reroll_cap": (0, 10),
    "mastery": (0, 100),
    ("ide4/actions.toml", "base"): (0, 8),
    "max": (1, 6),
    "min": (0, 30),
    "dm": (-5, 5),
    "default_difficulty": (2, 20),
    "unskilled": (-10, 0),
    "natural_success": (2, 12),
    "natural_failure": (2, 12),
    "bonus_per_success": (0, 5),
    "min_helper_skill": (0, 5),
    "step_below_ladder": (1, 6),
    ("starately/check.toml", "value"): (2, 20),
    "success_threshold": (1, 10),
    "again": (8, 10),
    "exceptional": (1, 20),
    ("ide4/energy.toml", "die_size"): (2, 20),
    "one_sided_bonus": (0, 5),
    "crit_floor": (0, 10),
    "max_rolls": (0, 100),
    "size": (0, 20),
    "gap_hours": (1, 240),
    "exact_max_rolls": (1, 200),
}
#: Whose word each table (or one of its keys) is where its rows do not say (``source``).
TABLE_WORDS: dict[str, str] = {
    "drevo/damage.toml": KUBIK,
    "drevo/weapons.toml": KUBIK,
    "drevo/fate.toml": BOOK,
    "drevo/settings.toml": KUBIK,
    "drevo/wounds.toml": BOOK,
    "drevo/actions.toml": BOOK,
    "drevo/fight.toml": KUBIK,
    "ide4/bands.toml": KUBIK,
    "ide4/energy.toml": BOOK,
    "ide4/actions.toml": KUBIK,
    "starately/dm.toml": KUBIK,
    "starately/check.toml": BOOK,
    "wod/pool.toml": KUBIK,
    "rounds/initiative.toml": KUBIK,
    "rounds/effects.toml": KUBIK,
    "rounds/health.toml": KUBIK,
    "ledger/sessions.toml": KUBIK,
}
KEY_WORDS: dict[tuple[str, str], str] = {
    ("drevo/fate.toml", "starting_points"): KUBIK,  # the book: «от одного до пяти»
    ("drevo/fate.toml", "npc_starting_points"): KUBIK,  # the book: the players' Судьба
    ("drevo/wounds.toml", "id"): KUBIK,
    ("ide4/energy.toml", "reroll_cap"): KUBIK,
    ("ide4/energy.toml", "die_size"): KUBIK,
    ("starately/check.toml", "step_below_ladder"): KUBIK,
    ("drevo/actions.toml", "quality"): KUBIK,
}
#: Keys shown as the row's word, not as a field.
HIDDEN_KEYS = {"source"}
NUMBER_OR_WORD = {"again": "none"}


@dataclass(frozen=True)
class Field:
    """One value of a table as the form shows it."""

    path: tuple[str | int, ...]
    label: str
    kind: str  # "int", "bool", "choice", "text", "list"
    value: Any
    word: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def hint(self) -> str:
        """Return the range (or what to type) and whose word it is: «−10…10 · kubik»."""
        if self.kind == "int" and self.low is not None and self.high is not None:
            what = f"{_num(self.low)}…{_num(self.high)}"
            if self.path[-1] in NUMBER_OR_WORD:
                what += f" или {NUMBER_OR_WORD[str(self.path[-1])]}"
        elif self.kind == "list":
            what = "через запятую"
        elif self.kind == "bool":
            what = "да / нет"
        else:
            what = ""
        return f"{what} · {self.word}" if what else self.word


@dataclass(frozen=True)
class Heading:
    """A section or a row of an array of tables: «Ступень 4: Средне · книга»."""

    text: str


def _num(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def fields_of(relpath: str, table: dict[str, Any]) -> Iterator[Field | Heading]:
    """Yield the form of ``table``: headings and one field per value."""
    yield from _walk(relpath, table, (), TABLE_WORDS.get(relpath, KUBIK))


def _walk(
    relpath: str, table: dict[str, Any], path: tuple[Any, ...], word: str
) -> Iterator[Field | Heading]:
    for key, value in table.items():
        if key in HIDDEN_KEYS:
            continue
        here = (*path, key)
        key_word = KEY_WORDS.get((relpath, key), word)
        if isinstance(value, dict):
            section = TABLE_SECTION_NAMES.get((relpath, key)) or _section(key)
            yield Heading(f"{section} · {key_word}")
            yield from _walk(relpath, value, here, key_word)
        elif isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
            for index, row in enumerate(value):
                row_word = WORDS.get(row.get("source", ""), key_word)
                title = row.get("name") or row.get("id") or CHOICE_NAMES.get(row.get("level"), "")
                title = title or str(row.get("difficulty", index + 1))
                section = _section(key)
                yield Heading(f"{section} {index + 1}: {title} · {row_word}")
                yield from _walk(relpath, row, (*here, index), row_word)
        else:
            yield _field(relpath, here, value, key_word)


def _field(relpath: str, path: tuple[Any, ...], value: Any, word: str) -> Field:
    key = str(path[-1])
    parent = next((str(p) for p in reversed(path[:-1]) if isinstance(p, str)), "")
    label = f"Уровень {key}" if key.isdigit() else KEY_NAMES.get(key, key)
    if isinstance(value, bool):
        return Field(path, label, "bool", value, word)
    if isinstance(value, int) or key in NUMBER_OR_WORD:
        low, high = (
            RANGES.get((relpath, key))
            or RANGES.get((relpath, parent))
            or RANGES.get(key)
            or (-9999, 9999)
        )
        return Field(path, label, "int", value, word, low, high)
    if isinstance(value, list):
        return Field(path, label, "list", value, word)
    choices = TABLE_CHOICES.get((relpath, key)) or CHOICES.get(key, ())
    if value in choices:
        return Field(path, label, "choice", value, word, choices=choices)
    return Field(path, label, "text", value, word)


def read_field(field: Field, text: str) -> Any:
    """Return the value the GM typed for ``field``, or raise SettingsError saying why."""
    cleaned = text.strip()
    if field.kind == "int":
        word = NUMBER_OR_WORD.get(str(field.path[-1]))
        if word is not None and cleaned == word:
            return word
        value = read_typed_whole(cleaned)  # int() takes «1_0» and «٣», not «--1» or «²»
        if value is None:
            raise SettingsError(f"«{field.label}»: нужно целое число, {field.hint}.")
        assert field.low is not None and field.high is not None
        if not field.low <= value <= field.high:
            typed = _num(value) if abs(value) <= MAX_NUMBER else "число"  # not 5,000 digits
            raise SettingsError(
                f"«{field.label}»: {typed} вне {_num(field.low)}…{_num(field.high)}."
            )
        return value
    if field.kind == "list":
        return [part.strip() for part in cleaned.split(",") if part.strip()]
    if field.kind == "text" and not cleaned:
        raise SettingsError(f"«{field.label}»: не может быть пустым.")
    return cleaned


def shown_value(field: Field) -> str:
    """Return the value as the field's text: a number with «−», a list joined by commas."""
    if field.kind == "int" and isinstance(field.value, int):
        return _num(field.value)
    if field.kind == "list":
        return ", ".join(str(v) for v in field.value)
    return str(field.value)


def set_value(table: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """Return a deep copy of ``table`` with the value at ``path`` replaced."""
    import copy

    changed = copy.deepcopy(table)
    node: Any = changed
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return changed
