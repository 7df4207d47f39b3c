"""``kubik bestiary``, ``kubik encounter`` and ``kubik party add ИМЯ --from ШАБЛОН``: the bestiary
from scripts, with ``--json``; hostile names and broken template files get Russian refusals."""

from __future__ import annotations

import json

import pytest

from tests.every_case import assert_every_case, fresh_folder
from tui.cli import bestiary_args
from tui.cli.kubik import main
from tui.store import Store
from tui.store.bestiary import COUNT_RANGE


@pytest.fixture
def camp(tmp_path):
    path = tmp_path / "campaign.json"
    Store.open(path, system="drevo").close()
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def ok_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def party(camp) -> dict[str, dict]:
    with Store.open(camp) as store:
        return {c.name: c for c in store.characters()}


def test_count_bounds_agree():
    assert (bestiary_args.COUNT_LOW, bestiary_args.COUNT_HIGH) == COUNT_RANGE


def test_bestiary_list_and_show(capsys, camp):
    data = ok_json(capsys, "bestiary", "list", "--campaign", camp)
    names = [t["name"] for t in data["templates"]]
    assert "Разбойник" in names and all(t["default"] for t in data["templates"])
    data = ok_json(capsys, "bestiary", "list", "--tag", "ЗВЕРИ", "--campaign", camp)
    assert [t["name"] for t in data["templates"]] == ["Волк"]
    data = ok_json(capsys, "bestiary", "show", "атаман", "--campaign", camp)
    assert data["weapons"] == ["Сабля", "Пистолет"] and data["qualities"]["Ловкость"] == 2
    code, out, _ = run(capsys, "bestiary", "show", "Атаман", "--campaign", camp)
    assert code == 0 and "Фехтование +3" in out and "[b]" not in out
    code, _, err = run(capsys, "bestiary", "show", "Дракон", "--campaign", camp)
    assert code == 1 and "шаблона «Дракон» нет" in err


def test_party_add_from_a_template(capsys, camp):
    data = ok_json(
        capsys,
        "party",
        "add",
        "Разбойник",
        "--from",
        "Разбойник",
        "--count",
        "5",
        "--campaign",
        camp,
    )
    assert [c["name"] for c in data["added"]] == [f"Разбойник {i}" for i in range(1, 6)]
    people = party(camp)
    assert people["Разбойник 3"].kind == "npc" and people["Разбойник 3"].weapons == ("Топор", "Нож")
    code, _, err = run(
        capsys, "party", "add", "X", "--from", "Разбойник", "--set", "fate=2", "--campaign", camp
    )
    assert code == 2 and "--from" in err
    ok_json(capsys, "party", "add", "Тень", "--from", "Волк", "--hidden", "--campaign", camp)
    assert party(camp)["Тень"].hidden is True
    code, _, err = run(capsys, "party", "add", "X", "--count", "3", "--campaign", camp)
    assert code == 2 and "только вместе с --from" in err
    code, _, err = run(capsys, "party", "add", "X", "--from", "Дракон", "--campaign", camp)
    assert code == 1 and "Шаблона «Дракон» нет" in err
    before = party(camp)
    code, _, err = run(
        capsys, "party", "add", "X", "--from", "Волк", "--count", "٣", "--campaign", camp
    )
    assert code == 2 and "«٣» — не число; нужно от 1 до 50" in err
    assert party(camp) == before


def test_encounter_add_load_unload(capsys, camp):
    data = ok_json(
        capsys,
        "encounter", "add", "Засада у брода",
        "--group", "Атаман", "1",
        "--group", "Разбойник", "8",
        "--group", "Стрелок", "3", "Засада",
        "--hidden",
        "--campaign", camp,
    )  # fmt: skip
    assert data["size"] == 12 and data["hidden"] and not data["default"]
    listed = ok_json(capsys, "encounter", "list", "--campaign", camp)["encounters"]
    ford = [e for e in listed if e["name"] == "Засада у брода"]
    assert len(ford) == 1 and ford[0]["size"] == 12  # the campaign's stands in the starter's place
    shown = ok_json(capsys, "encounter", "show", "засада у брода", "--campaign", camp)
    assert shown["groups"][2] == {"template": "Стрелок", "count": 3, "side": "Засада"}
    loaded = ok_json(capsys, "encounter", "load", "Засада у брода", "--campaign", camp)
    assert len(loaded["added"]) == 12
    people = party(camp)
    assert people["Стрелок 3"].hidden is True
    with Store.open(camp) as store:
        sides = {c["name"]: c["side"] for c in store.get_doc("encounter")["combatants"]}
    assert sides["Стрелок 2"] == "Засада" and sides["Разбойник 8"] == "Противники"
    unloaded = ok_json(capsys, "encounter", "unload", "Засада у брода", "--campaign", camp)
    assert len(unloaded["removed"]) == 12 and "Атаман" not in party(camp)
    removed = ok_json(capsys, "encounter", "remove", "Засада у брода", "--campaign", camp)
    assert "удалена" in removed["label"]
    # the starter one is back in its place, and cannot be removed
    code, _, err = run(capsys, "encounter", "remove", "Засада у брода", "--campaign", camp)
    assert code == 1 and "стартового бестиария" in err


ENCOUNTER_ADD_REFUSES_BAD_GROUPS = [
    (["Волк", "0"], "нужно от 1 до 50"),
    (["Волк", "много"], "«много» — не число; нужно от 1 до 50"),
    # the digits 0–9 only: int() read «٣» and «３» as 3, «1_0» as 10
    (["Волк", "٣"], "«٣» — не число; нужно от 1 до 50"),
    (["Волк", "３"], "«３» — не число; нужно от 1 до 50"),
    (["Волк", "1_0"], "«1_0» — не число; нужно от 1 до 50"),
    (["Волк", "2", "Сторона", "лишнее"], "ШАБЛОН [ЧИСЛО [СТОРОНА]]"),
    (["Волк", "2", "   "], "название стороны"),
]


