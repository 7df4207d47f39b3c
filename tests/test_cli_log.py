"""``kubik log --markdown``: the same entries as the text and JSON forms, in Russian words."""

from __future__ import annotations

from tui.cli import party as cli_party
from tui.store import LogEntry, Store, new_id


def test_markdown_takes_the_limit_and_names_fight_entries_in_russian(tmp_path, capsys):
    """Play-test: `kubik log --markdown --limit 3` printed the whole Журнал, and a fight's
    entries read «(combat)» among «(бросок)» and «(проверка)»."""
    path = tmp_path / "campaign.json"
    with Store.open(path) as store:
        for n in range(5):
            kind = "combat" if n % 2 else "roll"
            store.append_log(
                LogEntry(new_id(), "2025-03-01T19:30:00+03:00", kind, None, f"запись {n}", {})
            )
    code = cli_party.log(["--campaign", str(path), "--markdown", "--limit", "2"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("# Журнал:")
    items = [line for line in out.splitlines() if line.startswith("- ")]
    assert items == ["- 19:30 (бой): запись 3", "- 19:30 (бросок): запись 4"]
    assert "(combat)" not in out


def test_export_to_a_folder_says_it_is_a_folder(tmp_path, capsys):
    """Play-test: `kubik export /tmp/dir/` answered «файл /tmp/dir уже есть; --force —
    перезаписать его», and with --force «это папка»: the folder is named at once."""
    path = tmp_path / "campaign.json"
    Store.open(path).close()
    folder = tmp_path / "out"
    folder.mkdir()
    try:
        code = cli_party.export([str(folder), "--campaign", str(path)])
    except SystemExit as exit_:
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 1 and "это папка" in err and "--force" not in err
    assert list(folder.iterdir()) == []
