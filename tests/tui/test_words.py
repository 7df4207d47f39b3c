"""One word list (tui.words): the app, the players' view and the CLI say the same word for the
same thing, no text leaves a plural to the reader («раунд(ов)»); wound names in their cases, plural
counts, the minus sign."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.drevo import WoundTrack
from tests.every_case import assert_every_case
from tui import words
from tui.bridge import sheets
from tui.cli import party as cli_party
from tui.view import party_columns

ROOT = Path(__file__).resolve().parents[2]
#: «раунд(ов)», «кубик(а)»: a word with its ending in brackets, for the reader to choose.
HEDGED_PLURAL = re.compile(r"[а-яё]\((?:ов|а|ы|и|ей|ь|я|ям|ами|ах|ого|ая|ое|ые)\)")
SOURCES = sorted(
    str(p.relative_to(ROOT)) for folder in ("tui", "rules") for p in (ROOT / folder).rglob("*.py")
)


def test_no_text_hedges_a_plural() -> None:
    """Every source file of tui/ and rules/ (one test, naming every offending file and line)."""

    def check(path: str) -> None:
        text = (ROOT / path).read_text(encoding="utf-8")
        found = [line.strip() for line in text.splitlines() if HEDGED_PLURAL.search(line)]
        assert not found, f"{path}: {found} — use tui.words.plural"

    assert len(SOURCES) > 100, SOURCES  # the walk found the sources
    assert_every_case(SOURCES, check)


def test_the_pattern_catches_the_reported_text() -> None:
    assert HEDGED_PLURAL.search("Бой завершён после 1 раунд(ов)")
    assert not HEDGED_PLURAL.search("Бой завершён после 1 раунда")


PLURAL_FORMS = [
    (1, "раунд"),
    (2, "раунда"),
    (4, "раунда"),
    (5, "раундов"),
    (11, "раундов"),
    (12, "раундов"),
    (14, "раундов"),
    (21, "раунд"),
    (22, "раунда"),
    (111, "раундов"),
    (0, "раундов"),
]


def test_plural_forms() -> None:
    def check(n: int, word: str) -> None:
        assert words.rounds(n) == f"{n} {word}"

    assert_every_case(PLURAL_FORMS, check)


def test_after_n_rounds_takes_the_genitive() -> None:
    assert words.rounds_after(1) == "после 1 раунда"
    assert words.rounds_after(3) == "после 3 раундов"
    assert words.rounds_after(21) == "после 21 раунда"


def test_the_app_the_view_and_the_cli_share_their_terms() -> None:
    """«удача» and «ИП» in `kubik party list` where the app said Судьба and Игрок."""
    assert sheets.KIND_NAMES is words.KIND_NAMES and cli_party.KIND_NAMES is words.KIND_NAMES
    assert words.FATE in sheets.columns("drevo")  # the app's Партия tab
    assert words.FATE in party_columns("drevo")  # the players' view


WOUNDS_ACC = [
    ("scratch", "царапину"),
    ("light", "лёгкую рану"),
    ("wound", "ранение"),
    ("heavy", "тяжёлую рану"),
    ("death", "смертельную рану"),
]


def test_wounds_are_declined_after_poluchaet() -> None:
    """«получает лёгкую рану», not «получает Лёгкая рана»."""

    def check(level: str, acc: str) -> None:
        assert words.wound(level, "acc") == acc
        assert words.wound(level) == words.WOUND_FORMS[level][0]

    assert_every_case(WOUNDS_ACC, check)


def test_a_renamed_wound_is_shown_as_the_campaign_named_it() -> None:
    assert words.wound("light", "acc", name="Порез") == "Порез"
    assert words.wound("unknown") == "unknown"


ROUND_COUNTS = [
    (1, "1 раунд", "1 раунда"),
    (2, "2 раунда", "2 раундов"),
    (4, "4 раунда", "4 раундов"),
    (5, "5 раундов", "5 раундов"),
    (11, "11 раундов", "11 раундов"),
    (12, "12 раундов", "12 раундов"),
    (21, "21 раунд", "21 раунда"),
    (22, "22 раунда", "22 раундов"),
    (0, "0 раундов", "0 раундов"),
]


def test_round_counts_are_pluralised() -> None:
    """«после 1 раунда», «2 раунда», «5 раундов» — never «раунд(ов)»."""

    def check(count: int, text: str, gen: str) -> None:
        assert words.rounds(count) == text
        assert words.rounds(count, "gen") == gen

    assert_every_case(ROUND_COUNTS, check)


def test_other_counts_and_signs() -> None:
    assert words.points(1) == "1 очко" and words.points(3) == "3 очка"
    assert words.points(5) == "5 очков" and words.turns(2) == "2 хода"
    assert words.levels(1) == "1 уровень" and words.levels(-2) == "−2 уровня"
    assert (words.signed(2), words.signed(0), words.signed(-2)) == ("+2", "0", "−2")
    assert words.minus_signs("Сложность -2, полосы 2-3") == "Сложность −2, полосы 2-3"


def test_living_state_marks() -> None:
    """Сид: «Тяжелораненый персонаж не может ничего делать»; «Смерть»."""
    assert words.wound_state(WoundTrack()) == ""
    assert words.wound_state(WoundTrack().take("heavy")) == "тяжело ранен"
    assert words.wound_state(WoundTrack().take("death")) == "погиб"


@pytest.mark.parametrize("level", ["heavy", "death"])
def test_the_view_marks_a_fallen_pc_in_the_apps_words(level: str, tmp_path) -> None:
    """Play-test: the Партия tab read «Тяжёлая×1 — тяжело ранен» and the players' view
    «Тяжёлая×1 — без сил» for the same PC: one word list (tui/words.py) for both."""
    from tui.store import Store
    from tui.systems.drevo import combat as bridge
    from tui.view import party_row

    with Store.open(tmp_path / "c.json") as store:
        pc = store.characters()[0]
    track = WoundTrack().take(level)
    row = party_row("drevo", bridge.with_track(pc, track))
    assert row[-1].endswith(f" — {words.wound_state(track)}"), row


#: «из {n} успехов», «до {n} кубов», «не больше {n} бросков» written with a bare number: wrong
#: for 1, 21, … (из 1 успеха). Such a count goes through words.genitive / rules' dice_of.
BARE_GENITIVE = re.compile(r"(?:из|до|больше) \{[^{}]+\} (?:успехов|бросков|кубов)")


def test_no_count_after_iz_or_do_is_left_undeclined() -> None:
    """Every source file of tui/ and rules/ (one test, naming every offending file)."""

    def check(path: str) -> None:
        text = (ROOT / path).read_text(encoding="utf-8")
        assert not BARE_GENITIVE.findall(text), path

    assert len(SOURCES) > 100, SOURCES  # the walk found the sources
    assert_every_case(SOURCES, check)


GENITIVES = [
    (1, "1 успеха"),
    (21, "21 успеха"),
    (2, "2 успехов"),
    (5, "5 успехов"),
    (11, "11 успехов"),
]


def test_genitive_after_iz() -> None:
    def check(n: int, text: str) -> None:
        assert words.genitive(n, "успеха", "успехов") == text

    assert_every_case(GENITIVES, check)


def test_rules_counts_are_declined_as_the_app_declines_them() -> None:
    """«До броска — не больше 1 куба энергии», not «1 кубов» (the campaign may set a limit of 1)."""
    from rules.counts import genitive
    from rules.ide4.tables import dice_of

    for n in range(0, 130):
        assert genitive(n, "успеха", "успехов") == words.genitive(n, "успеха", "успехов")
    assert [dice_of(n) for n in (1, 2, 5, 11, 21)] == [
        "1 куба", "2 кубов", "5 кубов", "11 кубов", "21 куба",
    ]  # fmt: skip
