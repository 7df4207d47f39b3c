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

Each window undoes its own changes (as collaborative editors do): a step carries who made it
(``by``: the origin of the :class:`~tui.store.store.Store` that wrote it, "" for steps of an
older kubik) and a signature of what it left (``sigs``: per change, a short hash of each field
or value as the step wrote it). Undo takes the newest step of the asking window only, wherever
it sits in the stack; when a field it would put back no longer holds what the step wrote — a
later change from elsewhere built on it — the undo is refused with the reason
(:class:`~tui.store.errors.UndoRefused`) and nothing changes. A new step clears only its own
window's redo steps.

The Журнал is history, not state: appending a roll is never an undo step. A step that wrote
Журнал entries has an ``id``, and those entries carry it (``data["step"]``); undoing the step
puts its id in the history's ``undone`` list (a redo takes it out), so an entry whose effect
was undone is shown marked «отменено» while the Журнал itself stays append-only.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Document

from .errors import UndoRefused
from .tables import CHARACTERS, DOCS, HISTORY, META

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


def stacks(tables: dict[str, Any]) -> dict[str, Any]:
    """Return the undo and redo stacks, the ``undone`` step ids and the ``windows`` of raw
    tables. Damaged stacks read as empty.
    """
    docs = list(tables.get(HISTORY, {}).values())
    found = docs[0] if len(docs) == 1 and isinstance(docs[0], dict) else {}
    got: dict[str, Any] = {name: _valid_steps(found.get(name)) for name in ("undo", "redo")}
    undone = found.get("undone")
    got["undone"] = [i for i in undone if isinstance(i, str)] if isinstance(undone, list) else []
    got["windows"] = windows(tables)
    return got


_MISSING = object()


def _hash(value: Any) -> str:
    """A short signature of a stored value (what a step left, to see later changes)."""
    if value is _MISSING:
        return "-"
    # zlib, not hashlib: hashlib loads OpenSSL's digests (the GM's memory at start).
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


#: Documents that are one state machine (a fight, a round tracker, an open check): their keys
#: hold together (the phase and the exchange in progress), so a later change to any of them
#: from elsewhere is built on the whole step — an undo is refused, never merged key by key.
WHOLE_DOCS = frozenset({"encounter", "rounds", "check"})


def signature(change: dict[str, Any], value: Any) -> Any:
    """What ``change``'s thing holds as its step left it: per field, or whole."""
    if change.get("kind") == "doc" and change.get("key") in WHOLE_DOCS:
        return _hash(value)
    if "fields" in change and isinstance(value, dict):
        names = [*change["fields"], *change.get("unset", ())]
        return {name: _hash(value.get(name, _MISSING)) for name in names}
    return _hash(value)


def _changed_since(change: dict[str, Any], sig: Any, current: Any) -> list[str]:
    """The fields (or ``["*"]``, the whole thing) that no longer hold what the step left."""
    if isinstance(sig, dict):
        if not isinstance(current, dict):
            return []  # gone behind the stacks (a hand edit): the patch is skipped, as ever
        return [n for n, h in sig.items() if _hash(current.get(n, _MISSING)) != h]
    if isinstance(sig, str):
        return ["*"] if _hash(current) != sig else []
    return []


def _touches(step: dict[str, Any], kind: str, key: str, fields: list[str]) -> bool:
    for change in step.get("changes", ()):
        if change.get("kind") != kind or change.get("key") != key:
            continue
        if "fields" not in change or "*" in fields or (kind == "doc" and key in WHOLE_DOCS):
            return True
        names = {*change["fields"], *change.get("unset", ())}
        if names & set(fields):
            return True
    return False


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


def _replace_with(value: dict[str, Any]) -> Callable[[MutableMapping[Any, Any]], None]:
    def replace(doc: MutableMapping[Any, Any]) -> None:
        doc.clear()
        doc.update(value)

    return replace


