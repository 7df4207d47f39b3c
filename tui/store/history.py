"""Undo and redo stacks, kept in the campaign file's ``history`` table.

A step records, for each thing it changed, the value *before* the change; undoing a step
puts those values back and records the values it replaced as a redo step. Because the
stacks live in the same file as the state, one atomic write saves both: after a crash or a
restart the stacks always match the party. The stacks belong to the campaign, not to one
window: two kubiks on one file share them.

The Журнал is history, not state: appending a roll is never an undo step.
"""

from __future__ import annotations

from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Document

from .migrations import CHARACTERS, DOCS, HISTORY, META

#: Undo steps kept per campaign (redo steps too).
UNDO_LIMIT = 100

#: What a change can touch: a character (key: id), an app document (key: name), or a field
#: of the campaign's own description (key: "name").
KINDS = ("character", "doc", "meta")

Change = tuple[str, str, Any]


def get_value(db: TinyDB, kind: str, key: str) -> Any:
    """Return the stored value of one thing, or None when it does not exist."""
    if kind == "character":
        doc = db.table(CHARACTERS).get(Query().id == key)
        return None if doc is None else dict(doc)
    if kind == "doc":
        doc = db.table(DOCS).get(Query().name == key)
        return None if doc is None else doc.get("value")
    if kind == "meta":
        (meta,) = db.table(META).all()
        return meta.get(key)
    raise ValueError(f"unknown change kind {kind!r}")


def set_value(db: TinyDB, kind: str, key: str, value: Any) -> None:
    """Store one thing; None removes a character or a document."""
    if kind == "character":
        table, cond = db.table(CHARACTERS), Query().id == key
        if value is None:
            table.remove(cond)
        else:
            table.upsert(dict(value), cond)
    elif kind == "doc":
        table, cond = db.table(DOCS), Query().name == key
        if value is None:
            table.remove(cond)
        else:
            table.upsert({"name": key, "value": value}, cond)
    elif kind == "meta":
        db.table(META).update({key: value})
    else:
        raise ValueError(f"unknown change kind {kind!r}")


def stacks(tables: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Return the undo and redo stacks of raw tables; damaged stacks read as empty."""
    docs = list(tables.get(HISTORY, {}).values())
    found = docs[0] if len(docs) == 1 and isinstance(docs[0], dict) else {}
    return {name: _valid_steps(found.get(name)) for name in ("undo", "redo")}


def _valid_steps(steps: Any) -> list[dict[str, Any]]:
    if not isinstance(steps, list):
        return []
    good = []
    for step in steps:
        if (
            isinstance(step, dict)
            and isinstance(step.get("label"), str)
            and isinstance(step.get("changes"), list)
            and all(
                isinstance(c, dict) and c.get("kind") in KINDS and isinstance(c.get("key"), str)
                for c in step["changes"]
            )
        ):
            good.append(step)
    return good


def _save(db: TinyDB, history: dict[str, list[dict[str, Any]]]) -> None:
    table = db.table(HISTORY)
    table.truncate()
    table.insert(Document(history, doc_id=1))


def record(db: TinyDB, label: str, changes: list[Change]) -> bool:
    """Apply ``changes`` as one undo step labelled ``label``; return whether anything changed.

    A new step clears the redo stack; the oldest steps fall off past :data:`UNDO_LIMIT`.
    """
    befores = []
    for kind, key, value in changes:
        before = get_value(db, kind, key)
        if before == value:
            continue
        befores.append({"kind": kind, "key": key, "value": before})
        set_value(db, kind, key, value)
    if not befores:
        return False
    history = stacks(db.storage.read() or {})
    history["undo"].append({"label": label, "changes": befores})
    del history["undo"][:-UNDO_LIMIT]
    history["redo"] = []
    _save(db, history)
    return True


def step(db: TinyDB, source: str) -> str | None:
    """Undo (``source="undo"``) or redo the newest step; return its label, None if none."""
    target = "redo" if source == "undo" else "undo"
    history = stacks(db.storage.read() or {})
    if not history[source]:
        return None
    taken = history[source].pop()
    inverse = []
    for change in taken["changes"]:
        kind, key = change["kind"], change["key"]
        inverse.append({"kind": kind, "key": key, "value": get_value(db, kind, key)})
        set_value(db, kind, key, change.get("value"))
    history[target].append({"label": taken["label"], "changes": inverse})
    del history[target][:-UNDO_LIMIT]
    _save(db, history)
    return str(taken["label"])
