"""``kubik stats``: the luck ledger's numbers, per session, as text, JSON and Markdown."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

import pytest

from rules import drevo
from tui.bridge.luck import with_luck
from tui.cli import stats as cli_stats
from tui.store import LogEntry, Store, new_id

START = datetime(2026, 11, 29, 19, 0, tzinfo=timezone(timedelta(hours=3)))


def run(capsys, *argv):
    """Run ``kubik stats``; return (exit code, stdout, stderr)."""
    try:
        code = cli_stats.cmd_stats(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def entry(at: datetime, kind: str, actor, text: str, data: dict) -> LogEntry:
    return LogEntry(new_id(), at.isoformat(timespec="seconds"), kind, actor, text, data)


@pytest.fixture
def camp(tmp_path):
    """Two evenings (a seven-hour pause between them): Ярослав and Горан roll Древо checks;
    one of Горан's is secret, and a quick roll has no actor."""
    path = tmp_path / "campaign.json"
    rng = random.Random(3)
    with Store.open(path) as store:
        at = START
        for evening in range(2):
            for i in range(6):
                name = ("Ярослав", "Горан")[i % 2]
                check = drevo.OneSidedCheck(drevo.Side(1, name=name), 1)
                data = {"system": "drevo", **drevo.roll_one_sided(check, rng).to_dict()}
                if evening == 1 and i == 3:
                    data["hidden"] = True
                store.append_log(
                    entry(at, "check", name, "проверка", with_luck("check", name, data))
                )
                at += timedelta(minutes=10)
            at += timedelta(hours=7)
        at -= timedelta(hours=7)  # the quick roll ends the second evening
        roll = {"expression": "2d6", "total": 7, "parts": []}
        store.append_log(entry(at, "roll", None, "2d6 = 7", with_luck("roll", None, roll)))
    return path


def test_json_has_the_issue_shape_for_the_newest_session(capsys, camp):
    """«`--json` gives {"rolls": N, "mean_percentile": p, "by_character": {NAME: {"rolls": n,
    "mean_percentile": p}}, "sessions": […]}» — without a scope, the newest session."""
    code, out, _ = run(capsys, "--campaign", str(camp), "--json")
    data = json.loads(out)
    assert code == 0 and data["rolls"] == 7
    assert set(data["by_character"]) == {"Ярослав", "Горан", "без персонажа"}
    assert data["by_character"]["Горан"]["rolls"] == 3
    assert 0 < data["mean_percentile"] < 1
    assert [s["number"] for s in data["sessions"]] == [2]
    assert len(data["sessions"][0]["run"]) == 7
    assert data["verdict"]["exact"] and "вечере" in data["verdict"]["text"]


def test_session_all_and_players(capsys, camp):
    """«--session N|--all»; and «any export for players count a secret roll only after the GM
    reveals it»."""
    _, out, _ = run(capsys, "--campaign", str(camp), "--session", "1", "--json")
    assert json.loads(out)["rolls"] == 6
    _, out, _ = run(capsys, "--campaign", str(camp), "--all", "--json")
    everything = json.loads(out)
    assert everything["rolls"] == 13 and len(everything["sessions"]) == 2
    _, out, _ = run(capsys, "--campaign", str(camp), "--all", "--json", "--players")
    assert json.loads(out)["rolls"] == 12


def test_text_and_markdown(capsys, camp):
    """The text names each character; the Markdown export has the table and the run."""
    code, out, _ = run(capsys, "--campaign", str(camp))
    assert code == 0 and "сессия 2 из 2" in out and "Ярослав" in out and "Ход:" in out
    assert "средний перцентиль" in out
    code, out, _ = run(capsys, "--campaign", str(camp), "--all", "--markdown")
    assert code == 0 and out.startswith("# Удача:") and "| Горан |" in out and "Ход: `" in out


def test_bad_session_number_is_a_clear_error(capsys, camp):
    """A session that does not exist, or a number below 1, says what to type instead."""
    code, _, err = run(capsys, "--campaign", str(camp), "--session", "5")
    assert code == 1 and "нет сессии 5" in err and "kubik stats --all" in err
    code, _, err = run(capsys, "--campaign", str(camp), "--session", "0")
    assert code == 2 and "с 1" in err


def test_log_groups_by_session(capsys, camp):
    """«the log and the stats group by session»: `kubik log` heads each session, and its
    JSON numbers every entry's session (counted over the whole log, even with --limit)."""
    from tui.cli import party as cli_party

    try:
        code = cli_party.log(["--campaign", str(camp)])
    except SystemExit as exit_:
        code = exit_.code
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[0] == "— Сессия 1 —" and "— Сессия 2 —" in out
    cli_party.log(["--campaign", str(camp), "--json", "--limit", "3"])
    entries = json.loads(capsys.readouterr().out)["entries"]
    assert [e["session"] for e in entries] == [2, 2, 2]
    assert all("percentile" in e["data"] for e in entries)