def test_encounter_add_refuses_bad_groups(capsys, camp):
    def check(group, said) -> None:
        code, _, err = run(capsys, "encounter", "add", "С", "--group", *group, "--campaign", camp)
        assert code == 2 and said in err

    assert_every_case(ENCOUNTER_ADD_REFUSES_BAD_GROUPS, check)


def test_encounter_of_unknown_template_is_refused(capsys, camp):
    code, _, err = run(capsys, "encounter", "add", "С", "--group", "Дракон", "--campaign", camp)
    assert code == 1 and "Шаблона «Дракон» нет" in err


def test_save_a_character_as_a_template_and_remove_it(capsys, camp):
    data = ok_json(
        capsys, "bestiary", "add", "--character", "Лыко", "--tag", "трус", "--campaign", camp
    )
    assert (
        data["tags"] == ["трус"]
        and not data["default"]
        and "hidden" not in data
        and "hidden" not in data["extra"]
    )
    added = ok_json(
        capsys, "party", "add", "Лыко", "--from", "Лыко", "--count", "2", "--campaign", camp
    )
    assert [c["name"] for c in added["added"]] == ["Лыко 2", "Лыко 3"]
    assert ok_json(capsys, "bestiary", "remove", "лыко", "--campaign", camp)["removed"] == "лыко"
    code, _, err = run(capsys, "bestiary", "remove", "Лыко", "--campaign", camp)
    assert code == 1 and "нет в бестиарии" in err


HOSTILE = [
    "\x1b[31mКрасный\x1b[0m",
    "[b]жирный[/b] [link=http://x]ссылка[/link]",
    "Имя\nс переводом строки",
    "‮Обратный",
    "x" * 80,
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_data(capsys, camp, name):
    """A name with control codes, markup or a newline is stored cleaned and printed as text."""
    code, out, err = run(
        capsys, "party", "add", name, "--from", "Волк", "--count", "2", "--campaign", camp
    )
    assert code == 0, err
    assert "\x1b" not in out and "\n" not in out.rstrip("\n")
    code, out, err = run(
        capsys, "encounter", "add", name, "--group", "Волк", "2", name[:40], "--campaign", camp
    )
    assert code == 0, err
    assert "\x1b" not in out
    data = ok_json(capsys, "encounter", "load", name, "--campaign", camp)
    assert len(data["added"]) == 2
    assert all("\x1b" not in c["name"] and "\n" not in c["name"] for c in data["added"])


def test_a_name_too_long_is_refused(capsys, camp):
    code, _, err = run(capsys, "party", "add", "x" * 81, "--from", "Волк", "--campaign", camp)
    assert code == 1 and "не длиннее 80" in err


BROKEN = [
    ('system = "drevo"\n[[templates]]\nname = "Тролль"\nqualities = {', "файл оборвался"),
    ('system = "ide4"\n[[templates]]\nname = "Тролль"', "бестиарий системы «ide4»"),
    ('system = "drevo"\n[[templates]]\nname = "Тролль"\nfate = 500', "«Тролль», поле fate: 500"),
    (
        'system = "drevo"\n[[templates]]\nname = "Тролль"\nweapon = ["Меч"]',
        "неизвестное поле «weapon»",
    ),
    (
        'system = "drevo"\n[[encounters]]\nname = "Мост"\ngroups = [{ template = "Тролль" }]',
        "шаблона «Тролль» нет ни в бестиарии, ни в файле",
    ),
    ('system = "drevo"', "нет ни шаблонов, ни сцен"),
]


def test_a_broken_file_is_refused_and_nothing_changes(capsys, camp, tmp_path):
    def check(text, said) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        path = folder / "мои.toml"
        path.write_text(text, encoding="utf-8")
        before = ok_json(capsys, "bestiary", "list", "--campaign", camp)
        code, _, err = run(capsys, "bestiary", "add", str(path), "--campaign", camp)
        assert code == 1 and said in err, err
        assert ok_json(capsys, "bestiary", "list", "--campaign", camp) == before

    assert_every_case(BROKEN, check)


def test_a_file_adds_templates_and_encounters(capsys, camp, tmp_path):
    path = tmp_path / "мост.toml"
    path.write_text(
        'system = "drevo"\n'
        "[[templates]]\n"
        'name = "Тролль"\n'
        'tags = ["нечисть"]\n'
        'qualities = { "Сила" = 3, "Выносливость" = 3 }\n'
        'skills = [{ name = "Драка", value = 2 }]\n'
        "[[encounters]]\n"
        'name = "Мост"\n'
        'groups = [{ template = "Тролль", count = 2 }, { template = "Волк", count = 3 }]\n',
        encoding="utf-8",
    )
    data = ok_json(capsys, "bestiary", "add", str(path), "--campaign", camp)
    assert data == {"templates": ["Тролль"], "encounters": ["Мост"]}
    loaded = ok_json(capsys, "encounter", "load", "мост", "--campaign", camp)
    assert sorted(c["name"] for c in loaded["added"]) == [
        "Волк 1",
        "Волк 2",
        "Волк 3",
        "Тролль 1",
        "Тролль 2",
    ]
    shown = ok_json(capsys, "bestiary", "show", "Тролль", "--campaign", camp)
    assert shown["tags"] == ["нечисть"] and shown["qualities"] == {"Сила": 3, "Выносливость": 3}
