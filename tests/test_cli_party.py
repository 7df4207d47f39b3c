"""``kubik party``, ``export``, ``import``, ``log``: scripting the campaign."""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

import pytest

from rules.drevo.sheet import DrevoSheet
from tests.every_case import assert_every_case, fresh_folder
from tui.cli import party as cli_party
from tui.store import LogEntry, Store, new_id


@pytest.fixture
def camp(tmp_path):
    """The demo campaign, made as the app's first start makes it (commands never create)."""
    path = tmp_path / "campaign.json"
    Store.open(path).close()
    return path


def run(capsys, fn, *argv):
    """Run a command; return (exit code, stdout, stderr)."""
    try:
        code = fn(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_party_list_text_and_json(capsys, camp):
    code, out, _ = run(capsys, cli_party.party, "list", "--campaign", str(camp))
    assert code == 0 and "Милава" in out and "персонажей: 7" in out
    code, out, _ = run(capsys, cli_party.party, "list", "--campaign", str(camp), "--json")
    data = json.loads(out)
    assert code == 0 and len(data["characters"]) == 7
    assert data["campaign"]["system"] == "drevo"


def test_party_list_tells_the_dead_from_the_heavily_wounded(capsys, camp):
    """Issue 30: `kubik party list` showed a dead NPC like a heavily wounded one."""
    from dataclasses import replace

    with Store.open(camp) as store:
        lyko, vyshata = (c for c in store.characters() if c.name in ("Лыко", "Сотник Вышата"))
        heavy = {**lyko.drevo.wounds, "heavy": 1}
        store.upsert_character(
            replace(lyko.edit_sheet(DrevoSheet, wounds=heavy), extra={**lyko.extra, "dead": True})
        )
        store.upsert_character(vyshata.edit_sheet(DrevoSheet, wounds=heavy))
    code, out, _ = run(capsys, cli_party.party, "list", "--campaign", str(camp))
    lines = {line.split()[1]: line for line in out.splitlines()[1:]}
    assert lines["Лыко"].endswith("(погиб)") and lines["Сотник"].endswith("(тяжело ранен)")


def test_party_add_with_values(capsys, camp):
    code, out, _ = run(
        capsys,
        cli_party.party,
        "add",
        "Волк",
        "--npc",
        "--campaign",
        str(camp),
        "--set",
        "quality.Сила=2",
        "--set",
        "skill.Драка=3",
        "--set",
        "fate=1",
        "--set",
        "notes=Серый, злой",
        "--set",
        "extra.energy=80",
        "--set",
        "weapon=Нож",
        "--set",
        "wound.light=1",
        "--json",
    )
    assert code == 0
    added = json.loads(out)
    with Store.open(camp) as store:
        wolf = store.character(added["id"])
    assert wolf.kind == "npc" and wolf.qualities == {"Сила": 2}
    assert wolf.trait("Драка") == 3 and wolf.drevo.fate == 1 and wolf.notes == "Серый, злой"
    assert (wolf.carried, wolf.extra) == ({"energy": 80}, {})  # IDE4's, carried by a Древо NPC
    assert wolf.weapons == ("Нож",) and wolf.drevo.wounds["light"] == 1
    assert store.all_undo_labels(1) == ["Добавлен персонаж «Волк»"]  # the command's step


PARTY_ADD_BAD_VALUE_EXITS_2_NAMING_IT = [
    ("colour=red", "colour"),
    ("fate=много", "много"),
    ("quality.Сила=x", "quality.Сила"),
    ("wound.deadly=1", "deadly"),
    ("nokey", "КЛЮЧ=ЗНАЧЕНИЕ"),
]


def test_party_add_bad_value_exits_2_naming_it(capsys, camp):
    def check(item, named) -> None:
        before = camp.read_bytes()
        code, _, err = run(
            capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--set", item
        )
        assert code == 2 and named in err and "ошибка" in err
        assert camp.read_bytes() == before  # nothing was written

    assert_every_case(PARTY_ADD_BAD_VALUE_EXITS_2_NAMING_IT, check)


def test_party_add_refuses_a_name_the_party_has(capsys, camp):
    """Refused by the campaign's state (exit 1), letter case and spaces aside, as the app's
    form refuses it («В партии уже есть …»); nothing is written."""
    with Store.open(camp) as store:
        milava = next(c for c in store.characters() if c.name == "Милава")
    before = camp.read_bytes()
    for name in ("Милава", "  милава ", "МИЛАВА"):
        code, out, err = run(capsys, cli_party.party, "add", name, "--campaign", str(camp))
        assert (code, out) == (1, "")
        assert f"в партии уже есть «Милава» (id {milava.id}); выберите другое имя" in err
    assert camp.read_bytes() == before
    code, out, _ = run(capsys, cli_party.party, "add", "Сотник  Вышата", "--campaign", str(camp))
    assert code == 1  # two spaces are one, as in the form
    code, _, _ = run(capsys, cli_party.party, "add", "Милава Вторая", "--campaign", str(camp))
    assert code == 0


def test_party_remove_by_name_missing_and_repeated(capsys, camp):
    tables = json.loads(camp.read_text(encoding="utf-8"))
    wolf = cli_party.character_to_doc(cli_party.build_character(None, "Волк", True, []))
    tables["characters"].update({"8": wolf, "9": {**wolf, "id": new_id()}})
    camp.write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")
    # An import or a hand edit may hold two of one name: the later one loads as «Волк (2)».
    code, out, _ = run(capsys, cli_party.party, "remove", "волк", "--campaign", str(camp))
    assert code == 0 and "«Волк»" in out
    code, _, err = run(capsys, cli_party.party, "remove", "Нет Такого", "--campaign", str(camp))
    assert code == 1 and "нет в кампании" in err  # refused by the campaign's state: 1, not 2
    code, out, _ = run(capsys, cli_party.party, "remove", "Лыко", "--campaign", str(camp))
    assert code == 0 and "Лыко" in out
    with Store.open(camp) as store:
        named = [c.name for c in store.characters()]
        assert "Волк (2)" in named and "Волк" not in named and "Лыко" not in named


def test_export_import_and_force(capsys, camp, tmp_path):
    out_file = tmp_path / "export.json"
    code, out, _ = run(capsys, cli_party.export, str(out_file), "--campaign", str(camp))
    assert code == 0 and out_file.is_file() and "персонажей 7" in out
    other = tmp_path / "other.json"
    code, _, _ = run(capsys, cli_party.import_, str(out_file), "--campaign", str(other))
    assert code == 0
    code, _, err = run(capsys, cli_party.import_, str(out_file), "--campaign", str(other))
    assert code == 1 and "--force" in err
    code, _, _ = run(capsys, cli_party.import_, str(out_file), "--campaign", str(other), "--force")
    assert code == 0
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    code, _, err = run(capsys, cli_party.import_, str(bad), "--campaign", str(tmp_path / "x.json"))
    assert code == 1 and "Нельзя импортировать" in err


def test_log_text_json_markdown(capsys, camp):
    with Store.open(camp) as store:
        for n in range(3):
            store.append_log(
                LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "roll", None, f"2d6 = {n}", {})
            )
    code, out, _ = run(capsys, cli_party.log, "--campaign", str(camp))
    assert code == 0 and out.splitlines()[0].endswith("2d6 = 0")
    code, out, _ = run(capsys, cli_party.log, "--campaign", str(camp), "--json", "--limit", "2")
    assert [e["text"] for e in json.loads(out)["entries"]] == ["2d6 = 1", "2d6 = 2"]
    code, out, _ = run(capsys, cli_party.log, "--campaign", str(camp), "--markdown")
    assert code == 0 and out.startswith("# Журнал:") and "(бросок): 2d6 = 2" in out
    code, _, err = run(capsys, cli_party.log, "--markdown", "--json", "--campaign", str(camp))
    assert code == 2 and "нельзя вместе" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is Linux-only")
