"""``kubik odds|check starately`` and ``kubik odds|check wod``: JSON, text and errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tui.cli.kubik import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    return capsys.readouterr().err


# --- Старатели -------------------------------------------------------------------------------


def test_odds_starately_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "odds", "starately", "--dm", "1", "--skill", "2", "--difficulty", "Тяжело"
    )
    assert data["system"] == "starately"
    assert set(data["outcomes"]) == {"success", "failure"}
    assert Fraction(data["exact"]["success"]) == Fraction(21, 36)  # 2d6 + 3 ≥ 10
    assert data["effect"]["-5"] == pytest.approx(1 / 36)
    assert sum(data["effect"].values()) == pytest.approx(1)
    assert data["difficulty"] == 10


def test_odds_starately_boon_and_number(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "odds",
        "starately",
        "--characteristic",
        "4",
        "--unskilled",
        "--difficulty",
        "6",
        "--boon",
        "--mod",
        "+2",
    )
    assert data["bonus"] == -1 - 3 + 2
    assert data["dice"] == 3
    assert min(int(e) for e in data["effect"]) == 2 - 2 - 6


def test_odds_starately_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "starately", "--dm", "0", "--skill", "1", "--bane"]) == 0
    out = capsys.readouterr().out
    assert "Средне" in out and "Успех" in out and "Эффект" in out


def test_check_starately_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("check", "starately", "--dm", "1", "--skill", "1", "--difficulty", "8", "--seed", "5")
    first, second = run_json(capsys, *argv), run_json(capsys, *argv)
    assert first == second
    assert first["kind"] == "check"
    assert len(first["dice"]) == 2
    assert first["effect"] == first["total"] - 8


def test_check_starately_risk(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(40):
        data = run_json(
            capsys,
            "check",
            "starately",
            "--dm",
            "-1",
            "--unskilled",
            "--difficulty",
            "Подвиг",
            "--seed",
            str(seed),
            "--risk",
            "теряет аптечку",
        )
        if data["kind"] == "risk":
            assert data["first"]["outcome"] == "failure"
            assert data["price"] == "теряет аптечку"
            assert all(d["rerolled"] for d in data["retry"]["dice"])
            return
    pytest.fail("no failed check in 40 seeds")


def test_starately_errors(capsys: pytest.CaptureFixture[str]) -> None:
    err = fails(capsys, "odds", "starately", "--dm", "0", "--skill", "1", "--difficulty", "Ой")
    assert "Легко" in err
    err = fails(capsys, "odds", "starately", "--dm", "0")
    assert "нужен один из аргументов" in err
    err = fails(capsys, "odds", "starately", "--dm", "0", "--skill", "1", "--unskilled")
    assert "нельзя вместе" in err


# --- Мир Тьмы --------------------------------------------------------------------------------


def test_odds_wod_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", "wod", "--pool", "5", "--again", "9", "--rote")
    assert data["system"] == "wod"
    assert list(data["outcomes"]) == [
        "exceptional_success",
        "success",
        "failure",
        "dramatic_failure",
    ]
    assert data["outcomes"]["dramatic_failure"] == 0
    assert data["outcomes"]["failure"] == pytest.approx(0.49**5)
    assert sum(data["successes"].values()) == pytest.approx(1)
    assert 0 < data["truncated"] < 1e-12
    assert data["again"] == 9 and data["rote"] is True


def test_odds_wod_chance_die(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", "wod", "--pool", "-2")
    assert data["chance"] is True
    assert data["exact"]["dramatic_failure"] == "1/10"
    assert data["exact"]["failure"] == "4/5"


def test_odds_wod_text_and_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "wod", "--attribute", "3", "--skill", "2", "--again", "none"]) == 0
    out = capsys.readouterr().out
    assert "без взрывов" in out and "Исключительный успех" in out


def test_check_wod_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("check", "wod", "--pool", "6", "--rote", "--seed", "3")
    first, second = run_json(capsys, *argv), run_json(capsys, *argv)
    assert first == second
    assert first["kind"] == "pool"
    assert first["successes"] == sum(d["success"] and d["kept"] for d in first["dice"])


def test_check_wod_withdrawal(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "check", "wod", "--pool", "0", "--withdraw")
    assert data["kind"] == "withdrawn" and data["dice"] == []
    err = fails(capsys, "check", "wod", "--pool", "0", "--withdraw", "--no-withdrawal")
    assert "нельзя отменить" in err
    err = fails(capsys, "check", "wod", "--pool", "3", "--withdraw")
    assert "на удачу" in err


def test_wod_errors(capsys: pytest.CaptureFixture[str]) -> None:
    err = fails(capsys, "odds", "wod", "--pool", "3", "--again", "7")
    assert "10, 9, 8 или none" in err
    err = fails(capsys, "odds", "wod", "--pool", "3", "--skill", "2")
    assert "--attribute" in err
    err = fails(capsys, "odds", "wod", "--pool", "300")
    assert "больше 100" in err


def test_odds_starately_opposed(capsys: pytest.CaptureFixture[str]) -> None:
    """«В случае соперничества двух персонажей можно кинуть встречный бросок - у такого броска
    нет сложности, кто бросит выше, тот и победил. В случае ничьёй побеждает инициатор
    проверки»."""
    from rules import starately

    data = run_json(
        capsys,
        "odds",
        "starately",
        "--dm",
        "1",
        "--skill",
        "2",
        "--vs-dm",
        "0",
        "--vs-skill",
        "2",
        "--vs-bane",
    )
    assert set(data["outcomes"]) == {"initiator_wins", "opponent_wins"}
    a = starately.Side(dm=1, skill=2)
    b = starately.Side(dm=0, skill=2, banes=1)
    odds = starately.opposed_odds(starately.Opposed(a, b, initiator="a"))
    assert Fraction(data["exact"]["initiator_wins"]) == odds.a
    assert Fraction(data["tie_exact"]) == odds.tie and data["naturals_decide"] is False
    assert "нет сложности" in fails(
        capsys,
        "odds",
        "starately",
        "--dm",
        "1",
        "--skill",
        "2",
        "--vs-dm",
        "0",
        "--vs-unskilled",
        "--difficulty",
        "8",
    )
    assert "--vs-skill" in fails(
        capsys, "odds", "starately", "--dm", "1", "--skill", "2", "--vs-dm", "0"
    )
    assert "--vs-dm" in fails(
        capsys, "odds", "starately", "--dm", "1", "--skill", "2", "--vs-skill", "1"
    )


def test_check_starately_opposed_flags_naturals(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES [default]: «Natural 12 and 2 are flagged but decide nothing there»."""
    data = run_json(
        capsys,
        "check",
        "starately",
        "--dm",
        "1",
        "--skill",
        "2",
        "--vs-dm",
        "0",
        "--vs-unskilled",
        "--seed",
        "2",
    )
    assert data["kind"] == "opposed" and data["initiator_wins"] == (data["winner"] == "a")
    for side in ("a", "b"):
        assert data[side]["natural_2"] == (data[side]["natural"] == 2)
        assert data[side]["natural_12"] == (data[side]["natural"] == 12)
    if data["a"]["total"] != data["b"]["total"]:
        assert data["winner"] == ("a" if data["a"]["total"] > data["b"]["total"] else "b")


