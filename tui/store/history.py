"""Undo and redo stacks, kept in the campaign file's ``history`` table.

A step records, for each thing it changed, how to put back its value from *before* the
change. For a character or an app document that stays a dict, that is only the fields that
differ — ``{"fields": {name: old value}, "unset": [names it did not have]}``, since schema 3 —
so a wound costs a few bytes rather than a copy of the whole character; for what was created
or removed, and for the campaign's own fields, it is the whole old value (``{"value": …}``,
None for "did not exist"). Undoing a step puts the values back and records, the same way,
what it replaced as a redo step.

A patch is enough because a step is only ever applied to the state right after it: the
stacks live in the same file as the state, so one atomic write saves both, and after a crash
or a restart the stacks always match the party (a file edited by hand can break that: a patch
for a thing that is gone is skipped). The stacks belong to the campaign, not to one window:
two kubiks on one file share them.

The Журнал is history, not state: appending a roll is never an undo step. A step that wrote
Журнал entries has an ``id``, and those entries carry it (``data["step"]``); undoing the step
puts its id in the history's ``undone`` list (a redo takes it out), so an entry whose effect
was undone is shown marked «отменено» while the Журнал itself stays append-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Document

from .migrations import CHARACTERS, DOCS, HISTORY, META

#: Undo steps kept per campaign (redo steps too).
UNDO_LIMIT = 100
#: Undone step ids always kept; older ones only while a Журнал entry names them.
UNDONE_KEEP = 200

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
    """Store one thing in place of the old one; None removes a character or a document."""
    if kind == "character":
        table, cond = db.table(CHARACTERS), Query().id == key
        if value is None:
            table.remove(cond)
        elif not table.update(_replace_with(value), cond):
            table.insert(dict(value))
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


def stacks(tables: dict[str, Any]) -> dict[str, list[Any]]:
    """Return the undo and redo stacks and the ``undone`` step ids of raw tables.

    Damaged stacks read as empty.
    """
    docs = list(tables.get(HISTORY, {}).values())
    found = docs[0] if len(docs) == 1 and isinstance(docs[0], dict) else {}
    got: dict[str, list[Any]] = {name: _valid_steps(found.get(name)) for name in ("undo", "redo")}
    undone = found.get("undone")
    got["undone"] = [i for i in undone if isinstance(i, str)] if isinstance(undone, list) else []
    return got


def _valid_steps(steps: Any) -> list[dict[str, Any]]:
    if not isinstance(steps, list):
        return []
    good = []
    for step in steps:
        if (
            isinstance(step, dict)
            and isinstance(step.get("label"), str)
            and isinstance(step.get("changes"), list)
            and all(_valid_change(c) for c in step["changes"])
        ):
            good.append(step)
    return good


def _valid_change(change: Any) -> bool:
    if not (
        isinstance(change, dict)
        and change.get("kind") in KINDS
        and isinstance(change.get("key"), str)
    ):
        return False
    if "fields" not in change:
        return True
    unset = change.get("unset", [])
    return (
        isinstance(change["fields"], dict)
        and isinstance(unset, list)
        and all(isinstance(name, str) for name in unset)
    )


def undo_change(kind: str, key: str, before: Any, after: Any) -> dict[str, Any]:
    """Return the change that turns ``after`` back into ``before`` (see the module's doc)."""
    if isinstance(before, dict) and isinstance(after, dict):
        change: dict[str, Any] = {"kind": kind, "key": key}
        change["fields"] = {k: v for k, v in before.items() if k not in after or after[k] != v}
        unset = [k for k in after if k not in before]
        if unset:
            change["unset"] = unset
        return change
    return {"kind": kind, "key": key, "value": before}


def restored(change: dict[str, Any], current: Any) -> Any:
    """Return the value ``change`` puts back in place of ``current``.

    Raises:
        ValueError: ``change`` patches fields but ``current`` is no dict (a hand-edited file).
    """
    if "fields" not in change:
        return change.get("value")
    if not isinstance(current, dict):
        raise ValueError(f"cannot patch {change['kind']} {change['key']!r}: it is gone")
    unset = set(change.get("unset", ()))
    value = {k: v for k, v in current.items() if k not in unset}
    value.update(change["fields"])
    return value


def _replace_with(value: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def replace(doc: dict[str, Any]) -> None:
        doc.clear()
        doc.update(value)

    return replace


def _save(db: TinyDB, history: dict[str, list[Any]]) -> None:
    if not history.get("undone"):
        history = {k: v for k, v in history.items() if k != "undone"}
    table = db.table(HISTORY)
    table.truncate()
    table.insert(Document(history, doc_id=1))


def record(
    db: TinyDB,
    label: str,
    changes: list[Change],
    step_id: str | None = None,
    *,
    force: bool = False,
) -> bool:
    """Apply ``changes`` as one undo step labelled ``label``; return whether anything changed.

    A new step clears the redo stack; the oldest steps fall off past :data:`UNDO_LIMIT`.
    ``step_id`` names the step for the Журнал entries it writes (see the module's doc);
    ``force`` records the step even when it changes nothing (it wrote Журнал entries, which
    an undo then marks).
    """
    befores = []
    for kind, key, value in changes:
        before = get_value(db, kind, key)
        if before == value:
            continue
        befores.append(undo_change(kind, key, before, value))
        set_value(db, kind, key, value)
    if not befores and not force:
        return False
    history = stacks(db.storage.read() or {})
    taken: dict[str, Any] = {"label": label, "changes": befores}
    if step_id is not None:
        taken["id"] = step_id
    history["undo"].append(taken)
    del history["undo"][:-UNDO_LIMIT]
    history["redo"] = []
    _save(db, history)
    return True


def step(db: TinyDB, source: str, logged: Callable[[], set[str]] | None = None) -> str | None:
    """Undo (``source="undo"``) or redo the newest step; return its label, None if none.

    ``logged`` returns the step ids the Журнал's entries name: past :data:`UNDONE_KEEP`,
    undone ids no entry names are dropped, so the list does not grow with every undo.
    """
    target = "redo" if source == "undo" else "undo"
    history = stacks(db.storage.read() or {})
    if not history[source]:
        return None
    taken = history[source].pop()
    inverse = []
    for change in taken["changes"]:
        kind, key = change["kind"], change["key"]
        current = get_value(db, kind, key)
        try:
            value = restored(change, current)
        except ValueError:
            continue  # the file was edited by hand behind the stacks: skip what cannot apply
        inverse.append(undo_change(kind, key, current, value))
        set_value(db, kind, key, value)
    back: dict[str, Any] = {"label": taken["label"], "changes": inverse}
    step_id = taken.get("id")
    if isinstance(step_id, str):
        back["id"] = step_id
        undone = [i for i in history["undone"] if i != step_id]
        undone = [*undone, step_id] if source == "undo" else undone
        if len(undone) > UNDONE_KEEP and logged is not None:
            named = logged()
            old, recent = undone[:-UNDONE_KEEP], undone[-UNDONE_KEEP:]
            undone = [i for i in old if i in named] + recent
        history["undone"] = undone
    history[target].append(back)
    del history[target][:-UNDO_LIMIT]
    _save(db, history)
    return str(taken["label"])
