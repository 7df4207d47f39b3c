"""The luck ledger below the screens: the Журнал (``tui.services.Journal``) stamps each roll's
percentile when it is recorded, the GM's session mark and reveal (``tui.bridge.luck``) and the
export for players (``tui.screens.actions.export``), all without Textual.

The pilot tests of tests/tui/test_luck.py keep what the screens show of it and the keys."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from rules.dice import roll
from rules.ledger import entry_luck
from tests.conftest import frozen_clock
from tests.table.check_helpers import ok, table
from tui.bridge.luck import SESSION_KIND, mark_session, read_sessions, reveal
from tui.present.luck import stats_dict
from tui.present.rolls import roll_summary
from tui.screens.actions import export
from tui.services import Journal
from tui.store import Store
from tui.systems.drevo.check import steps


class _WriteNow:
    """The app's ordered writer, run in the caller's thread (the order is the calls')."""

    def write(self, job: Callable[[], Any], done: Any = None, *, failed: Any = None) -> None:
        result = job()
        if done is not None:
            done(result)


class _Journal(Journal):
    """The app's Журнал on ``store``: the odds workers wait in :attr:`workers` until the test
    runs them (as a worker thread would finish later); their way back to the UI is a call."""

    def __init__(self, store: Store) -> None:
        self.workers: list[Callable[[], None]] = []

        def run_worker(work: Any, **_kwargs: Any) -> None:
            self.workers.append(work)

        super().__init__(lambda: store, frozen_clock, _WriteNow(), run_worker, _call)  # type: ignore[arg-type]

    def finish_workers(self) -> None:
        while self.workers:
            self.workers.pop(0)()


def _call(callback: Callable[..., Any], *args: Any) -> Any:
    return callback(*args)


def _quick_roll(journal: Journal, expression: str, rng: random.Random) -> None:
    """What the app does with a quick roll (``/``, ``KubikApp._quick_rolled``): its summary
    and result, recorded (its keys: tests/tui/test_pilot.py)."""
    result = roll(expression, rng)
    journal.record("roll", None, roll_summary(result), result.to_dict())


def _oldest_first(store: Store) -> list[Any]:
    return list(reversed(store.log()))


def test_checks_and_quick_rolls_store_their_percentile(tmp_path) -> None:
    """«Each logged roll carries where it landed … Stored in the log entry («percentile»)».
    A builder's check and dice notation both: the worker one (explosions) keeps its place.

    Replaces the pilot test
    ``tests/tui/test_luck.py::test_checks_and_quick_rolls_store_their_percentile`` (it only
    read the campaign back: nothing of the screen was checked)."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    journal, rng = _Journal(store), random.Random(7)
    ok(table(store, seed=7), steps.roll)  # the Древо builder's Enter
    _quick_roll(journal, "3d6!", rng)  # explosions: odds in a worker
    assert len(journal.workers) == 1 and len(store.log()) == 1, "3d6! waits for its worker"
    _quick_roll(journal, "2d6", rng)  # cheap: inline, but behind the 3d6!
    assert len(store.log()) == 1, "the 2d6 waits behind the 3d6!"
    journal.finish_workers()
    entries = _oldest_first(store)
    assert [e.text.split()[0].rstrip(":") for e in entries[1:]] == ["3d6!", "2d6"]
    for entry in entries:
        assert 0 < entry.data["percentile"] < 1, entry.text
        again = entry_luck(entry.kind, entry.actor, entry.data)
        assert again.percentile == entry.data["percentile"], "the inputs suffice to redo it"
    assert entries[0].data["luck"]["rolls"][0]["who"] == entries[0].actor


def test_a_session_mark_starts_a_session_and_an_empty_one_is_not_marked_again(tmp_path) -> None:
    """«a GM key marks the start of a game session … the log and the stats group by session».

    Replaces the logic of the pilot test
    ``tests/tui/test_luck.py::test_new_session_key_marks_the_log_and_stats_group_by_it`` (its
    screen part, the key and the stats screen's sessions, stays in
    ``tests/tui/test_luck.py::test_the_journal_and_stats_keys``)."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    journal, rng, said = _Journal(store), random.Random(7), []
    _quick_roll(journal, "2d6", rng)
    mark_session(journal, said.append)
    mark_session(journal, said.append)  # again at once: refused, the session is still empty
    _quick_roll(journal, "1d20", rng)
    _quick_roll(journal, "1d20", rng)
    entries = _oldest_first(store)
    assert [e.kind for e in entries] == ["roll", SESSION_KIND, "roll", "roll"]
    assert said == [
        "Начата сессия 2: статистика удачи считается с этой записи.",
        "Сессия 2 уже начата: в ней пока нет бросков.",
    ]
    sessions = read_sessions(entries)
    assert [len(s.rolls) for s in sessions] == [1, 2]
    data = stats_dict(sessions[-1:])
    assert data["rolls"] == 2 and data["sessions"][0]["number"] == 2
    assert set(data["by_character"]) == {"без персонажа"}


class _WriteLater:
    """The app's ordered writer held back (another kubik holds the campaign's lock): the jobs
    wait in order until the test runs them."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[[], Any], Any]] = []

    def write(self, job: Callable[[], Any], done: Any = None, *, failed: Any = None) -> None:
        self.jobs.append((job, done))

    def run(self) -> None:
        while self.jobs:
            job, done = self.jobs.pop(0)
            result = job()
            if done is not None:
                done(result)


def test_a_session_mark_counts_the_rolls_still_on_their_way(tmp_path) -> None:
    """«a GM key marks the start of a game session»: the mark comes after every roll made
    before the key, and its number counts them, though their writes still wait (the writer
    waits for another kubik's lock; a slow roll's odds are still being computed). The mark
    numbered the session from the Журнал as written: «n» after a waiting roll wrote «— Сессия
    1 —» after it and said «Начата сессия 1» (found by the speed work's helper G7); «n n» on
    a waiting mark wrote two marks of one number."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    writer, said, rng = _WriteLater(), [], random.Random(7)
    journal = _Journal(store)
    journal._writer = writer
    _quick_roll(journal, "2d6", rng)  # its write waits
    mark_session(journal, said.append)
    mark_session(journal, said.append)  # at once again: the session is still empty
    _quick_roll(journal, "3d6!", rng)  # a slow roll: its odds in a worker
    mark_session(journal, said.append)  # the 3d6! counts, though its odds are not in yet
    journal.finish_workers()
    writer.run()
    entries = _oldest_first(store)
    assert [e.kind for e in entries] == ["roll", SESSION_KIND, "roll", SESSION_KIND]
    assert [e.text for e in entries if e.kind == SESSION_KIND] == ["— Сессия 2 —", "— Сессия 3 —"]
    assert said == [
        "Начата сессия 2: статистика удачи считается с этой записи.",
        "Сессия 2 уже начата: в ней пока нет бросков.",
        "Начата сессия 3: статистика удачи считается с этой записи.",
    ]


def test_secret_rolls_count_for_players_only_once_revealed(tmp_path) -> None:
    """«the players' view and any export for players count a secret roll only after the GM
    reveals it; the GM's screen shows all».

    Replaces the logic of the pilot test
    ``tests/tui/test_luck.py::test_secret_rolls_count_for_players_only_once_revealed`` (its
    screen part, ``r`` and the players' stats, stays in
    ``tests/tui/test_luck.py::test_the_journal_and_stats_keys``)."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    journal, rng = _Journal(store), random.Random(7)
    journal.secret = True  # Ctrl+S
    _quick_roll(journal, "2d6", rng)
    journal.secret = False
    _quick_roll(journal, "1d6", rng)
    entries = _oldest_first(store)
    assert sum(len(s.rolls) for s in read_sessions(entries)) == 2
    assert sum(len(s.rolls) for s in read_sessions(entries, players=True)) == 1
    secret, shown = entries
    revealed: set[str] = set()
    assert not reveal(journal, shown, revealed), "an open roll has nothing to reveal"
    assert len(store.log()) == 2
    assert reveal(journal, secret, revealed)
    entries = _oldest_first(store)
    assert entries[-1].text == f"Раскрыто: {secret.text}"
    assert sum(len(s.rolls) for s in read_sessions(entries, players=True)) == 2
    assert sum(len(s.rolls) for s in read_sessions(entries)) == 2, "the GM's count is the same"


def test_the_luck_export_is_for_players(tmp_path) -> None:
    """«Markdown export of a session's stats beside the log export»: it is for players, so an
    unrevealed secret roll is not in it.

    Replaces the logic of the pilot test
    ``tests/tui/test_luck.py::test_ctrl_e_exports_the_sessions_luck_for_players`` (its screen
    part, Ctrl+E's choice and its path, stays in
    ``tests/tui/test_luck.py::test_the_journal_and_stats_keys``)."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    journal, rng, said = _Journal(store), random.Random(7), []
    _quick_roll(journal, "2d6", rng)
    journal.secret = True
    _quick_roll(journal, "3d6", rng)
    journal.secret = False
    host = SimpleNamespace(
        store=store, services=SimpleNamespace(notify=lambda m, **_: said.append(m))
    )
    path = tmp_path / "luck.md"
    export(host, "luck", path)  # type: ignore[arg-type]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Удача:") and "1 бросок" in text
    assert said == [f"Записано: {path}"]
