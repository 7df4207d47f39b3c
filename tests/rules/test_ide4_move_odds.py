"""The odds of each IDE4™ move after the d100 against brute force: every die the move could
roll is made through the procedure itself (``rules.ide4.reroll`` / ``energy_after`` with the
values given) and the outcomes it gives are counted."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case
from tests.hypo import examples


def rolled(
    final: int, natural: int, before: tuple[int, ...] = (), die: int = 4, **kw
) -> ide4.Check:
    """A rolled check at base ``final`` (no modifiers) with the dice given."""
    inp = ide4.CheckInput(
        actor="Вера",
        attribute="Мелкая моторика",
        attribute_level=6,
        base=final,
        energy_dice=len(before),
        energy_die=die if before else 0,
        **kw,
    )
    return ide4.roll(ide4.start(inp), natural=natural, energy=before or None)


def tally(now: str, outcomes: list[str]) -> tuple[Fraction, Fraction]:
    rank = ide4.OUTCOME_RANK[now]
    better = sum(1 for o in outcomes if ide4.OUTCOME_RANK[o] > rank)
    worse = sum(1 for o in outcomes if ide4.OUTCOME_RANK[o] < rank)
    return Fraction(better, len(outcomes)), Fraction(worse, len(outcomes))


@settings(max_examples=examples(40), deadline=None)
@given(
    final=st.integers(1, 7),
    natural=st.integers(1, 100),
    before=st.lists(st.integers(1, 4), max_size=3).map(tuple),
)
def test_a_reroll_against_every_new_d100(final, natural, before) -> None:
    """Сид: «Новый d100 может попасть в другую полосу таблицы — тогда меняется категория»:
    the chance to improve and to worsen is the count of the 100 new d100s that do."""
    check = rolled(final, natural, before)
    odds = ide4.reroll_odds(check)
    outcomes = [ide4.reroll(check, "food", natural=n).outcome for n in range(1, 101)]
    assert (odds.better, odds.worse) == tally(check.outcome, outcomes)
    assert sum(odds.outcomes.values()) == 1


@settings(max_examples=examples(20), deadline=None)
@given(
    final=st.integers(1, 7),
    natural=st.integers(1, 100),
    count=st.integers(1, 3),
    die=st.sampled_from((4, 6, 8, 10, 12, 20)),
)
def test_energy_after_against_every_throw_of_its_dice(final, natural, count, die) -> None:
    """Сид: «Сумма прибавляется к d100, категория определяется заново» — never worse: it only
    adds, and Трагедия / Триумф are read from the natural d100."""
    check = rolled(final, natural)
    if ide4.energy_after_refusal(check, count, die):
        return  # Трагедия or Триумф: no energy after
    count = min(count, 2) if die == 20 else count  # 3×d20 is 8000 throws: 2 say the same
    odds = ide4.energy_after_odds(check, count, die)
    outcomes = [
        ide4.energy_after(check, count, die, dice=faces).outcome
        for faces in product(range(1, die + 1), repeat=count)
    ]
    assert (odds.better, odds.worse) == tally(check.outcome, outcomes)
    assert odds.worse == 0


A_BONUS_THAT_CHANGES_THE_OUTCOME_DOES_SO_FOR_CERTAIN = [
    (2, "soften", 1),
    (20, "soften", 1),
    (70, "triumph", 1),
    (70, "technique", 0),
]


def test_a_bonus_that_changes_the_outcome_does_so_for_certain() -> None:
    """Сид: «Бонусы мастерства — единственный способ смягчить Трагедию или создать Триумф
    после броска»: smoothing and Успех → Триумф are certain; a technique keeps the outcome."""

    def check_case(natural, kind, better) -> None:
        check = rolled(3, natural, skill="Взлом", mastery=100, technique="отмычка-змейка")
        after = ide4.bonus(check, kind)
        odds = ide4.bonus_odds(check, kind)
        assert odds.better == better and odds.worse == 0
        assert odds.outcomes[after.outcome] == 1

    assert_every_case(A_BONUS_THAT_CHANGES_THE_OUTCOME_DOES_SO_FOR_CERTAIN, check_case)


def test_a_skill_reroll_bonus_is_a_reroll() -> None:
    """Сид: «Переброс заменяет результат броска» — a skill's reroll bonus is the same new
    d100 as any reroll."""
    check = rolled(4, 50, skill="Взлом", mastery=65)
    assert ide4.bonus_odds(check, "reroll") == ide4.reroll_odds(check)


def test_the_odds_follow_energy_added_before() -> None:
    """Сид: «Энергия изменяет итоговое число. Переброс заменяет результат броска» — a reroll
    keeps the energy already added, so its odds of Успех are higher with it."""
    plain = rolled(3, 44)
    boosted = replace(rolled(3, 44, (6, 6), die=6))
    assert (
        ide4.reroll_odds(boosted).outcomes["success"] > ide4.reroll_odds(plain).outcomes["success"]
    )


@pytest.mark.parametrize("odds", [ide4.reroll_odds, ide4.energy_after_odds, ide4.bonus_odds])
def test_no_odds_before_the_d100(odds) -> None:
    """Сид: «Перебросы», «Энергия после броска», «Бонусы мастерства» come after the d100: a
    check waiting for it (or [0], [00]) has no odds of a move after it."""
    ready = ide4.start(ide4.CheckInput(base=3))
    args = {ide4.energy_after_odds: (1,), ide4.bonus_odds: ("soften",)}.get(odds, ())
    with pytest.raises(RulesError, match="только когда d100 брошен"):
        odds(ready, *args)
