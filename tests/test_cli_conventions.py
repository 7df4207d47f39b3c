"""The conventions every ``kubik`` command follows (README, «Команды»), one test each:
``--version``; Russian help; ``--json`` everywhere; exit 0 / 1 / 2; ``export --force``; a bare
campaign name in the data folder; rare sums folded in ``kubik odds``; bounded numbers."""

from __future__ import annotations

import json
import re

import pytest

from rules.drevo.sheet import DrevoSheet
from tests.every_case import assert_every_case
from tui.cli.kubik import main
from tui.store import Store


def demo(path) -> str:
    """Make the demo campaign at ``path`` as the app's first start does (commands never create)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Store.open(path).close()
    return str(path)


#: Every command and subcommand, as typed after ``kubik``.
COMMANDS = [
    [],
    ["roll"],
    ["odds"],
    ["party"],
    ["party", "list"],
    ["party", "add"],
    ["party", "remove"],
    ["party", "add", "--from", "Волк"],
    ["bestiary"],
    *[["bestiary", a] for a in ("list", "show", "add", "remove")],
    ["encounter"],
    *[["encounter", a] for a in ("list", "show", "add", "remove", "load", "unload")],
    ["export"],
    ["import"],
    ["log"],
    ["stats"],
    ["restore"],
    ["serve"],
    ["seat"],
    ["serve", "--seat", "Милава"],
    *[
        [verb, system]
        for verb in ("odds", "check")
        for system in ("drevo", "ide4", "starately", "wod")
    ],
]
#: The commands a script runs (``serve`` starts a server, ``seat`` an app, ``party`` only groups
#: the others).
SCRIPTING = [
    c
    for c in COMMANDS
    if c not in ([], ["party"], ["bestiary"], ["encounter"]) and c[0] not in ("serve", "seat")
]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def test_version(capsys) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("kubik 0.")


def test_help_is_russian_throughout(capsys) -> None:
    """`--help` mixed «usage:», «options:», «show this help message and exit» with Russian —
    for every command (one test, naming every command whose help fails)."""

    def check(command: list[str]) -> None:
        code, out, _ = run(capsys, *command, "-h")
        assert code == 0 and out.startswith("использование: kubik")
        for english in ("usage:", "options:", "positional arguments", "show this help", "optional"):
            assert english not in out, f"kubik {' '.join(command)} -h: {english!r}"
        assert "показать эту справку и выйти" in out
        # the placeholders too: «--trait TRAIT», «--campaign CAMPAIGN» were argparse's English
        english = re.findall(r"--[a-z-]+ ([A-Z][A-Z_]+)\b", out)
        assert not [m for m in english if m not in ("N", "DM")], english

    assert_every_case(COMMANDS, check)


def test_every_scripting_command_takes_json(capsys) -> None:
    """Every scripting command's help offers ``--json`` (one test, naming every command that
    does not)."""

    def check(command: list[str]) -> None:
        _code, out, _ = run(capsys, *command, "-h")
        assert "--json" in out

    assert_every_case(SCRIPTING, check)


def test_export_import_remove_answer_in_json(capsys, tmp_path) -> None:
    camp, out_file = demo(tmp_path / "c.json"), tmp_path / "export.json"
    code, out, _ = run(capsys, "export", str(out_file), "--campaign", camp, "--json")
    assert code == 0 and json.loads(out)["characters"] == 7
    code, out, _ = run(
        capsys, "import", str(out_file), "--campaign", str(tmp_path / "d.json"), "--json"
    )
    assert code == 0 and json.loads(out)["system"] == "drevo"
    code, out, _ = run(capsys, "party", "remove", "Лыко", "--campaign", camp, "--json")
    assert code == 0 and json.loads(out)["name"] == "Лыко"


def test_exit_codes_zero_one_two(capsys, tmp_path) -> None:
    """0 done; 1 refused by the campaign's state; 2 bad arguments (a missing campaign too)."""
    assert run(capsys, "party", "list", "--campaign", str(tmp_path / "none.json"))[0] == 2
    camp = demo(tmp_path / "c.json")
    assert run(capsys, "party", "list", "--campaign", camp)[0] == 0
    assert run(capsys, "party", "remove", "Никто", "--campaign", camp)[0] == 1
    assert run(capsys, "party", "list", "--campaign", camp, "--no-such-flag")[0] == 2
    assert run(capsys, "roll", "3d6", "--seed", "x")[0] == 2


