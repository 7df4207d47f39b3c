"""tui.words: wound names in their cases, plural counts, the minus sign."""

from __future__ import annotations

import pytest

from rules.drevo import WoundTrack
from tui import words


@pytest.mark.parametrize(
    ("level", "acc"),
    [
        ("scratch", "царапину"),
        ("light", "лёгкую рану"),
        ("wound", "ранение"),
        ("heavy", "тяжёлую рану"),
        ("death", "смертельную рану"),
    ],
)
def test_wounds_are_declined_after_poluchaet(level: str, acc: str) -> None:
    """«получает лёгкую рану», not «получает Лёгкая рана»."""
    assert words.wound(level, "acc") == acc
    assert words.wound(level) == words.WOUND_FORMS[level][0]


def test_a_renamed_wound_is_shown_as_the_campaign_named_it() -> None:
    assert words.wound("light", "acc", name="Порез") == "Порез"
    assert words.wound("unknown") == "unknown"


@pytest.mark.parametrize(
    ("count", "text", "gen"),
    [
        (1, "1 раунд", "1 раунда"),
        (2, "2 раунда", "2 раундов"),
        (4, "4 раунда", "4 раундов"),
        (5, "5 раундов", "5 раундов"),
        (11, "11 раундов", "11 раундов"),
        (12, "12 раундов", "12 раундов"),
        (21, "21 раунд", "21 раунда"),
        (22, "22 раунда", "22 раундов"),
        (0, "0 раундов", "0 раундов"),
    ],
)
def test_round_counts_are_pluralised(count: int, text: str, gen: str) -> None:
    """«после 1 раунда», «2 раунда», «5 раундов» — never «раунд(ов)»."""
    assert words.rounds(count) == text
    assert words.rounds(count, "gen") == gen


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