def _save(db: TinyDB, history: dict[str, Any]) -> None:
    history = {k: v for k, v in history.items() if k not in ("undone", "windows") or v}
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
    origin: str = "",
    window: dict[str, Any] | None = None,
    mine: Callable[[str], bool] | None = None,
) -> bool:
    """Apply ``changes`` as one undo step labelled ``label``; return whether anything changed.

    A new step clears its window's redo steps; the oldest steps fall off past
    :data:`UNDO_LIMIT`. ``step_id`` names the step for the Журнал entries it writes (see the
    module's doc); ``force`` records the step even when it changes nothing (it wrote Журнал
    entries, which an undo then marks). ``origin`` is the window that makes it, ``window``
    what is known of that window (its process, for a restarted one to take its steps back),
    ``mine`` which steps are that window's (its redo steps go; default: ``origin``'s).
    """
    befores, sigs = [], []
    for kind, key, value in changes:
        before = get_value(db, kind, key)
        if before == value:
            continue
        change = undo_change(kind, key, before, value)
        befores.append(change)
        sigs.append(signature(change, value))
        set_value(db, kind, key, value)
    if not befores and not force:
        return False
    history = stacks(db.storage.read() or {})
    taken: dict[str, Any] = {"label": label, "changes": befores, "by": origin, "sigs": sigs}
    if step_id is not None:
        taken["id"] = step_id
    history["undo"].append(taken)
    del history["undo"][:-UNDO_LIMIT]
    own = mine if mine is not None else (lambda by: by == origin)
    history["redo"] = [s for s in history["redo"] if not own(str(s.get("by", "")))]
    _note_window(history, origin, window)
    _save(db, history)
    return True


def _note_window(history: dict[str, Any], origin: str, window: dict[str, Any] | None) -> None:
    """Keep what is known of the windows that still have steps (and of ``origin``)."""
    if window is None:
        return
    have = {s.get("by", "") for name in ("undo", "redo") for s in history[name]}
    windows = {k: v for k, v in history.get("windows", {}).items() if k in have}
    windows[origin] = window
    history["windows"] = windows


