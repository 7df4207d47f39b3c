"""Schema migrations: every old version opens, each step is tested from a fixture file."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import MIGRATIONS, SCHEMA_VERSION, Store
from tui.store.journal import Journal, journal_path
from tui.store.migrations import upgrade

FIXTURES = Path(__file__).with_name("fixtures")


def fixture(tmp_path: Path, version: int) -> Path:
    path = tmp_path / "campaign.json"
    shutil.copyfile(FIXTURES / f"schema{version}.json", path)
    return path


def test_every_old_version_has_a_step_and_a_fixture():
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION))
    for version in range(1, SCHEMA_VERSION + 1):
        data = json.loads((FIXTURES / f"schema{version}.json").read_text(encoding="utf-8"))
        (meta,) = data["meta"].values()
        assert meta["schema_version"] == version


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_each_fixture_opens_at_the_current_schema(tmp_path, version):
    path = fixture(tmp_path, version)
    with Store.open(path) as store:
        assert store.campaign.schema_version == SCHEMA_VERSION
        assert store.characters()
    (meta,) = json.loads(path.read_text(encoding="utf-8"))["meta"].values()
    assert meta["schema_version"] == SCHEMA_VERSION


class TestSchema1To2:
    def test_log_moves_to_jsonl_in_order_and_leaves_the_file(self, tmp_path):
        path = fixture(tmp_path, 1)
        with Store.open(path) as store:
            assert [e.data["n"] for e in store.log()] == [3, 2, 1]  # doc ids 1, 2, 10
            assert store.log()[1].actor == "Милава"
            moved = store.character("c0000000000000000000000000000002")
            assert (moved.carried, moved.extra) == ({"energy": 80}, {})  # another system's
            assert store.get_doc("encounter") is None
            assert not store.can_undo  # a migration is not an undo step
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "log" not in data
        assert set(data) == {"meta", "characters", "docs", "history"}
        (meta,) = data["meta"].values()
        assert meta["rev"] == 1
        lines = journal_path(path).read_text(encoding="utf-8").splitlines()
        assert [json.loads(line)["data"]["n"] for line in lines] == [1, 2, 3]

    def test_the_schema_1_file_is_kept_as_a_backup(self, tmp_path):
        path = fixture(tmp_path, 1)
        original = path.read_bytes()
        with Store.open(path) as store:
            (backup,) = store.backups()
        assert backup.read_bytes() == original

    def test_reopening_does_not_move_the_log_twice(self, tmp_path):
        path = fixture(tmp_path, 1)
        Store.open(path).close()
        with Store.open(path) as store:
            assert len(store.log()) == 3
        assert len(journal_path(path).read_text(encoding="utf-8").splitlines()) == 3

    def test_crash_between_log_move_and_file_write_does_not_duplicate(self, tmp_path):
        path = fixture(tmp_path, 1)
        # As if a kubik moved the log and died before writing the schema-2 file.
        data = json.loads(path.read_text(encoding="utf-8"))
        up = upgrade(data, path)
        from tui.store.codec import log_from_doc

        Journal(journal_path(path)).append(log_from_doc(d) for d in up.moved_log[:2])
        with Store.open(path) as store:
            assert [e.data["n"] for e in store.log()] == [3, 2, 1]

    def test_read_only_open_migrates_in_memory_only(self, tmp_path):
        path = fixture(tmp_path, 1)
        original = path.read_bytes()
        with Store.open(path, read_only=True) as store:
            assert store.read_only
            assert [e.data["n"] for e in store.log()] == [3, 2, 1]
            assert store.campaign.name == "Старая застава"
        assert path.read_bytes() == original
        assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.json"]


def test_schema_2_fixture_keeps_docs_and_history(tmp_path):
    path = fixture(tmp_path, 2)
    with Store.open(path) as store:
        assert store.get_doc("encounter")["round"] == 2
        assert store.get_doc("settings") is None  # undone in the fixture
        assert store.undo_labels() == ["Раунд 2", "Удача Ярослава: 1"]
        assert store.redo_labels() == ["Тема: тёмная"]


class TestSchema2To3:
    BOGDAN = "29c8e26ec3d94b4abba818fb8cd2f42a"

    def test_steps_with_whole_values_still_undo_and_redo(self, tmp_path):
        path = fixture(tmp_path, 2)
        with Store.open(path) as store:
            bogdan = store.character(self.BOGDAN)
            assert store.undo() == "Раунд 2"
            assert store.get_doc("encounter") is None
            assert store.undo() == "Удача Ярослава: 1"
            assert store.character(self.BOGDAN) == bogdan.edit_sheet(DrevoSheet, fate=2)
            assert store.redo() == "Удача Ярослава: 1"
            assert store.character(self.BOGDAN) == bogdan
            assert store.redo() == "Раунд 2"
            assert store.get_doc("encounter")["round"] == 2
        with Store.open(path) as again:
            assert again.undo() == "Раунд 2"

    def test_the_schema_2_file_is_kept_as_a_backup(self, tmp_path):
        path = fixture(tmp_path, 2)
        original = path.read_bytes()
        with Store.open(path) as store:
            (backup,) = store.backups()
        assert backup.read_bytes() == original
        (meta,) = json.loads(path.read_text(encoding="utf-8"))["meta"].values()
        assert (meta["schema_version"], meta["rev"]) == (SCHEMA_VERSION, 5)


@pytest.mark.parametrize("version", [3, 4, 5])
def test_schema_3_fixture_keeps_steps_of_fields_and_of_whole_values(tmp_path, version):
    path = fixture(tmp_path, version)
    original = path.read_bytes()
    with Store.open(path) as store:
        assert store.undo_labels() == ["Удача Ярослава: 2", "Раунд 2", "Удача Ярослава: 1"]
        assert store.redo_labels() == ["Тема: тёмная"]
    if version == SCHEMA_VERSION:
        assert path.read_bytes() == original  # a current file is not rewritten on open
    with Store.open(path) as store:
        yaroslav = store.character("5eb2f0f40ef64271b011db4582470eea")
        assert (yaroslav.drevo.fate, yaroslav.drevo.wounds["light"]) == (2, 1)
        assert store.undo() == "Удача Ярослава: 2"
        assert store.character(yaroslav.id) == yaroslav.edit_sheet(
            DrevoSheet, fate=3, wounds={**yaroslav.drevo.wounds, "light": 0}
        )
        assert store.redo() == "Удача Ярослава: 2"
        assert store.character(yaroslav.id) == yaroslav


class TestTheCopyBeforeAMigration:
    """The version an older kubik wrote is kept outside the pruned backups: the GM can go back
    to the older kubik, or recover from a migration that went wrong, however much was written
    since."""

    @pytest.mark.parametrize("version", [3, 4])
    def test_it_outlives_the_pruning(self, tmp_path, version):
        from tui.store import backups as bk

        path = fixture(tmp_path, version)
        original = path.read_bytes()
        with Store.open(path) as store:
            c = store.characters()[0]
            for n in range(bk.KEEP + 3):
                c = store.character(c.id)
                store.upsert_character(dataclasses.replace(c, notes=f"запись {n}"))
            assert len(bk.list_backups(path)) == bk.KEEP  # the ordinary ones are pruned
            (kept,) = bk.list_kept(path)
            assert store.backups()[-1] == kept  # the oldest, listed last
        assert kept.read_bytes() == original
        assert bk.kept_schema(kept) == version
        assert f"schema{version}" in kept.name

    def test_a_file_already_current_keeps_none(self, tmp_path):
        from tui.store import backups as bk

        path = fixture(tmp_path, SCHEMA_VERSION)
        with Store.open(path) as store:
            c = store.characters()[0]
            store.upsert_character(dataclasses.replace(c, notes="x"))
        assert bk.list_kept(path) == []
        assert len(bk.list_backups(path)) == 1

    def test_it_restores_to_the_older_schema_and_is_a_good_backup(self, tmp_path):
        from tui.store import backups as bk
        from tui.store.files import good_backups

        path = fixture(tmp_path, 4)
        original = path.read_bytes()
        Store.open(path).close()
        (kept,) = bk.list_kept(path)
        assert kept in good_backups(path)
        Store.restore_backup(path, kept)
        assert path.read_bytes() == original  # what the older kubik wrote, for the older kubik
