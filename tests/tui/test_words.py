"""One word list (tui.words): the app, the players' view and the CLI say the same word for the
same thing, and no text leaves a plural to the reader («раунд(ов)»)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui import cli_party, sheets, words
from tui.view import party_columns

ROOT = Path(__file__).resolve().parents[2]
#: «раунд(ов)», «кубик(а)»: a word with its ending in brackets, for the reader to choose.
HEDGED_PLURAL = re.compile(r"[а-яё]\((?:ов|а|ы|и|ей|ь|я|ям|ами|ах|ого|ая|ое|ые)\)")
#: Files with such a text that belong to another developer's area, fixed there.
OWNED_ELSEWHERE = {"tui/widgets/combat.py": "the Древо combat (issue 13): «после N раунд(ов)»"}
SOURCES = sorted(
    str(p.relative_to(ROOT)) for folder in ("tui", "rules") for p in (ROOT / folder).rglob("*.py")
)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(reason=OWNED_ELSEWHERE[p], strict=False))
        if p in OWNED_ELSEWHERE
        else p
        for p in SOURCES
    ],
)
def test_no_text_hedges_a_plural(path) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    found = [line.strip() for line in text.splitlines() if HEDGED_PLURAL.search(line)]
    assert not found, f"{path}: {found} — use tui.words.plural"


def test_the_pattern_catches_the_reported_text() -> None:
    assert HEDGED_PLURAL.search("Бой завершён после 1 раунд(ов)")
    assert not HEDGED_PLURAL.search("Бой завершён после 1 раунда")


@pytest.mark.parametrize(
    ("n", "word"),
    [
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
    ],
)
def test_plural_forms(n, word) -> None:
    assert words.rounds(n) == f"{n} {word}"


def test_after_n_rounds_takes_the_genitive() -> None:
    assert words.rounds_after(1) == "после 1 раунда"
    assert words.rounds_after(3) == "после 3 раундов"
    assert words.rounds_after(21) == "после 21 раунда"


def test_the_app_the_view_and_the_cli_share_their_terms() -> None:
    """«удача» and «ИП» in `kubik party list` where the app said Судьба and Игрок."""
    assert sheets.KIND_NAMES is words.KIND_NAMES and cli_party.KIND_NAMES is words.KIND_NAMES
    assert words.FATE in sheets.columns("drevo")  # the app's Партия tab
    assert words.FATE in party_columns("drevo")  # the players' view
