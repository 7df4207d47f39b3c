"""A corrupt campaign: the CLI explains, offers the newest good backup, never overwrites."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys

import pytest

from tui.cli import kubik as cli
from tui.store import CampaignCorrupt, Store


@pytest.fixture
def corrupt(tmp_path):
    """A campaign with a backup, then truncated mid-file."""
    path = tmp_path / "c.json"
    store = Store.open(path)
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, notes="после первой сессии"))
    store.close()
    path.write_bytes(path.read_bytes()[:300])
    return path


def test_without_a_terminal_it_explains_and_exits_1(corrupt):
    damaged = corrupt.read_bytes()
    run = subprocess.run(
        [sys.executable, "-m", "tui", "--campaign", str(corrupt)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "повреждён" in run.stderr and "исправная копия" in run.stderr
    assert corrupt.read_bytes() == damaged  # never overwritten


def test_at_a_terminal_yes_restores_and_keeps_the_damaged_file(corrupt, monkeypatch):
    with pytest.raises(CampaignCorrupt) as caught:
        Store.open(corrupt)
    monkeypatch.setattr(sys, "stdin", io.StringIO("д\n"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert cli.offer_backup(caught.value, corrupt) is True
    restored = Store.open(corrupt)
    assert len(restored.characters()) == 7
    assert list(corrupt.parent.glob("c.json.corrupt-*"))


def test_at_a_terminal_no_leaves_everything_as_it_was(corrupt, monkeypatch):
    damaged = corrupt.read_bytes()
    with pytest.raises(CampaignCorrupt) as caught:
        Store.open(corrupt)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert cli.offer_backup(caught.value, corrupt) is False
    assert corrupt.read_bytes() == damaged
