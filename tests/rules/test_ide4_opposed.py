"""IDE4™ opposed checks: the seed's three-step comparison."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules import ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case


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
    price = ide4.opposed(side(60), side(70), resolution="price", price="оба ранены")
    assert price.resolution == "price" and price.to_dict()["resolution"] == "price"
    assert price.to_dict()["price"] == "оба ранены" and price.outcome == "tie"
    with pytest.raises(RulesError, match="назовите"):
        ide4.opposed(side(60), side(70), resolution="price")
    chosen = pending.resolve_tie("status_quo")
    assert (chosen.resolution, chosen.to_dict()["outcome"]) == ("status_quo", "tie")
    with pytest.raises(RulesError, match="Равенства нет"):
        ide4.opposed(side(95), side(60)).resolve_tie("status_quo")
    with pytest.raises(RulesError, match="мастер выбирает") as refused:
        ide4.opposed(side(60), side(70), resolution="coin")
    # «При равенстве мастер выбирает: status_quo, price.» named the choices in English only
    assert "положение без изменений (status_quo) или цену обеим сторонам (price)" in str(
        refused.value
    )


def test_both_sides_must_have_checked() -> None:
    """Сид: «Если два персонажа непосредственно действуют друг против друга, каждый выполняет
    подходящую проверку.»"""
    waiting = ide4.start(ide4.CheckInput(base=3))
    with pytest.raises(RulesError, match="обе стороны"):
        ide4.opposed(side(60), waiting)
    wall = ide4.start(ide4.CheckInput(base=9, impossible_reason="стена"))
    with pytest.raises(RulesError, match=r"\[00\]"):
        ide4.opposed(wall, side(60))


def brute_opposed(a: ide4.CheckInput, b: ide4.CheckInput) -> dict[str, Fraction]:
    """Roll every d100 and every energy die of both sides and compare the finished checks."""

    def finished(inp: ide4.CheckInput) -> list[ide4.Check]:
        check = ide4.start(inp)
        if check.status != "ready":
            return [check]
        energy = itertools.product(range(1, inp.before_die + 1), repeat=inp.energy_dice)
        return [ide4.roll(check, natural=n, energy=list(e)) for e in energy for n in range(1, 101)]

    counts = dict.fromkeys(ide4.OPPOSED_OUTCOMES, 0)
    sides_a, sides_b = finished(a), finished(b)
    for ca in sides_a:
        for cb in sides_b:
            counts[ide4.opposed(ca, cb).outcome] += 1
    whole = len(sides_a) * len(sides_b)
    return {k: Fraction(v, whole) for k, v in counts.items()}


OPPOSED_ODDS_EQUAL_BRUTE_FORCE_ENUMERATION = [
    (ide4.CheckInput(base=3), ide4.CheckInput(base=3)),  # equal: ties exist
    (ide4.CheckInput(base=4), ide4.CheckInput(base=2, modifiers=(ide4.Modifier(1, "х"),))),
    (ide4.CheckInput(base=6, modifiers=(ide4.Modifier(1, "шум"),)), ide4.CheckInput(base=1)),
    (ide4.CheckInput(base=0), ide4.CheckInput(base=2)),  # [0]: an automatic Успех
    (
        ide4.CheckInput(base=5, energy_dice=1, energy_die=4, attribute_level=1),
        ide4.CheckInput(base=5, help="difficulty"),
    ),
]


def test_opposed_odds_equal_brute_force_enumeration() -> None:
    """Сид: «Сравнение: 1. более высокий исход побеждает; 2. при одинаковом исходе побеждает
    тот, у кого ниже итоговая сложность; 3. если равенство сохраняется, мастер …»."""

    def check(a, b) -> None:
        odds = ide4.opposed_odds(a, b)
        assert odds == brute_opposed(a, b)
        assert sum(odds.values()) == 1

    assert_every_case(OPPOSED_ODDS_EQUAL_BRUTE_FORCE_ENUMERATION, check)


def test_no_opposed_odds_against_impossible() -> None:
    """Сид: «Если итоговая сложность становится [00], игрок не бросает кубик»."""
    with pytest.raises(RulesError, match="противоборства нет"):
        ide4.opposed_odds(
            ide4.CheckInput(base=8, modifiers=(ide4.Modifier(-3, "х"),)), ide4.CheckInput(base=3)
        )
