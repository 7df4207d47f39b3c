"""``kubik roll`` and ``kubik odds`` for dice notation, and saved rolls by name."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tui.cli import kubik as cli
from tui.store import Store


def run(capsys, *argv):
    """Run ``kubik ARGV``; return (exit code, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_repeats_with_seed_and_json(capsys):
    """Issue 18: «`Nx EXPR` repeats (each result listed)»; «every die's history is kept»."""
    code, out, _ = run(capsys, "roll", "6x", "4d6dl1", "--seed", "3")
    first, summary = out.splitlines()
    assert code == 0 and len(first.split()) == 6
    assert summary.startswith("6x 4d6dl1: 1) 4d6dl1[")
    code, out, _ = run(capsys, "roll", "6x 4d6dl1", "--seed", "3", "--json")
    data = json.loads(out)
    assert [str(t) for t in data["totals"]] == first.split()
    assert all(len(r["tree"]["dice"]) == 4 for r in data["rolls"])


def test_odds_counts_successes_with_vs(capsys):
    """Issue 18: «the distribution of the total (or of the success count), its mean, and
    `P(≥ N)` for `vs`»."""
    code, out, _ = run(capsys, "odds", "10d10>=8", "vs", "3")
    assert code == 0
    assert "Успехов от 0 до 10, среднее 3,00; ≥ 3: 61,7%" in out
    code, out, _ = run(capsys, "odds", "10d10>=8 vs 3", "--json")
    data = json.loads(out)
    assert data["exact"]["10"] == "59049/10000000000"
    assert data["min"] == 0 and data["max"] == 10 and data["mean"] == 3


def test_odds_reports_truncation_and_ranges(capsys):
    """Issue 18: «infinite explosions and rerolls truncated below 1e-12 and reported»."""
    code, out, _ = run(capsys, "odds", "50d6!")
    lines = out.splitlines()
    assert code == 0 and "взрывы обрезаны" in lines[1]
    assert len(lines) <= 33 and "–" in lines[2]


def test_truncation_below_the_cut_never_reads_as_the_cut(capsys):
    """Issue 18: «truncated below 1e-12 and reported» — `100d6!p` cuts 9.6e-13, which a
    one-digit figure rounded up to «1e−12»."""
    code, out, _ = run(capsys, "odds", "100d6!p")
    assert code == 0
    assert "взрывы обрезаны на 9,6e−13" in out.splitlines()[1]


def test_odds_error_is_russian_and_exit_2(capsys):
    """Issue 18: «a reroll or explosion that can never stop (`d6r<=6`) is an error»."""
    code, _, err = run(capsys, "odds", "d6r<=6")
    assert code == 2 and "позиция 3" in err and "не остановился бы никогда" in err


@pytest.fixture
def campaign(tmp_path):
    path = tmp_path / "c.json"
    store = Store.open(path)
    first = store.characters()[0]
    store.upsert_character(
        dataclasses.replace(first, rolls=(("Атака топором", "2d6+3 # рубящий"),))
    )
    store.close()
    return path, first.name


def test_roll_a_saved_roll_by_name(capsys, campaign):
    """Issue 18: «The CLI: `kubik roll` accepts a saved roll's name with `--character`»."""
    path, name = campaign
    code, out, _ = run(
        capsys, "roll", "атака топором", "--character", name, "--campaign", str(path), "--seed", "1"
    )
    assert code == 0
    assert out.splitlines()[1].startswith(f"{name}, атака топором — 2d6 + 3 # рубящий: 2d6[")
    code, out, _ = run(
        capsys, "roll", "Атака топором", "--character", name, "--campaign", str(path), "--json"
    )
    assert json.loads(out)["character"] == name and json.loads(out)["label"] == "рубящий"


def test_a_first_name_is_enough_when_it_names_one(capsys, campaign):
    """The README's «kubik roll "Атака топором" --character Горан» (a play-test: only the full
    name worked); a start that names several is refused with their names."""
    path, name = campaign
    first = name.split()[0]
    code, out, _ = run(
        capsys, "roll", "Атака топором", "--character", first, "--campaign", str(path)
    )
    assert code == 0 and out.splitlines()[1].startswith(f"{name}, Атака топором")
    with Store.open(path) as store:
        store.upsert_character(
            dataclasses.replace(store.characters()[0], id="x2", name=f"{first} Второй")
        )
    code, _, err = run(
        capsys, "roll", "Атака топором", "--character", first, "--campaign", str(path)
    )
    assert code == 1 and "несколько персонажей" in err and f"{first} Второй" in err


def test_saved_roll_errors_name_what_exists(capsys, campaign):
    """Bad input gets a clear Russian message saying what to do; a roll or a character the
    campaign lacks exits 1 (refused by the campaign's state, README), as `party remove` does."""
    path, name = campaign
    code, _, err = run(capsys, "roll", "Пинок", "--character", name, "--campaign", str(path))
    assert code == 1 and "нет броска «Пинок»; есть: Атака топором" in err
    code, _, err = run(capsys, "roll", "Пинок", "--character", "Никто", "--campaign", str(path))
    assert code == 1 and "персонажа «Никто» нет" in err


def test_a_saved_roll_of_a_missing_campaign_says_no_such_campaign(capsys, tmp_path):
    """README: no campaign at that path exits 2 «нет такой кампании» — `roll NAME --character`
    said «Файл кампании … не найден» and exited 1."""
    missing = tmp_path / "none.json"
    code, _, err = run(capsys, "roll", "Пинок", "--character", "Лыко", "--campaign", str(missing))
    assert code == 2 and "нет такой кампании" in err and not missing.exists()


def test_a_character_without_saved_rolls_says_how_to_save_one(capsys, tmp_path):
    """Bad input gets a clear Russian message saying what to do — not «есть: сохранённых
    бросков нет»."""
    path = tmp_path / "c.json"
    store = Store.open(path)
    name = store.characters()[0].name
    store.close()
    code, _, err = run(capsys, "roll", "Пинок", "--character", name, "--campaign", str(path))
    assert code == 1
    assert f"у персонажа «{name}» нет броска «Пинок»; сохранённых бросков нет" in err
    assert "есть:" not in err and "b" in err


def test_success_counts_are_declined():
    """Russian declensions correct: «1 успех», «3 успеха», «5 успехов», «11 успехов»."""
    from tui.present.rolls import successes

    assert [successes(n) for n in (0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, -1, -3)] == [
        "0 успехов", "1 успех", "2 успеха", "4 успеха", "5 успехов", "11 успехов",
        "12 успехов", "21 успех", "22 успеха", "25 успехов", "101 успех", "−1 успех",
        "−3 успеха",
    ]  # fmt: skip


def test_a_missing_character_lists_a_few_names_then_how_many_more(capsys, tmp_path):
    """Issue 35: ``roll X --character MISSING`` printed every character's full name — one
    20 KB line with a 10,000-character name. A few names, each cut, then «и ещё N»."""
    from tui.store import Character, new_id

    path = tmp_path / "c.json"
    with Store.open(path) as store:
        crowd = [Character(new_id(), f"Стражник {i:02d}", "npc", {}, (), ()) for i in range(30)]
        store.apply("Толпа", upsert=[*crowd, Character(new_id(), "Я" * 10_000, "pc", {}, (), ())])
        total = len(store.characters())
    code, _, err = run(capsys, "roll", "Атака", "--character", "Никто", "--campaign", str(path))
    assert code == 1 and "персонажа «Никто» нет" in err
    shown = total - int(err.split("и ещё ")[1].split()[0])
    assert 1 <= shown <= 5 and len(err) < 500, err
    assert "Я" * 50 not in err and "Я…" in err  # the long name, cut
