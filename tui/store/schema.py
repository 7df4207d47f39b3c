"""The campaign file's schema: every document is checked when it is loaded.

A file that parses may still hold what kubik cannot use: a negative wound count, an unknown
system, a settings document that is a list, two characters with one id, JSON nested
thousands deep. :func:`validate` finds the first such value and names it in Russian
(«персонаж 3 «Арн», поле wounds.light: −2 — нужно целое число от 0 до 99»); the store then
treats the file like a corrupt one: never overwritten, the newest good backup offered.

Written by hand rather than with a validation library: the checks are a page of code, every
message must be Russian and name the field the GM would fix, and the check runs on every
start and every write (a library's English messages would need translating field by field,
and its import alone costs more than the whole check on a usual campaign).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rules import systems
from rules.sheets import FieldChecks, SheetError, bool_field, str_field

from .models import CHARACTER_KINDS, MARK_TYPES, SHEETS
from .tables import CHARACTERS, DOCS, HISTORY, META

#: Deepest nesting of a value inside a document (the deepest kubik writes is about 8).
MAX_DEPTH = 48

#: Generous bounds: no system goes near them, and they keep a hand edit from asking for
#: 10**100 dice or a wound count of −2.
QUALITY_RANGE = (-100, 1000)
SKILL_RANGE = (-100, 1000)

#: The checks of each system's sheet fields (``rules/<system>/sheet.py``).
SHEET_CHECKS = tuple(s.CHECKS for s in SHEETS.values())
#: Every sheet field, in the sheets' order, with its checks (a field two sheets share, such
#: as ``harm``, is checked by each): one pass over a document's keys, not one per sheet.
_FIELD_CHECKS: dict[str, list[Callable[[Any], None]]] = {}
for _checks in SHEET_CHECKS:
    for _name, _check in _checks.checks.items():
        _FIELD_CHECKS.setdefault(_name, []).append(_check)

#: Checks of app documents whose shapes live elsewhere in the store (the bestiary's, which
#: build on this module): name → check(value, where), raising SchemaError.
DOC_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {}

_TABLE_NAME = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+\.toml$")


class SchemaError(ValueError):
    """A document breaks the schema; ``str(err)`` names the field in Russian."""


def validate(
    tables: Mapping[str, Mapping[str, Any]],
    *,
    known: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Check every document of ``tables``.

    ``known`` — tables checked before — lets a document that is the very object checked
    then be skipped (a write on a big campaign checks only what it changed).

    Raises:
        SchemaError: the first value kubik cannot use, named.
    """
    for name, table in tables.items():
        if not isinstance(table, Mapping):
            raise SchemaError(f"таблица {name} должна быть объектом")
    _meta(tables)
    known = known or {}
    old = known.get(CHARACTERS, {})
    ids: dict[str, str] = {}
    for key, doc in tables.get(CHARACTERS, {}).items():
        where = f"персонаж {key}"
        if not isinstance(doc, dict):
            raise SchemaError(f"{where}: должен быть объектом, а не {_kind(doc)}")
        if isinstance(doc.get("name"), str):
            where += f" «{_short(doc['name'])}»"
        if old.get(key) is not doc:
            validate_character(doc, where)
        cid = doc["id"]
        if cid in ids:
            raise SchemaError(
                f"{where}: id {cid!r} уже у персонажа {ids[cid]} — у каждого персонажа свой id"
            )
        ids[cid] = key
    names: set[str] = set()
    old = known.get(DOCS, {})
    for key, doc in tables.get(DOCS, {}).items():
        _doc(doc, f"документ {key}", names, checked=old.get(key) is doc)
    old = known.get(HISTORY, {})
    for key, doc in tables.get(HISTORY, {}).items():
        if old.get(key) is not doc:
            _depth(doc, f"история {key}")


def check_depth(value: Any, where: str) -> None:
    """Refuse a value nested deeper than :data:`MAX_DEPTH`."""
    _depth(value, where)


def _meta(tables: Mapping[str, Mapping[str, Any]]) -> None:
    docs = list(tables.get(META, {}).values())
    if len(docs) != 1 or not isinstance(docs[0], dict):
        raise SchemaError("в таблице meta должен быть ровно один документ-объект")
    meta = docs[0]
    name = meta.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SchemaError(f"meta.name: {_shown(name)} — нужно непустое название кампании")
    system = meta.get("system")
    if not systems.known(system):  # a file naming another is unusable, not "other rules"
        raise SchemaError(
            f"meta.system: {_shown(system)} — неизвестная система; нужна одна из: "
            + ", ".join(systems.names())
        )
    rev = meta.get("rev", 0)
    if not _is_int(rev) or rev < 0:
        raise SchemaError(f"meta.rev: {_shown(rev)} — нужно целое число не меньше 0")


