"""An outcome written to the campaign: one locked write, one undo step, its Журнал lines.

Whoever made the step — a key in the app, an accepted seat request, ``kubik fight`` — writes
its outcome here: the state's document as a delta against the one the step read (what
another window changed meanwhile stays; a part both changed is refused), the sheets it
changed merged field by field, and its Журнал lines with their luck, all in one
``store.apply``. A line is never written for a change that is not. A step on one
character's sheet alone (a wound from the Партия tab) is made on that character as the file
has it, under the store's lock (:func:`commit_edit`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from rules.systems import reads_previous
from tui.bridge.luck import with_luck
from tui.store import Character, Edit, LogEntry, StaleWrite, Store
from tui.table.core import Line, Outcome

#: Makes a Журнал entry of a line: (kind, actor, text, data) → entry (the app's stamps its
#: clock and the secret-rolls mark).
MakeEntry = Callable[[str, str | None, str, dict[str, Any]], LogEntry]


def plain_entry(kind: str, actor: str | None, text: str, data: dict[str, Any]) -> LogEntry:
    """A Журнал entry stamped now (the command line's)."""
    at = datetime.now().astimezone().isoformat(timespec="seconds")
    return LogEntry(uuid.uuid4().hex, at, kind, actor, text, data)


def entries(store: Store, lines: Sequence[Line], make: MakeEntry = plain_entry) -> list[LogEntry]:
    """Return the Журнал entries of ``lines``, each with its luck (its percentile)."""
    previous: list[dict[str, Any]] | None = None
    found = []
    for line in lines:
        data = dict(line.data)
        if previous is None and (reads_previous(data.get("system")) or "plan" in data):
            previous = [e.data for e in store.log(limit=30)]
        data = with_luck(line.kind, line.actor, data, previous or [])
        found.append(make(line.kind, line.actor, line.text, data))
    return found


def commit(
    store: Store,
    outcome: Outcome[Any],
    docs: Mapping[str, dict[str, Any] | None],
    *,
    bases: Mapping[str, dict[str, Any] | None] | None = None,
    make: MakeEntry = plain_entry,
    what: str = "изменение не записано",
) -> str:
    """Write ``outcome`` as one undo step; return the step's id ("" if nothing changed).

    Args:
        docs: the state's documents as the outcome leaves them (None removes one); the
            outcome's own ``docs`` are written with them.
        bases: the documents as the step read them: only what it changed is applied.
        make: turns a line into a Журнал entry.
        what: what is lost when the store refuses the write («ход боя не записан»).

    Raises:
        ValueError: the outcome was refused (nothing to write).
        StoreError (StaleWrite, StoreBusy, …): nothing was written.
    """
    if not outcome.ok:
        raise ValueError(f"a refused outcome is not written: {outcome.refused}")
    store.apply(
        outcome.label,
        upsert=outcome.sheets,
        delete=outcome.removed,
        docs={**outcome.docs, **docs},
        bases=bases,
        log=entries(store, outcome.log, make),
        what=what,
    )
    return str(store.take_last_step() or "")


def commit_edit(
    store: Store,
    character_id: str,
    step: Callable[..., Outcome[Any]],
    *args: Any,
    name: str,
    what: str = "изменение не записано",
    make: MakeEntry = plain_entry,
) -> Outcome[Any]:
    """Make ``step(character, *args)`` on the character as the file has it when the write runs
    (under the store's lock) and write its outcome as one undo step; return the outcome.

    The step changes that one character and nothing else: made on the stored character, not
    on a copy read earlier, a wound given here is added to the track another window changed
    meanwhile, a point of Судьба to the count it has now. A refused outcome writes nothing.

    Args:
        name: the character's name as the caller knows it (said when it is gone).
        what: what is lost when the store refuses the write («рана не записана»).
        make: turns a line into a Журнал entry.

    Raises:
        StaleWrite: the character was removed meanwhile («Персонаж … удалён в другом окне —
            рана не записана»); nothing was written.
        StoreError (StoreBusy, …): nothing was written.
    """
    made: list[Outcome[Any]] = []

    def edit(current: Character) -> Edit | None:
        outcome = step(current, *args)
        made.append(outcome)
        if not outcome.ok:
            return None
        if len(outcome.sheets) != 1 or outcome.removed or outcome.docs:
            raise ValueError("a step on one character changes that character alone")
        # The luck of a character's own lines reads no earlier roll: the Журнал is not read
        # here, under the store's lock.
        log = [
            make(
                line.kind, line.actor, line.text, with_luck(line.kind, line.actor, dict(line.data))
            )
            for line in outcome.log
        ]
        return Edit(outcome.sheets[0], outcome.label, log)

    store.update_character(character_id, edit, name=name, what=what)
    return made[-1]


#: The key of a state's document that changes at every write (:func:`versioned`).
VERSION = "version"


def versioned(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with a new :data:`VERSION`: a step made on the state as it was before another
    window changed it is refused by the store's merge, even when both made the same change
    (two windows passing the same turn would otherwise write it — and its Журнал lines —
    twice)."""
    return {**doc, VERSION: uuid.uuid4().hex}


#: How the store's refusal of a document another window changed begins (it names the
#: document's keys, :data:`VERSION` among them).
DOC_CHANGED = "В другом окне изменили то же самое ("


def said_plainly(err: StaleWrite, what: str, whose: str) -> StaleWrite:
    """The store's refusal of a versioned document changed elsewhere, in words («(бой или
    эффекты) — ход боя не записан»); a sheet's refusal stays as the store said it."""
    if not str(err).startswith(DOC_CHANGED):
        return err
    return StaleWrite(f"{DOC_CHANGED}{whose}) — {what}. Откройте заново.")
