"""Schema 3 → 4: each sheet field of a character gets a key of its own.

Up to schema 3 a character document kept Древо's Судьба and wounds as fields and every other
system's sheet values (IDE4's energy, a Мир Тьмы health track, Смерть…) inside its free-form
``extra``. Schema 4 gives each of them its own key, checked by the system's typed sheet
(``rules/<system>/sheet.py``); ``extra`` keeps only what no sheet names.

The step converts every stored form of a character: the party, the bestiary's templates (a
template is a character's sheet), and the undo and redo stacks. A stack step keeps only the
fields it changed and a signature of what it left (:mod:`tui.store.history`), so its values
and signatures are rebuilt on the states the step sits between: walking the undo stack back
from the party as it is (and the redo stack forward), each state is converted and the step
made again between the converted ones. A step that does not fit the state it is walked onto
(a hand edit behind the stacks) is kept as it was, and what it refused it still refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.sheets import SheetError

from . import history
from .schema import SHEET_CHECKS
from .tables import CHARACTERS, DOCS, HISTORY, Tables

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

BESTIARY = "bestiary"

Key = tuple[str, str]


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
        extra[_free(extra, f"{key}_v3")] = value
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


def _free(extra: dict[str, Any], name: str) -> str:
    while name in extra:
        name += "_"
    return name


def bestiary(value: Any) -> Any:
    """Return the bestiary document's value with each template in its schema-4 form."""
    if not isinstance(value, dict) or not isinstance(value.get("templates"), dict):
        return value
    return {**value, "templates": {k: character(t) for k, t in value["templates"].items()}}


def _converter(kind: Any, key: Any) -> Callable[[Any], Any] | None:
    if kind == "character":
        return character
    if kind == "doc" and key == BESTIARY:
        return bestiary
    return None


def upgrade(tables: Tables) -> Tables:
    """Bring the party, the bestiary and the undo/redo stacks to schema 4 (in place)."""
    now: dict[Key, Any] = {}
    for doc in tables.get(CHARACTERS, {}).values():
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            now[("character", doc["id"])] = doc
    for doc in tables.get(DOCS, {}).values():
        if isinstance(doc, dict) and doc.get("name") == BESTIARY:
            now[("doc", BESTIARY)] = doc.get("value")
    for found in tables.get(HISTORY, {}).values():
        if isinstance(found, dict):
            _stack(found.get("undo"), dict(now))
            _stack(found.get("redo"), dict(now))
    characters = tables.get(CHARACTERS, {})
    for key, doc in characters.items():
        characters[key] = character(doc)
    for doc in tables.get(DOCS, {}).values():
        if isinstance(doc, dict) and doc.get("name") == BESTIARY:
            doc["value"] = bestiary(doc.get("value"))
    return tables


def _stack(steps: Any, state: dict[Key, Any]) -> None:
    """Convert each step of one stack, newest first, on the states it sits between.

    Both stacks walk the same way from the party as it is: the newest step applies to it
    (an undo step puts back the state before it, a redo step the state after the undone
    one), the next to what that left, and so on. A step's signature is what it found.
    """
    if not isinstance(steps, list):
        return
    for step in reversed(steps):
        if not isinstance(step, dict) or not isinstance(step.get("changes"), list):
            continue
        sigs = step.get("sigs")
        sigs = sigs if isinstance(sigs, list) and len(sigs) == len(step["changes"]) else None
        for n, change in enumerate(step["changes"]):
            if not history._valid_change(change):
                continue
            kind, key = change["kind"], change["key"]
            convert = _converter(kind, key)
            if convert is None:
                continue
            here = state.get((kind, key))
            try:
                there = history.restored(change, here)
            except ValueError:
                continue  # a patch for a thing that is gone: an undo skips it as ever
            state[(kind, key)] = there
            stale = sigs is not None and history._changed_since(change, sigs[n], here)
            new = _remade(change, convert(there), convert(here))
            step["changes"][n] = new
            if sigs is not None and not stale:
                sigs[n] = history.signature(new, convert(here))


def _remade(change: dict[str, Any], back: Any, left: Any) -> dict[str, Any]:
    """The change that puts ``back`` in place of ``left``, in the form ``change`` had."""
    if "fields" in change and isinstance(back, dict) and isinstance(left, dict):
        return history.undo_change(change["kind"], change["key"], back, left)
    return {"kind": change["kind"], "key": change["key"], "value": back}
