"""Schema 3 → 4: each sheet field of a character gets a key of its own.

Up to schema 3 a character document kept Древо's Судьба and wounds as fields and every other
system's sheet values (IDE4's energy, a Мир Тьмы health track, Смерть…) inside its free-form
``extra``. Schema 4 gives each of them its own key, checked by the system's typed sheet
(``rules/<system>/sheet.py``); ``extra`` keeps only what no sheet names.

The step converts every stored form of a character: the party, the bestiary's templates (a
template is a character's sheet), and the undo and redo stacks (:mod:`tui.store.restack`).
"""

from __future__ import annotations

from typing import Any

from rules.sheets import SheetError

from . import restack
from .core_marks import free_name
from .schema import SHEET_CHECKS
from .tables import Tables

#: The sheet fields schema 3 kept in ``extra`` (fixed: what schema 3 wrote, whatever a later
#: sheet adds).
MOVED = (
    "dead",
    "parry_ability",
    "energy",
    "always_expanded",
    "daily_triumph_used",
    "harm",
    "initiative",
    "health",
)

#: Those schema 3 did not check: a value the typed sheet cannot hold is kept aside. (A bad
#: value of the others made a schema-3 file invalid; it is moved and named by the check.)
UNCHECKED = ("harm", "initiative", "health")

BESTIARY = restack.BESTIARY


def character(doc: Any) -> Any:
    """Return a schema-3 character document in its schema-4 form (a new dict).

    Schema 3 checked only some of ``extra`` (energy and the flags); a value there that the
    typed sheet cannot hold (a hand-written ``harm = 5``), and a top-level key of a sheet
    field's name (which schema 3 never wrote nor read), stay in ``extra`` under a free name
    (``harm_v3``): nothing is lost and the file stays valid. What is no dict is left for the
    schema's check to name.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("extra"), dict):
        return doc
    strays = {k: doc[k] for k in MOVED if k in doc}
    if not strays and not doc["extra"].keys() & set(MOVED):
        return doc
    extra = dict(doc["extra"])
    moved: dict[str, Any] = {}
    kept: list[tuple[str, Any]] = list(strays.items())
    for key in MOVED:
        if key in extra:
            value = extra.pop(key)
            if key not in UNCHECKED or _fits(key, value):
                moved[key] = value
            else:
                kept.append((key, value))
    for key, value in kept:
        extra[free_name(extra, f"{key}_v3")] = value
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in MOVED:
            continue
        if key == "notes" or (key == "extra" and "notes" not in doc):
            out.update(moved)
        out[key] = extra if key == "extra" else value
    return out


def _fits(key: str, value: Any) -> bool:
    try:
        for checks in SHEET_CHECKS:
            checks.check({key: value})
    except SheetError:
        return False
    return True


def bestiary(value: Any) -> Any:
    """Return the bestiary document's value with each template in its schema-4 form."""
    return restack.templates(value, character)


def upgrade(tables: Tables) -> Tables:
    """Bring the party, the bestiary and the undo/redo stacks to schema 4 (in place)."""
    return restack.upgrade(tables, character, bestiary)
