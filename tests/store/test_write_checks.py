"""A write re-checks and re-encodes only what changed when the file is the version it knows."""

from __future__ import annotations

import dataclasses
import errno
import json
import os

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import Store, StoreError, files, storage
from tui.store.storage import FileSig


def count_conversions(monkeypatch):
    calls = []
    real = files.character_from_doc

    def counting(doc, *system):
        calls.append(doc["id"])
        return real(doc, *system)

    monkeypatch.setattr(files, "character_from_doc", counting)
    return calls


def test_a_change_converts_only_the_changed_character(tmp_path, monkeypatch):
    store = Store.open(tmp_path / "c.json")
    first = store.characters()[0]
    store.upsert_character(first.edit_sheet(DrevoSheet, fate=first.drevo.fate + 1))  # cache warm
    calls = count_conversions(monkeypatch)
    store.upsert_character(dataclasses.replace(first, notes="ранен у брода"))
    assert calls == [first.id]
    assert Store.open(tmp_path / "c.json").character(first.id).notes == "ранен у брода"


def test_a_file_changed_by_another_process_is_checked_in_full(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    store = Store.open(path)
    other = Store.open(path)  # another instance writes: a new file version
    first = store.characters()[0]
    other.upsert_character(first.edit_sheet(DrevoSheet, fate=5))
    calls = count_conversions(monkeypatch)
    store.upsert_character(dataclasses.replace(store.characters()[1], notes="x"))
    # Every document once as the file is read (before the change: a file that fails the
    # checks is never written over), then the changed character once more.
    assert len(calls) == len(store.characters()) + 1


def test_a_write_on_the_version_it_knows_does_not_parse_the_file_again(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    store = Store.open(path)
    first = store.characters()[0]

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed the file this store wrote itself")

    monkeypatch.setattr(files, "parse_tables", no_parse)
    store.upsert_character(first.edit_sheet(DrevoSheet, fate=first.drevo.fate + 1))
    store.put_doc("encounter", {"round": 1}, label="Бой")
    monkeypatch.undo()
    store.close()  # a restart: the new window takes the steps of the gone one
    with Store.open(path) as again:
        assert again.character(first.id).drevo.fate == first.drevo.fate + 1
        assert again.get_doc("encounter") == {"round": 1}
        assert again.undo_labels() == ["Бой", f"Изменён персонаж «{first.name}»"]


def test_a_file_rewritten_in_place_with_the_same_stat_is_read_fresh(tmp_path):
    """Same inode, size and mtime, other bytes: only the content tells, so it is compared."""
    path = tmp_path / "c.json"
    store = Store.open(path)
    first, second = store.characters()[:2]
    store.upsert_character(dataclasses.replace(first, notes="aaa"))
    before = os.stat(path)
    raw = path.read_bytes()
    with open(path, "r+b") as fh:  # a hand edit that keeps the length
        fh.write(raw.replace(b'"notes": "aaa"', b'"notes": "bbb"'))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert FileSig.of(os.stat(path)) == FileSig.of(before)
    store.upsert_character(second.edit_sheet(DrevoSheet, fate=second.drevo.fate + 1))
    assert store.character(first.id).notes == "bbb"
    with Store.open(path) as again:
        assert again.character(first.id).notes == "bbb"
        assert again.character(second.id).drevo.fate == second.drevo.fate + 1


def test_a_failed_write_leaves_the_cache_it_started_from_unchanged(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    store = Store.open(path)
    store.put_doc("encounter", {"round": 1}, label="Раунд 1")
    real = os.replace

    def full_disk(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(StoreError):
        store.put_doc("encounter", {"round": 2}, label="Раунд 2")
    monkeypatch.setattr(os, "replace", real)
    first = store.characters()[0]
    store.upsert_character(first.edit_sheet(DrevoSheet, fate=first.drevo.fate + 1), label="Удача")
    with Store.open(path) as again:
        assert again.get_doc("encounter") == {"round": 1}
        assert again.all_undo_labels() == ["Удача", "Раунд 1"]


def test_a_write_encodes_only_the_documents_it_changed(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    store = Store.open(path)
    first, second = store.characters()[:2]
    store.upsert_character(first.edit_sheet(DrevoSheet, fate=first.drevo.fate + 1))  # lines cached
    encoded = []
    real = storage._dumps

    def counting(value):
        if isinstance(value, dict):
            encoded.append(value.get("id") or value.get("name") or sorted(value))
        return real(value)

    monkeypatch.setattr(storage, "_dumps", counting)
    store.upsert_character(dataclasses.replace(second, notes="у брода"))
    store.put_doc("encounter", {"round": 1}, label="Бой")
    monkeypatch.undo()
    # The character, then the document; each write also changes meta (rev) and the history
    # (with the windows whose steps it holds).
    assert encoded == [
        *[store.campaign.name, second.id, ["redo", "undo", "windows"]],
        *[store.campaign.name, "encounter", ["redo", "undo", "windows"]],
    ]
    raw = path.read_bytes()
    assert raw == storage.dump_tables(json.loads(raw))  # as if every line were encoded anew
