"""Schema 3 → 4 on any undo and redo stacks: the walk back and forth reads the same states.

The stacks are made by the store's own history code (which diffs whatever documents it is
given) on schema-3 documents; the same walk — every undo, then every redo — is taken on the
schema-3 tables and on the migrated ones, and each state must read the same.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from tinydb import TinyDB
from tinydb.storages import MemoryStorage

from tests.hypo import examples
from tui.store import history
from tui.store.codec import character_from_doc
from tui.store.migrations import CHARACTERS, DOCS, HISTORY, META, upgrade
from tui.store.schema import validate

IDS = ("a" * 32, "b" * 32)

_edit = st.fixed_dictionaries(
    {},
    optional={
        "dead": st.booleans(),
        "energy": st.integers(0, 100),
        "harm": st.text(max_size=4),
        "health": st.lists(st.sampled_from(["bashing", "lethal"]), max_size=3),
        "hidden": st.booleans(),
    },
)
_step = st.tuples(st.sampled_from(IDS), st.integers(0, 5), _edit)


def _doc(cid: str, fate: int, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid[0],
        "kind": "pc",
        "qualities": {},
        "skills": [],
        "weapons": [],
        "fate": fate,
        "wounds": {"scratch": 0, "light": 0, "wound": 0, "heavy": 0},
        "notes": "",
        "extra": extra,
        "rolls": [],
    }


def _db(tables: dict[str, Any]) -> TinyDB:
    db = TinyDB(storage=MemoryStorage)
    db.storage.write(copy.deepcopy(tables))
    return db


def _party(db: TinyDB) -> dict[str, Any]:
    read = {}
    for doc in db.table(CHARACTERS).all():
        c = character_from_doc(dict(doc))
        read[c.id] = (c.drevo.fate, c.drevo.wounds, c.extra, c.notes)
    return read


def walk(db: TinyDB, party: Callable[[TinyDB], Any] = _party) -> list[Any]:
    """The party as ``party`` reads it now, after each undo, then after each redo."""
    seen = [party(db)]
    for way in ("undo", "redo"):
        while history.step(db, way) is not None:
            seen.append(party(db))
    return seen


Doc = Callable[[str, int, dict[str, Any]], dict[str, Any]]


def stacked(
    version: int, steps: list[tuple[str, int, dict[str, Any]]], undone: int, doc: Doc = _doc
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The tables of schema ``version`` after ``steps`` (each ``doc(id, fate, extra)`` written
    as one step by the store's own history code) and ``undone`` undos, and those tables
    migrated; both checked by the schema."""
    tables: dict[str, Any] = {
        META: {"1": {"schema_version": version, "name": "К", "system": "ide4", "rev": 1}},
        CHARACTERS: {str(n): doc(cid, 1, {}) for n, cid in enumerate(IDS, 1)},
        DOCS: {},
        HISTORY: {},
    }
    db = _db(tables)
    for n, (cid, fate, extra) in enumerate(steps):
        history.record(db, f"шаг {n}", [("character", cid, doc(cid, fate, extra))])
    for _ in range(undone):
        history.step(db, "undo")
    old = db.storage.read()
    validate(old)
    up = upgrade(copy.deepcopy(old), Path("c.json")).tables
    validate(up)
    return old, up


@hsettings(max_examples=examples(40), deadline=None)
@given(steps=st.lists(_step, min_size=1, max_size=8), undone=st.integers(0, 3))
def test_any_stacks_walk_through_the_same_states_after_the_migration(steps, undone):
    old, up = stacked(3, steps, undone)
    assert walk(_db(up)) == walk(_db(old))
