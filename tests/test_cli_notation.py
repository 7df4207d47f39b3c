"""Issue 31 at the command line: rpg-dice-roller's notation in ``kubik roll`` / ``kubik odds``,
what was read, non-whole totals, criticals in JSON, and JSON with every repeat at full
precision in ``kubik log --json`` and ``kubik stats --json``."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from fractions import Fraction

from rules.dice import make_rng, roll
from rules.ledger.percentile import total_luck
from rules.odds import odds
from tui.bridge.luck import with_luck
from tui.cli import kubik as cli
from tui.cli import party as cli_party
from tui.cli import stats as cli_stats
from tui.store import LogEntry, Store, new_id

START = datetime(2026, 11, 29, 19, 0, tzinfo=timezone(timedelta(hours=3)))


def run(capsys, *argv):
    """Run ``kubik ARGV``; return (exit code, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_says_what_was_read(capsys):
    """Issue 31: «`3d6++2` and `2d6+++1` are read as `3d6 + 2` / `2d6 + 1` without a word: show
    the normalised expression and say what was read»."""
    code, out, _ = run(capsys, "roll", "3d6++2", "--seed", "1")
    lines = out.splitlines()
    assert code == 0 and lines[1].startswith("3d6 + 2: 3d6[")
    assert lines[2] == "Прочитано как «3d6 + 2»: «++» — это «+»."
    code, out, _ = run(capsys, "odds", "2d6+++1")
    assert out.splitlines()[:2] == ["2d6 + 1", "Прочитано как «2d6 + 1»: «+++» — это «+»."]
    code, out, _ = run(capsys, "roll", "2d6+1", "--seed", "1")
    assert "Прочитано" not in out


def test_keep_high_and_low_together_say_they_keep_nothing(capsys):
    """Issue 31: «`2d6kh1kl1` says «модификатор «kl1» уже задан» where `kh1` was the one given»
    — rpg-dice-roller takes both (each looks at the whole pool), so kubik rolls it and says
    that nothing is kept; the same modifier twice names the first one."""
    code, out, err = run(capsys, "roll", "2d6kh1kl1", "--seed", "1")
    assert code == 0 and out.splitlines()[0] == "0"
    assert "«kh1» и «kl1» вместе не оставляют ни одного из 2 кубиков" in out
    code, _, err = run(capsys, "roll", "2d6kh1kh2")
    assert code == 2
    assert "модификатор «kh1» (оставить старшие) уже задан в позиции 4 — «kh2» лишний" in err


def test_fractions_are_shown_to_the_hundredth(capsys):
    """Issue 31: «rpg-dice-roller keeps the fraction unless asked to round — follow it, and say
    how a non-integer total is shown»: two decimals at most, a Russian comma; JSON numbers."""
    code, out, _ = run(capsys, "roll", "1d100/2", "--seed", "4")
    total = out.splitlines()[0]
    expected = roll("1d100/2", make_rng(4)).total
    assert expected.denominator == 2  # type: ignore[union-attr]
    assert total == f"{expected.numerator // 2},5"  # type: ignore[union-attr]
    code, out, _ = run(capsys, "roll", "1d100/2", "--seed", "4", "--json")
    assert json.loads(out)["total"] == float(expected)
    code, out, _ = run(capsys, "odds", "d6/4")
    assert "Итог от 0,25 до 1,5, среднее 0,88 (доли — до сотых, как показывает бросок)" in out
    code, out, _ = run(capsys, "odds", "d6/4", "--json")
    data = json.loads(out)
    assert data["exact"] == {t: "1/6" for t in ("0.25", "0.5", "0.75", "1", "1.25", "1.5")}
    assert data["mean_exact"] == "7/8" and data["min"] == 0.25


def test_criticals_in_the_roll_and_json(capsys):
    """Issue 31: «criticals marked in the roll, in the Журнал and in `--json`» —
    rpg-dice-roller's marks: «Critical success rolls will be marked with a double asterisk»,
    a critical failure with a double underscore."""
    result = roll("4d20cs>=15cf<=5", make_rng(7))
    dice = result.outcomes[0].tree.dice  # type: ignore[union-attr]
    code, out, _ = run(capsys, "roll", "4d20cs>=15cf<=5", "--seed", "7")
    summary = out.splitlines()[1]
    for die in dice:
        mark = "**" if die.value >= 15 else ("__" if die.value <= 5 else "")
        assert f"{die.value}{mark}" in summary
    code, out, _ = run(capsys, "roll", "4d20cs>=15cf<=5", "--seed", "7", "--json")
    data = json.loads(out)["rolls"][0]["tree"]["dice"]
    assert [d["critical_success"] for d in data] == [d.value >= 15 for d in dice]
    assert [d["critical_failure"] for d in data] == [d.value <= 5 for d in dice]


def test_odds_of_the_issue_rows_are_answered(capsys):
    """Issue 31: «`kubik odds '20d10!kh10'` exits 2 after ~1.5–1.7 s with «слишком много
    вариантов…»; so do `15d10!kh10`, `20d10!kl10`, `20d10!dl10`»."""
    for text in ("20d10!kh10", "15d10!kh10", "20d10!kl10", "20d10!dl10"):
        code, out, err = run(capsys, "odds", text)
        assert code == 0, err
        assert out.splitlines()[0] == text


# -- JSON: every repeat, full precision ---------------------------------------------------------


def entry(at: datetime, kind: str, actor, text: str, data: dict) -> LogEntry:
    return LogEntry(new_id(), at.isoformat(timespec="seconds"), kind, actor, text, data)


def test_log_json_carries_every_repeat_at_full_precision(tmp_path, capsys):
    """Issue 31: «In `kubik log --json` a `6x 4d6` roll's `data.percentile` holds only the
    first repeat's … JSON carries every repeat and full precision»."""
    path = tmp_path / "c.json"
    result = roll("6x 4d6", make_rng(5))
    dist = odds("4d6")
    exact = [total_luck(dist.probs, t).percentile for t in result.totals]
    with Store.open(path) as store:
        data = with_luck("roll", "Лыко", result.to_dict())
        store.append_log(entry(START, "roll", "Лыко", "6x 4d6", data))
    code = cli_party.log(["--campaign", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    stored = out[0]["data"] if isinstance(out, list) else out["entries"][0]["data"]
    assert stored["percentiles"] == [float(p) for p in exact]
    assert stored["percentile"] == float(exact[0])
    assert [r["percentile"] for r in stored["luck"]["rolls"]] == [float(p) for p in exact]


def test_log_json_of_a_fractional_total_has_its_luck(tmp_path):
    """A non-whole total (``1d100/2``) is placed in its own distribution like any other."""
    result = roll("1d100/2", make_rng(4))
    assert isinstance(result.total, Fraction) and result.total.denominator == 2
    data = with_luck("roll", None, result.to_dict())
    dist = odds("1d100/2")
    assert data["percentile"] == float(total_luck(dist.probs, result.total).percentile)


def test_stats_json_keeps_full_precision(tmp_path, capsys):
    """Issue 31: «`kubik stats --json` rounds `mean_percentile` to three digits»."""
    path = tmp_path / "c.json"
    rolls = [roll("3d6", make_rng(seed)) for seed in range(5)]
    dist = odds("3d6")
    percentiles = [total_luck(dist.probs, r.total).percentile for r in rolls]
    with Store.open(path) as store:
        for i, result in enumerate(rolls):
            data = with_luck("roll", "Лыко", result.to_dict())
            store.append_log(entry(START + timedelta(minutes=i), "roll", "Лыко", "3d6", data))
    try:
        code = cli_stats.cmd_stats(["--campaign", str(path), "--json"])
    except SystemExit as exit_:
        code = exit_.code
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    mean = sum(float(p) for p in percentiles) / len(percentiles)
    assert data["mean_percentile"] == mean
    assert data["sessions"][0]["run"] == [float(p) for p in percentiles]
    assert Fraction(data["mean_percentile"]) != Fraction(round(mean, 4)) or mean == round(mean, 4)
