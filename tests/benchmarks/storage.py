"""One state change made durable, on a big campaign: 200 characters and a 10,000-entry Журнал.

The campaign is built through the store's API (``Store.apply`` for the characters; the Журнал
is written in one go with ``write_journal`` — 10,000 ``append_log`` calls would only measure
10,000 fsyncs — and one ``append_log`` on top). Its undo history is then filled to
``UNDO_LIMIT`` steps, as after a long session, so the file has its full steady-state size.

Measured: ``Store.upsert_character`` of one changed character (a wound), which takes the lock,
re-reads the file, records the undo step, writes a new file (fsync, rename, fsync of the
folder) and links the old one into the backups. Median and p95 of ``RUNS`` changes, and for
reference the same bytes written durably with nothing else (the floor any design pays).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules.drevo.sheet import DrevoSheet
from tui.store import UNDO_LIMIT, Character, LogEntry, Skill, Store
from tui.store.journal import journal_path, write_journal
from tui.store.storage import atomic_write_bytes

CHARACTERS = 200
LOG_ENTRIES = 10_000
RUNS = 30


def make_character(i: int) -> Character:
    return Character(
        id=f"bench-{i:04d}",
        name=f"Персонаж {i:03d}",
        kind="pc" if i % 4 == 0 else "npc",
        qualities={"Сила": i % 3 - 1, "Ловкость": 1, "Выносливость": 0, "Восприятие": 2, "Воля": 1},
        skills=tuple(
            Skill(name, (i + k) % 4)
            for k, name in enumerate(("Драка", "Уклонение", "Метание", "Стрельба", "Знахарство"))
        ),
        weapons=("Сабля", "Нож"),
        sheet=DrevoSheet(fate=i % 5),
        notes="Ходит с обозом, торгуется за каждую монету, помнит всех по именам.",
    )


def make_entry(i: int) -> LogEntry:
    return LogEntry(
        id=f"log-{i:06d}",
        at="2026-11-29T20:00:00+03:00",
        kind="check",
        actor=f"Персонаж {i % CHARACTERS:03d}",
        text=f"Драка +2 против 0 (Средне): 4dF [+ 0 − +] = +1, итог 3 — Успех, запас 3 #{i}",
        data={"system": "drevo", "dice": [1, 0, -1, 1], "total": 3, "outcome": "success"},
    )


@dataclass
class StorageFigures:
    file_bytes: int
    log_bytes: int
    times: list[float]
    #: The floor: the same bytes written the same durable way (temporary file, fsync, rename,
    #: fsync of the folder) with no reading, checking or encoding.
    floor: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def p95(self) -> float:
        ordered = sorted(self.times)
        return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def build_campaign(path: Path) -> tuple[Store, Character]:
    """Create the big campaign at ``path``; return it open and the character the runs change."""
    write_journal(journal_path(path), (make_entry(i) for i in range(LOG_ENTRIES - 1)))
    store = Store.open(path)
    store.apply("Отряд", upsert=[make_character(i) for i in range(CHARACTERS)])
    store.append_log(make_entry(LOG_ENTRIES - 1))
    assert len(store.log()) == LOG_ENTRIES
    target = make_character(7)
    for step in range(UNDO_LIMIT):  # a long session: the undo history at its limit
        store.upsert_character(target.edit_sheet(DrevoSheet, fate=step % 5))
    assert len(store.characters()) >= CHARACTERS
    return store, target


def measure(runs: int = RUNS, log: Callable[[str], None] = print) -> StorageFigures:
    folder = Path(tempfile.mkdtemp(prefix="kubik-bench-store-"))
    path = folder / "campaign.json"
    try:
        store, target = build_campaign(path)
        times = []
        for step in range(runs):
            changed = target.edit_sheet(DrevoSheet, wounds={"light": step % 3})
            t0 = time.perf_counter()
            store.upsert_character(changed)
            times.append(time.perf_counter() - t0)
        data = path.read_bytes()
        floor = []
        for _ in range(runs):
            t0 = time.perf_counter()
            atomic_write_bytes(folder / "floor.json", data)
            floor.append(time.perf_counter() - t0)
        figures = StorageFigures(len(data), journal_path(path).stat().st_size, times, floor)
        store.close()
        log(
            f"  store: {figures.file_bytes // 1024} KiB campaign file, "
            f"{figures.log_bytes // 1024} KiB Журнал; median {figures.median * 1e3:.2f} ms"
        )
        return figures
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    measure()