def test_export_refuses_to_overwrite_without_force(capsys, tmp_path) -> None:
    """`export` overwrote a file silently (`import` asks for `--force`)."""
    camp, target = demo(tmp_path / "c.json"), tmp_path / "notes.json"
    target.write_text("мои заметки", encoding="utf-8")
    code, _, err = run(capsys, "export", str(target), "--campaign", camp)
    assert code == 1 and "--force" in err
    assert target.read_text(encoding="utf-8") == "мои заметки"
    code, _, _ = run(capsys, "export", str(target), "--campaign", camp, "--force")
    assert code == 0 and json.loads(target.read_text(encoding="utf-8"))


def test_a_bare_campaign_name_is_in_the_data_folder(capsys, tmp_path, monkeypatch) -> None:
    """`--campaign ide4.json` wrote into the current folder, not the data folder."""
    data, here = tmp_path / "data", tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.chdir(here)
    code, _, _ = run(capsys, "party", "add", "Веселин", "--campaign", "ide4.json")
    assert code == 2 and not (here / "ide4.json").exists()  # neither place has it yet
    demo(data / "kubik" / "ide4.json")
    code, _, _ = run(capsys, "party", "add", "Веселин", "--campaign", "ide4.json")
    assert code == 0 and not (here / "ide4.json").exists()
    assert "Веселин" in (data / "kubik" / "ide4.json").read_text(encoding="utf-8")
    demo(here / "local.json")
    code, _, _ = run(capsys, "party", "add", "Веселин", "--campaign", "./local.json")
    assert code == 0 and "Веселин" in (here / "local.json").read_text(encoding="utf-8")


def test_odds_fold_the_rare_tail_and_full_shows_it(capsys) -> None:
    """`kubik odds 3d6!` printed 285 lines, 251 of them «<0,1%»."""
    _code, out, _ = run(capsys, "odds", "3d6!")
    lines = out.splitlines()
    assert len(lines) < 45 and "<0,1%" not in out
    folded = [line for line in lines if line.lstrip().startswith("≥")]
    assert len(folded) == 1 and "каждое реже 0,1 %" in folded[0]
    assert "--full" in lines[-1]
    _code, full, _ = run(capsys, "odds", "3d6!", "--full")
    assert len(full.splitlines()) > 120 and "≥" not in full  # every total: 3…123


def test_odds_without_explosions_have_no_truncation_note(capsys) -> None:
    """«--again none» printed «Хвост взрывов обрезан: … 0.0e+00»."""
    _code, out, _ = run(capsys, "odds", "wod", "--pool", "5", "--again", "none")
    assert "обрезан" not in out and "0.0e+00" not in out
    _code, out, _ = run(capsys, "odds", "wod", "--pool", "5")
    assert "обрезан" in out  # with 10-again the tail is cut, and it says so
    # and in the words of `kubik odds EXPR`: a decimal comma and the minus sign «−»
    note = next(line for line in out.splitlines() if "обрезан" in line)
    assert re.search(r"\d,\de−\d\d", note) and "e-" not in note, note


#: A number past any bound, in each kind of numeric argument.
ABSURD_NUMBERS = [
    ["check", "drevo", "--trait", "99999999999999999999", "--difficulty", "0"],
    ["odds", "ide4", "--difficulty", "5", "--energy-dice", "99999999999999999999"],
    ["party", "add", "Икс", "--set", "skill.Драка=99999999999999999999"],
    # 10,000 digits: past what int() reads (4,300); a traceback before (playbook)
    ["check", "drevo", "--trait", "9" * 10_000, "--difficulty", "0"],
    ["odds", "drevo", "--trait", "0", "--difficulty", "0", "--mod", "-" + "9" * 10_000],
]  # trait, plain int, --set, 10k-digit trait, 10k-digit mod


def test_absurd_numbers_are_refused(capsys, tmp_path) -> None:
    """Each absurd number exits 2 with «слишком большое число» (one test, naming every
    command that does not)."""

    def check(argv: list[str]) -> None:
        code, _, err = (
            run(capsys, *argv, "--campaign", demo(tmp_path / "c.json"))
            if argv[0] == "party"
            else run(capsys, *argv)
        )
        assert code == 2 and "слишком большое число" in err

    assert_every_case(ABSURD_NUMBERS, check)


N = "{N}"  # where a case's number goes

