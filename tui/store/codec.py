"""Stored documents <-> domain dataclasses. The only place that knows the document shapes."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tui.sanitize import clean_json

from .models import SHEET_EXTRAS, Character, LogEntry, Skill


def character_to_doc(c: Character) -> dict[str, Any]:
    """Return the JSON document of a character (schema 4: each sheet field its own key)."""
    sheet = {k: c.extra[k] for k in SHEET_EXTRAS if k in c.extra}
    rest = {k: v for k, v in c.extra.items() if k not in sheet}
    # What a form, the CLI or an import wrote is cleaned on its way into the file.
    return clean_json(
        {
            "id": c.id,
            "name": c.name,
            "kind": c.kind,
            "qualities": dict(c.qualities),
            "skills": [{**asdict(s), "distances": list(s.distances)} for s in c.skills],
            "weapons": list(c.weapons),
            "fate": c.fate,
            "wounds": dict(c.wounds),
            **sheet,
            "notes": c.notes,
            "extra": rest,
            "rolls": [[name, notation] for name, notation in c.rolls],
        }
    )


def character_from_doc(doc: dict[str, Any]) -> Character:
    """Build a character from its document, of schema 4 or older (sheet fields in ``extra``:
    an export, a bestiary file or a seat's state written by an older kubik).

    Raises:
        KeyError, TypeError, ValueError: the document is damaged.
    """
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
        fate=int(doc.get("fate", 0)),
        wounds={str(k): int(v) for k, v in doc.get("wounds", {}).items()},
        notes=str(doc.get("notes", "")),
        extra=_extra(doc),
        rolls=tuple((str(n), str(e)) for n, e in doc.get("rolls") or ()),
        origin=doc,
    )


def _extra(doc: dict[str, Any]) -> dict[str, Any]:
    """``extra`` as a character holds it: the free-form values and the sheet fields."""
    extra = dict(doc.get("extra") or {})
    for key in SHEET_EXTRAS:  # the sheet fields, keys of their own since schema 4
        if key in doc:
            extra[key] = doc[key]
    return extra


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
