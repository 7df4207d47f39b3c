"""A new character from ``kubik party add``'s ``--set KEY=VALUE`` items, checked as the
character form checks it (:mod:`tui.widgets.party.fields`); a bad item exits 2.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from rules.drevo.sheet import DrevoSheet
from rules.sheets import SheetError
from tui import registry
from tui.cli.common import Parser, signed_int
from tui.store import WOUND_KEYS, Character, Skill, new_id
from tui.store.models import MARK_FIELDS, MARK_TYPES, SHEET_FIELDS, SHEETS, Sheet

SET_KEYS = (
    "quality.ИМЯ, skill.ИМЯ, fate, notes, weapon, wound.КЛЮЧ, player, hidden, template, "
    "encounter, extra.ИМЯ"
)


def build_character(
    parser: Parser | None, name: str, npc: bool, values: list[str], system: str | None = None
) -> Character:
    """Build a new character from ``--set KEY=VALUE`` items; a bad item exits 2.

    With ``system`` every value is checked as the character form checks it (the same parsers
    and ranges, :mod:`tui.widgets.party.fields`), and wounds are given one by one as the
    wound key gives them (the Древо cascade), so the form can always save the result.
    """
    name = " ".join(name.split())  # as the app's form: one space between words
    if not name:
        _error(parser, "имя персонажа не может быть пустым")
    qualities: dict[str, int] = {}
    skills: dict[str, Skill] = {}
    weapons: list[str] = []
    wounds: list[tuple[str, int]] = []
    extra: dict[str, Any] = {}
    sheet: dict[str, Any] = {}  # extra.ИМЯ of a sheet field: written through the sheet
    marks: dict[str, Any] = {}  # player, hidden…: the core's marks (extra.ИМЯ of old)
    fate: int | None = None  # given: Древо's Судьба (any other system refuses the key)
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
        elif head == "wound" and dot and tail in WOUND_KEYS:
            wounds.append((tail, _checked(parser, key, value, system, "wound")))
        elif head == "wound" and dot:
            _error(parser, f"--set {key}: неизвестная рана «{tail}»; есть: {', '.join(WOUND_KEYS)}")
        elif key in MARK_FIELDS or (head == "extra" and tail in MARK_FIELDS):
            mark = tail if dot else key
            marks[MARK_FIELDS[mark]] = _mark(parser, key, value, mark)
        elif head == "extra" and dot:
            read = _json_or_text(value)
            if tail == "energy" and system is not None and registry.get(system).energy:
                read = _checked(parser, key, value, system, "energy")
            (sheet if tail in SHEET_FIELDS else extra)[tail] = read
        elif key == "fate":
            fate = _checked(parser, key, value, system, "fate")
        elif key == "notes":
            notes = value
        elif key == "weapon":
            weapons.append(value.strip())
        else:
            _error(parser, f"--set: неизвестный ключ «{key}»; допустимы: {SET_KEYS}")
    if marks.get("hidden") and not npc:
        _error(parser, "--set hidden=true: скрыть от игроков можно только НИП; добавьте --npc")
    character = Character(
        id=new_id(),
        name=name,
        kind="npc" if npc else "pc",
        qualities=qualities,
        skills=tuple(skills.values()),
        weapons=tuple(weapons),
        sheet=_blank_sheet(system, npc, fate),
        notes=notes,
        extra=extra,
        **marks,
    )
    return _wounded(parser, _sheeted(parser, character, sheet, system), wounds, system)


def _blank_sheet(system: str | None, npc: bool, fate: int | None) -> Sheet:
    """The new character's sheet: its campaign's system's at its defaults, as the character
    form's blank character has it (Древо: a PC's starting Судьба, an NPC's none; ``fate`` when
    given). Without a system (the syntax check before the campaign is open) a Древо sheet
    holds what was given; that character is never stored."""
    if system is not None and not registry.get(system).fate_and_wounds:
        return SHEETS[system]()
    from rules import drevo

    start = drevo.fate_rules().start(npc)
    return DrevoSheet(fate=start if fate is None else fate)


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
    """Return ``value`` as the form's field ``field`` reads it; refuse (exit 2) what it refuses."""
    from tui.widgets.party import fields  # the character form's own parsers and ranges

    if system is None:  # syntax only (before the campaign is open)
        return _int(parser, key, value)
    if field == "fate" and not registry.get(system).fate_and_wounds:
        _error(parser, f"--set {key}: Судьба есть только в Древе; уберите этот ключ")
    if field == "wound" and not registry.get(system).fate_and_wounds:
        _error(parser, f"--set {key}: раны по шкале ведут только в Древе; уберите этот ключ")
    try:
        if field == "stat":
            return fields.parse_stat(system, name, value)
        if field == "skill":
            return fields.parse_skills(system, f"{name} {value}")[0]
        if field == "wound":
            return fields.parse_int(value, 0, 99)
        bounds = fields.FATE_RANGE if field == "fate" else fields.ENERGY_RANGE
        return fields.parse_int(value, *bounds)
    except fields.FieldError as err:
        where = {"fate": "Судьба: ", "energy": "Энергия: ", "wound": "число ран: "}.get(field, "")
        _error(parser, f"--set {key}={value}: {where}{err}")


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


def _wounded(
    parser: Parser | None, c: Character, wounds: list[tuple[str, int]], system: str | None
) -> Character:
    """Give the wounds one at a time, as the wound key does: the Древо cascade applies.

    Four Царапины make a Лёгкая рана and so on; a second Тяжёлая рана kills, and a new
    character is not added dead: that is refused with the reason.
    """
    if not wounds or system is None:
        return c
    from tui.bridge.sheets import track_of

    track = track_of(c)
    for level, count in wounds:
        for _ in range(count):
            track = track.take(level)
        if track.dead:
            given = ", ".join(f"wound.{k}={n}" for k, n in wounds)
            _error(
                parser,
                f"--set {given}: по шкале ран Древа (раны складываются в более тяжёлые) "
                "персонаж от них погибает; укажите меньше ран",
            )
    return c.edit_sheet(DrevoSheet, wounds=dict(track.counts))


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
