"""Судьба: the five uses, their costs and the campaign's switches."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.drevo import (
    FATE_DICE,
    Action,
    FateRules,
    FateUse,
    Fighter,
    OneSidedCheck,
    OpposedCheck,
    Side,
    fate_cost,
    fate_rules,
    one_sided_odds,
    opposed_odds,
    plan_exchange,
    reduce_damage,
    reduce_options,
    resolve_exchange_with_dice,
    resolve_one_sided,
    resolve_opposed,
    roll_4df,
    roll_one_sided,
    roll_opposed,
    shift,
    shift_exchange,
    spend_fate,
    weapon,
)
from rules.errors import RulesError
from tests.every_case import assert_every_case

ALL_DICE = list(product((-1, 0, 1), repeat=4))
PLUS4 = (1, 1, 1, 1)


def test_default_points_and_uses() -> None:
    """Сид: «Начальное количество очков Судьбы устанавливается ведущим (рекомендовано
    количество от одного до пяти).»"""
    rules = fate_rules()
    assert 1 <= rules.starting_points <= 5 and rules.starting_points == 3
    assert [u.number for u in FateUse] == [1, 2, 3, 4, 5]
    assert rules.enabled == frozenset(u.value for u in FateUse)
    assert FateUse.REDUCE_DAMAGE.label == "Снижение урона"


def test_an_npc_starts_without_fate_by_default() -> None:
    """Сид: «Очки Судьбы расходуются игроком в определённых ситуациях для спасения своего
    персонажа»: Судьба is the players'; a new NPC starts with kubik's [default] 0 — data, not
    code, so the form and ``party add --npc`` give the same."""
    rules = fate_rules()
    assert (rules.start(npc=True), rules.start(npc=False)) == (0, rules.starting_points)
    assert rules.with_use("shift", False).npc_starting_points == rules.npc_starting_points


# --- use 1 ------------------------------------------------------------------------------


def test_use1_auto_crit_success_without_dice() -> None:
    """Сид: «Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим) успехом
    пройти одностороннюю проверку (он должен объявить об этом до броска кубиков).»"""
    check = OneSidedCheck(Side(-3), difficulty=3, fate_auto=True)
    result = resolve_one_sided(check)
    assert result.outcome == "crit_success" and result.fate_auto
    assert result.dice == FATE_DICE
    rng = random.Random(5)
    state = rng.getstate()
    assert roll_one_sided(check, rng).outcome == "crit_success"
    assert rng.getstate() == state  # nothing was rolled
    assert one_sided_odds(check)["crit_success"] == 1


# --- use 2 ------------------------------------------------------------------------------


def test_use2_shift_turns_a_failure_into_a_success() -> None:
    """Сид: «После броска кубиков игрок может потратить одно очко Судьбы, чтобы поднять или
    опустить результат этого броска на одну единицу (два — на две и т.д.).»"""
    result = resolve_one_sided(OneSidedCheck(Side(0), difficulty=1), (1, -1, 0, 0))
    assert result.outcome == "failure"
    up = shift(result, 1)
    assert (up.outcome, up.total, up.fate_shift, up.margin) == ("success", 1, 1, 0)
    twice = shift(up, 1)
    assert twice.fate_shift == 2 and twice.total == 2
    assert shift(up, -1).outcome == "failure"


def test_use2_shift_does_not_change_a_crit() -> None:
    """Сид: «Если при броске 4dF выпадает «-4» — это критический провал. Действие персонажа
    автоматически считается совершенно безуспешным, вне зависимости от … значения»."""
    crit = resolve_one_sided(OneSidedCheck(Side(0), difficulty=-3), (-1, -1, -1, -1))
    assert shift(crit, 5).outcome == "crit_failure"


def test_use2_shift_in_an_opposed_check_flips_the_winner() -> None:
    """Сид: «поднять или опустить результат этого броска на одну единицу»."""
    result = resolve_opposed(OpposedCheck(Side(1), Side(1)), (0, 0, 0, 0), (1, 0, 0, 0))
    assert result.outcome == "lose"
    assert shift(result, 1, "a").outcome == "tie"
    assert shift(result, 2, "a").outcome == "win"
    assert shift(result, -1, "b").outcome == "tie"
    with pytest.raises(RulesError):
        shift(result, 1)


def test_use2_shift_recomputes_an_exchange_and_its_damage() -> None:
    """Сид: «После броска кубиков игрок может потратить одно очко Судьбы»."""
    plan = plan_exchange(
        Fighter("А", weapon=weapon("Меч"), trait=1),
        Action("melee"),
        Fighter("Б", weapon=weapon("Меч"), trait=1),
        Action("melee"),
        "close",
    )
    tie = resolve_exchange_with_dice(plan, (0, 0, 0, 0), (0, 0, 0, 0))
    assert tie.tie
    won = shift_exchange(tie, "defender", 2)
    assert won.winner == "defender" and won.hits[0].value == 2 + 2
    assert won.hits[0].level == "wound"


# --- use 3 ------------------------------------------------------------------------------


def test_use3_plus4_without_rolling() -> None:
    """Сид: «При встречной проверке игрок может потратить одно очко Судьбы для того, чтобы сразу
    получить результат «+4» (то есть критический успех), не бросая 4dF.»"""
    check = OpposedCheck(Side(-2, fate_auto=True), Side(3))
    result = resolve_opposed(check, None, (1, 1, 1, 0))
    assert result.outcome == "win" and result.a.dice == FATE_DICE and result.a.fate_auto
    rolled = roll_opposed(check, random.Random(3))
    assert rolled.a.fate_auto and rolled.b.dice == roll_4df(random.Random(3))


def test_use3_is_cancelled_by_the_opponents_crit() -> None:
    """Сид: «При встречных проверках критический успех персонажа аннулируется критическим
    успехом противника»."""
    result = resolve_opposed(OpposedCheck(Side(0, fate_auto=True), Side(1)), None, PLUS4)
    assert result.a.cancelled and result.outcome == "lose"


def test_use3_odds_match_enumeration() -> None:
    """Сид: «сразу получить результат «+4» (то есть критический успех), не бросая 4dF»."""
    check = OpposedCheck(Side(0, fate_auto=True), Side(2))
    counts = Counter(resolve_opposed(check, None, dice).outcome for dice in ALL_DICE)
    expected = {k: Fraction(counts[k], 81) for k in ("win", "tie", "lose")}
    assert opposed_odds(check) == expected
    assert expected["win"] == Fraction(80, 81)


def test_fate_declared_in_an_exchange() -> None:
    """Сид: «Об этом он должен объявить до броска кубиков.»"""
    plan = plan_exchange(
        Fighter("А", weapon=weapon("Лук"), trait=0),
        Action("shoot"),
        Fighter("Б", trait=3),
        Action("dodge"),
        "medium",
    )
    assert plan.fate_use_before_roll == "auto_plus4"
    result = resolve_exchange_with_dice(plan, None, (1, 1, 1, 0), fate={"attacker"})
    assert result.winner == "attacker" and result.hits
    helpless = plan_exchange(
        Fighter("А", weapon=weapon("Лук"), trait=-5), Action("shoot"), Fighter("Б"), None, "far"
    )
    assert helpless.fate_use_before_roll == "auto_success"
    hit = resolve_exchange_with_dice(helpless, fate={"attacker"})
    assert hit.outcome == "hit"
    with pytest.raises(RulesError, match="не бросает кубики"):
        resolve_exchange_with_dice(helpless, (0, 0, 0, 0), fate={"defender"})


# --- use 4 ------------------------------------------------------------------------------


USE4_REDUCES_DAMAGE_LEVEL_BY_LEVEL = [
    ("light", 1, "scratch"),
    ("heavy", 3, "scratch"),
    ("heavy", 1, "wound"),
    ("death", 1, "heavy"),
]


def test_use4_reduces_damage_level_by_level() -> None:
    """Сид: «замена Лёгкой раны на Царапину стоит одно очко Судьбы, а замена Тяжелой раны —
    три очка.»"""

    def check(level: str, points: int, to: str) -> None:
        assert reduce_damage(level, points) == to
        assert fate_cost(level, to) == points

    assert_every_case(USE4_REDUCES_DAMAGE_LEVEL_BY_LEVEL, check)


def test_use4_cannot_go_below_a_scratch_or_up() -> None:
    """Сид: «снизить на один уровень полученный его персонажем урон»."""
    with pytest.raises(RulesError, match="до Царапины"):
        reduce_damage("light", 2)
    with pytest.raises(RulesError, match="только снижает"):
        fate_cost("scratch", "wound")


def test_use4_offers() -> None:
    """Сид: «он должен объявить об этом сразу же после получения повреждения»."""
    assert reduce_options("heavy", 2) == (("wound", 1), ("light", 2))
    assert reduce_options("scratch", 5) == ()
    off = fate_rules().with_use("reduce_damage", False)
    assert reduce_options("heavy", 2, rules=off) == ()


# --- use 5 and the switches -------------------------------------------------------------


def test_spend_checks_points_and_the_campaigns_switches() -> None:
    """Сид: «Ведущий может, по своему усмотрению, … разрешить применять только некоторые из
    этих правил или совсем убрать очки Судьбы из игры.»"""
    assert spend_fate("circumstance", 2) == 1
    assert spend_fate("reduce_damage", 3, cost=3) == 0
    no_opposed = FateRules().with_use("auto_plus4", False)
    with pytest.raises(RulesError, match="нельзя тратить так"):
        spend_fate("auto_plus4", 3, rules=no_opposed)
    assert spend_fate("shift", 3, rules=no_opposed) == 2
    with pytest.raises(RulesError, match="Нужно очков Судьбы: 2, а у персонажа только 1"):
        spend_fate("shift", 1, cost=2)
    # Play-test: «(1 очко из 0) — … а у персонажа 0. Потратьте меньше.» — less than one
    # point cannot be spent; the message says there is none.
    with pytest.raises(RulesError, match="нет ни одного") as none:
        spend_fate("auto_plus4", 0)
    assert "меньше" not in str(none.value)
    with pytest.raises(RulesError, match="Неизвестное применение"):
        spend_fate("bribe", 3)
