"""A new character from ``kubik party add``'s ``--set KEY=VALUE`` items, checked as the
character form checks it (:mod:`tui.widgets.party.fields`); a bad item exits 2.

The keys every campaign takes are here; a system's own — its sheet's fields, with their
labels and ranges, and keys such as Древо's ``wound.КЛЮЧ`` — are its ``System``'s
(``sheet_fields``, ``set_keys``), so this module names no system.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from rules.sheets import SheetError
from tui import registry
from tui.cli.common import Parser, signed_int
from tui.registry.base import SheetField
from tui.store import Character, Skill, new_id
from tui.store.models import MARK_FIELDS, MARK_TYPES, SHEET_FIELDS, SHEETS, sheet_kind

#: The keys of every campaign; a system adds its sheet's fields (``System.sheet_fields``) and
#: its own keys (``System.set_keys``).
SHARED_KEYS = (
    "quality.ИМЯ, skill.ИМЯ, notes, weapon, player, hidden, template, encounter, extra.ИМЯ"
)


def own_keys(system: str) -> list[str]:
    """Return the ``--set`` keys ``system`` adds: its sheet's fields, its own keys."""
    kind = registry.get(system)
    hook = [registry.load(kind.set_keys).HELP] if kind.set_keys else []
    return [*(f.key for f in kind.sheet_fields), *hook]


def set_keys(system: str | None = None) -> str:
    """Return the ``--set`` keys in words: a campaign's of ``system``; every system's, by
    system, without one (``kubik party add -h``, before a campaign is open)."""
    if system is not None:
        return ", ".join([SHARED_KEYS, *own_keys(system)])
    by_system = [
        f"{registry.title(name)} — {', '.join(keys)}"
        for name in registry.names()
        if (keys := own_keys(name))
    ]
    return SHARED_KEYS + ("; листа системы: " + "; ".join(by_system) if by_system else "")


def build_character(
    parser: Parser | None, name: str, npc: bool, values: list[str], system: str | None = None
) -> Character:
    """Build a new character from ``--set KEY=VALUE`` items; a bad item exits 2.

    With ``system`` every value is checked as the character form checks it (the same parsers
    and ranges, :mod:`tui.widgets.party.fields`; a sheet's field as its ``System.sheet_fields``
    says), and the system's own keys are applied by its ``System.set_keys`` (Древо's wounds
    one by one, as the wound key gives them), so the form can always save the result.
    Without it only the syntax is checked, against every system's keys.
    """
    name = " ".join(name.split())  # as the app's form: one space between words
    if not name:
        _error(parser, "имя персонажа не может быть пустым")
    qualities: dict[str, int] = {}
    skills: dict[str, Skill] = {}
    weapons: list[str] = []
    extra: dict[str, Any] = {}
    sheet: dict[str, Any] = {}  # a sheet's field (or extra.ИМЯ of one): through the sheet
    marks: dict[str, Any] = {}  # player, hidden…: the core's marks (extra.ИМЯ of old)
    hooked: dict[str, list[Any]] = {}  # a system's own keys' values, by its set_keys module
    notes = ""
    for item in values:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            _error(parser, f"--set «{item}»: нужен вид КЛЮЧ=ЗНАЧЕНИЕ")
        head, dot, tail = key.partition(".")
        if dot and not tail:
            _error(parser, f"--set {key}: после точки нужно имя")
        if head == "quality" and dot:
            qualities[tail] = _checked(parser, key, value, system, "stat", tail)
        elif head == "skill" and dot:
            skill = _checked(parser, key, value, system, "skill", tail)
            skills[tail] = skill if isinstance(skill, Skill) else Skill(tail, skill)
        elif key in MARK_FIELDS or (head == "extra" and tail in MARK_FIELDS):
            mark = tail if dot else key
            marks[MARK_FIELDS[mark]] = _mark(parser, key, value, mark)
        elif head == "extra" and dot and (field := _sheet_field(system, tail)) is not None:
            sheet[tail] = _field_value(parser, key, value, field, system)
        elif head == "extra" and dot:
            (sheet if tail in SHEET_FIELDS else extra)[tail] = _json_or_text(value)
        elif key == "notes":
            notes = value
        elif key == "weapon":
            weapons.append(value.strip())
        elif (field := _sheet_field(system, key)) is not None:
            sheet[key] = _field_value(parser, key, value, field, system)
        elif (hook := _hook(system, key)) is not None:
            try:
                hooked.setdefault(hook, []).append(registry.load(hook).read(key, value))
            except ValueError as err:
                _error(parser, str(err))
        else:
            _unknown(parser, key, system)
    if marks.get("hidden") and not npc:
        _error(parser, "--set hidden=true: скрыть от игроков можно только НИП; добавьте --npc")
    character = Character(
        id=new_id(),
        name=name,
        kind="npc" if npc else "pc",
        qualities=qualities,
        skills=tuple(skills.values()),
        weapons=tuple(weapons),
        # The campaign's system's sheet at its defaults, as the character form's blank
        # character has it (Древо: a PC's starting Судьба, an NPC's none). Without a system
        # (the syntax check before the campaign is open) the store's default sheet: that
        # character is never stored.
        sheet=sheet_kind(None)() if system is None else registry.get(system).new_sheet(npc),
        notes=notes,
        extra=extra,
        **marks,
    )
    character = _sheeted(parser, character, sheet, system)
    if system is None:
        return character
    for hook, items in hooked.items():
        try:
            character = registry.load(hook).apply(character, items)
        except ValueError as err:
            _error(parser, str(err))
    return character