NOT_ASCII_DIGITS = [
    ["check", "drevo", "--trait", N, "--difficulty", "0"],  # a bounded integer
    ["roll", "2d6", "--seed", N],  # an unbounded one (int() read «٧» as 7)
    ["--seed", N, "roll", "2d6"],  # a global seed
    ["odds", "ide4", "--difficulty", N],  # a number or «00»
    ["check", "ide4", "--difficulty", "3", "--level", N],  # a plain int option
    ["odds", "drevo", "--trait", "0", "--difficulty", N],  # a number or a rung's name
    ["odds", "starately", "--dm", "0", "--skill", "1", "--difficulty", N],  # or «10+», a name
    ["odds", "wod", "--pool", "3", "--again", N],  # 10, 9, 8 or none
    ["fight", "fate", "Икс", "--shift", N],  # ±1…10
]
#: Not the digits 0–9, though int() or «\d» read them: Arabic-Indic, full-width, superscript
#: (isdigit() says yes, int() refuses), and an underscore (int() reads «1_0» as 10).
NOT_DIGITS = ["٣", "１０", "²", "1_0"]


def test_only_ascii_digits_are_a_number(capsys) -> None:
    """Playtest: an Arabic-Indic digit was read as its value; the UI's numbers are 0–9. Each
    is refused (exit 2) with the message a word gets, which says what to type."""

    def check(argv: list[str], typed: str) -> None:
        code, _, err = run(capsys, *(typed if a == N else a for a in argv))
        word_code, _, word_err = run(capsys, *("пять" if a == N else a for a in argv))
        assert word_code == 2 and "ошибка" in word_err, word_err
        assert code == 2 and err.replace(f"«{typed}»", "«пять»") == word_err, err

    assert_every_case([(argv, typed) for argv in NOT_ASCII_DIGITS for typed in NOT_DIGITS], check)


def test_party_list_says_fate_and_player(capsys, tmp_path) -> None:
    """«удача» and «ИП» in `kubik party list` where the app says Судьба and Игрок."""
    _code, out, _ = run(capsys, "party", "list", "--campaign", demo(tmp_path / "c.json"))
    assert "Судьба" in out and "Игрок" in out
    assert "удача" not in out and not re.search(r"(?<!Н)ИП\b", out)


@pytest.mark.parametrize(
    ("system", "shown", "not_shown"),
    [
        ("drevo", ["Судьба: 2", "Раны: —", "Оружие: Кинжал"], ["light", "scratch"]),
        ("ide4", ["Энергия: 100/100", "Лучший навык:"], ["Судьба", "Раны"]),
        ("wod", ["Лучший навык:", "Навыков:"], ["Судьба", "Раны"]),
    ],
)
def test_party_list_shows_the_party_tabs_columns(capsys, tmp_path, system, shown, not_shown):
    """A play-test: «Судьба 0» for IDE4 and Мир Тьмы, «раны: light 1» for Древо — the CLI says
    what the app's Партия table says for that system, in its words."""
    path = tmp_path / "c.json"
    Store.open(path, system=system).close()
    if system == "drevo":
        with Store.open(path) as store:
            c = store.characters()[0]
            store.upsert_character(c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, "light": 1}))
        shown = [*shown[:1], "Раны: Лёгкая×1", *shown[2:]]
    _code, out, _ = run(capsys, "party", "list", "--campaign", str(path))
    assert all(text in out for text in shown), out
    assert not any(text in out for text in not_shown), out


#: A campaign-reading command per subcommand that takes ``--campaign`` (README synopsis).
CAMPAIGN_COMMANDS = [
    ["log", "--json"],
    ["party", "list", "--json"],
    ["stats", "--json"],
    ["export", "{out}", "--json"],
    ["roll", "Атака", "--character", "Лыко", "--json"],
]


def with_saved_roll(path) -> str:
    """The demo campaign at ``path`` with Лыко's saved roll «Атака» (README's example)."""
    import dataclasses

    demo(path)
    with Store.open(path) as store:
        lyko = next(c for c in store.characters() if c.name == "Лыко")
        store.upsert_character(dataclasses.replace(lyko, rolls=(("Атака", "2d6+1"),)))
    return str(path)


def test_global_options_work_before_the_subcommand(capsys, tmp_path) -> None:
    """`kubik --campaign X log --json` exited 2: the option only worked after the command —
    for every campaign-reading command, each in a folder of its own with its own campaign (one
    test, naming every command that fails)."""

    def check(command: list[str]) -> None:
        folder = tmp_path / "-".join(command).replace("{out}", "out")
        camp = with_saved_roll(folder / "c.json")
        argv = [a.replace("{out}", str(folder / "out.json")) for a in command]
        after = run(capsys, *argv, "--campaign", camp)
        (folder / "out.json").unlink(missing_ok=True)
        before = run(capsys, "--campaign", camp, *argv)
        assert before[0] == 0, before[2]
        assert after[0] == 0, after[2]
        assert json.loads(before[1]).keys() == json.loads(after[1]).keys()

    assert_every_case(CAMPAIGN_COMMANDS, check)


