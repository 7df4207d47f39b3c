"""A write re-checks only what changed when the file is the version this store knows."""

from __future__ import annotations

import dataclasses

from tui.store import Store, files


def count_conversions(monkeypatch):
    calls = []
    real = files.character_from_doc

    def counting(doc):
        calls.append(doc["id"])
        return real(doc)

    monkeypatch.setattr(files, "character_from_doc", counting)
    return calls


def test_a_change_converts_only_the_changed_character(tmp_path, monkeypatch):
    store = Store.open(tmp_path / "c.json")
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, fate=first.fate + 1))  # cache warm
    calls = count_conversions(monkeypatch)
    store.upsert_character(dataclasses.replace(first, notes="ранен у брода"))
    assert calls == [first.id]
    assert Store.open(tmp_path / "c.json").character(first.id).notes == "ранен у брода"


def test_a_file_changed_by_another_process_is_checked_in_full(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    store = Store.open(path)
    other = Store.open(path)  # another instance writes: a new file version
    first = store.characters()[0]
    other.upsert_character(dataclasses.replace(first, fate=5))
    calls = count_conversions(monkeypatch)
    store.upsert_character(dataclasses.replace(store.characters()[1], notes="x"))
    assert len(calls) == len(store.characters())
