"""A campaign under a hostile second writer, as a state machine (issue 15).

Rules are what a table and a hostile file can do in any order: good changes, changes the
schema refuses, undo, redo, a refresh, a second writer swapping in a broken file, and the
GM putting the good version back by hand. Invariants are what must never happen: a broken
file overwritten, a refused change reaching the disk, an error that is not a Russian
StoreError.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from rules.drevo.sheet import DrevoSheet
from tests.hypo import examples
from tui.store import CampaignCorrupt, ChangeRefused, Store, StoreError

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
BROKEN = [
    b"",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"meta": {"1": {"schema_version": 3, "name": "x", "system": "gurps", "rev": 1}}}',
]


def negative_wounds(good: bytes) -> bytes:
    tables = json.loads(good)
    next(iter(tables["characters"].values()))["wounds"]["light"] = -2
    return json.dumps(tables, ensure_ascii=False).encode()


class HostileFile(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="kubik-hostile-"))
        self.path = self.folder / "c.json"
        self.store = Store.open(self.path, lock_timeout=1.0)
        self.good = self.path.read_bytes()  # the last version kubik wrote or read back
        self.broken: bytes | None = None  # what the hostile writer left, while it is there

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _change(self, fate: int) -> None:
        c = self.store.characters()[0]
        before = self.path.read_bytes()
        try:
            self.store.upsert_character(c.edit_sheet(DrevoSheet, fate=fate))
        except ChangeRefused as err:
            assert fate < 0 and self.broken is None and CYRILLIC.search(str(err))
            assert self.path.read_bytes() == before  # a refused change never lands
            return
        except StoreError as err:  # the file on disk is broken: refused, named in Russian
            assert self.broken is not None and CYRILLIC.search(str(err))
            assert isinstance(err, CampaignCorrupt)
            return
        assert fate >= 0 and self.broken is None
        self.good = self.path.read_bytes()

    @rule(fate=st.integers(0, 10))
    def good_change(self, fate: int) -> None:
        self._change(fate)

    @rule(fate=st.integers(-5, -1))
    def refused_change(self, fate: int) -> None:
        self._change(fate)

    @rule(undo=st.booleans())
    def undo_or_redo(self, undo: bool) -> None:
        try:
            label = (self.store.undo if undo else self.store.redo)()
        except StoreError as err:
            assert self.broken is not None and CYRILLIC.search(str(err))
            return
        if self.broken is None:
            self.good = self.path.read_bytes()
        else:  # a broken file's own stacks had nothing to step: nothing was written
            assert label is None

    @rule()
    def refresh(self) -> None:
        try:
            self.store.refresh()
        except StoreError as err:
            assert self.broken is not None and CYRILLIC.search(str(err))

    @precondition(lambda self: self.broken is None)
    @rule(which=st.integers(0, len(BROKEN)))
    def second_writer_breaks_the_file(self, which: int) -> None:
        data = BROKEN[which] if which < len(BROKEN) else negative_wounds(self.good)
        self.path.write_bytes(data)
        self.broken = data

    @precondition(lambda self: self.broken is not None)
    @rule()
    def gm_puts_the_good_version_back(self) -> None:
        self.path.write_bytes(self.good)
        self.broken = None

    @invariant()
    def a_broken_file_is_never_overwritten(self) -> None:
        if self.broken is not None:
            assert self.path.read_bytes() == self.broken

    @invariant()
    def a_good_file_always_loads(self) -> None:
        if self.broken is None:
            with Store.open(self.path, read_only=True) as store:
                assert store.characters()


HostileFile.TestCase.settings = settings(
    max_examples=examples(12), stateful_step_count=12, deadline=None
)
TestHostileFile = HostileFile.TestCase
