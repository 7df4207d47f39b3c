"""A migration step over every stored form of a character: the party, the bestiary's templates
(a template is a character's sheet) and the undo and redo stacks.

A stack step keeps only the fields it changed and a signature of what it left
(:mod:`tui.store.history`), so its values and signatures are rebuilt on the states the step
sits between: walking the undo stack back from the party as it is (and the redo stack
forward), each state is converted and the step made again between the converted ones. A step
that does not fit the state it is walked onto (a hand edit behind the stacks) is kept as it
was, and what it refused it still refuses.

A step (:mod:`tui.store.sheet_fields`, :mod:`tui.store.core_marks`) gives its conversion of one
character document and of the bestiary document's value; :func:`upgrade` does the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import history
from .tables import CHARACTERS, DOCS, HISTORY, Tables

BESTIARY = "bestiary"

Key = tuple[str, str]
Convert = Callable[[Any], Any]


def templates(value: Any, character: Convert) -> Any:
    """Return the bestiary document's value with ``character`` applied to each template."""
    if not isinstance(value, dict) or not isinstance(value.get("templates"), dict):
        return value
    return {**value, "templates": {k: character(t) for k, t in value["templates"].items()}}


def upgrade(tables: Tables, character: Convert, bestiary: Convert) -> Tables:
    """Convert the party (``character``), the bestiary (``bestiary``) and the undo/redo
    stacks (in place)."""
    now: dict[Key, Any] = {}
    for doc in tables.get(CHARACTERS, {}).values():
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            now[("character", doc["id"])] = doc
    for doc in tables.get(DOCS, {}).values():
        if isinstance(doc, dict) and doc.get("name") == BESTIARY:
            now[("doc", BESTIARY)] = doc.get("value")

    def converter(kind: Any, key: Any) -> Convert | None:
        if kind == "character":
            return character
        if kind == "doc" and key == BESTIARY:
            return bestiary
        return None

    for found in tables.get(HISTORY, {}).values():
        if isinstance(found, dict):
            _stack(found.get("undo"), dict(now), converter)
            _stack(found.get("redo"), dict(now), converter)
    characters = tables.get(CHARACTERS, {})
    for key, doc in characters.items():
        characters[key] = character(doc)
    for doc in tables.get(DOCS, {}).values():
        if isinstance(doc, dict) and doc.get("name") == BESTIARY:
            doc["value"] = bestiary(doc.get("value"))
    return tables


def _stack(
    steps: Any, state: dict[Key, Any], converter: Callable[[Any, Any], Convert | None]
) -> None:
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
            convert = converter(kind, key)
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
