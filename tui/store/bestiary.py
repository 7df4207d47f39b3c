"""The bestiary and the prepared encounters: NPC templates and named lists of them.

A **template** is a system's sheet with a name, notes and tags — a character that is not in
the party (:class:`Template`; its sheet is a :class:`~tui.store.models.Character`, so it is
checked, stored and shown exactly as a character is). A **prepared encounter** is a named
list of templates with counts and sides, hidden from the players or not
(:class:`Prepared`). kubik ships a starter bestiary per system as data
(``data/bestiary/<system>.toml``, every entry kubik's [default]); a campaign keeps its own
templates and encounters in two app documents of the campaign file (``bestiary`` and
``encounters``: ``{"templates": {id: template}}``, ``{"encounters": {id: encounter}}``), so
they travel with ``export``/``import``, are undone like any change, and are merged key by key
when two windows change different ones. A campaign's template or encounter with the name of a
starter one stands in its place (the [default] is editable per campaign).

The same shapes are the hand-written TOML format (:mod:`tui.store.bestiary_toml`); every
value is checked by :func:`check_template` and :func:`check_encounter`, whose Russian
messages name the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tui.sanitize import clean_json, clean_line

from .codec import character_from_doc, character_to_doc
from .models import MARK_FIELDS, SHEET_EXTRAS, Character, sheet_kind
from .schema import DOC_CHECKS, SchemaError, _kind, _short, _shown, check_depth, validate_character

#: The campaign's documents.
BESTIARY_DOC = "bestiary"
ENCOUNTERS_DOC = "encounters"

#: How many NPCs one template adds at once (the issue: a count of 1–50).
COUNT_RANGE = (1, 50)
#: The side an encounter's group joins when it names none.
DEFAULT_SIDE = "Противники"
#: Longest name, tag and side kubik keeps (a hand-written file may hold anything).
NAME_LIMIT = 80
#: Most tags on a template, groups in an encounter.
TAGS_LIMIT = 20
GROUPS_LIMIT = 50

#: The fields of a template (those of a character's sheet and its marks, plus tags).
TEMPLATE_FIELDS = frozenset(
    {"name", "tags", "qualities", "skills", "weapons", "fate", "wounds", "notes", "extra", "rolls"}
    | set(SHEET_EXTRAS)
    | set(MARK_FIELDS)
)
ENCOUNTER_FIELDS = frozenset({"name", "groups", "hidden", "notes"})
GROUP_FIELDS = frozenset({"template", "count", "side"})


@dataclass(frozen=True)
class Template:
    """An NPC template: a sheet of the campaign's system with a name, notes and tags.

    ``sheet`` is the character an NPC made from it starts as (its ``id`` is the template's,
    its ``kind`` always ``"npc"``). ``default``: shipped with kubik (``data/bestiary/``), not
    the campaign's own.
    """

    id: str
    sheet: Character
    tags: tuple[str, ...] = ()
    default: bool = False

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def notes(self) -> str:
        return self.sheet.notes


@dataclass(frozen=True)
class Group:
    """One line of a prepared encounter: «Разбойник ×5 — Противники»."""

    template: str
    count: int = 1
    side: str = DEFAULT_SIDE


@dataclass(frozen=True)
class Prepared:
    """A prepared encounter: templates with counts and sides, loaded into Бой in one key."""

    id: str
    name: str
    groups: tuple[Group, ...]
    #: The NPCs it brings are hidden from the players («???») until the GM shows them.
    hidden: bool = False
    notes: str = ""
    default: bool = False

    @property
    def size(self) -> int:
        """How many NPCs it brings."""
        return sum(g.count for g in self.groups)


@dataclass(frozen=True)
class Bestiary:
    """Everything a campaign may add from: the starter set and its own, by name."""

    templates: tuple[Template, ...] = ()
    encounters: tuple[Prepared, ...] = ()

    def template(self, name: str) -> Template | None:
        """The template called ``name`` (letter case aside; or with that id), or None."""
        return _named(self.templates, name)

    def encounter(self, name: str) -> Prepared | None:
        """The encounter called ``name`` (letter case aside; or with that id), or None."""
        return _named(self.encounters, name)


def _named(items: Any, name: str) -> Any:
    wanted = _line(name).casefold()  # as the name was stored: cleaned, one space
    for item in items:
        if item.id == name or item.name.casefold() == wanted:
            return item
    return None


# -- documents --------------------------------------------------------------------------------


def template_to_doc(t: Template) -> dict[str, Any]:
    """The stored (and TOML) form of a template: its sheet's fields, its tags."""
    doc = character_to_doc(t.sheet)
    del doc["id"], doc["kind"]
    if not doc["rolls"]:
        del doc["rolls"]
    return clean_json({**doc, "tags": list(t.tags)})


