"""Stored documents <-> domain dataclasses. The only place that knows the document shapes."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tui.sanitize import clean_json

from . import core_marks
from .models import (
    MARK_FIELDS,
    SHEET_EXTRAS,
    SHEET_FIELDS,
    SHEETS,
    WOUND_KEYS,
    Character,
    LogEntry,
    Skill,
    sheet_kind,
)


def character_to_doc(c: Character) -> dict[str, Any]:
    """Return the JSON document of a character (schema 5: each sheet field and each core mark
    its own key).

    Судьба and wounds are written for every character (as every kubik of schema 4 did);
    another field of its own sheet, and a mark, when it is set: not its default, or a key the
    document it was read from had (so a value put back to the default is written, and a
    field never set stays absent). Another system's values it carries are written as read.
    """
    sheet = c.sheet
    default = type(sheet)().values()
    had = _keys(c.origin)
    own = {
        k: v
        for k, v in sheet.values().items()
        if k in ALWAYS or (v is not None and (v != default[k] or k in had or k in c.kept))
    }
    values = {**c.carried, **own}
    marks = {k: getattr(c, attr) for k, attr in MARK_FIELDS.items()}
    marks = {k: v for k, v in marks.items() if v or k in had or k in c.kept}
    # What a form, the CLI or an import wrote is cleaned on its way into the file.
    return clean_json(
        {
            "id": c.id,
            "name": c.name,
            "kind": c.kind,
            "qualities": dict(c.qualities),
            "skills": [{**asdict(s), "distances": list(s.distances)} for s in c.skills],
            "weapons": list(c.weapons),
            "fate": values.get("fate", 0),
            "wounds": dict(values.get("wounds") or dict.fromkeys(WOUND_KEYS, 0)),
            **{k: values[k] for k in SHEET_EXTRAS if k in values},
            **marks,
            "notes": c.notes,
            "extra": dict(c.extra),
            "rolls": [[name, notation] for name, notation in c.rolls],
        }
    )


#: Sheet fields every character document has.
ALWAYS = ("fate", "wounds")


def _keys(doc: dict[str, Any] | None) -> set[str]:
    """The keys a stored document had, its older forms' sheet fields and marks in ``extra``
    too."""
    if not doc:
        return set()
    extra = doc.get("extra")
    return set(doc) | (set(extra) if isinstance(extra, dict) else set())


def character_from_doc(doc: dict[str, Any], system: str = sheet_kind(None).SYSTEM) -> Character:
    """Build a character of ``system`` (by default the store's default sheet's) from its
    document, of schema 5 or older (sheet fields
    or marks in ``extra``: an export, a bestiary file or a seat's state written by an older
    kubik).

    Raises:
        KeyError, TypeError, ValueError: the document is damaged.
    """
    kind = SHEETS[system]
    read = doc
    doc = core_marks.lift(doc)  # marks of an older form: keys of their own since schema 5
    extra = dict(doc.get("extra") or {})
    carried = {k: extra.pop(k) for k in SHEET_FIELDS if k in extra}  # schema 3's form
    for key in SHEET_FIELDS:  # the sheet fields, keys of their own since schema 4
        if key in doc:
            carried[key] = doc[key]
    marks = {attr: doc[k] for k, attr in MARK_FIELDS.items() if k in doc}
    fate, wounds = doc.get("fate", 0), doc.get("wounds", {})
    if not isinstance(fate, int) or not isinstance(wounds, dict):
        raise TypeError("Судьба — число, раны — объект")
    counts = {k: int(wounds.get(k, 0)) for k in WOUND_KEYS}
    if set(wounds) - set(WOUND_KEYS):
        raise ValueError(f"unknown wound keys {sorted(set(wounds) - set(WOUND_KEYS))!r}")
    carried["wounds"], carried["fate"] = counts, int(fate)
    values = {k: carried.pop(k) for k in kind.FIELDS if k in carried}
    if carried.get("fate") == 0 and not any(counts.values()):  # another system's, none: the
        del carried["fate"], carried["wounds"]  # document has them all the same
    return Character(
        id=str(doc["id"]),
        name=str(doc["name"]),
        kind=doc["kind"],
        qualities={str(k): int(v) for k, v in doc.get("qualities", {}).items()},
        skills=tuple(
            Skill(
                str(s["name"]),
                int(s["value"]),
                s.get("parent"),
                tuple(map(str, s.get("distances", ()))),
            )
            for s in doc.get("skills", [])
        ),
        weapons=tuple(map(str, doc.get("weapons", []))),
        sheet=kind.from_values(values),
        notes=str(doc.get("notes", "")),
        extra=extra,
        rolls=tuple((str(n), str(e)) for n, e in doc.get("rolls") or ()),
        carried=carried,
        origin=read,
        kept=frozenset(values) | {k for k in MARK_FIELDS if k in doc},
        **marks,
    )


def log_to_doc(e: LogEntry) -> dict[str, Any]:
    """Return the JSON document of a Журнал entry."""
    return clean_json(
        {
            "id": e.id,
            "at": e.at,
            "kind": e.kind,
            "actor": e.actor,
            "text": e.text,
            "data": e.data,
        }
    )


def log_from_doc(doc: dict[str, Any]) -> LogEntry:
    """Build a Журнал entry from its document.

    Raises:
        KeyError, TypeError, ValueError: the document is damaged.
    """
    actor = doc.get("actor")
    return LogEntry(
        id=str(doc["id"]),
        at=str(doc["at"]),
        kind=str(doc["kind"]),
        actor=None if actor is None else str(actor),
        text=str(doc["text"]),
        data=dict(doc.get("data") or {}),
    )
