"""Helper for test_crash.py: write to a campaign as fast as possible until killed.

Usage: python crash_writer.py CAMPAIGN_PATH CHARACTER_ID

Each iteration appends log entry number n, then stores n in the character's notes. So
any complete state has ``notes == len(log)`` or, between the two writes,
``notes == len(log) - 1``; the log numbers are exactly 1..len(log).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from tui.store import LogEntry, Store, new_id

AT = "2025-03-01T19:30:00+03:00"


def main(path: str, character_id: str) -> None:
    store = Store.open(Path(path))
    pc = store.character(character_id)
    assert pc is not None
    n = len(store.log())
    announced = False
    if pc.notes != str(n):  # the previous writer died between the two writes
        pc = replace(pc, notes=str(n))
        store.upsert_character(pc)
    while True:
        n += 1
        store.append_log(LogEntry(new_id(), AT, "note", pc.name, f"Запись №{n}", {"n": n}))
        pc = replace(pc, notes=str(n), fate=n % 6)
        store.upsert_character(pc)
        if not announced:
            print("wrote", flush=True)
            announced = True


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
