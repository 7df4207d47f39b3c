"""IDE4™ opposed checks: the seed's three-step comparison."""

from __future__ import annotations

import pytest

from rules import ide4
from rules.errors import RulesError


def side(natural: int, base: int = 3) -> ide4.Check:
    """A side rolled at ``base`` (at [3]: ≥ 56 Успех, ≥ 31 Средне, ≤ 3 Трагедия)."""
    return ide4.roll(ide4.start(ide4.CheckInput(base=base)), natural=natural)


def test_higher_outcome_wins() -> None:
    """Сид: «Сравнение: 1. более высокий исход побеждает»."""
    result = ide4.opposed(side(60), side(20, base=1))
    assert (result.winner, result.decided_by) == ("a", "outcome")
    result = ide4.opposed(side(2), side(20))
    assert (result.winner, result.decided_by) == ("b", "outcome")


def test_equal_outcomes_lower_final_difficulty_wins() -> None:
    """Сид: «2. при одинаковом исходе побеждает тот, у кого ниже итоговая сложность»."""
    result = ide4.opposed(side(60, base=4), side(30, base=2))
    assert (result.a.outcome, result.b.outcome) == ("middle", "middle")
    assert (result.winner, result.decided_by) == ("b", "difficulty")
    auto = ide4.start(ide4.CheckInput(base=0))
    assert ide4.opposed(auto, side(70)).winner == "a"  # [0] is lower than [3]


def test_full_tie_is_the_gms_choice_and_recorded() -> None:
    """Сид: «3. если равенство сохраняется, мастер оставляет положение без изменения либо
    назначает цену обеим сторонам»."""
    pending = ide4.opposed(side(60), side(70))
    assert (pending.winner, pending.decided_by, pending.resolution) == (None, "tie", "")
    price = ide4.opposed(side(60), side(70), resolution="price")
    assert price.resolution == "price" and price.to_dict()["resolution"] == "price"
    with pytest.raises(RulesError, match="мастер выбирает"):
        ide4.opposed(side(60), side(70), resolution="coin")


def test_both_sides_must_have_checked() -> None:
    """Сид: «Если два персонажа непосредственно действуют друг против друга, каждый выполняет
    подходящую проверку.»"""
    waiting = ide4.start(ide4.CheckInput(base=3))
    with pytest.raises(RulesError, match="обе стороны"):
        ide4.opposed(side(60), waiting)
    wall = ide4.start(ide4.CheckInput(base=9, impossible_reason="стена"))
    with pytest.raises(RulesError, match=r"\[00\]"):
        ide4.opposed(wall, side(60))
