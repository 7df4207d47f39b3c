"""Two windows on one campaign, interleaving edits, removals, undo and redo (issue 14).

Two :class:`Store` instances share one file; each may hold open «dialogs»: copies of a
character read from its own cache, possibly stale, saved later as a changed copy. Every
write is a locked read-modify-write of the one file, so a plain model predicts every outcome:
which saves merge, which are refused, what undo and redo restore, and which Журнал entries
are marked undone.

Undo is per window (issue 30): a window undoes (and redoes) only its own newest step, never
the other's; a step whose fields were changed since by the other window is refused
(:class:`UndoRefused`) and nothing changes; a new step clears only its own window's redo.

An export imported over the campaign keeps the party and the Журнал's «отменено» marks and
starts a new undo history.

The Партия tab's Судьба keys are the engine's steps (``tui/systems/drevo/party/steps.py``)
written by :func:`tui.table.commit.commit_edit`, made on the character as the file has it:
a point given or spent counts from the other window's value, and a spend with none left
there is refused and writes nothing.

Invariants: the file is always the model (every acknowledged change is in it, nothing
refused or removed comes back), and a refusal happens exactly when the model says the copy
is stale (its character is gone, or the same field was changed to something else).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules.drevo.sheet import DrevoSheet
from tests.hypo import examples
from tui.store import Character, Edit, LogEntry, StaleWrite, Store, UndoRefused, new_id
from tui.systems.drevo.party import steps as party
from tui.table.commit import commit_edit

AT = "2025-03-01T19:30:00+03:00"
State = dict[str, tuple[int, str, int]]  # id → (fate, notes, scratches)
FIELDS = ("fate", "notes", "wounds")  # the stored fields of (fate, notes, scratches)
#: A step of the model: (window, parts, its Журнал entries); a part is
#: ``(id, "fields", {index: (before, after)})`` or ``(id, "whole", before, after)``.
Step = tuple[int, list[tuple], list[str]]


def parts_of(old: State, new: State) -> list[tuple]:
    """What a step from ``old`` to ``new`` changed, as the history records it."""
    found: list[tuple] = []
    for cid in {*old, *new}:
        a, b = old.get(cid), new.get(cid)
        if a == b:
            continue
        if a is None or b is None:
            found.append((cid, "whole", a, b))
        else:
            found.append((cid, "fields", {i: (a[i], b[i]) for i in range(3) if a[i] != b[i]}))
    return found


def state_of(store: Store) -> State:
    return {c.id: (c.drevo.fate, c.notes, c.drevo.wounds["scratch"]) for c in store.characters()}


class TwoWindows(RuleBasedStateMachine):
    @initialize()
    def open_campaign(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kubik-two-"))
        path = self.folder / "c.json"
        seed = Store.open(path)
        seed.apply("пусто", delete=[c.id for c in seed.characters()])
        for name in ("Горан", "Милава", "Лыко"):
            seed.upsert_character(
                Character(new_id(), name, "pc", {}, (), (), sheet=DrevoSheet(fate=3))
            )
        seed.export_json(self.folder / "seed.json")
        seed.close()
        Store.import_json(self.folder / "seed.json", path, force=True)  # no undo steps yet
        self.stores = [Store.open(path), Store.open(path)]
        self.model: State = state_of(self.stores[0])
        self.undo: list[Step] = []  # every window's steps, oldest first
        self.redo: list[Step] = []
        self.entries: list[str] = []
        self.undone: set[str] = set()
        self.dialogs: list[tuple[int, Character]] = []

    def teardown(self) -> None:
        for store in getattr(self, "stores", []):
            store.close()
        shutil.rmtree(getattr(self, "folder", ""), ignore_errors=True)

    def _changed(self, new: State, entries: list[str] = (), *, window: int) -> None:
        if new == self.model and not entries:
            return  # no step: nothing changed
        self.undo.append((window, parts_of(self.model, new), list(entries)))
        self.redo = [s for s in self.redo if s[0] != window]  # only its own redo goes
        self.model = new

    def _take_back(self, window: int, source: list[Step], target: list[Step]) -> str:
        """Undo (or redo) the window's newest step in the model: "refused", "none" or "done"."""
        mine = [i for i, s in enumerate(source) if s[0] == window]
        if not mine:
            return "none"
        _, parts, entries = source[mine[-1]]
        # the other window's steps since (newer on the undo stack; for a redo, all of them)
        newer = source[mine[-1] + 1 :] if source is self.undo else target
        for part in parts:  # a field another step changed since: refused
            current = self.model.get(part[0])
            if part[1] == "fields":
                if current is None:  # removed: by the other window's step, that goes first
                    if any(w != window and any(p[0] == part[0] for p in ps) for w, ps, _ in newer):
                        return "refused"
                elif any(current[i] != a for i, (_b, a) in part[2].items()):
                    return "refused"
            elif current != part[3]:
                return "refused"
        source.pop(mine[-1])
        model, back = dict(self.model), []
        for part in parts:
            cid, current = part[0], self.model.get(part[0])
            if part[1] == "fields":
                if current is None:
                    continue  # gone, and no step of the other window took him: skipped
                row = list(current)
                for i, (b, _a) in part[2].items():
                    row[i] = b
                model[cid] = (row[0], row[1], row[2])
                back.append((cid, "fields", {i: (a, b) for i, (b, a) in part[2].items()}))
            else:
                if part[2] is None:
                    model.pop(cid, None)
                else:
                    model[cid] = part[2]
                back.append((cid, "whole", part[3], part[2]))
        target.append((window, back, entries))
        self.model = model
        return "done"

    def _removed_by(self, cid: str) -> int | None:
        """The window whose step removed ``cid``, as the history has it: the newest step
        that took him away (a removal; or, on the redo stack, an addition undone)."""
        for steps in (self.undo, self.redo):
            for window, parts, _entries in reversed(steps):
                if any(p[0] == cid and p[1] == "whole" and p[2] and p[3] is None for p in parts):
                    return window
        return None

    # -- rules ------------------------------------------------------------------------------

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9))
    def open_dialog(self, window: int, pick: int) -> None:
        """A dialog reads a character from its window's cache (maybe stale)."""
        chars = self.stores[window].characters()
        if chars:
            self.dialogs.append((window, chars[pick % len(chars)]))

    @precondition(lambda self: self.dialogs)
    @rule(
        pick=st.integers(0, 9),
        field=st.sampled_from(["fate", "notes"]),
        value=st.integers(0, 3),
    )
    def save_dialog(self, pick: int, field: str, value: int) -> None:
        window, copy = self.dialogs.pop(pick % len(self.dialogs))
        new_value = value if field == "fate" else f"заметка {value}"
        index = 0 if field == "fate" else 1
        base = (copy.drevo.fate, copy.notes)[index]
        current = self.model.get(copy.id)
        if current is None:
            stale = True  # even an unchanged copy would bring it back
        elif new_value == base:
            stale = False  # the copy changes nothing: its save writes nothing
        else:
            stale = current[index] not in (base, new_value)
        try:
            edited = (
                copy.edit_sheet(DrevoSheet, fate=new_value)
                if field == "fate"
                else replace(copy, notes=new_value)
            )
            self.stores[window].upsert_character(edited)
        except StaleWrite as err:
            assert stale, f"refused a save the model accepts: {err}"
            if current is None:  # says who removed him: this window, or the other one
                here = self._removed_by(copy.id) == window
                said = f"{copy.name} удалён —" if here else f"{copy.name} удалён в другом окне —"
                assert said in str(err), str(err)
            else:
                assert "в другом окне" in str(err)
            return
        assert not stale, "a stale copy was written"
        if new_value == base:
            return
        fate, notes, scratches = current
        updated = (new_value, notes, scratches) if field == "fate" else (fate, new_value, scratches)
        self._changed({**self.model, copy.id: updated}, window=window)

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9))
    def wound(self, window: int, pick: int) -> None:
        """A wound re-applied to the current track, with its Журнал entry."""
        chars = self.stores[window].characters()
        if not chars:
            return
        c = chars[pick % len(chars)]
        entry = LogEntry(new_id(), AT, "note", c.name, "Рана: Царапина")

        def scratch(now: Character) -> Edit:
            wounds = {**now.drevo.wounds, "scratch": now.drevo.wounds["scratch"] + 1}
            return Edit(now.edit_sheet(DrevoSheet, wounds=wounds), f"{now.name}: Царапина", [entry])

        try:
            self.stores[window].update_character(c.id, scratch, name=c.name)
        except StaleWrite as err:
            assert c.id not in self.model, f"refused a wound of a character that is there: {err}"
            return
        assert c.id in self.model, "a wound brought a removed character back"
        fate, notes, scratches = self.model[c.id]
        self.entries.append(entry.id)
        self._changed({**self.model, c.id: (fate, notes, scratches + 1)}, [entry.id], window=window)

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9), other=st.integers(0, 9))
    def wound_in_a_worker_while_the_other_removes(self, window: int, pick: int, other: int) -> None:
        """The app's writer (a worker thread) wounds while the other window removes someone
        (maybe the same one): they race for the lock, and either order must hold."""
        chars, theirs = self.stores[window].characters(), self.stores[1 - window].characters()
        if not chars or not theirs:
            return
        c, d = chars[pick % len(chars)], theirs[other % len(theirs)]
        entry = LogEntry(new_id(), AT, "note", c.name, "Рана: Царапина")

        def scratch(now: Character) -> Edit:
            wounds = {**now.drevo.wounds, "scratch": now.drevo.wounds["scratch"] + 1}
            return Edit(now.edit_sheet(DrevoSheet, wounds=wounds), f"{now.name}: Царапина", [entry])

        wounded: list[bool] = []

        def worker() -> None:
            try:
                self.stores[window].update_character(c.id, scratch, name=c.name)
                wounded.append(True)
            except StaleWrite:
                wounded.append(False)

        thread = threading.Thread(target=worker)
        thread.start()
        self.stores[1 - window].delete_character(d.id)
        thread.join()
        removes = d.id in self.model

        def removal() -> None:
            if removes:
                self._changed({k: v for k, v in self.model.items() if k != d.id}, window=1 - window)

        if not wounded[0]:
            assert c.id not in self.model or (c.id == d.id and removes), "a wound was lost"
            removal()
            return
        assert c.id in self.model, "a wound brought a removed character back"
        labels = Store.open(self.stores[0].path, read_only=True).all_undo_labels(2)
        removed_last = removes and (c.id == d.id or labels[0].startswith("Удалён"))
        if not removed_last:
            removal()
        fate, notes, scratches = self.model[c.id]
        self.entries.append(entry.id)
        self._changed({**self.model, c.id: (fate, notes, scratches + 1)}, [entry.id], window=window)
        if removed_last:
            removal()

    def _fate_step(self, window: int, pick: int, step, *args: str) -> None:
        """A Судьба key of the Партия tab in one window: the engine's step, made on the
        character as the file has it (the window's copy may be stale)."""
        chars = self.stores[window].characters()
        if not chars:
            return
        c = chars[pick % len(chars)]
        made: list[str] = []

        def make(kind: str, actor: str | None, text: str, data: dict) -> LogEntry:
            made.append(new_id())
            return LogEntry(made[-1], AT, kind, actor, text, data)

        try:
            outcome = commit_edit(self.stores[window], c.id, step, *args, name=c.name, make=make)
        except StaleWrite as err:
            assert c.id not in self.model, f"refused a step of a character that is there: {err}"
            return
        assert c.id in self.model, "a Судьба step brought a removed character back"
        fate, notes, scratches = self.model[c.id]
        after = fate + 1 if step is party.grant_fate else fate - 1
        if after < 0:
            assert outcome.refused and not made, "spent a point the file does not have"
            return
        assert outcome.ok and outcome.state.drevo.fate == after, outcome.refused
        self.entries += made
        self._changed({**self.model, c.id: (after, notes, scratches)}, made, window=window)

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9))
    def grant_fate(self, window: int, pick: int) -> None:
        self._fate_step(window, pick, party.grant_fate)

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9))
    def spend_fate_on_a_circumstance(self, window: int, pick: int) -> None:
        self._fate_step(window, pick, party.fate_circumstance, "мост ещё держится")

    @rule(window=st.integers(0, 1), pick=st.integers(0, 9))
    def remove(self, window: int, pick: int) -> None:
        chars = self.stores[window].characters()
        if chars:
            c = chars[pick % len(chars)]
            self.stores[window].delete_character(c.id)
            self._changed({k: v for k, v in self.model.items() if k != c.id}, window=window)

    @rule(window=st.integers(0, 1))
    def add(self, window: int) -> None:
        c = Character(new_id(), f"Новый {new_id()[:8]}", "npc", {}, (), ())  # names differ
        self.stores[window].upsert_character(c)
        self._changed({**self.model, c.id: (0, "", 0)}, window=window)

    def _step(self, window: int, source: str) -> None:
        """Ctrl+Z (or Ctrl+Y) in one window: its own newest step, or a refusal with why."""
        stacks = (self.undo, self.redo) if source == "undo" else (self.redo, self.undo)
        entries = [s[2] for s in stacks[0] if s[0] == window]
        expected = self._take_back(window, *stacks)
        store = self.stores[window]
        if source == "undo":  # the key bar's question, asked of what the window has read
            store.refresh()
            assert store.undo_refused() == (expected == "refused"), "the bar's ^Z misleads"
        try:
            label = store.undo() if source == "undo" else store.redo()
        except UndoRefused as err:
            assert expected == "refused", f"refused what the model takes back: {err}"
            assert "другом окне" in str(err) or "другого окна" in str(err), str(err)
            return
        assert expected != "refused", f"{source} of a step another window built on"
        assert (label is None) == (expected == "none")
        if expected == "done":
            if source == "undo":
                self.undone |= set(entries[-1])
            else:
                self.undone -= set(entries[-1])

    @rule(window=st.integers(0, 1))
    def undo_one(self, window: int) -> None:
        self._step(window, "undo")

    @rule(window=st.integers(0, 1))
    def redo_one(self, window: int) -> None:
        self._step(window, "redo")

    @rule(window=st.integers(0, 1))
    def export_and_import(self, window: int) -> None:
        """The campaign exported and imported over itself: the same party and marks, no undo."""
        out = self.folder / "round-trip.json"
        self.stores[window].refresh()  # the app exports what it shows: the file as it is
        self.stores[window].export_json(out)
        imported = Store.import_json(out, self.stores[0].path, force=True)
        assert imported.note is None
        self.undo.clear()
        self.redo.clear()  # the undone steps can never be redone: their marks stay

    @rule(window=st.integers(0, 1))
    def refresh(self, window: int) -> None:
        self.stores[window].refresh()

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def the_file_is_the_model(self) -> None:
        fresh = Store.open(self.stores[0].path, read_only=True)
        assert state_of(fresh) == self.model
        marks = {e.id: e.undone for e in fresh.log()}
        assert marks == {i: i in self.undone for i in self.entries}


TwoWindows.TestCase.settings = settings(
    max_examples=examples(12),
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_two_windows = TwoWindows.TestCase