def _sheet_field(system: str | None, key: str) -> SheetField | None:
    """The sheet field ``key`` the campaign's system's form edits (no system: any system's)."""
    kinds = registry.all_systems() if system is None else (registry.get(system),)
    return next((f for kind in kinds for f in kind.sheet_fields if f.key == key), None)


def _hook(system: str | None, key: str) -> str | None:
    """The ``set_keys`` module of the campaign's system that owns ``key`` (no system: any)."""
    kinds = registry.all_systems() if system is None else (registry.get(system),)
    return next(
        (k.set_keys for k in kinds if k.set_keys and registry.load(k.set_keys).owns(key)), None
    )


def _unknown(parser: Parser | None, key: str, system: str | None) -> None:
    """Refuse a key: another system's (say whose), or no system's, listing the campaign's
    system's keys; without a system (the syntax check) it waits for the campaign's."""
    if system is None:
        return
    other = next(
        (
            kind.title
            for kind in registry.all_systems()
            if _sheet_field(kind.name, key) or _hook(kind.name, key)
        ),
        None,
    )
    if other is not None:
        _error(
            parser,
            f"--set {key}: это ключ системы «{other}», а кампания — "
            f"«{registry.title(system)}»; уберите его (допустимы: {set_keys(system)})",
        )
    _error(parser, f"--set: неизвестный ключ «{key}»; допустимы: {set_keys(system)}")


def _field_value(
    parser: Parser | None, key: str, value: str, field: SheetField, system: str | None
) -> int | bool:
    """Return a sheet field's value as the character form reads it; refuse (exit 2) what it
    refuses (no system: the syntax only)."""
    from tui.widgets.party import fields  # the character form's own parser

    if field.yes_no:
        read = _json_or_text(value.strip())
        if not isinstance(read, bool):
            _error(parser, f"--set {key}={value}: {field.label}: нужно true или false")
        return bool(read)
    if system is None:  # syntax only (before the campaign is open)
        return _int(parser, key, value)
    try:
        return fields.parse_int(value, field.low, field.high)
    except fields.FieldError as err:
        return _error(parser, f"--set {key}={value}: {field.label}: {err}")


def _mark(parser: Parser | None, key: str, value: str, name: str) -> bool | str:
    """A core mark's value: ``hidden`` true or false, the others text (spaces around cut)."""
    if MARK_TYPES[name] is not bool:
        return value.strip()
    read = _json_or_text(value.strip())
    if not isinstance(read, bool):
        _error(parser, f"--set {key}={value}: нужно true (скрыт от игроков) или false")
    return bool(read)


def _error(parser: Parser | None, message: str) -> Any:
    if parser is None:
        raise ValueError(message)
    parser.error(message)


def _checked(
    parser: Parser | None, key: str, value: str, system: str | None, field: str, name: str = ""
) -> Any:
    """Return ``value`` as the form's field ``field`` (a stat or a skill) reads it; refuse
    (exit 2) what it refuses."""
    from tui.widgets.party import fields  # the character form's own parsers and ranges

    if system is None:  # syntax only (before the campaign is open)
        return _int(parser, key, value)
    try:
        if field == "stat":
            return fields.parse_stat(system, name, value)
        return fields.parse_skills(system, f"{name} {value}")[0]
    except fields.FieldError as err:
        _error(parser, f"--set {key}={value}: {err}")


def _sheeted(
    parser: Parser | None, c: Character, values: dict[str, Any], system: str | None
) -> Character:
    """Write ``extra.ИМЯ`` values that name a sheet field through the typed sheet that has
    it (the campaign's system's first), checked as the campaign file checks them."""
    if not values or system is None:  # syntax only (before the campaign is open)
        return c
    kinds = [SHEETS[system], *(k for k in SHEETS.values() if k is not SHEETS[system])]
    for kind in kinds:
        mine = {k: v for k, v in values.items() if k in kind.FIELDS}
        values = {k: v for k, v in values.items() if k not in mine}
        if not mine:
            continue
        try:
            kind.CHECKS.check(mine)
        except SheetError as err:
            _error(parser, f"--set extra.{err.field}: {err.want}")
        c = c.with_sheet(replace(kind.from_values(c.sheet_values()), **mine))
    return c


def _int(parser: Parser | None, key: str, value: str) -> int:
    try:
        return signed_int(value)
    except argparse.ArgumentTypeError as err:
        return _error(parser, f"--set {key}: {err}")


def _json_or_text(value: str) -> Any:
    """``80`` → 80, ``true`` → True, ``[1, 2]`` → a list; anything else stays text."""
    try:
        return json.loads(value)
    except ValueError:
        return value