def validate_character(doc: dict[str, Any], where: str) -> None:
    """Check one character document; ``where`` names it in the message.

    Each check passes without building its message (a campaign of 5,000 characters built
    some 100,000 of them for nothing before the first screen); a value that fails is checked
    again by the helper that says why.

    Raises:
        SchemaError: the first value kubik cannot use, named.
    """
    if not isinstance(doc, dict):
        raise SchemaError(f"{where}: должен быть объектом, а не {_kind(doc)}")
    cid = doc.get("id")
    if not isinstance(cid, str) or not cid:
        raise SchemaError(f"{where}, поле id: {_shown(cid)} — нужна непустая строка")
    if not isinstance(doc.get("name"), str):
        raise SchemaError(f"{where}, поле name: {_shown(doc.get('name'))} — нужна строка")
    if doc.get("kind") not in CHARACTER_KINDS:
        raise SchemaError(
            f"{where}, поле kind: {_shown(doc.get('kind'))} — нужно «pc» (игрок) или «npc» (НИП)"
        )
    qualities = _dict(doc, "qualities", where)
    low, high = QUALITY_RANGE
    for q, value in qualities.items():
        if type(value) is not int or not low <= value <= high:  # bool is not int here
            _int(value, QUALITY_RANGE, f"{where}, поле qualities.{q}")
    skills = doc.get("skills", [])
    if not isinstance(skills, list):
        raise SchemaError(f"{where}, поле skills: нужен список, а не {_kind(skills)}")
    low, high = SKILL_RANGE
    for i, skill in enumerate(skills, 1):
        if not isinstance(skill, dict):
            raise SchemaError(f"{where}, навык {i}: нужен объект, а не {_kind(skill)}")
        name = skill.get("name")
        if not isinstance(name, str) or not name.strip():
            raise SchemaError(f"{where}, навык {i}, поле name: {_shown(name)} — нужна строка")
        value = skill.get("value")
        if type(value) is not int or not low <= value <= high:
            _int(value, SKILL_RANGE, f"{where}, навык {i} «{_short(name)}», поле value")
        parent = skill.get("parent")
        if parent is not None and not isinstance(parent, str):
            raise SchemaError(
                f"{where}, навык {i}, поле parent: {_shown(parent)} — нужна строка или null"
            )
        distances = skill.get("distances", [])
        if not _all_strings(distances):
            _strings(distances, f"{where}, навык {i}, поле distances")
    weapons = doc.get("weapons", [])
    if not _all_strings(weapons):
        _strings(weapons, f"{where}, поле weapons")
    _dict(doc, "wounds", where)
    _sheet(doc, where, "")
    if not isinstance(doc.get("notes", ""), str):
        raise SchemaError(f"{where}, поле notes: нужна строка, а не {_kind(doc['notes'])}")
    extra = doc.get("extra") or {}
    if not isinstance(extra, dict):
        raise SchemaError(f"{where}, поле extra: нужен объект, а не {_kind(extra)}")
    if any(isinstance(v, dict | list) for v in extra.values()):  # only then can it nest
        _depth(extra, f"{where}, поле extra")  # the only free-form part of a character
    _sheet(extra, where, "extra.")  # a sheet field an older kubik kept there
    if "hidden" in extra and not isinstance(extra["hidden"], bool):  # as schema 4 checked it
        raise SchemaError(
            f"{where}, поле extra.hidden: {_shown(extra['hidden'])} — нужно true или false"
        )
    if doc.keys() & MARK_TYPES.keys():
        _marks(doc, where)


#: The checks of the core marks (hidden: true or false; the others text, "" for none).
MARK_CHECKS = FieldChecks(
    {k: bool_field(k) if t is bool else str_field(k) for k, t in MARK_TYPES.items()}
)


def _marks(doc: dict[str, Any], where: str) -> None:
    """Check the core marks found in ``doc``."""
    try:
        MARK_CHECKS.check(doc)
    except SheetError as err:
        raise SchemaError(f"{where}, поле {err.field}: {_shown(err.value)} — {err.want}") from None


def _sheet(values: dict[str, Any], where: str, prefix: str) -> None:
    """Check the sheet fields of every system found in ``values`` (each by its own sheet)."""
    for name, checks in _FIELD_CHECKS.items():
        if name in values:
            try:
                for check in checks:
                    check(values[name])
            except SheetError as err:
                said = f"{_shown(err.value)} — {err.want}" if err.shown else err.want
                raise SchemaError(f"{where}, поле {prefix}{err.field}: {said}") from None


