"""Schema 4 → 5: each core mark of a character gets a key of its own.

Up to schema 4 a character document kept its marks — an NPC hidden from the players
(``hidden``), the seat's player (``player``), the template and the prepared encounter an NPC
came from (``template``, ``encounter``) — inside its free-form ``extra``. Schema 5 gives each
of them its own key, checked by the campaign schema (hidden: true or false; the others text);
``extra`` keeps only free values.

:func:`lift` turns a document of the older form into the new one: the step uses it on every
stored form of a character (the party, the bestiary's templates, the undo and redo stacks:
:mod:`tui.store.restack`), and the codec on a document from outside the file (an export, a
seat's state sent by an older kubik). A value the mark cannot hold (schema 4 checked only
``hidden``: a hand-written ``player = 5``) stays in ``extra`` under a free name
(``player_v4``): nothing is lost and the file stays valid.
"""

from __future__ import annotations

from typing import Any

from . import restack
from .tables import Tables

#: The marks schema 4 kept in ``extra`` (fixed: what schema 4 wrote, whatever a later core
#: adds), and the type each one's value must have.
MOVED: dict[str, type] = {"hidden": bool, "player": str, "template": str, "encounter": str}


def lift(doc: Any) -> Any:
    """Return ``doc`` with the marks it keeps in ``extra`` under keys of their own (a new dict;
    ``doc`` itself when there are none). A mark the document has a key for already, or whose
    value the mark cannot hold, stays in ``extra`` under a free name. What is no dict is left
    for the schema's check to name."""
    if not isinstance(doc, dict) or not isinstance(doc.get("extra"), dict):
        return doc
    if not doc["extra"].keys() & MOVED.keys():
        return doc
    extra = dict(doc["extra"])
    moved: dict[str, Any] = {}
    for key, kind in MOVED.items():
        if key in extra:
            value = extra.pop(key)
            if key not in doc and type(value) is kind:
                moved[key] = value
            else:
                extra[free_name(extra, f"{key}_v4")] = value
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "notes" or (key == "extra" and "notes" not in doc):
            out.update(moved)
        out[key] = extra if key == "extra" else value
    return out


def character(doc: Any) -> Any:
    """Return a schema-4 character document in its schema-5 form (see :func:`lift`).

    A top-level key of a mark's name (which schema 4 never wrote nor read) is moved into
    ``extra`` under a free name first, so it is not taken for the mark.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("extra"), dict):
        return doc
    strays = [k for k in MOVED if k in doc]
    if strays:
        extra = dict(doc["extra"])
        for key in strays:
            extra[free_name(extra, f"{key}_v4")] = doc[key]
        doc = {k: (extra if k == "extra" else v) for k, v in doc.items() if k not in strays}
    return lift(doc)


def free_name(extra: dict[str, Any], name: str) -> str:
    """``name``, or with ``_`` added until ``extra`` has no such key."""
    while name in extra:
        name += "_"
    return name


def bestiary(value: Any) -> Any:
    """Return the bestiary document's value with each template in its schema-5 form."""
    return restack.templates(value, character)


def upgrade(tables: Tables) -> Tables:
    """Bring the party, the bestiary and the undo/redo stacks to schema 5 (in place)."""
    return restack.upgrade(tables, character, bestiary)