def test_default_campaign_follows_xdg(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    Store.open().close()  # the app's first start
    code, _, _ = run(capsys, cli_party.party, "add", "Волк", "--npc")
    assert code == 0
    code, out, _ = run(capsys, cli_party.party, "list", "--json")
    assert "Волк" in [c["name"] for c in json.loads(out)["characters"]]
    assert (tmp_path / "xdg" / "kubik" / "campaign.json").is_file()


def test_read_commands_do_not_write(capsys, camp):
    Store.open(camp).close()
    before = camp.read_bytes(), sorted(p.name for p in camp.parent.iterdir())
    run(capsys, cli_party.party, "list", "--campaign", str(camp))
    run(capsys, cli_party.log, "--campaign", str(camp))
    assert (camp.read_bytes(), sorted(p.name for p in camp.parent.iterdir())) == before


def add_in_a_fork(gate: tuple[int, int], argv: list[str]) -> int:
    """Fork a process that runs ``python -m tui.cli.party ARGV`` (its ``main``) once the
    ``gate`` pipe reads end-of-file; return its pid. The fork never returns into pytest."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(gate[1])  # only the parent holds the gate shut
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - the fork ends with os._exit
            os.read(gate[0], 1)  # blocks until the parent closes the gate's other end
            code = cli_party.main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_concurrent_cli_adds_all_land(camp):
    """Twelve processes each add a character at the same moment: every add lands.

    Each writer is a fork of this process running the command's ``main`` (the same code
    ``python -m tui.cli.party`` runs, in a process of its own with its own lock and its own
    read of the file), not a fresh interpreter: twelve interpreter start-ups were 1.7 CPU-s.
    The forks wait at a gate and are let go together, so their reads and writes overlap more
    than staggered interpreter start-ups made them."""
    Store.open(camp).close()
    started = time.monotonic()
    gate = os.pipe()
    try:
        pids = [
            add_in_a_fork(gate, ["party", "add", f"Гость {n}", "--npc", "--campaign", str(camp)])
            for n in range(12)
        ]
    finally:
        os.close(gate[0])
        os.close(gate[1])  # the gate opens: every fork reads end-of-file at once
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    assert codes == [0] * 12
    assert time.monotonic() - started < 30
    with Store.open(camp) as store:
        names = {c.name for c in store.characters()}
    assert {f"Гость {n}" for n in range(12)} <= names


def test_import_of_an_old_export_says_the_marks_are_missing(capsys, camp, tmp_path):
    with Store.open(camp) as store:
        store.append_log(LogEntry(new_id(), "2025-03-01T19:30:00+03:00", "roll", None, "2d6", {}))
    out_file = tmp_path / "export.json"
    run(capsys, cli_party.export, str(out_file), "--campaign", str(camp))
    code, out, _ = run(capsys, cli_party.import_, str(out_file), "--campaign", str(tmp_path / "a"))
    assert code == 0 and "отменено" not in out
    data = json.loads(out_file.read_text(encoding="utf-8"))
    del data["log_marks"]  # as kubik wrote exports before the marks
    out_file.write_text(json.dumps(data), encoding="utf-8")
    args = (str(out_file), "--campaign", str(tmp_path / "b"), "--json")
    code, out, _ = run(capsys, cli_party.import_, *args)
    assert code == 0 and "не отмечены" in json.loads(out)["note"]


PARTY_ADD_CHECKS_VALUES_AS_THE_FORM_DOES = [
    ("drevo", "quality.Сила=50", "Сила: Нужно число от −3 до 5"),
    ("drevo", "skill.Драка=9", "«Драка»: уровень — нужно число от −3 до 5"),
    ("drevo", "fate=-3", "Судьба: Нужно число от 0 до 10"),
    ("drevo", "fate=12345678901234567890", "fate: «12345678901234567890» — слишком большое"),
    ("drevo", "fate=-" + "9" * 10_000, "— слишком большое число"),  # 10k digits
    ("drevo", "quality.Мощь=1", "В этой системе нет «Мощь»"),
    ("ide4", "quality.Сила=7", "Нужно число от 1 до 6"),
    ("ide4", "skill.Взлом=101", "мастерство — нужно число от 0 до 100"),
    ("ide4", "extra.energy=150", "Энергия: Нужно число от 0 до 100"),
    ("starately", "skill.Медицина=5", "уровень — нужно число от 0 до 4"),
    ("wod", "skill.Драка=6", "точки — нужно число от 0 до 5"),
    ("wod", "fate=2", "это ключ системы «Древо», а кампания — «Мир Тьмы»"),
    ("ide4", "wound.light=1", "это ключ системы «Древо», а кампания — «IDE4»"),
    ("drevo", "energy=5", "это ключ системы «IDE4», а кампания — «Древо»"),
    ("ide4", "energy=101", "Энергия: Нужно число от 0 до 100"),
    ("ide4", "always_expanded=5", "Развёрнутая: нужно true или false"),
    ("drevo", "parry_ability=да", "Отбивать стрелы: нужно true или false"),
    ("drevo", "extra.dead=5", "extra.dead: нужно true или false"),  # through the sheet
    ("wod", "extra.health=ушиб", "extra.health: нужен список строк"),
    ("drevo", "extra.energy=150", "extra.energy: нужно целое число от 0 до 100"),
]


def test_party_add_checks_values_as_the_form_does(capsys, tmp_path):
    """Every ``--set`` is read by the character form's own parsers and ranges: what the form
    would refuse is refused (exit 2, the field and its range named), nothing is written."""

    def check(system, item, said) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        camp = folder / "c.json"
        Store.open(camp, system=system).close()
        before = camp.read_bytes()
        code, _, err = run(
            capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--set", item
        )
        assert code == 2 and said in err, err
        assert camp.read_bytes() == before

    assert_every_case(PARTY_ADD_CHECKS_VALUES_AS_THE_FORM_DOES, check)


def test_party_add_values_the_form_accepts_the_form_saves(capsys, tmp_path):
    """The top of each range is accepted, and the form's own checks pass on what was saved."""
    from tui.widgets.party.fields import format_skills, parse_skills, parse_stat

    camp = tmp_path / "c.json"
    Store.open(camp, system="ide4").close()
    code, out, _ = run(
        capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--json",
        "--set", "quality.Сила=6", "--set", "skill.Взлом=100", "--set", "extra.energy=0",
    )  # fmt: skip
    assert code == 0
    with Store.open(camp) as store:
        wolf = store.character(json.loads(out)["id"])
    assert wolf.ide4.energy == 0 and wolf.sheet == wolf.ide4  # an IDE4 campaign's sheet
    assert parse_stat("ide4", "Сила", str(wolf.qualities["Сила"])) == 6
    assert parse_skills("ide4", format_skills("ide4", wolf.skills)) == wolf.skills


