"""A Бой write while another kubik holds the campaign's lock, one level below the tab: the
app's :class:`~tui.services.Writer` (its ordered worker writes, Textual-free: here each runs
in a plain thread) running the fight engine's step as the tab hands it over, against the real
store and a real file lock. The write never blocks the caller; one that cannot get the lock
in time fails whole; one that gets it late is saved once, as one undo step.

What the tab shows meanwhile (the status line, a second press refused, the keys going on)
stays a pilot test: tests/tui/test_one_truth.py::TestLock.
"""

from __future__ import annotations

import random
import threading
import time

import filelock

from tui.services import Writer
from tui.store import Store, StoreBusy
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.session import FightSession, write
from tui.table.commit import plain_entry
from tui.table.core import Dice


def writer() -> tuple[Writer, list[str]]:
    """The app's writer with plain threads for workers; returns it and the notices it gives."""
    said: list[str] = []

    def run_worker(fn, **_kwargs) -> None:
        threading.Thread(target=fn, daemon=True).start()

    return Writer(run_worker, lambda fn: fn(), lambda m, **_kw: said.append(m)), said


def wait_for(condition, what: str) -> None:
    """Poll ``condition`` until it holds (a generous bound: a loaded machine is slow)."""
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.002)


def initiative_job(store: Store):
    """The Бой tab's `i` as the pane hands it to the writer: the step made on the fight it
    read, written as a delta against that."""
    stored, enc, world = FightSession(store, Dice(random.Random(5))).read()
    outcome = steps.roll_initiative(enc, world)
    assert outcome.ok, outcome.refused
    return lambda: write(store, outcome, stored, plain_entry)


def test_a_fight_write_that_waits_for_the_lock_fails_whole(tmp_path) -> None:
    """«While another process holds the lock, the app's UI freezes»: the write is handed to a
    worker and the caller goes on at once; the lock not had in time, the step fails with
    «сохраняет другая копия kubik», and the fight, the Журнал are as they were.

    The store/worker side of the pilot test ``tests/tui/test_one_truth.py::TestLock::
    test_a_fight_write_waits_in_a_worker_says_so_and_then_fails_whole``, which keeps what
    the tab shows."""
    path = tmp_path / "c.json"
    store = Store.open(path, system="drevo", lock_timeout=0.3)
    before = store.get_doc(steps.DOC)
    w, said = writer()
    failed: list[Exception] = []
    held = filelock.FileLock(f"{path}.lock", thread_local=False)
    with held:  # another kubik mid-write
        w.write(initiative_job(store), failed=failed.append)
        assert w._last_write is not None and not w._last_write.is_set(), "the caller waited"
        wait_for(w._last_write.is_set, "the write never gave up")
    assert len(failed) == 1 and isinstance(failed[0], StoreBusy), failed
    assert "сохраняет другая копия kubik" in str(failed[0])
    again = Store.open(path)
    assert again.get_doc(steps.DOC) == before
    assert again.log() == []


def test_a_fight_write_that_gets_the_lock_late_is_saved_once(tmp_path) -> None:
    """Another kubik's write is over while this one waits for the lock: it is saved once,
    its Журнал line linked to its step (undone with it, marked «отменено»).

    Replaces the store side of the pilot test ``tests/tui/test_one_truth.py::TestLock::
    test_a_fight_write_that_gets_the_lock_late_is_saved_once`` (a second press while it
    waits refused, and the tab drawn once it is saved: now in
    ``test_a_fight_write_waits_in_a_worker_says_so_and_then_fails_whole`` there)."""
    path = tmp_path / "c.json"
    store = Store.open(path, system="drevo", lock_timeout=20)
    w, said = writer()
    done: list[object] = []
    failed: list[Exception] = []
    held = filelock.FileLock(f"{path}.lock", thread_local=False)
    held.acquire()
    try:
        w.write(initiative_job(store), done.append, failed=failed.append)
        wait_for(lambda: store.waiting_for_lock, "the write never waited for the lock")
        assert not w._last_write.is_set()
    finally:
        held.release()  # the other kubik's write is over
    wait_for(w._last_write.is_set, "the write never ended")
    assert failed == [] and len(done) == 1, (failed, said)
    stored = Store.open(path)
    (entry,) = stored.log()  # one initiative, logged once
    assert entry.text.startswith("Инициатива") and not entry.undone
    assert stored.get_doc(steps.DOC)["phase"] == "declare"
    assert store.undo() is not None
    stored = Store.open(path)
    (entry,) = stored.log()
    assert entry.undone  # linked to its step
    assert (stored.get_doc(steps.DOC) or {}).get("phase", "setup") == "setup"
