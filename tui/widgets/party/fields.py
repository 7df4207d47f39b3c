"""The character form's fields per rules system: names, ranges, parsing and formatting.

Pure functions (no Textual): each parser returns a value or raises :class:`FieldError` with a
Russian message that the form shows under the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from rules.data import load_table
from tui import registry
from tui.numbers import read_typed_whole
from tui.registry.base import SheetField
from tui.store import Character, Skill

MINUS = str.maketrans({"−": "-", "–": "-"})
DISTANCES = ("П", "Д", "Б", "К")


class FieldError(ValueError):
    """A field's value is refused; ``str(err)`` says why, in Russian."""


@dataclass(frozen=True)
class SystemFields:
    """What the form asks for in one system."""

    stat_label: str
    stats: tuple[str, ...]
    stat_range: tuple[int, int]
    stat_default: int
    skill_range: tuple[int, int]
    skill_hint: str
    skill_unit: str


def system_fields(system: str) -> SystemFields:
    """Return the fields of ``system`` (its ``System.form``); the stat names come from its
    demo party."""
    names = tuple(load_table(f"demo/{system}.toml")["characters"][0]["qualities"])
    form = registry.get(system).form
    return SystemFields(
        form.stat_label, names, form.stat_range, form.stat_default, form.skill_range,
        form.skill_hint, form.skill_unit,
    )  # fmt: skip


def weapon_names(system: str) -> list[str]:
    """Return the campaign's weapon names the system's characters carry ([]: none)."""
    source = registry.get(system).weapons
    return list(registry.load(source)()) if source else []


def parse_int(text: str, low: int, high: int) -> int:
    """Return the whole number in ``text`` (the digits 0–9 only) within ``low``…``high``."""
    value = read_typed_whole(text.translate(MINUS))
    if value is None:
        raise FieldError("Нужно целое число.")
    # A number of many digits is read as just past MAX_NUMBER: out of every range here.
    if not low <= value <= high:
        raise FieldError(f"Нужно число от {signed_text(low)} до {signed_text(high)}.")
    return value


def parse_stat(system: str, name: str, text: str) -> int:
    """Return the value of the stat ``name`` (one of the system's) within the system's range."""
    fields = system_fields(system)
    if name not in fields.stats:
        raise FieldError(f"В этой системе нет «{name}»; есть: {', '.join(fields.stats)}.")
    try:
        return parse_int(text, *fields.stat_range)
    except FieldError as err:
        raise FieldError(f"{name}: {err}") from err