def windows(tables: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What the history knows of each window with steps: origin → its process."""
    docs = list(tables.get(HISTORY, {}).values())
    found = docs[0] if len(docs) == 1 and isinstance(docs[0], dict) else {}
    got = found.get("windows")
    if not isinstance(got, dict):
        return {}
    return {str(k): v for k, v in got.items() if isinstance(v, dict)}


#: Where a change the window did not make came from, in the words that say so.
ELSEWHERE = "в другом окне"
BY_COMMAND = "командой kubik"


def removed_where(
    tables: dict[str, Any], character_id: str, mine: Callable[[str], bool] | None = None
) -> str:
    """Where the character was removed, as a message says it: :data:`BY_COMMAND` when a
    ``kubik`` command's step removed him, "" when ``mine`` claims the step (this window's),
    :data:`ELSEWHERE` otherwise (another window's; or no step says, the history keeping only
    the newest :data:`UNDO_LIMIT`). A step removed him when it puts his whole value back: the
    newest such step of the undo stack (a removal), else of the redo stack (an addition undone).
    """
    found = stacks(tables)
    for source in ("undo", "redo"):
        for taken in reversed(found[source]):
            if any(
                c.get("kind") == "character" and c.get("key") == character_id and c.get("value")
                for c in taken["changes"]
            ):
                by = str(taken.get("by", ""))
                if mine is not None and mine(by):
                    return ""
                kind = found["windows"].get(by, {}).get("kind")
                return BY_COMMAND if kind == "cli" else ELSEWHERE
    return ELSEWHERE


def removed_words(name: str, where: str) -> str:
    """«Персонаж Вера Соколова удалён командой kubik» (``where`` from :func:`removed_where`)."""
    return f"Персонаж {name} удалён" + (f" {where}" if where else "")


def newest_of(steps: list[dict[str, Any]], mine: Callable[[str], bool] | None) -> int | None:
    """The index of the newest step ``mine`` claims (any step without ``mine``)."""
    for index in range(len(steps) - 1, -1, -1):
        if mine is None or mine(str(steps[index].get("by", ""))):
            return index
    return None


def newest_label(db: TinyDB, source: str, mine: Callable[[str], bool] | None) -> str | None:
    """The label of the step :func:`step` would take next from ``source``, or None."""
    found = stacks(db.storage.read() or {})[source]
    index = newest_of(found, mine)
    return str(found[index]["label"]) if index is not None else None


def changed_since(
    taken: dict[str, Any], db: TinyDB, others: Sequence[dict[str, Any]] = ()
) -> tuple[str, str, list[str]] | None:
    """The first thing (kind, key, fields) that ``taken`` would put back and that no longer
    holds what the step left (a change from elsewhere built on it), or None.

    A patch of something gone (a character removed since) counts as changed when one of
    ``others`` (the other windows' steps on the undo stack) touches it: its removal is to be
    undone first, else the patch was skipped and what it put back lost when the removal was
    undone. Gone with no such step (a file edited by hand), the patch is skipped, as ever."""
    sigs = taken.get("sigs")
    if not isinstance(sigs, list) or len(sigs) != len(taken["changes"]):
        return None
    for sig, change in zip(sigs, taken["changes"], strict=True):
        kind, key = change["kind"], change["key"]
        current = get_value(db, kind, key)
        fields = _changed_since(change, sig, current)
        if not fields and isinstance(sig, dict) and not isinstance(current, dict):
            fields = ["*"] if any(_touches(s, kind, key, ["*"]) for s in others) else []
        if fields:
            return kind, key, fields
    return None


def step(
    db: TinyDB,
    source: str,
    logged: Callable[[], set[str]] | None = None,
    *,
    mine: Callable[[str], bool] | None = None,
    origin: str = "",
    window: dict[str, Any] | None = None,
) -> str | None:
    """Undo (``source="undo"``) or redo this window's newest step; return its label, None
    if it has none.

    ``mine`` says which steps are the window's (None: every step, the newest first);
    ``origin`` marks the step moved to the other stack. ``logged`` returns the step ids the
    Журнал's entries name: past :data:`UNDONE_KEEP`, undone ids no entry names are dropped,
    so the list does not grow with every undo.

    Raises:
        UndoRefused: a field the step would put back was changed since by a change from
            elsewhere (it is named); nothing was changed.
    """
    target = "redo" if source == "undo" else "undo"
    history = stacks(db.storage.read() or {})
    index = newest_of(history[source], mine)
    if index is None:
        return None
    taken = history[source].pop(index)
    # the other windows' steps since (on the undo stack, newer than an undone one)
    newer = history["undo"][index:] if source == "undo" else history["undo"]
    others = [s for s in newer if not (mine and mine(str(s.get("by", ""))))]
    if (found := changed_since(taken, db, others)) is not None:
        raise UndoRefused(_refusal(taken, history, *found, source, mine))
    inverse, back_sigs = [], []
    for change in taken["changes"]:
        kind, key = change["kind"], change["key"]
        current = get_value(db, kind, key)
        try:
            value = restored(change, current)
        except ValueError:
            continue  # the file was edited by hand behind the stacks: skip what cannot apply
        back = undo_change(kind, key, current, value)
        inverse.append(back)
        back_sigs.append(signature(back, value))
        set_value(db, kind, key, value)
    back_step: dict[str, Any] = {
        "label": taken["label"],
        "changes": inverse,
        "by": origin if mine is not None else taken.get("by", ""),
        "sigs": back_sigs,
    }
    step_id = taken.get("id")
    if isinstance(step_id, str):
        back_step["id"] = step_id
        undone = [i for i in history["undone"] if i != step_id]
        undone = [*undone, step_id] if source == "undo" else undone
        if len(undone) > UNDONE_KEEP and logged is not None:
            named = logged()
            old, recent = undone[:-UNDONE_KEEP], undone[-UNDONE_KEEP:]
            undone = [i for i in old if i in named] + recent
        history["undone"] = undone
    history[target].append(back_step)
    del history[target][:-UNDO_LIMIT]
    if mine is not None:
        _note_window(history, origin, window)
    _save(db, history)
    return str(taken["label"])


def _refusal(
    taken: dict[str, Any],
    history: dict[str, Any],
    kind: str,
    key: str,
    fields: list[str],
    source: str,
    mine: Callable[[str], bool] | None,
) -> str:
    """Why this window's step cannot be undone: the change from elsewhere that built on it."""
    verb = "отменить" if source == "undo" else "вернуть"
    later = [
        s
        for s in reversed(history["undo"])
        if not (mine and mine(str(s.get("by", "")))) and _touches(s, kind, key, fields)
    ]
    if later:
        other = later[0]["label"]
        kind_of = history.get("windows", {}).get(str(later[0].get("by", "")), {})
        if isinstance(kind_of, dict) and kind_of.get("kind") == "cli":
            return (
                f"Нельзя {verb} «{taken['label']}»: на нём построено «{other}» командой kubik "
                "(то же изменено ею). Команду из окна не отменить: исправьте итог следующим "
                "шагом."
            )
        return (
            f"Нельзя {verb} «{taken['label']}»: на нём построено «{other}» из другого окна "
            f"(то же изменено там). Сначала отмените «{other}» в том окне."
        )
    return (
        f"Нельзя {verb} «{taken['label']}»: то, что этот шаг изменил, с тех пор изменено в "
        "другом окне. Ничего не отменено."
    )