def template_from_doc(
    tid: str, doc: Mapping[str, Any], *, system: str, default: bool = False, where: str = ""
) -> Template:
    """Build a checked template of ``system`` (its sheet that system's) from its document
    (see :func:`check_template`).

    Raises:
        SchemaError: a value kubik cannot use, named in Russian.
    """
    check_template(doc, _where(where, "шаблон", doc))
    sheet = character_from_doc({**dict(doc), "id": tid, "kind": "npc"}, sheet_kind(system).SYSTEM)
    sheet = _no_origin(sheet)
    tags = tuple(clean_line(str(t)).strip() for t in doc.get("tags", ()))
    return Template(tid, sheet, tuple(t for t in tags if t), default)


def template_of(character: Character, tid: str, tags: tuple[str, ...] = ()) -> Template:
    """A template made of a character of the party (its wounds and marks left behind)."""
    doc = {**character_to_doc(character), "wounds": {}, "tags": list(tags)}
    kept = {k: v for k, v in doc.items() if k in TEMPLATE_FIELDS and k not in SHEET_STATE}
    return template_from_doc(tid, kept, system=character.sheet.SYSTEM)


#: Marks of a character at the table that a template does not carry: its wounds and harm so
#: far, its place in a fight, where it came from, the seat's player it belongs to.
SHEET_STATE = frozenset(
    {
        "hidden",
        "player",
        "dead",
        "harm",
        "health",
        "initiative",
        "daily_triumph_used",
        "template",
        "encounter",
    }
)


def encounter_to_doc(e: Prepared) -> dict[str, Any]:
    """The stored (and TOML) form of a prepared encounter."""
    return clean_json(
        {
            "name": e.name,
            "hidden": e.hidden,
            "notes": e.notes,
            "groups": [
                {"template": g.template, "count": g.count, "side": g.side} for g in e.groups
            ],
        }
    )


def encounter_from_doc(
    eid: str, doc: Mapping[str, Any], *, default: bool = False, where: str = ""
) -> Prepared:
    """Build a checked prepared encounter from its document (see :func:`check_encounter`).

    Raises:
        SchemaError: a value kubik cannot use, named in Russian.
    """
    check_encounter(doc, _where(where, "сцена", doc))
    groups = tuple(
        Group(
            _line(g["template"]),
            int(g.get("count", 1)),
            _line(g.get("side", DEFAULT_SIDE)) or DEFAULT_SIDE,
        )
        for g in doc["groups"]
    )
    return Prepared(
        eid,
        _line(doc["name"]),
        groups,
        bool(doc.get("hidden", False)),
        str(doc.get("notes", "")),
        default,
    )


def _where(where: str, what: str, doc: Any) -> str:
    name = doc.get("name") if isinstance(doc, Mapping) else None
    named = f"{what} «{_short(name)}»" if isinstance(name, str) and name.strip() else what
    return f"{where}, {named}" if where else named


def _line(text: Any) -> str:
    return " ".join(clean_line(str(text)).split())


def _no_origin(c: Character) -> Character:
    from dataclasses import replace

    return replace(c, origin=None)


# -- the schema -------------------------------------------------------------------------------