def _doc(doc: Any, where: str, names: set[str], *, checked: bool = False) -> None:
    if not isinstance(doc, dict):
        raise SchemaError(f"{where}: должен быть объектом, а не {_kind(doc)}")
    name = doc.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaError(f"{where}, поле name: {_shown(name)} — нужна строка")
    where = f"документ «{_short(name)}»"
    if name in names:
        raise SchemaError(f"{where}: такой документ уже есть — у каждого своё имя")
    names.add(name)
    if checked:
        return
    value = doc.get("value")
    if not isinstance(value, dict):
        raise SchemaError(f"{where}, поле value: нужен объект, а не {_kind(value)}")
    _depth(value, where)
    if name == "settings":
        for table, content in value.items():
            if _TABLE_NAME.match(table) and not isinstance(content, dict):
                raise SchemaError(f"{where}, таблица {table}: нужен объект, а не {_kind(content)}")
    elif name == "encounter":
        _encounter(value, where)
    elif name in DOC_CHECKS:
        DOC_CHECKS[name](value, where)
    elif name == "settings_text":
        for table, text in value.items():
            if not isinstance(text, str):
                raise SchemaError(f"{where}, таблица {table}: нужна строка, а не {_kind(text)}")


#: The saved fight's fields (``rules.encounter.Encounter.to_dict``) and their types.
_COMBATANT = {"character_id": str, "name": str, "side": str}
_DECLARATION = {
    "actor": str,
    "action": str,
    "target": (str, type(None)),
    "weapon": (str, type(None)),
    "distance": str,
    "turns": int,
    "combined": str,
}


def _encounter(value: dict[str, Any], where: str) -> None:
    """Check the saved fight's shape; what its values mean the rules check when they load it."""
    if not _is_int(value.get("round", 0)):
        raise SchemaError(f"{where}, поле round: {_shown(value.get('round'))} — нужно целое число")
    for key in ("sides", "resolved"):
        _strings(value.get(key, []), f"{where}, поле {key}")
    rows: dict[str, dict[str, Any]] = {
        "combatants": _COMBATANT,
        "declarations": _DECLARATION,
        "carried": _DECLARATION,
    }
    for key, fields in rows.items():
        items = value.get(key, [])
        if not isinstance(items, list):
            raise SchemaError(f"{where}, поле {key}: нужен список, а не {_kind(items)}")
        for i, item in enumerate(items, 1):
            if not isinstance(item, dict):  # fields it does not know are the rules' business
                raise SchemaError(f"{where}, {key}[{i}]: нужен объект, а не {_kind(item)}")
            for field_name, kind in fields.items():
                if field_name in item and not isinstance(item[field_name], kind):
                    raise SchemaError(
                        f"{where}, {key}[{i}].{field_name}: {_shown(item[field_name])} — не тот тип"
                    )
                if kind is int and isinstance(item.get(field_name), bool):
                    raise SchemaError(f"{where}, {key}[{i}].{field_name}: нужно целое число")


def rules_tables(settings: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Return the tables of a settings document the rules read (``"drevo/ladder.toml"``).

    Other keys (a newer kubik's, a hand edit's) are kept in the file but not given to the
    rules, which expect every value to be a table.
    """
    return {
        k: v for k, v in (settings or {}).items() if _TABLE_NAME.match(k) and isinstance(v, dict)
    }


def _depth(value: Any, where: str, depth: int = 1) -> None:
    """Refuse ``value`` nested deeper than :data:`MAX_DEPTH` (a dict or list is a level).

    Recursive: the recursion stops at :data:`MAX_DEPTH` whatever the value's depth, and it
    is ~4× faster than walking an explicit stack (every write checks what it changed)."""
    if depth > MAX_DEPTH:
        raise SchemaError(f"{where}: вложенность глубже {MAX_DEPTH} уровней")
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list):
        return
    for item in value:
        if isinstance(item, (dict, list)):
            _depth(item, where, depth + 1)


def _dict(doc: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise SchemaError(f"{where}, поле {key}: нужен объект, а не {_kind(value)}")
    return value


def _all_strings(value: Any) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def _strings(value: Any, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SchemaError(f"{where}: нужен список строк")


def _int(value: Any, bounds: tuple[int, int], where: str) -> None:
    low, high = bounds
    if not _is_int(value) or not low <= value <= high:
        want = f"нужно целое число от {_n(low)} до {_n(high)}"
        raise SchemaError(f"{where}: {_shown(value)} — {want}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _n(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


KIND_NAMES = {
    "dict": "объект",
    "list": "список",
    "str": "строка",
    "int": "число",
    "float": "дробное число",
    "bool": "true/false",
    "NoneType": "null",
}


def _kind(value: Any) -> str:
    return KIND_NAMES.get(type(value).__name__, type(value).__name__)


def _shown(value: Any) -> str:
    """Return a value as the message quotes it: short, in the file's own notation."""
    if value is None:
        return "нет значения"
    if isinstance(value, bool):
        return "true" if value else "false"
    if _is_int(value):
        return _n(value)
    if isinstance(value, str):
        return f"«{_short(value)}»"
    return _kind(value)


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
