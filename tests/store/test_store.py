"""The campaign store: demo campaign, round trips, ordering, notifications, corrupt files."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rules.data import load_table
from rules.drevo.sheet import DrevoSheet
from tui.store import (
    SCHEMA_VERSION,
    WOUND_KEYS,
    AtomicJSONStorage,
    Character,
    LogEntry,
    Skill,
    Store,
    StoreError,
    default_campaign_path,
    new_id,
)

AT = "2025-03-01T19:30:00+03:00"  # frozen clock
QUALITIES = {"Сила", "Ловкость", "Выносливость", "Восприятие", "Воля"}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "deep" / "folder" / "campaign.json"


@pytest.fixture
def store(path: Path):
    s = Store.open(path)
    yield s
    s.close()


def entry(n: int, kind: str = "roll") -> LogEntry:
    return LogEntry(
        id=new_id(),
        at=AT,
        kind=kind,
        actor="Милава",
        text=f"Бросок №{n}: 4dF = +1",
        data={"n": n, "dice": [1, 0, -1, 1]},
    )


class TestNewCampaign:
    def test_new_path_gets_demo_party_of_four_pcs_and_three_npcs(self, store, path):
        chars = store.characters()
        kinds = [c.kind for c in chars]
        assert kinds == ["pc"] * 4 + ["npc"] * 3
        assert path.is_file()
        assert store.campaign.name == "Древо: Пограничная застава"
        assert store.campaign.system == "drevo"
        assert store.campaign.schema_version == SCHEMA_VERSION

    def test_characters_are_pcs_then_npcs_each_by_name(self, store):
        chars = store.characters()
        pcs = [c.name for c in chars if c.kind == "pc"]
        npcs = [c.name for c in chars if c.kind == "npc"]
        assert pcs == sorted(pcs, key=str.casefold)
        assert npcs == sorted(npcs, key=str.casefold)
        assert [c.name for c in chars] == pcs + npcs

    def test_schema_version_and_meta_are_stored_in_the_file(self, store, path):
        data = json.loads(path.read_text(encoding="utf-8"))
        (meta,) = data["meta"].values()
        assert meta == {
            "schema_version": SCHEMA_VERSION,
            "name": "Древо: Пограничная застава",
            "system": "drevo",
            "rev": 0,
        }
        assert len(data["characters"]) == 7
        # Since schema 2 the Журнал lives in campaign.log.jsonl, created by the first entry.
        assert set(data) == {"meta", "characters", "docs", "history"}
        assert not path.with_name("campaign.log.jsonl").exists()

    def test_file_is_utf8_json_with_cyrillic_unescaped(self, store, path):
        raw = path.read_bytes()
        text = raw.decode("utf-8")
        json.loads(text)
        assert "Пограничная застава" in text
        assert "\\u04" not in text

    def test_each_new_campaign_gets_its_own_ids(self, tmp_path):
        with Store.open(tmp_path / "a.json") as a, Store.open(tmp_path / "b.json") as b:
            ids_a = {c.id for c in a.characters()}
            ids_b = {c.id for c in b.characters()}
        assert len(ids_a) == 7
        assert all(len(i) == 32 and int(i, 16) >= 0 for i in ids_a)
        assert not ids_a & ids_b


class TestDemoData:
    """The demo party follows RULES.md §4 and only names catalogue weapons."""

    def test_demo_characters_are_well_formed(self, store):
        catalogue = {w["name"] for w in load_table("drevo/weapons.toml")["weapons"]}
        for c in store.characters():
            assert set(c.qualities) == QUALITIES, c.name
            assert 4 <= len(c.skills) <= 7, c.name
            assert all(-1 <= s.value <= 4 for s in c.skills), c.name
            assert 1 <= len(c.weapons) <= 2 and set(c.weapons) <= catalogue, c.name
            assert c.drevo.wounds == dict.fromkeys(WOUND_KEYS, 0), c.name
            assert c.notes, c.name
            if c.kind == "pc":
                assert 1 <= c.drevo.fate <= 5, (
                    c.name
                )  # «рекомендовано количество от одного до пяти»
            else:
                assert 0 <= c.drevo.fate <= 5, c.name

    def test_demo_covers_combat_skills_and_parents(self, store):
        skills = [s for c in store.characters() for s in c.skills]
        names = {s.name for s in skills}
        assert {"Драка", "Стрельба", "Метание", "Уклонение", "Бой без оружия"} <= names
        parents = {(s.name, s.parent) for s in skills if s.parent}
        assert {("Щиты", "Драка"), ("Фехтование", "Драка"), ("Луки", "Стрельба")} <= parents

    def test_weapon_catalogue(self):
        weapons = load_table("drevo/weapons.toml")["weapons"]
        by_name = {w["name"]: w for w in weapons}
        assert len(weapons) >= 12 and len(by_name) == len(weapons)
        # «Модификатор урона у персонажа, сражающегося без оружия, равен «-1»»
        assert by_name["Без оружия"]["damage_mod"] == -1
        assert {w["kind"] for w in weapons} == {"melee", "thrown", "bow", "firearm", "shield"}
        assert all(isinstance(w["damage_mod"], int) and w["skill"] for w in weapons)
        assert by_name["Щит"]["skill"] == "Щиты"


class TestRoundTrips:
    def test_reopen_gives_the_same_characters(self, path):
        with Store.open(path) as first:
            before = first.characters()
        with Store.open(path) as second:
            after = second.characters()
            assert second.campaign == first.campaign
        assert after == before

    def test_upsert_replaces_by_id_and_survives_reopen(self, store, path):
        milava = next(c for c in store.characters() if c.name == "Милава")
        hurt = replace(
            milava.edit_sheet(
                DrevoSheet, fate=1, wounds={**milava.drevo.wounds, "light": 1, "scratch": 2}
            ),
            notes="Ранена у брода.",
            skills=(*milava.skills, Skill("Метание", 1)),
        )
        store.upsert_character(hurt)
        assert store.character(milava.id) == hurt
        assert len(store.characters()) == 7
        store.close()
        with Store.open(path) as again:
            assert again.character(milava.id) == hurt
            assert again.character(milava.id).trait("Метание") == 1

    def test_upsert_inserts_a_new_character(self, store):
        wolf = Character(
            id=new_id(),
            name="Волк",
            kind="npc",
            qualities={"Сила": 1},
            skills=(Skill("Драка", 1),),
            weapons=(),
        )
        store.upsert_character(wolf)
        names = [c.name for c in store.characters()]
        assert len(names) == 8
        assert names[4:] == ["Атаман Шкуро", "Волк", "Лыко", "Сотник Вышата"]
        assert store.character(wolf.id).drevo.wounds == dict.fromkeys(WOUND_KEYS, 0)

    def test_unknown_id_gives_none(self, store):
        assert store.character("нет-такого") is None

    def test_delete_character(self, store):
        lyko = next(c for c in store.characters() if c.name == "Лыко")
        assert store.delete_character(lyko.id) is True
        assert store.character(lyko.id) is None
        assert store.delete_character(lyko.id) is False

    def test_log_roundtrip_newest_first_with_limit(self, store, path):
        entries = [entry(n) for n in range(5)] + [
            LogEntry(new_id(), AT, "note", None, "Привал у Чёрного камня.", {})
        ]
        for e in entries:
            store.append_log(e)
        assert store.log() == entries[::-1]
        assert store.log(limit=2) == [entries[5], entries[4]]
        assert store.log(limit=0) == []
        store.close()
        with Store.open(path) as again:
            assert again.log() == entries[::-1]
            assert again.log()[1].data == {"n": 4, "dice": [1, 0, -1, 1]}


class TestSubscribe:
    def test_callback_fires_after_every_change(self, store):
        seen: list[int] = []
        store.subscribe(lambda: seen.append(len(store.log())))
        store.append_log(entry(1))
        store.append_log(entry(2))
        c = store.characters()[0]
        store.upsert_character(c.edit_sheet(DrevoSheet, fate=c.drevo.fate + 1))
        # The callback sees the state after the change.
        assert seen == [1, 2, 2]

    def test_unsubscribe_stops_callbacks(self, store):
        calls: list[str] = []

        def cb() -> None:
            calls.append("x")

        store.subscribe(cb)
        store.append_log(entry(1))
        store.unsubscribe(cb)
        store.append_log(entry(2))
        assert calls == ["x"]


class TestModels:
    def test_trait_prefers_skill_over_quality(self):
        c = Character(
            id="x",
            name="Тест",
            kind="pc",
            qualities={"Ловкость": 2, "Драка": 9},
            skills=(Skill("Драка", 1), Skill("Щиты", 3, "Драка")),
            weapons=(),
            sheet=DrevoSheet(fate=3, wounds={"light": 1}),
        )
        assert c.trait("Драка") == 1
        assert c.trait("Щиты") == 3
        assert c.trait("Ловкость") == 2
        assert c.trait("Стрельба") is None
        assert c.drevo.wounds == {"scratch": 0, "light": 1, "wound": 0, "heavy": 0}

    def test_bad_kind_is_rejected(self):
        with pytest.raises(ValueError):
            Character("x", "Тест", "monster", {}, (), ())


class TestDefaultPath:
    @pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is Linux-only")
    def test_default_path_follows_xdg_data_home(self, tmp_path, monkeypatch):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        expected = tmp_path / "xdg" / "kubik" / "campaign.json"
        assert default_campaign_path() == expected
        with Store.open() as s:
            assert s.path == expected
            assert len(s.characters()) == 7
        assert expected.is_file()


def _valid_file_bytes(tmp_path: Path) -> bytes:
    src = tmp_path / "elsewhere" / "valid.json"
    Store.open(src).close()
    return src.read_bytes()


CORRUPT = {
    "truncated": lambda valid: valid[: len(valid) // 2],
    "zero-bytes": lambda valid: b"",
    "not-json": lambda valid: "Это не JSON, а заметки ведущего".encode(),
    "not-utf8": lambda valid: b"\xff\xfe\x00garbage",
    "json-list": lambda valid: b"[1, 2, 3]",
    "no-meta": lambda valid: b'{"characters": {}, "log": {}}',
    "bad-character": lambda valid: (
        b'{"meta": {"1": {"schema_version": 1, "name": "x", "system": "drevo"}},'
        b' "characters": {"1": {"name": "no id"}}, "log": {}}'
    ),
}


class TestCorruptFiles:
    @pytest.mark.parametrize("damage", CORRUPT.values(), ids=CORRUPT.keys())
    def test_corrupt_file_raises_and_is_not_touched(self, tmp_path, damage):
        path = tmp_path / "campaign.json"
        bad = damage(_valid_file_bytes(tmp_path))
        path.write_bytes(bad)
        with pytest.raises(StoreError, match="повреждён"):
            Store.open(path)
        assert path.read_bytes() == bad
        assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.json", "elsewhere"]

    def test_newer_schema_asks_to_update(self, tmp_path):
        path = tmp_path / "campaign.json"
        data = json.loads(_valid_file_bytes(tmp_path))
        data["meta"]["1"]["schema_version"] = SCHEMA_VERSION + 1
        raw = json.dumps(data, ensure_ascii=False).encode()
        path.write_bytes(raw)
        with pytest.raises(StoreError, match="[Оо]бновите kubik"):
            Store.open(path)
        assert path.read_bytes() == raw

    def test_unwritable_location_raises_store_error(self, tmp_path):
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("x")
        with pytest.raises(StoreError, match="Не удалось"):
            Store.open(blocker / "campaign.json")

    def test_directory_path_raises_store_error(self, tmp_path):
        with pytest.raises(StoreError, match="папка"):
            Store.open(tmp_path)

    def test_closed_store_refuses_work(self, store):
        store.close()
        with pytest.raises(StoreError):
            store.characters()


class TestAtomicStorage:
    def test_missing_file_reads_as_none_and_is_not_created(self, tmp_path):
        path = tmp_path / "new.json"
        assert AtomicJSONStorage(path).read() is None
        assert not path.exists()

    def test_zero_byte_file_is_corrupt_not_new(self, tmp_path):
        path = tmp_path / "empty.json"
        path.touch()
        with pytest.raises(StoreError):
            AtomicJSONStorage(path).read()

    def test_write_replaces_content_and_leaves_no_temp_files(self, tmp_path):
        path = tmp_path / "c.json"
        storage = AtomicJSONStorage(path)
        storage.write({"t": {"1": {"имя": "Ёж"}}})
        storage.write({"t": {"1": {"имя": "Уж"}}})
        assert storage.read() == {"t": {"1": {"имя": "Уж"}}}
        assert "Уж" in path.read_text(encoding="utf-8")
        assert [p.name for p in tmp_path.iterdir()] == ["c.json"]

    def test_open_removes_temp_files_of_dead_writers(self, tmp_path):
        path = tmp_path / "campaign.json"
        Store.open(path).close()
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        stale = tmp_path / f".campaign.json.{dead.pid}.0badc0de.tmp"
        stale.write_text('{"half": ')
        other = tmp_path / "notes.tmp"
        other.write_text("не наше")
        with Store.open(path) as s:
            assert len(s.characters()) == 7
        assert not stale.exists()
        assert other.exists()
