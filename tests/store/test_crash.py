"""SIGKILL a writer at random moments: the campaign file must always hold a complete state."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tui.store import Store

WRITER = Path(__file__).with_name("crash_writer.py")
KILLS = 25

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL"),
]


def check_complete_state(path: Path, writer_id: str, others: dict) -> int:
    """Assert the file holds a state some complete write produced; return the log length."""
    with path.open(encoding="utf-8") as fh:
        raw = json.load(fh)
    (meta,) = raw["meta"].values()
    assert meta["schema_version"] == 1
    with Store.open(path) as store:
        log = store.log()
        numbers = [e.data["n"] for e in reversed(log)]
        assert numbers == list(range(1, len(log) + 1))
        writer = store.character(writer_id)
        assert int(writer.notes) in (len(log), len(log) - 1)
        assert {c.id: c for c in store.characters() if c.id != writer_id} == others
    assert len(raw["log"]) == len(log)
    return len(log)


def test_sigkill_during_writes_never_leaves_a_torn_file(tmp_path):
    path = tmp_path / "campaign.json"
    with Store.open(path) as store:
        chars = store.characters()
        writer = chars[0]
        store.upsert_character(replace(writer, notes="0"))
    others = {c.id: c for c in chars[1:]}
    rng = random.Random(20250301)
    written = 0
    torn_temp_files = 0
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

    for _ in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, str(WRITER), str(path), writer.id],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            line = proc.stdout.readline()  # blocks until the first full iteration is on disk
            assert line == "wrote\n", proc.stderr.read()
            time.sleep(rng.uniform(0.02, 0.2))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()
        assert proc.returncode == -signal.SIGKILL
        torn_temp_files += len(list(tmp_path.glob(".campaign.json.*.tmp")))

        count = check_complete_state(path, writer.id, others)
        assert count > written, "the writer must have made progress before the kill"
        written = count
        # Store.open cleaned up whatever the killed writer left half-written.
        assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.json"]

    print(f"{written} log entries, {torn_temp_files} kills left a half-written temp file")