def test_party_add_wounds_cascade_as_the_wound_key_gives_them(capsys, camp):
    """Seed (Древо): «Четыре царапины становятся лёгкой раной» — wounds from ``--set`` are given
    one by one as the Партия tab's wound key gives them; a deadly set is refused."""
    code, out, _ = run(
        capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--json",
        "--set", "wound.scratch=5",
    )  # fmt: skip
    assert code == 0
    with Store.open(camp) as store:
        wolf = store.character(json.loads(out)["id"])
    assert wolf.drevo.wounds["scratch"] == 1 and wolf.drevo.wounds["light"] == 1
    before = camp.read_bytes()
    code, _, err = run(
        capsys, cli_party.party, "add", "Вепрь", "--campaign", str(camp), "--set", "wound.heavy=5"
    )
    assert code == 2 and "погибает" in err and camp.read_bytes() == before


PARTY_ADD_GIVES_THE_CAMPAIGNS_SYSTEMS_SHEET = [
    (system, npc) for npc in [False, True] for system in ["drevo", "ide4", "starately", "wod"]
]


def test_party_add_gives_the_campaigns_systems_sheet(capsys, tmp_path):
    """A character ``kubik party add`` adds carries its campaign's system's sheet at its
    defaults (Древо: a PC's starting Судьба, an NPC's 0) as it is built, as it is printed and
    as it is read back — not a Древо sheet with Судьба 3 whatever the system."""

    def check(system, npc) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        from rules import drevo
        from tui.cli.character import build_character
        from tui.store.codec import character_to_doc
        from tui.store.models import SHEETS

        camp = folder / "c.json"
        Store.open(camp, system=system).close()
        if system == "drevo":
            want = DrevoSheet(fate=drevo.fate_rules().start(npc))
        else:
            want = SHEETS[system]()
        built = build_character(None, "Новичок", npc, [], system)
        assert built.sheet == want and built.sheet_values() == want.values()
        flags = ["--npc"] if npc else []
        code, out, _ = run(
            capsys, cli_party.party, "add", "Новичок", *flags, "--campaign", str(camp), "--json"
        )
        assert code == 0
        printed = json.loads(out)
        with Store.open(camp) as store:
            added = store.character(printed["id"])
        assert added.sheet == want and added.sheet_values() == want.values() and added.extra == {}
        assert printed == character_to_doc(added)  # the output is what was stored

    assert_every_case(PARTY_ADD_GIVES_THE_CAMPAIGNS_SYSTEMS_SHEET, check)


