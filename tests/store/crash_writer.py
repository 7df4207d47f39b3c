"""Helper for test_crash.py: write to a campaign as fast as possible until killed.

Usage: python crash_writer.py CAMPAIGN_PATH CHARACTER_ID (or :func:`write_forever` in a fork)

Iteration ``n`` appends Журнал entry ``n``, then stores ``n`` in the character's notes (undo
label «Заметки n»), then sets the encounter document's round to ``n`` (label «Раунд n»).
Any complete state therefore has ``notes`` equal to the log length or one less,
``round`` equal to ``notes`` or one less, and the newest undo label naming the last write.
A new writer first finishes what a killed one left half done.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rules.drevo.sheet import DrevoSheet
from tui.store import LogEntry, Store, new_id

AT = "2025-03-01T19:30:00+03:00"


def write_forever(path: Path, character_id: str, announce: Callable[[], None]) -> None:
    store = Store.open(path)
    pc = store.character(character_id)
    assert pc is not None
    n = len(store.log())
    if pc.notes != str(n):
        pc = replace(pc, notes=str(n))
        store.upsert_character(pc, label=f"Заметки {n}")
    if (store.get_doc("encounter") or {}).get("round") != n:
        store.put_doc("encounter", {"round": n}, label=f"Раунд {n}")
    announced = False
    while True:
        n += 1
        store.append_log(LogEntry(new_id(), AT, "note", pc.name, f"Запись №{n}", {"n": n}))
        # From the stored version, as a screen does after each change notification: a
        # change of a stale copy is merged against what it was read from.
        pc = replace(
            (store.character(character_id) or pc).edit_sheet(DrevoSheet, fate=n % 6), notes=str(n)
        )
        store.upsert_character(pc, label=f"Заметки {n}")
        store.put_doc("encounter", {"round": n, "side": "игроки"}, label=f"Раунд {n}")
        if not announced:
            announce()
            announced = True


if __name__ == "__main__":
    write_forever(Path(sys.argv[1]), sys.argv[2], lambda: print("wrote", flush=True))
