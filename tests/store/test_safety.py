"""Backups, corrupt files, full disks, read-only folders, a busy lock, a torn Журнал line."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import filelock
import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import (
    BACKUPS_KEPT,
    CampaignCorrupt,
    LogEntry,
    Store,
    StoreBusy,
    StoreError,
    StoreReadOnly,
    new_id,
)
from tui.store.journal import journal_path

AT = "2025-03-01T19:30:00+03:00"


@pytest.fixture
def path(tmp_path):
    return tmp_path / "campaign.json"


def note(n: int) -> LogEntry:
    return LogEntry(new_id(), AT, "note", None, f"Запись {n}", {"n": n})


def fate_in(path: Path, character_id: str) -> int:
    """Return a character's fate as stored in a campaign or backup file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    (doc,) = [d for d in data["characters"].values() if d["id"] == character_id]
    return doc["fate"]


class TestBackups:
    def test_each_write_keeps_the_previous_version_and_only_the_last_10(self, path):
        with Store.open(path) as store:
            assert store.backups() == []  # a new file has no previous version
            first = sorted(store.characters(), key=lambda c: c.id)[0]
            for fate in range(1, 16):
                store.upsert_character(store.character(first.id).edit_sheet(DrevoSheet, fate=fate))
            kept = store.backups()
        assert len(kept) == BACKUPS_KEPT == 10
        # Newest first: the version before the last write had fate 14.
        assert [fate_in(b, first.id) for b in kept] == list(range(14, 4, -1))
        assert fate_in(path, first.id) == 15

    def test_backups_are_untouched_by_later_writes(self, path):
        with Store.open(path) as store:
            c = store.characters()[0]
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=1))
            (backup,) = store.backups()
            saved = backup.read_bytes()
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=2))
            assert backup.read_bytes() == saved


def damage_with_backups(path: Path) -> tuple[bytes, str]:
    """Save fate 4, then 5, then damage the file; return its bytes and the character's id."""
    with Store.open(path) as store:
        c = store.characters()[0]
        store.upsert_character(c.edit_sheet(DrevoSheet, fate=4))
        store.upsert_character(store.character(c.id).edit_sheet(DrevoSheet, fate=5))
    bad = path.read_bytes()[:100]
    path.write_bytes(bad)
    return bad, c.id


DAMAGE = {
    "truncated": lambda raw: raw[: len(raw) // 3],
    "zeros": lambda raw: b"\x00" * len(raw),
    "wrong-schema": lambda raw: b'{"meta": {"1": {"schema_version": "two"}}}',
}


class TestCorrupt:
    @pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
    def test_damaged_file_explains_offers_backups_and_is_untouched(self, path, damage):
        with Store.open(path) as store:
            c = store.characters()[0]
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=4))
        bad = damage(path.read_bytes())
        path.write_bytes(bad)
        with pytest.raises(CampaignCorrupt, match="повреждён") as caught:
            Store.open(path)
        assert path.read_bytes() == bad
        assert len(caught.value.backups) == 1
        assert "резервная копия" in str(caught.value)
        assert fate_in(caught.value.backups[0], c.id) == c.drevo.fate

    def test_damaged_backups_are_not_offered(self, path):
        damage_with_backups(path)
        backups = sorted(path.with_name("campaign.backups").iterdir(), reverse=True)
        backups[0].write_bytes(b"{")
        with pytest.raises(CampaignCorrupt) as caught:
            Store.open(path)
        assert caught.value.backups == backups[1:]

    def test_restore_keeps_the_corrupt_file_aside(self, path):
        bad, cid = damage_with_backups(path)
        with pytest.raises(CampaignCorrupt) as caught:
            Store.open(path)
        aside = Store.restore_backup(path, caught.value.backups[0])
        assert aside is not None and aside.name.startswith("campaign.json.corrupt-")
        assert aside.read_bytes() == bad
        with Store.open(path) as store:
            assert store.character(cid).drevo.fate == 4  # the newest good version

    def test_restore_over_a_good_file_makes_it_a_backup(self, path):
        with Store.open(path) as store:
            c = store.characters()[0]
            store.upsert_character(c.edit_sheet(DrevoSheet, fate=5))
            (older,) = store.backups()
        current = path.read_bytes()
        assert Store.restore_backup(path, older) is None
        with Store.open(path) as store:
            assert store.character(c.id) == c
            assert any(b.read_bytes() == current for b in store.backups())

    def test_a_bad_backup_is_refused(self, path, tmp_path):
        Store.open(path).close()
        junk = tmp_path / "junk.json"
        junk.write_bytes(b"\x00\x00")
        before = path.read_bytes()
        with pytest.raises(StoreError, match="не годится"):
            Store.restore_backup(path, junk)
        assert path.read_bytes() == before

    def test_damage_while_open_fails_the_write_and_keeps_memory(self, path):
        with Store.open(path) as store:
            c = store.characters()[0]
            path.write_bytes(b"\x00" * 10)
            with pytest.raises(CampaignCorrupt):
                store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
            assert path.read_bytes() == b"\x00" * 10
            assert store.character(c.id) == c
            with pytest.raises(CampaignCorrupt):
                store.refresh()
            assert store.refresh() is False  # reported once per change on disk


def failing(real, code: int, when=lambda *a: True):
    def fake(*args, **kwargs):
        if when(*args):
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    return fake