@pytest.mark.parametrize("spelling", ["", "extra."])
def test_party_add_sets_the_core_marks(capsys, camp, spelling):
    """``player``, ``hidden``, ``template`` and ``encounter`` are the core's typed marks: set
    by their own key (or ``extra.КЛЮЧ``, as before they were the core's), printed and stored as
    keys of their own, never in extra."""
    marks = {"player": " Оля ", "hidden": "true", "template": "Волк", "encounter": "Засада"}
    items = [f"--set={spelling}{k}={v}" for k, v in marks.items()]
    code, out, _ = run(
        capsys, cli_party.party, "add", "Серый", "--npc", "--campaign", str(camp), "--json",
        *items, "--set", "extra.прозвище=Серый",
    )  # fmt: skip
    assert code == 0
    printed = json.loads(out)
    want = {"player": "Оля", "hidden": True, "template": "Волк", "encounter": "Засада"}
    assert {k: printed[k] for k in want} == want and printed["extra"] == {"прозвище": "Серый"}
    with Store.open(camp) as store:
        grey = store.character(printed["id"])
    # The character keeps the name it was given, not the last mark's key.
    assert printed["name"] == grey.name == "Серый"
    assert (grey.player, grey.hidden, grey.from_template, grey.from_encounter) == tuple(
        want.values()
    )
    assert grey.extra == {"прозвище": "Серый"}


