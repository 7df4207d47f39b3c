"""``kubik fight``: a Древо fight from the shell, through the engine's steps — each command one
undo step with its Журнал lines, ``--json`` on all of them, refusals in Russian."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight_cli import fight


@pytest.fixture
def camp(tmp_path):
    path = tmp_path / "campaign.json"
    Store.open(path).close()
    return path


def run(capsys, camp, *argv):
    """Run ``kubik fight …`` on ``camp``; return (exit code, stdout, stderr)."""
    try:
        code = fight([*argv, "--campaign", str(camp)])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys, camp, *argv) -> dict:
    """Run a step with --json; it must succeed and make exactly one undo step."""
    with Store.open(camp) as store:
        depth = store.depth[0]
    code, out, err = run(capsys, camp, *argv, "--json")
    assert code == 0, err
    with Store.open(camp) as store:
        assert store.depth[0] == depth + 1, f"{argv} is not one undo step"
    return json.loads(out)


def test_a_round_from_start_to_end(capsys, camp) -> None:
    """Start with sides, declare in order, roll, accept, damage, next, next round, end."""
    data = ok(
        capsys,
        camp,
        "start",
        "--side",
        "Отряд=Горан Рябой,Милава",
        "--side",
        "Противники=Атаман Шкуро",
        "--seed",
        "5",
    )
    assert data["step"] == "Бой: начат" and data["log"][0].startswith("Инициатива: ")
    assert data["fight"]["phase"] == "declare" and data["fight"]["round"] == 1
    who = data["fight"]["next_declarer"]
    names = {f["id"]: f["name"] for f in data["fight"]["fighters"]}
    declared = 0
    while data["fight"]["phase"] == "declare":
        name = names[data["fight"]["next_declarer"]]
        if name == "Атаман Шкуро":
            data = ok(
                capsys, camp, "declare", name, "melee", "--target", "Горан", "--weapon", "Сабля"
            )
        else:
            data = ok(capsys, camp, "declare", name, "Уклонение")
        declared += 1
    assert declared == 3 and who is not None
    assert data["fight"]["phase"] == "resolve"
    current = data["fight"]["current"]
    assert current["stage"] == "plan" and sum(Fraction(p) for p in current["odds"].values()) == 1
    data = ok(capsys, camp, "roll", "--seed", "2")
    assert data["log"][0].startswith("Схватка: ")
    dice = data["fight"]["current"]["dice"]
    assert dice["attacker"] is not None and len(dice["attacker"]) == 4
    for _ in range(10):  # accept, the damage if any, the next exchange
        stage = data["fight"]["current"]["stage"] if data["fight"]["current"] else ""
        if not stage:
            break
        command = {"rolled": "accept", "damage": "damage", "done": "next", "plan": "roll"}[stage]
        data = ok(capsys, camp, command)
    assert data["fight"]["current"] is None
    assert "Раунд 1 разрешён" in data["log"][-1]
    data = ok(capsys, camp, "round")
    assert data["fight"]["round"] == 2 and data["fight"]["order"] == ["Отряд", "Противники"]
    # Issue 30: a round as the last in one command, and one declaration changed in place.
    data = ok(capsys, camp, "repeat")
    assert data["fight"]["phase"] == "resolve"
    assert data["step"].startswith("Бой: заявки как в прошлом раунде")
    data = ok(capsys, camp, "declare", "Милава", "melee", "--target", "Атаман", "--change")
    assert data["step"] == "Бой: заявка Милава изменена"
    milava = next(f for f in data["fight"]["fighters"] if f["name"] == "Милава")
    assert milava["declaration"]["action"] == "melee"
    assert milava["declaration"]["others"] == "meet"
    data = ok(capsys, camp, "end")
    assert data["fight"] is None and data["log"] == ["Бой завершён после 2 раундов"]
    with Store.open(camp) as store:
        assert store.get_doc(steps.DOC) is None
        logged = [e.text for e in store.log()]
        assert any(t.startswith("Заявка: Ближний бой (Сабля) → Горан Рябой") for t in logged)


def test_refusals_are_russian_and_write_nothing(capsys, camp) -> None:
    code, out, err = run(capsys, camp, "roll")
    assert code == 1 and "не фаза бросков" in err and not out
    run(capsys, camp, "start", "--side", "А=Милава", "--side", "Б=Лыко", "--ambush", "Б,А")
    with Store.open(camp) as store:
        before = (store.get_doc(steps.DOC), store.depth, len(store.log()))
    code, _, err = run(capsys, camp, "declare", "Милава", "dodge")
    assert code == 1 and "Сейчас объявляет Лыко" in err
    code, _, err = run(capsys, camp, "declare", "Лыко", "fly")
    assert code == 2 and "неизвестное действие «fly»" in err
    code, _, err = run(capsys, camp, "declare", "Лыко", "melee")
    assert code == 2 and "выберите цель" in err
    code, _, err = run(
        capsys, camp, "declare", "Лыко", "melee", "--target", "Милава", "--weapon", "Меч"
    )
    assert code == 1 and "нет оружия «Меч»" in err
    code, _, err = run(capsys, camp, "fate", "Лыко", "--before")
    assert code == 1 and "идут заявки" in err
    code, _, err = run(capsys, camp, "start", "--side", "А=Милава", "--side", "Б=Лыко")
    assert code == 1 and "Бой уже идёт" in err
    with Store.open(camp) as store:
        assert (store.get_doc(steps.DOC), store.depth, len(store.log())) == before


def test_a_fate_shift_not_of_one_to_ten_says_what_to_type(capsys, camp) -> None:
    """argparse shows only an ArgumentTypeError's words: «--shift 11» said «недопустимое
    значение» and «1_0» (int() reads 10) was taken. Refused before the campaign is read."""
    for typed in ("11", "0", "пять", "1_0", "٣"):
        code, out, err = run(capsys, camp, "fate", "Лыко", "--shift", typed)
        assert code == 2 and not out, (typed, err)
        assert f"«{typed}» — нужно число от −10 до +10, не 0, например +1 или −2" in err, err
    code, _, err = run(capsys, camp, "fate", "Лыко", "--shift", "−2")  # taken: the fight says
    assert code == 1 and "бой не начат" in err, err


def test_names_are_found_by_a_unique_start(capsys, camp) -> None:
    code, _, err = run(capsys, camp, "start", "--side", "А=Горан", "--side", "Б=Ат")
    assert code == 0, err
    with Store.open(camp) as store:
        store.upsert_character(
            __import__("dataclasses").replace(store.characters()[0], id="x1", name="Горан Второй")
        )
    code, _, err = run(capsys, camp, "remove", "Горан")
    assert code == 1 and "несколько" in err and "Горан Рябой" in err and "Горан Второй" in err


def test_show_without_a_fight_and_in_another_system(capsys, camp, tmp_path) -> None:
    code, out, _ = run(capsys, camp, "show")
    assert code == 0 and out.startswith("Боя нет.")
    code, out, _ = run(capsys, camp, "show", "--json")
    assert code == 0 and json.loads(out) == {"fight": None}
    other = tmp_path / "ide4.json"
    Store.open(other, system="ide4").close()
    code, _, err = run(capsys, other, "show")
    assert code == 1 and "для кампаний Древа" in err


def test_help_is_russian(capsys) -> None:
    for argv in (["-h"], ["declare", "-h"], ["fate", "-h"]):
        with pytest.raises(SystemExit) as exit_:
            fight(argv)
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("использование: kubik fight") and "показать эту справку" in out


def test_lethal_damage_with_unspent_fate_asks_for_yes(capsys, tmp_path) -> None:
    """Issue 30: «Enter accepts lethal damage while the victim still has unspent Судьба
    without a word» — the Бой tab asks; ``kubik fight accept`` and ``damage`` refuse such a
    hit without ``--yes``, say why in Russian and what to do, and write nothing."""
    from tests.table.helpers import duel
    from tests.table.test_fight_steps import _roll_until_won

    table, store, target = duel(tmp_path, {"heavy": 1}, fate=5)
    _roll_until_won(table)
    assert table.view().result.winner == "attacker", "the seeded dice no longer win"
    table.ok(steps.accept)
    assert table.view().unspent_fate_warning()
    camp = tmp_path / "c.json"
    store.close()
    for command in ("accept", "damage"):
        with Store.open(camp) as before:
            depth = before.depth[0]
        code, out, err = run(capsys, camp, command)
        assert code != 0 and "смерть" in err and "--yes" in err and "--reduce" in err, err
        with Store.open(camp) as after:
            assert after.depth[0] == depth, f"{command} wrote without --yes"
    data = ok(capsys, camp, "damage", "--yes")
    assert data["log"][0].startswith("Урон: Горан Рябой")


def _hints(out: str) -> list[list[str]]:
    """The commands the «Дальше:» line of ``kubik fight show`` names, as argv (±N read as +1,
    N as 1: any value the command takes)."""
    import re
    import shlex

    line = next((x for x in out.splitlines() if x.startswith("Дальше:")), "")
    found = []
    for part in re.findall(r"kubik fight ([^—;()]+?) —", line):
        argv = shlex.split(part.replace("±N", "+1").replace(" N", " 1"))
        found.append([a for a in argv if a != "ИМЯ"])
    return found


@pytest.mark.parametrize("seed", [1, 2, 5, 8])
def test_every_next_step_that_show_offers_is_taken(capsys, tmp_path, seed) -> None:
    """Play-test: after a tie rerolled to «Победа защищающегося», «Дальше:» still said
    «kubik fight roll --reroll — перебросить ничью», refused with «Перебросить можно только
    ничью, пока она не принята.» Each command ``kubik fight show`` offers, at each stage of a
    few seeded fights (ties, hits, Судьба), is taken by that command."""
    import shutil

    camp = tmp_path / "c.json"
    Store.open(camp).close()
    sides = ("--side", "Отряд=Горан Рябой", "--side", "Противники=Атаман Шкуро")
    ok(capsys, camp, "start", *sides, "--ambush", "Отряд,Противники")
    names = ("Горан Рябой", "Атаман Шкуро")
    ok(capsys, camp, "declare", "Горан Рябой", "melee", "--target", "Атаман", "--weapon", "Топор")
    ok(capsys, camp, "declare", "Атаман Шкуро", "melee", "--target", "Горан", "--weapon", "Сабля")
    offered = 0
    for turn in range(12):
        code, out, err = run(capsys, camp, "show")
        assert code == 0, err
        hints = _hints(out)
        if not hints:
            break
        for argv in hints:
            if argv[0] == "fate" and len(argv) > 1 and argv[1] not in names:
                pytest.fail(f"«{' '.join(argv)}» names nobody of the fight")
            trial = tmp_path / f"try{turn}-{offered}.json"
            shutil.copy(camp, trial)  # the campaign and its Журнал (a file beside it)
            shutil.copy(camp.with_suffix(".log.jsonl"), trial.with_suffix(".log.jsonl"))
            seeded = ("--seed", str(seed)) if argv[0] == "roll" else ()
            code, _, err = run(capsys, trial, *argv, *seeded)
            assert code == 0, f"offered «kubik fight {' '.join(argv)}», refused: {err}"
            offered += 1
        first = hints[0]
        extra = ("--seed", str(seed + turn)) if first[0] == "roll" else ()
        if first[0] in ("accept", "damage"):
            extra = ("--yes",)
        code, _, err = run(capsys, camp, *first, *extra)
        assert code == 0, err
    assert offered >= 4


def test_a_steps_notice_is_printed_with_it(capsys, camp, monkeypatch) -> None:
    """A step's notice — what the app says beside it, e.g. `repeat` stopping at a fighter
    whose last declaration cannot be made again («Дальше заявляет …: прошлую заявку не
    повторить — …», tests/table/test_fight_gone.py) — is printed with the step's lines and
    carried by --json; the command printed only the lines."""
    from dataclasses import replace

    from tui.systems.drevo import fight_cli

    real = fight_cli.FightSession.run
    notice = "Дальше заявляет Горан Рябой: прошлую заявку не повторить — цель удалена."

    def with_notice(self, step, *args, **kwargs):
        return replace(real(self, step, *args, **kwargs), notices=(notice,))

    monkeypatch.setattr(fight_cli.FightSession, "run", with_notice)
    start = ["start", "--side", "Отряд=Горан Рябой", "--side", "Противники=Атаман Шкуро"]
    data = ok(capsys, camp, *start)
    assert data["notices"] == [notice]
    ok(capsys, camp, "end")
    code, out, err = run(capsys, camp, *start)
    assert code == 0 and f"\n{notice}\n" in out, out + err