class TestDiskErrors:
    @pytest.mark.parametrize("call", ["write", "fsync", "replace"])
    def test_full_disk_leaves_file_memory_and_undo_intact(self, path, monkeypatch, call):
        with Store.open(path) as store:
            c = store.characters()[0]
            before = path.read_bytes()
            monkeypatch.setattr(os, call, failing(getattr(os, call), errno.ENOSPC))
            with pytest.raises(StoreError, match="не хватает места") as caught:
                store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
            monkeypatch.undo()
            assert "последняя сохранённая версия цела" in str(caught.value)
            assert path.read_bytes() == before
            assert store.character(c.id) == c
            assert not store.can_undo
            assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(".")) == []
            store.upsert_character(
                c.edit_sheet(DrevoSheet, fate=0)
            )  # works again once there is room
            assert Store.open(path).character(c.id).drevo.fate == 0

    def test_full_disk_on_log_append_leaves_no_torn_line(self, path, monkeypatch):
        with Store.open(path) as store:
            store.append_log(note(1))
            before = journal_path(path).read_bytes()
            real = os.write

            def half_then_full(fd, data):
                real(fd, bytes(data[:5]))
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(os, "write", half_then_full)
            with pytest.raises(StoreError, match="не хватает места"):
                store.append_log(note(2))
            monkeypatch.undo()
            assert journal_path(path).read_bytes() == before
            assert [e.data["n"] for e in store.log()] == [1]

    @pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
    def test_read_only_folder_is_a_clear_message(self, path, monkeypatch, code):
        with Store.open(path) as store:
            c = store.characters()[0]
            before = path.read_bytes()
            folder = str(path.parent)
            # Tests run as root, where chmod does not stop writes: refuse new files instead.
            monkeypatch.setattr(
                os,
                "open",
                failing(
                    os.open,
                    code,
                    lambda p, flags, *a: str(p).startswith(folder) and flags & os.O_CREAT,
                ),
            )
            with pytest.raises(StoreError, match="нет прав на запись"):
                store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
            monkeypatch.undo()
            assert path.read_bytes() == before
            assert store.character(c.id) == c

    def test_an_immutable_file_in_a_writable_folder_is_named_as_such(self, path, monkeypatch):
        """Issue 35: ``chattr +i`` on the campaign (the folder writable) was reported as «нет
        прав на запись в папку». Linux answers EPERM to a rename over (or a link of) an
        immutable file; tests cannot set the attribute on a tmpfs, so the call is refused."""
        with Store.open(path) as store:
            c = store.characters()[0]
            before = path.read_bytes()
            real_replace = os.replace

            def immutable(src, dst, *args, **kwargs):
                if str(dst) == str(path):
                    raise PermissionError(errno.EPERM, "Operation not permitted", str(dst))
                return real_replace(src, dst, *args, **kwargs)

            monkeypatch.setattr(os, "replace", immutable)
            with pytest.raises(StoreError) as err:
                store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
            monkeypatch.undo()
            message = str(err.value)
            assert "нет прав на запись в папку" not in message
            assert "защищён от изменений" in message and "chattr -i" in message
            assert path.read_bytes() == before

    def test_unwritable_folder_opens_read_only_with_a_reason(self, path, monkeypatch):
        Store.open(path).close()
        before = path.read_bytes()
        monkeypatch.setattr(os, "access", lambda p, mode: False)
        with Store.open(path) as store:
            assert store.read_only
            assert "только для чтения" in store.read_only_reason
            with pytest.raises(StoreReadOnly, match="только для чтения"):
                store.upsert_character(store.characters()[0].edit_sheet(DrevoSheet, fate=0))
            with pytest.raises(StoreReadOnly):
                store.append_log(note(1))
            assert len(store.characters()) == 7
        assert path.read_bytes() == before

    def test_read_only_open_of_a_missing_file_does_not_create_it(self, path):
        with pytest.raises(StoreError, match="не найден"):
            Store.open(path, read_only=True)
        assert not path.parent.exists() or list(path.parent.iterdir()) == []


def test_busy_lock_raises_store_busy_after_the_wait(path):
    with Store.open(path, lock_timeout=0.2) as store:
        c = store.characters()[0]
        held = filelock.FileLock(f"{path}.lock", thread_local=False)
        with held:
            with pytest.raises(StoreBusy, match="другая копия kubik"):
                store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
            with pytest.raises(StoreBusy):
                store.append_log(note(1))
        assert store.character(c.id) == c
        store.upsert_character(c.edit_sheet(DrevoSheet, fate=0))
        assert store.character(c.id).drevo.fate == 0


class TestJournalFile:
    def test_torn_last_line_is_ignored_then_cut_by_the_next_append(self, path):
        with Store.open(path) as store:
            store.append_log(note(1))
        log = journal_path(path)
        with log.open("ab") as fh:
            fh.write(b'{"id": "torn", "at": "2025')  # a writer killed mid-line
        with Store.open(path) as store:
            assert [e.data["n"] for e in store.log()] == [1]
            store.append_log(note(2))
            assert [e.data["n"] for e in store.log()] == [2, 1]
        assert b"torn" not in log.read_bytes()
        assert log.read_bytes().endswith(b"\n")

    def test_garbage_lines_are_skipped(self, path):
        with Store.open(path) as store:
            store.append_log(note(1))
        log = journal_path(path)
        with log.open("ab") as fh:
            fh.write(b"not json\n[1]\n\n")
        with Store.open(path) as store:
            store.append_log(note(2))
            assert [e.data["n"] for e in store.log()] == [2, 1]

    def test_log_limit_and_order(self, path):
        with Store.open(path) as store:
            for n in range(5):
                store.append_log(note(n))
            assert [e.data["n"] for e in store.log(limit=2)] == [4, 3]
            assert store.log(limit=0) == []
