"""Several kubiks on one campaign: locked writes lose nothing, refresh picks up the others'."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import LogEntry, Store, new_id
from tui.store import files as files_module

ADDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tui.store import Character, Store, new_id

    path, tag, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    store = Store.open(path)
    Path(f"{go}.{tag}").touch()  # open: the parent lets both go at once
    while not go.exists():
        time.sleep(0.001)
    for n in range(100):
        store.upsert_character(
            Character(new_id(), f"{tag}-{n}", "npc", {}, (), ()), label=f"{tag} {n}"
        )
    """
)


@pytest.mark.slow
def test_two_processes_adding_100_characters_each_make_200(tmp_path):
    path = tmp_path / "campaign.json"
    Store.open(path).close()
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, "-c", ADDER, str(path), tag, str(go)])
        for tag in ("А", "Б")
    ]
    ready = [tmp_path / f"go.{tag}" for tag in ("А", "Б")]
    deadline = time.monotonic() + 60
    while not all(r.exists() for r in ready) and time.monotonic() < deadline:
        time.sleep(0.005)
    go.touch()
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    with Store.open(path) as store:
        names = [c.name for c in store.characters() if c.kind == "npc"]
        added = {n for n in names if n[:2] in ("А-", "Б-")}
        assert added == {f"{t}-{n}" for t in "АБ" for n in range(100)}
        assert len(store.characters()) == 7 + 200


def test_refresh_sees_another_process_write_and_notifies(tmp_path):
    path = tmp_path / "campaign.json"
    with Store.open(path) as store:
        c = store.characters()[0]
        seen = []
        store.subscribe(lambda: seen.append(store.character(c.id).drevo.fate))
        assert store.refresh() is False
        code = textwrap.dedent(
            f"""
            from rules.drevo.sheet import DrevoSheet
            from tui.store import LogEntry, Store
            s = Store.open({str(path)!r})
            c = s.character({c.id!r})
            s.upsert_character(c.edit_sheet(DrevoSheet, fate=0), label="Удача на нуле")
            s.append_log(LogEntry("e1", "2025-03-01T19:30:00+03:00", "note", None, "x", {{}}))
            """
        )
        subprocess.run([sys.executable, "-c", code], check=True)
        assert store.character(c.id).drevo.fate == c.drevo.fate  # nothing until refresh
        assert store.refresh() is True
        assert store.character(c.id).drevo.fate == 0
        assert [e.id for e in store.log()] == ["e1"]
        assert store.all_undo_labels(1) == ["Удача на нуле"]
        assert store.undo_labels(1) == []  # the other process's step is not this window's
        assert seen == [0]
        assert store.refresh() is False
        assert seen == [0]


def test_refresh_is_a_stat_when_nothing_changed(tmp_path, monkeypatch):
    path = tmp_path / "campaign.json"
    with Store.open(path) as store:
        store.append_log(LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "note", None, "x", {}))

        def no_reads(*args, **kwargs):
            raise AssertionError("refresh read the file although nothing changed")

        monkeypatch.setattr(files_module, "read_bytes", no_reads)
        monkeypatch.setattr("builtins.open", no_reads)
        assert store.refresh() is False


def test_a_write_never_comes_from_a_stale_cache(tmp_path):
    path = tmp_path / "campaign.json"
    with Store.open(path) as a, Store.open(path) as b:
        x, y = a.characters()[:2]
        a.upsert_character(x.edit_sheet(DrevoSheet, fate=0))
        b.upsert_character(
            y.edit_sheet(DrevoSheet, fate=0)
        )  # b never refreshed, yet keeps a's change
        assert b.character(x.id).drevo.fate == 0
        with Store.open(path) as fresh:
            assert fresh.character(x.id).drevo.fate == 0 and fresh.character(y.id).drevo.fate == 0
        assert a.refresh() is True
        assert a.character(y.id).drevo.fate == 0


def test_import_elsewhere_is_picked_up_by_refresh(tmp_path):
    path = tmp_path / "campaign.json"
    export = tmp_path / "export.json"
    with Store.open(path) as a:
        a.append_log(LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "note", None, "старое", {}))
        a.export_json(export)
        a.append_log(LogEntry(new_id(), "2025-03-01T19:31:00+03:00", "note", None, "новое", {}))
        a.delete_character(a.characters()[0].id)
        Store.import_json(export, path, force=True)
        assert a.refresh() is True
        assert len(a.characters()) == 7
        assert [e.text for e in a.log()] == ["старое"]