def check_template(doc: Any, where: str) -> None:
    """Check a template document; ``where`` names it («шаблон «Разбойник»»).

    Raises:
        SchemaError: the first value kubik cannot use: its field and what to write instead.
    """
    if not isinstance(doc, Mapping):
        raise SchemaError(f"{where}: нужен объект (таблица), а не {_kind(doc)}")
    _known_fields(doc, TEMPLATE_FIELDS, where)
    _name(doc.get("name"), f"{where}, поле name", "имя шаблона")
    tags = doc.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise SchemaError(f'{where}, поле tags: нужен список строк, например ["разбойники"]')
    if len(tags) > TAGS_LIMIT:
        raise SchemaError(f"{where}, поле tags: не больше {TAGS_LIMIT} меток")
    for i, tag in enumerate(tags, 1):
        if len(tag) > NAME_LIMIT:
            raise SchemaError(f"{where}, метка {i}: не длиннее {NAME_LIMIT} знаков")
    rolls = doc.get("rolls", [])
    if not isinstance(rolls, list) or not all(
        isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r) for r in rolls
    ):
        raise SchemaError(f'{where}, поле rolls: нужен список пар ["название", "бросок"]')
    body = {k: v for k, v in doc.items() if k not in ("tags", "rolls")}
    validate_character({**body, "id": "template", "kind": "npc"}, where)


def check_encounter(doc: Any, where: str) -> None:
    """Check a prepared encounter's document; ``where`` names it («сцена «Засада у брода»»).

    What its templates are is checked when it is added or loaded (the bestiary may change).

    Raises:
        SchemaError: the first value kubik cannot use: its field and what to write instead.
    """
    if not isinstance(doc, Mapping):
        raise SchemaError(f"{where}: нужен объект (таблица), а не {_kind(doc)}")
    _known_fields(doc, ENCOUNTER_FIELDS, where)
    _name(doc.get("name"), f"{where}, поле name", "название сцены")
    if not isinstance(doc.get("hidden", False), bool):
        raise SchemaError(f"{where}, поле hidden: {_shown(doc['hidden'])} — нужно true или false")
    if not isinstance(doc.get("notes", ""), str):
        raise SchemaError(f"{where}, поле notes: нужна строка, а не {_kind(doc['notes'])}")
    groups = doc.get("groups")
    if not isinstance(groups, list) or not groups:
        raise SchemaError(
            f"{where}, поле groups: нужен непустой список, например "
            '[{ template = "Разбойник", count = 5, side = "Противники" }]'
        )
    if len(groups) > GROUPS_LIMIT:
        raise SchemaError(f"{where}, поле groups: не больше {GROUPS_LIMIT} строк")
    low, high = COUNT_RANGE
    for i, g in enumerate(groups, 1):
        at = f"{where}, groups[{i}]"
        if not isinstance(g, Mapping):
            raise SchemaError(f"{at}: нужен объект, а не {_kind(g)}")
        _known_fields(g, GROUP_FIELDS, at)
        _name(g.get("template"), f"{at}.template", "имя шаблона")
        count = g.get("count", 1)
        if type(count) is not int or not low <= count <= high:
            raise SchemaError(f"{at}.count: {_shown(count)} — нужно целое число от {low} до {high}")
        if "side" in g:
            _name(g["side"], f"{at}.side", "название стороны")
    total = sum(int(g.get("count", 1)) for g in groups)
    if total > high * 4:
        raise SchemaError(f"{where}: {total} НИП — слишком много для одной сцены (до {high * 4})")


def check_documents(name: str, value: Mapping[str, Any], where: str) -> None:
    """Check the campaign's ``bestiary`` or ``encounters`` document (the campaign schema).

    Raises:
        SchemaError: the first value kubik cannot use, named.
    """
    key, check = (
        ("templates", check_template) if name == BESTIARY_DOC else ("encounters", check_encounter)
    )
    items = value.get(key, {})
    if not isinstance(items, Mapping):
        raise SchemaError(f"{where}, поле {key}: нужен объект, а не {_kind(items)}")
    check_depth(items, where)
    names: set[str] = set()
    for item_id, doc in items.items():
        what = "шаблон" if name == BESTIARY_DOC else "сцена"
        label = doc.get("name") if isinstance(doc, Mapping) else None
        at = (
            f"{where}, {what} «{_short(label)}»"
            if isinstance(label, str)
            else f"{where}, {item_id}"
        )
        check(doc, at)
        fold = " ".join(str(doc["name"]).split()).casefold()
        if fold in names:
            raise SchemaError(f"{at}: такое имя уже есть — у каждого своё")
        names.add(fold)


