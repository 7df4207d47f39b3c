"""Export and import of a whole campaign; the Журнал as Markdown."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import CampaignExists, LogEntry, Store, StoreError, new_id
from tui.store.transfer import log_markdown


def entry(n: int, at: str = "2025-03-01T19:30:00+03:00", actor: str | None = "Милава"):
    return LogEntry(new_id(), at, "check", actor, f"Луки *{n}*", {"n": n})


@pytest.fixture
def source(tmp_path):
    with Store.open(tmp_path / "src" / "campaign.json", system="ide4") as store:
        c = store.characters()[0]
        store.upsert_character(replace(c.edit_sheet(DrevoSheet, fate=1), extra={"energy": 80}))
        store.put_doc("encounter", {"round": 2, "order": [c.id]}, label="Раунд 2")
        store.put_doc("settings", {"theme": "dark"}, label="Тема")
        for n in range(3):
            store.append_log(entry(n))
        yield store


def test_export_import_roundtrip_is_equal(source, tmp_path):
    out = tmp_path / "export.json"
    source.export_json(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "kubik-campaign" and data["campaign"]["system"] == "ide4"
    target = tmp_path / "dst" / "campaign.json"
    campaign = Store.import_json(out, target)
    assert (campaign.name, campaign.system) == (source.campaign.name, "ide4")
    with Store.open(target) as copy:
        assert copy.characters() == source.characters()
        assert copy.log() == source.log()
        assert copy.get_doc("encounter") == source.get_doc("encounter")
        assert copy.get_doc("settings") == {"theme": "dark"}
        assert copy.campaign == source.campaign
        assert not copy.can_undo  # history is local to a campaign file


def test_import_refuses_to_overwrite_unless_forced(source, tmp_path):
    out = tmp_path / "export.json"
    source.export_json(out)
    target = tmp_path / "other.json"
    with Store.open(target) as other:
        other.append_log(entry(99))
    before = target.read_bytes()
    with pytest.raises(CampaignExists, match="--force"):
        Store.import_json(out, target)
    assert target.read_bytes() == before
    Store.import_json(out, target, force=True)
    with Store.open(target) as replaced:
        assert len(replaced.log()) == 3
        assert any(b.read_bytes() == before for b in replaced.backups())
    old_logs = list((tmp_path / "other.backups").glob("other.log-*.jsonl"))
    assert len(old_logs) == 1 and "Луки *99*" in old_logs[0].read_text(encoding="utf-8")


BAD = {
    "not-json": (b"{oops", "не JSON"),
    "no-format": (b'{"campaign": {}}', "нет отметки формата"),
    "campaign-file": (b'{"meta": {}, "characters": {}}', "файл кампании, а не экспорт"),
    "newer": (b'{"format": "kubik-campaign", "format_version": 99}', "обновите kubik"),
    "bad-character": (
        b'{"format": "kubik-campaign", "format_version": 1,'
        b' "campaign": {"name": "x", "system": "drevo"}, "characters": [{"name": "no id"}]}',
        "неверные данные",
    ),
}


@pytest.mark.parametrize("raw, reason", BAD.values(), ids=BAD.keys())
def test_bad_import_names_the_reason_and_creates_nothing(tmp_path, raw, reason):
    bad = tmp_path / "bad.json"
    bad.write_bytes(raw)
    target = tmp_path / "new.json"
    with pytest.raises(StoreError, match=reason):
        Store.import_json(bad, target)
    assert not target.exists()


def test_export_refuses_the_campaign_file_itself(source):
    with pytest.raises(StoreError, match="файл самой кампании"):
        source.export_json(source.path)


def test_log_markdown(source):
    md = source.log_markdown()
    assert md.startswith(f"# Журнал: {source.campaign.name}\n")
    assert "## 2025-03-01" in md
    assert md.count("- 19:30 **Милава** (проверка): Луки \\*0\\*") == 1
    assert md.index("\\*0\\*") < md.index("\\*2\\*")  # oldest first


def test_log_markdown_groups_days_and_handles_empty_and_odd_times():
    assert "Записей пока нет" in log_markdown("Пусто", [])
    md = log_markdown(
        "К",
        [
            entry(1, "2025-03-01T23:59:00+03:00", None),
            entry(2, "2025-03-02T00:01:00+03:00"),
            entry(3, "когда-то"),
        ],
    )
    lines = md.splitlines()
    assert "## 2025-03-01" in lines and "## 2025-03-02" in lines and "## Без даты" in lines
    assert "- 23:59 (проверка): Луки \\*1\\*" in lines


def _undone_source(store: Store) -> list[str]:
    """Three logged changes of Судьба, the last two undone, the middle one redone."""
    c = store.characters()[0]
    for fate in (2, 3, 4):
        now = store.character(c.id)
        store.apply(
            f"Судьба {fate}",
            upsert=[now.edit_sheet(DrevoSheet, fate=fate)],
            log=[LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "note", None, f"Судьба {fate}")],
        )
    store.undo()
    store.undo()
    store.redo()
    return [e.text for e in store.log() if e.undone]


def test_export_import_keeps_the_undone_marks(source, tmp_path):
    """The Журнал after a round trip shows the same entries with the same «отменено» marks."""
    assert _undone_source(source) == ["Судьба 4"]
    out = tmp_path / "export.json"
    source.export_json(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["text"] for d in data["log"] if d.get("undone")] == ["Судьба 4"]
    target = tmp_path / "dst" / "campaign.json"
    imported = Store.import_json(out, target)
    assert imported.note is None
    with Store.open(target) as copy:
        assert [(e.text, e.undone) for e in copy.log()] == [
            (e.text, e.undone) for e in source.log()
        ]
        assert copy.log() == source.log()
        assert "~~Судьба 4~~ _(отменено)_" in copy.log_markdown()
        # A new change (and its undo) in the copy leaves the imported marks as they were.
        c = copy.characters()[0]
        copy.apply("Судьба 7", upsert=[c.edit_sheet(DrevoSheet, fate=7)])
        copy.undo()
        assert [e.text for e in copy.log() if e.undone] == ["Судьба 4"]
    # Exported again, the copy says the same.
    again = tmp_path / "again.json"
    with Store.open(target) as copy:
        copy.export_json(again)
    assert [d["text"] for d in json.loads(again.read_text("utf-8"))["log"] if d.get("undone")] == [
        "Судьба 4"
    ]


def test_an_old_export_without_marks_imports_with_a_note(source, tmp_path):
    _undone_source(source)
    out = tmp_path / "export.json"
    source.export_json(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    data.pop("log_marks")
    for doc in data["log"]:
        doc.pop("undone", None)
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    target = tmp_path / "dst" / "campaign.json"
    imported = Store.import_json(out, target)
    assert imported.note is not None and "отменено" in imported.note
    with Store.open(target) as copy:
        assert [e.text for e in copy.log()] == [e.text for e in source.log()]
        assert not any(e.undone for e in copy.log())


def test_an_old_export_with_an_empty_log_needs_no_note(tmp_path):
    with Store.open(tmp_path / "src.json") as store:
        store.export_json(tmp_path / "export.json")
    data = json.loads((tmp_path / "export.json").read_text(encoding="utf-8"))
    data.pop("log_marks")
    (tmp_path / "export.json").write_text(json.dumps(data), encoding="utf-8")
    assert Store.import_json(tmp_path / "export.json", tmp_path / "dst.json").note is None
