"""Stored documents <-> domain dataclasses. The only place that knows the document shapes."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rules.drevo.sheet import DrevoSheet
from tui.sanitize import clean_json

from .models import SHEET_EXTRAS, SHEET_FIELDS, SHEETS, WOUND_KEYS, Character, LogEntry, Skill


def character_to_doc(c: Character) -> dict[str, Any]:
    """Return the JSON document of a character (schema 4: each sheet field its own key).

    Судьба and wounds are written for every character (as every kubik of schema 4 did);
    another field of its own sheet when it is set: not the sheet's default, or a key the
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
    foreign = {k: c.extra[k] for k in SHEET_FIELDS if k in c.extra}
    values = {**foreign, **own}
    rest = {k: v for k, v in c.extra.items() if k not in foreign}
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
            "notes": c.notes,
            "extra": rest,
            "rolls": [[name, notation] for name, notation in c.rolls],
        }
    )


#: Sheet fields every character document has.
ALWAYS = ("fate", "wounds")


def _keys(doc: dict[str, Any] | None) -> set[str]:
    """The keys a stored document had, its older form's sheet fields in ``extra`` too."""
    if not doc:
        return set()
    extra = doc.get("extra")
    return set(doc) | (set(extra) if isinstance(extra, dict) else set())


def character_from_doc(doc: dict[str, Any], system: str = DrevoSheet.SYSTEM) -> Character:
    """Build a character of ``system`` from its document, of schema 4 or older (sheet fields
    in ``extra``: an export, a bestiary file or a seat's state written by an older kubik).

    Raises:
        KeyError, TypeError, ValueError: the document is damaged.
    """
    kind = SHEETS[system]
    extra = dict(doc.get("extra") or {})
    for key in SHEET_FIELDS:  # the sheet fields, keys of their own since schema 4
        if key in doc:
            extra[key] = doc[key]
    fate, wounds = doc.get("fate", 0), doc.get("wounds", {})
    if not isinstance(fate, int) or not isinstance(wounds, dict):
        raise TypeError("Судьба — число, раны — объект")
    counts = {k: int(wounds.get(k, 0)) for k in WOUND_KEYS}
    if set(wounds) - set(WOUND_KEYS):
        raise ValueError(f"unknown wound keys {sorted(set(wounds) - set(WOUND_KEYS))!r}")
    extra["wounds"], extra["fate"] = counts, int(fate)
    values = {k: extra.pop(k) for k in kind.FIELDS if k in extra}
    if extra.get("fate") == 0 and not any(counts.values()):  # another system's, none: the
        del extra["fate"], extra["wounds"]  # document has them all the same
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
        origin=doc,
        kept=frozenset(values),
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