def test_check_starately_signs_a_negative_total_and_drops_a_zero_bonus(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Play16: «[1 1] = 2 −3 → -1» (a hyphen, not the minus sign) and the title «2d6 0 (DM 0,
    навык 0)» (a zero bonus read as a number in the sum)."""
    assert main(["check", "starately", "--dm", "0", "--unskilled", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "[1 1] = 2 −3 → −1:" in out
    assert main(["check", "starately", "--dm", "0", "--skill", "0", "--seed", "1"]) == 0
    title = capsys.readouterr().out.splitlines()[0]
    assert title.startswith("2d6 (DM 0, навык 0) против 8+"), title
    argv = ["check", "starately", "--dm", "-3", "--unskilled", "--vs-dm", "0", "--vs-skill", "0"]
    assert main([*argv, "--seed", "3"]) == 0
    assert "Инициатор: [2 5] = 7 −6 → 1" in capsys.readouterr().out  # was «= 7 → 1»


def test_a_failed_starately_check_says_what_risk_is_worth(capsys) -> None:
    """Сид: «Игрок может заявить Риск и совершить проверку ещё раз»: a failed `kubik check
    starately` prints, and carries in --json, the retry's chance of a success and of a worse
    failure — counted here over every throw of 2d6."""
    from fractions import Fraction
    from itertools import product

    from rules import starately
    from tui.cli.kubik import main

    argv = ["check", "starately", "--dm", "0", "--unskilled", "--difficulty", "12", "--seed", "4"]
    main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "failure"
    [risk] = data["moves"]
    check = starately.Check(starately.Side(dm=0, skill=None), 12)
    throws = [starately.resolve(check, t) for t in product(range(1, 7), repeat=2)]
    better = Fraction(sum(r.success for r in throws), 36)
    worse = Fraction(sum(not r.success and r.effect < data["effect"] for r in throws), 36)
    assert (
        Fraction(risk["odds"]["exact"]["better"]),
        Fraction(risk["odds"]["exact"]["worse"]),
    ) == (
        better,
        worse,
    )
    main(argv)
    assert f"Риск (--risk «цена»): успех {round(float(better) * 100)} %" in capsys.readouterr().out