DOC_CHECKS[BESTIARY_DOC] = lambda value, where: check_documents(BESTIARY_DOC, value, where)
DOC_CHECKS[ENCOUNTERS_DOC] = lambda value, where: check_documents(ENCOUNTERS_DOC, value, where)


def _known_fields(doc: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(str(k) for k in doc if k not in known)
    if unknown:
        raise SchemaError(
            f"{where}: неизвестное поле «{_short(unknown[0])}»; бывают: " + ", ".join(sorted(known))
        )


def _name(value: Any, where: str, what: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise SchemaError(f"{where}: {_shown(value)} — нужно непустое {what}")
    if len(value) > NAME_LIMIT:
        raise SchemaError(f"{where}: не длиннее {NAME_LIMIT} знаков")


# -- the campaign's bestiary ------------------------------------------------------------------


def own_templates(doc: Mapping[str, Any] | None, system: str) -> tuple[Template, ...]:
    """The campaign's own templates from its ``bestiary`` document (checked when loaded),
    each with the sheet of the campaign's ``system``."""
    items = (doc or {}).get("templates", {})
    return tuple(template_from_doc(tid, d, system=system) for tid, d in items.items())


def own_encounters(doc: Mapping[str, Any] | None) -> tuple[Prepared, ...]:
    """The campaign's own encounters from its ``encounters`` document."""
    items = (doc or {}).get("encounters", {})
    return tuple(encounter_from_doc(eid, d) for eid, d in items.items())


def merged(
    starter: Bestiary, templates: tuple[Template, ...], encounters: tuple[Prepared, ...]
) -> Bestiary:
    """The starter set with the campaign's own: one of the same name stands in its place;
    sorted by name."""

    def fold(items: Any) -> dict[str, Any]:
        return {item.name.casefold(): item for item in items}

    t = {**fold(starter.templates), **fold(templates)}
    e = {**fold(starter.encounters), **fold(encounters)}
    return Bestiary(
        tuple(sorted(t.values(), key=lambda x: x.name.casefold())),
        tuple(sorted(e.values(), key=lambda x: x.name.casefold())),
    )


def with_template(doc: Mapping[str, Any] | None, t: Template) -> dict[str, Any]:
    """The ``bestiary`` document with ``t`` set (one of the same name replaced)."""
    items = dict((doc or {}).get("templates", {}))
    for tid, d in list(items.items()):
        if tid != t.id and str(d.get("name", "")).casefold() == t.name.casefold():
            del items[tid]
    items[t.id] = template_to_doc(t)
    return {**dict(doc or {}), "templates": items}


def without(doc: Mapping[str, Any] | None, key: str, item_id: str) -> dict[str, Any] | None:
    """The document without the item ``item_id`` of ``key`` (None when nothing is left)."""
    items = {k: v for k, v in (doc or {}).get(key, {}).items() if k != item_id}
    rest = {**dict(doc or {}), key: items}
    return rest if items or len(rest) > 1 else None


def with_encounter(doc: Mapping[str, Any] | None, e: Prepared) -> dict[str, Any]:
    """The ``encounters`` document with ``e`` set (one of the same name replaced)."""
    items = dict((doc or {}).get("encounters", {}))
    for eid, d in list(items.items()):
        if eid != e.id and str(d.get("name", "")).casefold() == e.name.casefold():
            del items[eid]
    items[e.id] = encounter_to_doc(e)
    return {**dict(doc or {}), "encounters": items}


__all__ = [
    "BESTIARY_DOC",
    "COUNT_RANGE",
    "DEFAULT_SIDE",
    "ENCOUNTERS_DOC",
    "Bestiary",
    "Group",
    "Prepared",
    "Template",
    "check_documents",
    "check_encounter",
    "check_template",
    "encounter_from_doc",
    "encounter_to_doc",
    "merged",
    "own_encounters",
    "own_templates",
    "template_from_doc",
    "template_of",
    "template_to_doc",
    "with_encounter",
    "with_template",
    "without",
]