def test_a_bare_campaign_name_before_or_after_every_command(capsys, tmp_path, monkeypatch):
    """`--campaign ide4.json` means the data folder's file wherever it stands, for every command
    (`roll` and `stats` read a bare name in the current folder)."""
    data, here = tmp_path / "data", tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.chdir(here)
    with_saved_roll(data / "kubik" / "t.json")
    for argv in (["stats", "--json"], ["roll", "Атака", "--character", "Лыко", "--json"]):
        assert run(capsys, *argv, "--campaign", "t.json")[0] == 0, argv
        assert run(capsys, "--campaign", "t.json", *argv)[0] == 0, argv


def test_seed_before_the_subcommand_and_before_a_double_dash(capsys) -> None:
    """`kubik --seed 3 roll 3d6` is `kubik roll 3d6 --seed 3`; `--` keeps a negative expression."""
    after = run(capsys, "roll", "3d6", "--seed", "3", "--json")
    before = run(capsys, "--seed", "3", "roll", "3d6", "--json")
    assert before[0] == after[0] == 0 and before[1] == after[1]
    code, out, err = run(capsys, "--seed", "3", "roll", "--json", "--", "-1d6+2")
    assert code == 0, err
    assert json.loads(out) == json.loads(
        run(capsys, "roll", "--seed", "3", "--json", "--", "-1d6+2")[1]
    )


def test_a_global_option_a_command_does_not_take_is_a_clear_refusal(capsys) -> None:
    code, _, err = run(capsys, "--system", "ide4", "roll", "3d6")
    assert code == 2 and "--system" in err


@pytest.mark.parametrize("command", [["seat", "Милава"], ["serve", "--seat", "Милава"]], ids=str)
def test_a_seat_takes_a_bare_campaign_name_in_the_data_folder(tmp_path, monkeypatch, command):
    """README: `--campaign` takes a bare name (a campaign in the data folder) — `serve --seat`
    resolved `ide4.json` in the current folder, so its seat looked for another GM's socket."""
    from tui.cli.seat import seat_parser
    from tui.cli.serve_seat import serve_seat_parser

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    parser = seat_parser() if command[0] == "seat" else serve_seat_parser()
    args = parser.parse_args([*command[1:], "--campaign", "ide4.json"])
    assert args.campaign == tmp_path / "data" / "kubik" / "ide4.json"


ARGUMENT_ERRORS = [
    ["check", "ide4", "--difficulty", "3", "--reroll", "еда"],  # «(choose from 'skill', …)»
    ["party", "frob"],
    ["party"],  # «не хватает аргументов: action»
    ["check", "ide4", "--vs", "3", "--vs-", "2"],  # «ambiguous option: … could match …»
    ["--help=1"],  # «ignored explicit argument '1'»
]


def test_argument_errors_are_russian_throughout(capsys) -> None:
    """Play16: argparse's errors kept English inside the Russian frame (one test, naming every
    command whose error does)."""

    def check(argv: list[str]) -> None:
        code, _, err = run(capsys, *argv)
        message = err.strip().splitlines()[-1]
        assert code == 2 and ": ошибка: " in message, message
        english = re.findall(r"\b[a-z]{4,}\b", message.split(": ошибка: ", 1)[1])
        allowed = {"skill", "food", "calm", "equipment", "help", "arbitrium", "fatum", "list"}
        allowed |= {"frob", "remove", "reroll", "energy", "dice", "actor"}  # option names
        assert not [w for w in english if w not in allowed], message

    assert_every_case(ARGUMENT_ERRORS, check)


def test_english_choices_say_what_they_mean_in_russian(capsys) -> None:
    """Play16: `--reroll {skill,food,calm,…}` listed English ids the GM must type, with no
    word of which is «еда» or «спокойствие»."""
    code, out, _ = run(capsys, "check", "ide4", "-h")
    assert code == 0
    flat = " ".join(out.split())
    for option in ("--ally", "--reroll", "--bonus", "--template"):
        choices = re.search(rf"{option} \{{([a-z_,]+)\}}", out).group(1).split(",")
        for choice in choices:
            assert f"{choice} — " in flat, f"{option} {choice}"


def test_global_options_before_seat() -> None:
    """`kubik --campaign X seat Милава` started the app, which refused «seat Милава»: `seat`
    was missing from the subcommands that global options may stand before."""
    from tui.cli.kubik import global_options_after

    argv = ["--campaign", "x.json", "seat", "Милава"]
    assert global_options_after(argv) == ["seat", "Милава", "--campaign", "x.json"]