@pytest.mark.parametrize("item", ["hidden=true", "extra.hidden=true"])
def test_party_add_refuses_to_hide_a_player_character(capsys, camp, item):
    """Only an NPC is hidden from the players (the app's «t» hides NPCs only)."""
    before = camp.read_bytes()
    code, _, err = run(
        capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--set", item
    )
    assert code == 2 and "скрыть от игроков можно только НИП" in err
    assert camp.read_bytes() == before


@pytest.mark.parametrize("item", ["hidden=да", "extra.hidden=1", "hidden="])
def test_party_add_refuses_a_hidden_mark_that_is_no_true_or_false(capsys, camp, item):
    before = camp.read_bytes()
    code, _, err = run(
        capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--set", item
    )
    assert code == 2 and f"--set {item}: нужно true (скрыт от игроков) или false" in err
    assert camp.read_bytes() == before


PARTY_ADD_TAKES_THE_CAMPAIGNS_OWN_SHEET_FIELDS_BY_NAME = [
    ("drevo", ["fate=7", "parry_ability=true"], {"fate": 7, "parry_ability": True}),
    ("ide4", ["energy=40", "always_expanded=true"], {"energy": 40, "always_expanded": True}),
    ("ide4", ["extra.energy=40"], {"energy": 40}),  # the older spelling still works
    ("starately", ["extra.harm=ранен"], {"harm": "ранен"}),
    ("wod", ["extra.initiative=4"], {"initiative": 4}),
]