def signed_text(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def parse_name(text: str, taken: set[str]) -> str:
    """Return the stripped name; it must be non-empty and not used by another character."""
    name = " ".join(text.split())
    if not name:
        raise FieldError("Укажите имя.")
    if len(name) > 60:
        raise FieldError("Имя длиннее 60 знаков.")
    if name.casefold() in taken:
        raise FieldError(f"В партии уже есть «{name}».")
    return name


SKILL_RE = re.compile(
    r"^(?P<name>[^\d()\[\]+−-][^()\[\]]*?)\s+(?P<value>[+\-−–]?[0-9]+)\s*"
    r"(?:\((?P<parent>[^()]*)\))?\s*(?:\[(?P<where>[^\[\]]*)\])?$"
)


def parse_skills(system: str, text: str) -> tuple[Skill, ...]:
    """Parse «Драка 2, Щиты 2 (Драка)» (IDE4: «Стрельба 25 (Мелкая моторика) [Д/Б]»)."""
    fields = system_fields(system)
    low, high = fields.skill_range
    skills: list[Skill] = []
    seen: set[str] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        m = SKILL_RE.match(part)
        if m is None:
            raise FieldError(f"«{part}»: нужно «Навык число», например: {fields.skill_hint}.")
        name = " ".join(m["name"].split())
        try:
            value = parse_int(m["value"], low, high)
        except FieldError as err:
            why = str(err)
            raise FieldError(f"«{name}»: {fields.skill_unit} — {why[0].lower()}{why[1:]}") from err
        if name.casefold() in seen:
            raise FieldError(f"Навык «{name}» указан дважды.")
        seen.add(name.casefold())
        parent = " ".join((m["parent"] or "").split()) or None
        where = tuple(d.strip().upper() for d in (m["where"] or "").split("/") if d.strip())
        kind = registry.get(system)
        if parent is not None and kind.skill_parent is None:
            raise FieldError(f"«{name}»: в этой системе у навыка нет части в скобках.")
        if parent is not None and parent.casefold() == name.casefold():
            raise FieldError(f"«{name}» не может быть частью самого себя.")
        if kind.skill_parent == "attribute" and parent is not None and parent not in fields.stats:
            raise FieldError(f"«{name}»: в скобках — главный атрибут: {', '.join(fields.stats)}.")
        if where and not kind.skill_distances:
            raise FieldError(f"«{name}»: дистанции […] бывают только в IDE4.")
        bad = [d for d in where if d not in DISTANCES]
        if bad:
            raise FieldError(f"«{name}»: дистанции — из П, Д, Б, К через «/», не «{bad[0]}».")
        skills.append(Skill(name, value, parent, where))
    return tuple(skills)


def format_skills(system: str, skills: tuple[Skill, ...]) -> str:
    """Write skills back the way :func:`parse_skills` reads them."""
    parts = []
    for s in skills:
        text = f"{s.name} {signed_text(s.value)}"
        if s.parent:
            text += f" ({s.parent})"
        if s.distances:
            text += f" [{'/'.join(s.distances)}]"
        parts.append(text)
    return ", ".join(parts)


def parse_weapons(text: str, known: list[str]) -> tuple[str, ...]:
    """Parse a comma list of weapon names; each must be in the campaign's catalogue."""
    by_fold = {k.casefold(): k for k in known}
    result: list[str] = []
    for part in (" ".join(p.split()) for p in text.split(",")):
        if not part:
            continue
        name = by_fold.get(part.casefold())
        if name is None:
            close = [k for k in known if k.casefold().startswith(part.casefold()[:2])][:4]
            hint = f" Похожие: {', '.join(close)}." if close else ""
            raise FieldError(f"Нет оружия «{part}» в таблице кампании.{hint}")
        if name not in result:
            result.append(name)
    return tuple(result)


#: A form field's text by its key («name», «stat-0», «skills», a sheet field's key …).
Texts = Callable[[str], str]


def form_checks(
    system: str, taken: Callable[[], set[str]], weapons: list[str]
) -> dict[str, Callable[[Texts], Any]]:
    """Return the character form's checks, in the form's order: each reads its field's text
    (``stats``: every stat's) and returns the value or raises :class:`FieldError`. ``taken``
    is asked on each check of the name (another window may add one while the form is open)."""
    kind = registry.get(system)
    stats = system_fields(system).stats
    checks: dict[str, Callable[[Texts], Any]] = {
        "name": lambda text: parse_name(text("name"), {t.casefold() for t in taken()}),
        "stats": lambda text: {
            stat: parse_stat(system, stat, text(f"stat-{i}")) for i, stat in enumerate(stats)
        },
        "skills": lambda text: parse_skills(system, text("skills")),
        "notes": lambda text: text("notes").strip(),
    }
    if kind.weapons:
        checks["weapons"] = lambda text: parse_weapons(text("weapons"), weapons)
    for field in kind.sheet_fields:
        if not field.yes_no:
            checks[field.key] = partial(_sheet_number, field)
    return checks


def _sheet_number(field: SheetField, text: Texts) -> int:
    """A sheet field's whole number within the field's range."""
    return parse_int(text(field.key), field.low, field.high)


def form_character(
    system: str,
    character: Character,
    values: Mapping[str, Any],
    *,
    kind: str,
    flags: Mapping[str, bool],
) -> Character:
    """Return ``character`` as the form saves it: the checked ``values`` (by check key), «Кто»
    and the sheet's yes/no fields (``flags``, by the sheet field's key)."""
    c = character
    sheet_fields = registry.get(system).sheet_fields
    if sheet_fields:
        edited = {f.key: bool(flags[f.key]) if f.yes_no else values[f.key] for f in sheet_fields}
        sheet = c.sheet_of(system)
        c = c.with_sheet(type(sheet).from_values({**sheet.values(), **edited}))
    return replace(
        c,
        name=values["name"],
        kind=kind,
        qualities=values["stats"],
        skills=values["skills"],
        weapons=values.get("weapons", c.weapons),
        notes=values["notes"],
    )


def kind_switched(system: str, character: Character, npc: bool, text: Texts) -> dict[str, str]:
    """Return the sheet numbers' new texts when «Кто» turns to NPC (``npc``) or to a player.
    A new character's numbers follow «Кто» — the system's start for a player or an NPC (Древо's
    Судьба: ``data/drevo/fate.toml``, as ``party add`` gives) — until the GM types his own;
    an existing character's are his, and stay (nothing returned)."""
    if character.origin is not None:
        return {}
    kind = registry.get(system)
    was, now = (kind.new_sheet(npc=n).values() for n in (not npc, npc))
    return {
        f.key: str(now.get(f.key))
        for f in kind.sheet_fields
        if not f.yes_no
        and was.get(f.key) != now.get(f.key)
        and text(f.key).strip() == str(was.get(f.key))
    }
