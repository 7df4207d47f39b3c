"""`kubik odds ide4` and `kubik check ide4`: JSON shape, exit codes, refusals naming the rule."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from rules import ide4
from tui.cli.kubik import main

MOVES_HEAD = "Ходы после броска (шанс, что исход станет лучше / хуже):"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_has_the_five_outcomes(capsys) -> None:
    """Сид: «Пять исходов … Триумф > Успех > Средне > Провал > Трагедия»."""
    code, out, _ = run(
        capsys,
        "odds",
        "ide4",
        "--difficulty",
        "3",
        "--mod",
        "+1",
        "--mod",
        "-1 инструменты",
        "--energy-dice",
        "2",
        "--die",
        "8",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["system"] == "ide4"
    assert list(data["outcomes"]) == ["triumph", "success", "middle", "failure", "tragedy"]
    expected = ide4.outcome_odds(3, 2, 8)
    assert {k: Fraction(v) for k, v in data["exact"].items()} == expected
    assert data["outcomes"]["success"] == float(expected["success"])


def test_odds_text_in_russian(capsys) -> None:
    """Сид: «[3] — обычная задача»."""
    code, out, _ = run(capsys, "odds", "ide4", "--difficulty", "[3]")
    assert code == 0
    assert out.splitlines()[0] == "d100 против [3] (обычная задача)"
    assert "Трагедия" in out and "3,0%" in out


@pytest.mark.parametrize("argv", [["--difficulty", "0"], ["--difficulty", "2", "--mod", "-4"]])
def test_odds_at_or_below_zero_is_success(capsys, argv: list[str]) -> None:
    """Сид: «Итоговая сложность ≤ 0 означает, что действие гарантировано.»"""
    code, out, _ = run(capsys, "odds", "ide4", *argv, "--json")
    assert code == 0
    assert json.loads(out)["outcomes"] == {
        "triumph": 0.0,
        "success": 1.0,
        "middle": 0.0,
        "failure": 0.0,
        "tragedy": 0.0,
    }


@pytest.mark.parametrize(
    "argv", [["--difficulty", "8"], ["--difficulty", "00"], ["--difficulty", "6", "--mod", "+2"]]
)
def test_odds_eight_or_more_is_impossible(capsys, argv: list[str]) -> None:
    """Сид: «Если после всех модификаторов итоговая сложность становится ≥ 8, она превращается
    в [00]»."""
    code, out, err = run(capsys, "odds", "ide4", *argv)
    assert code == 2 and out == ""
    assert "[00]: невозможно" in err


def test_odds_bad_arguments_exit_two_in_russian(capsys) -> None:
    """Сид: «Перед d100 игрок может потратить до 10 кубов»."""
    code, _, err = run(capsys, "odds", "ide4")
    assert code == 2 and "не хватает аргументов" in err
    code, _, err = run(
        capsys, "odds", "ide4", "--difficulty", "3", "--energy-dice", "11", "--die", "4"
    )
    assert code == 2 and "10 кубов" in err
    code, _, err = run(capsys, "odds", "ide4", "--difficulty", "3", "--energy-dice", "2")
    assert code == 2 and "--die" in err


def test_check_is_reproducible_and_keeps_every_die(capsys) -> None:
    """Сид: «игрок бросает d100, а система определяет один из пяти исходов»."""
    argv = [
        "check",
        "ide4",
        "--difficulty",
        "3",
        "--energy-dice",
        "2",
        "--die",
        "6",
        "--seed",
        "7",
        "--reroll",
        "fatum",
        "--reroll",
        "food",
        "--subroll",
        "--json",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    again = run(capsys, *argv)[1]
    assert out == again
    data = json.loads(out)
    assert data["rerolls"] == ["food", "fatum"]  # the seed's order, whatever the flags' order
    assert len(data["energy_before"]["dice"]) == 2 and data["subroll"] in range(1, 7)
    assert data["outcome"] in ide4.OUTCOMES


def test_check_text_is_the_full_template(capsys) -> None:
    """Сид: «Полный шаблон проверки: 1. Намерение: ___ … 16. Последствие: ___»."""
    code, out, _ = run(
        capsys,
        "check",
        "ide4",
        "--seed",
        "1",
        "--intent",
        "Перелезть стену",
        "--attribute",
        "Крупная моторика",
        "--level",
        "4",
    )
    assert code == 0
    lines = out.splitlines()
    template = lines[: lines.index(MOVES_HEAD) - 1]
    assert lines[2] == "1. Намерение: Перелезть стену" and template[-1].startswith("16. ")
    code, out, _ = run(capsys, "check", "ide4", "--seed", "1", "--template", "quick")
    lines = out.splitlines()
    assert lines[lines.index(MOVES_HEAD) - 2].startswith("10. Последствие:")


def test_check_refuses_a_third_skill_reroll(capsys) -> None:
    """Сид: «На одну проверку: не более двух перебросов от навыков»."""
    code, _, err = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "3",
        "--skill",
        "Взлом",
        "--mastery",
        "90",
        "--reroll",
        "skill",
        "--reroll",
        "skill",
        "--bonus",
        "reroll",
        "--seed",
        "3",
    )
    assert code == 2 and "двух перебросов от навыков" in err


def test_check_refuses_a_fourth_reroll(capsys) -> None:
    """Сид: «общее число перебросов на проверку — не более трёх (решение мастера)»."""
    code, _, err = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "3",
        "--seed",
        "3",
        *["--reroll", "calm"] * 2,
        *["--reroll", "arbitrium"] * 2,
    )
    assert code == 2 and "Не больше 3 перебросов" in err


def test_check_refuses_a_second_triumph_in_a_day(capsys) -> None:
    """Сид: «Бонус 100 (Успех → Триумф) можно использовать не более одного раза за игровой
    день на персонажа»."""
    code, _, err = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "3",
        "--skill",
        "Переговоры",
        "--mastery",
        "100",
        "--bonus",
        "triumph",
        "--triumph-used",
        "--seed",
        "3",
    )
    assert code == 2 and "игровой день" in err


def test_check_refuses_bonuses_against_seven(capsys) -> None:
    """Сид: «Бонусы не действуют против [7] и [00] без особого правила.»"""
    code, _, err = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "2",
        "--pin7",
        "--skill",
        "Взлом",
        "--mastery",
        "100",
        "--bonus",
        "soften",
        "--seed",
        "3",
    )
    assert code == 2 and "[7]" in err


def test_check_refuses_a_second_softening(capsys) -> None:
    """Сид: «≤ 1 смягчение исхода (Трагедия→Провал и т.п.)»."""
    inp = ide4.CheckInput(base=5, skill="Взлом", mastery=100)
    seed = next(s for s in range(500) if ide4.play(inp, random.Random(s)).outcome == "tragedy")
    code, _, err = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "5",
        "--skill",
        "Взлом",
        "--mastery",
        "100",
        "--bonus",
        "soften",
        "--bonus",
        "soften",
        "--seed",
        str(seed),
    )
    assert code == 2 and "одного смягчения" in err
    code, out, _ = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "5",
        "--skill",
        "Взлом",
        "--mastery",
        "100",
        "--bonus",
        "soften",
        "--seed",
        str(seed),
        "--json",
    )
    assert code == 0 and json.loads(out)["outcome"] == "failure"


def test_check_impossible_needs_a_reason(capsys) -> None:
    """Сид: «Мастер должен объяснить, почему выбранный способ невозможен»."""
    code, _, err = run(capsys, "check", "ide4", "--difficulty", "00")
    assert code == 2 and "[00]: невозможно" in err
    code, out, _ = run(
        capsys, "check", "ide4", "--difficulty", "00", "--reason", "заварено", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["status"] == "impossible" and data["natural"] is None


def test_odds_of_impossible_are_refused_whatever_the_modifiers(capsys) -> None:
    """Сид: «[00] означает не «очень трудно», а «этим способом сейчас нельзя» … Это не
    сверхвысокая сложность»: ``--difficulty 00 --mod -2`` is still [00]."""
    code, _, err = run(capsys, "odds", "ide4", "--difficulty", "00", "--mod", "-2")
    assert code == 2 and "[00]" in err
    code, out, _ = run(
        capsys,
        "odds",
        "ide4",
        "--difficulty",
        "00",
        "--ally",
        "possible",
        "--ally-difficulty",
        "5",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["difficulty"]["final"] == 5
    assert data["difficulty"]["opened_by"] == "помощь союзника «сделать действие возможным»"
    code, out, _ = run(
        capsys,
        "check",
        "ide4",
        "--difficulty",
        "00",
        "--special-rule",
        "Ключ",
        "--open-difficulty",
        "4",
        "--seed",
        "1",
        "--json",
    )
    assert json.loads(out)["difficulty"]["opened_by"] == "особое правило «Ключ»"


def test_odds_opposed_win_tie_lose(capsys) -> None:
    """Сид: «1. более высокий исход побеждает; 2. при одинаковом исходе побеждает тот, у кого
    ниже итоговая сложность; 3. если равенство сохраняется, мастер …»."""
    code, out, _ = run(
        capsys,
        "odds",
        "ide4",
        "--difficulty",
        "3",
        "--mod",
        "+1",
        "--vs",
        "5",
        "--vs-mod",
        "-1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and set(data["outcomes"]) == {"win", "tie", "lose"}
    a = ide4.CheckInput(base=3, modifiers=(ide4.Modifier(1, "ситуация"),))
    b = ide4.CheckInput(base=5, modifiers=(ide4.Modifier(-1, "ситуация"),))
    expected = ide4.opposed_odds(a, b)
    assert {k: Fraction(v) for k, v in data["exact"].items()} == expected
    assert expected["tie"] > 0  # both [4]: the same outcome is a tie
    code, out, _ = run(capsys, "odds", "ide4", "--difficulty", "2", "--vs", "4", "--json")
    assert json.loads(out)["outcomes"]["tie"] == 0  # [2] beats [4] on the same outcome
    code, _, err = run(capsys, "odds", "ide4", "--difficulty", "3", "--vs-mod", "+1")
    assert code == 2 and "--vs D2" in err


def test_check_opposed_rolls_both_and_records_the_gms_tie_choice(capsys) -> None:
    """Сид: «3. если равенство сохраняется, мастер оставляет положение без изменения либо
    назначает цену обеим сторонам»."""
    for seed in range(200):
        code, out, _ = run(
            capsys,
            "check",
            "ide4",
            "--difficulty",
            "3",
            "--vs",
            "3",
            "--seed",
            str(seed),
            "--tie",
            "price",
            "--tie-price",
            "оба в грязи",
            "--json",
        )
        data = json.loads(out)
        assert code == 0 and data["kind"] == "opposed"
        if data["winner"] is None:
            assert (data["resolution"], data["price"]) == ("price", "оба в грязи")
            break
    else:
        raise AssertionError("no tie in 200 seeds")


def test_check_says_when_energy_after_cannot_change_the_outcome(capsys) -> None:
    """Сид: энергия после броска «Не создаёт Триумф» — on Успех the CLI says so."""
    seen = set()
    for seed in range(30):
        code, out, err = run(
            capsys,
            "check",
            "ide4",
            "--difficulty",
            "1",
            "--energy-after",
            "1",
            "--die",
            "4",
            "--seed",
            str(seed),
            "--json",
        )
        if code:  # Трагедия or Триумф: energy after is not applied at all
            assert "не применяется" in err
            continue
        data = json.loads(out)
        before = next(s for s in data["steps"] if s["kind"] == "energy_after")["outcome_before"]
        seen.add(before)
        if before == "success":
            assert any("не изменит исход" in n for n in data["notes"])
    assert "success" in seen


def test_check_carries_the_odds_of_every_move_the_result_allows(capsys) -> None:
    """Сид: «Новый d100 может попасть в другую полосу таблицы — тогда меняется категория»:
    `kubik check … --json` carries, for each move the result allows, its exact chance to
    improve and to worsen the outcome — counted here by rerolling every d100 — and the text
    prints them."""
    argv = ["check", "ide4", "--difficulty", "3", "--skill", "Взлом", "--mastery", "65"]
    code, out, _ = run(capsys, *argv, "--level", "5", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    moves = {(m["kind"], m["source"]): m for m in data["moves"]}
    assert all(m["allowed"] for m in data["moves"])
    check = ide4.roll(
        ide4.start(ide4.CheckInput(base=3, skill="Взлом", mastery=65, attribute_level=5)),
        natural=data["natural"],
    )
    rank = ide4.OUTCOME_RANK[check.outcome]
    new = [ide4.OUTCOME_RANK[ide4.reroll(check, "food", natural=n).outcome] for n in range(1, 101)]
    better = Fraction(sum(r > rank for r in new), 100)
    worse = Fraction(sum(r < rank for r in new), 100)
    odds = moves[("reroll", "skill")]["odds"]
    assert (Fraction(odds["exact"]["better"]), Fraction(odds["exact"]["worse"])) == (better, worse)
    assert ("reroll", "help") not in moves  # not allowed: no ally's «+1 переброс»
    assert ("energy_after", "3x12") in moves and moves[("energy_after", "3x12")]["odds"][
        "worse"
    ] == 0
    code, text, _ = run(capsys, *argv, "--level", "5", "--seed", "3")
    assert "Ходы после броска (шанс, что исход станет лучше / хуже):" in text
    percent = f"лучше {round(float(better) * 100)} %, хуже {round(float(worse) * 100)} %"
    assert f"переброс (навык, еда, спокойствие, снаряжение, Арбитриум, Фатум): {percent}" in text