def test_party_add_takes_the_campaigns_own_sheet_fields_by_name(capsys, tmp_path):
    """``--set`` takes the campaign's system's sheet fields by their own name (its
    ``System.sheet_fields``: IDE4's ``energy=``, not only ``extra.energy=``), as the form
    edits them."""

    def check(system, items, want) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        camp = folder / "c.json"
        Store.open(camp, system=system).close()
        flags = [f for item in items for f in ("--set", item)]
        code, out, err = run(
            capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--json", *flags
        )
        assert code == 0, err
        with Store.open(camp) as store:
            wolf = store.character(json.loads(out)["id"])
        values = wolf.sheet.values()
        assert {k: values[k] for k in want} == want and wolf.carried == {} and wolf.extra == {}

    assert_every_case(PARTY_ADD_TAKES_THE_CAMPAIGNS_OWN_SHEET_FIELDS_BY_NAME, check)


PARTY_ADD_LISTS_THE_KEYS_OF_THE_CAMPAIGNS_SYSTEM = [
    ("drevo", ["fate", "parry_ability", "wound.КЛЮЧ"], ["energy"]),
    ("ide4", ["energy", "always_expanded"], ["fate", "wound.КЛЮЧ"]),
    ("starately", [], ["fate", "energy", "wound.КЛЮЧ"]),
    ("wod", [], ["fate", "energy", "wound.КЛЮЧ"]),
]


def test_party_add_lists_the_keys_of_the_campaigns_system(capsys, tmp_path):
    """An unknown key's refusal lists the campaign's system's keys, not Древо's everywhere;
    ``-h`` lists each system's own keys under its name."""

    def check(system, own, foreign) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        from tui import registry

        camp = folder / "c.json"
        Store.open(camp, system=system).close()
        code, _, err = run(
            capsys, cli_party.party, "add", "Волк", "--campaign", str(camp), "--set", "colour=red"
        )
        listed = err.rpartition("допустимы:")[2]
        assert code == 2 and "quality.ИМЯ" in listed
        assert all(key in listed for key in own) and not any(key in listed for key in foreign)
        with pytest.raises(SystemExit):
            cli_party.party(["add", "-h"])
        helped = " ".join(capsys.readouterr().out.split())
        if own:
            assert f"{registry.title(system)} — {', '.join(own)}" in helped

    assert_every_case(PARTY_ADD_LISTS_THE_KEYS_OF_THE_CAMPAIGNS_SYSTEM, check)


@pytest.mark.parametrize("system", ["drevo", "wod"])
def test_a_hidden_npc_is_marked_in_the_gms_table_and_in_party_list(capsys, tmp_path, system):
    """Playtest: an NPC hidden from the players («???» in their view) looked like any other in
    the GM's Партия table and in ``kubik party list``: both say «скрыт» now (the players' view
    has its own rows and never shows the mark)."""
    import dataclasses

    from tui.bridge.sheets import row
    from tui.view import party_row

    camp = tmp_path / "c.json"
    with Store.open(camp, system=system) as store:
        npc = next(c for c in store.characters() if c.kind == "npc")
        shown = next(c for c in store.characters() if c.kind == "npc" and c.id != npc.id)
        store.upsert_character(dataclasses.replace(npc, hidden=True))
        npc = store.character(npc.id)
    assert row(system, npc)[1] == "НИП скрыт" and row(system, shown)[1] == "НИП"
    assert "скрыт" not in " ".join(party_row(system, npc))
    code, out, _ = run(capsys, cli_party.party, "list", "--campaign", str(camp))
    assert code == 0
    (line,) = [x for x in out.splitlines() if npc.name in x]
    assert line.startswith("НИП скрыт ")
    (other,) = [x for x in out.splitlines() if f" {shown.name}  " in x]
    assert other.startswith("НИП ") and "скрыт" not in other
