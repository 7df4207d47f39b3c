"""Several kubiks on one campaign: locked writes lose nothing, refresh picks up the others'."""

from __future__ import annotations

import os
import traceback

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import Character, LogEntry, Store, new_id
from tui.store import files as files_module


def add_100_in_a_fork(path, tag: str, gate: tuple[int, int]) -> tuple[int, int]:
    """Fork a kubik that opens the campaign, says so (one byte on the returned fd), waits
    until the ``gate`` pipe reads end-of-file, then adds 100 NPCs, each its own locked write.
    Returns (pid, fd). A fork of this process, not a fresh interpreter: a process of its
    own with its own store, lock and reads, for a fork's cost. It never returns into pytest."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(gate[1])  # only the parent holds the gate shut
            os.close(ready_r)
            store = Store.open(path)
            os.write(ready_w, b"o")  # open: the parent lets both go at once
            os.read(gate[0], 1)
            for n in range(100):
                store.upsert_character(
                    Character(new_id(), f"{tag}-{n}", "npc", {}, (), ()), label=f"{tag} {n}"
                )
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(ready_w)
    return pid, ready_r


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_two_processes_adding_100_characters_each_make_200(tmp_path):
    path = tmp_path / "campaign.json"
    Store.open(path).close()
    gate = os.pipe()
    try:
        forks = [add_100_in_a_fork(path, tag, gate) for tag in ("А", "Б")]
        for _, ready in forks:
            assert os.read(ready, 1) == b"o", "a writer died before it opened the campaign"
            os.close(ready)
    finally:
        os.close(gate[0])
        os.close(gate[1])  # the gate opens: both read end-of-file at once
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid, _ in forks]
    assert codes == [0, 0]
    with Store.open(path) as store:
        names = [c.name for c in store.characters() if c.kind == "npc"]
        added = {n for n in names if n[:2] in ("А-", "Б-")}
        assert added == {f"{t}-{n}" for t in "АБ" for n in range(100)}
        assert len(store.characters()) == 7 + 200


def in_another_process(path, character_id: str) -> None:
    """In a fork (a process of its own, with its own store; never returning into pytest):
    set the character's Удача to 0 and add a Журнал entry."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            s = Store.open(path)
            c = s.character(character_id)
            s.upsert_character(c.edit_sheet(DrevoSheet, fate=0), label="Удача на нуле")
            s.append_log(LogEntry("e1", "2025-03-01T19:30:00+03:00", "note", None, "x", {}))
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_refresh_sees_another_process_write_and_notifies(tmp_path):
    path = tmp_path / "campaign.json"
    with Store.open(path) as store:
        c = store.characters()[0]
        seen = []
        store.subscribe(lambda: seen.append(store.character(c.id).drevo.fate))
        assert store.refresh() is False
        in_another_process(path, c.id)
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
