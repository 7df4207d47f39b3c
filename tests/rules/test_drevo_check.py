"""Древо checks: one-sided and opposed resolution, crits, the ladder, seeded rolls."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest

from rules.drevo import (
    OPPOSED_NAMES,
    OPPOSED_OUTCOMES,
    OUTCOME_NAMES,
    OUTCOMES,
    Modifier,
    OneSidedCheck,
    OpposedCheck,
    Side,
    difficulty_name,
    ladder,
    ranking_key,
    resolve_one_sided,
    resolve_opposed,
    roll_one_sided,
    roll_opposed,
)
from rules.errors import RulesError
from tests.every_case import assert_every_case

ALL_DICE = list(product((-1, 0, 1), repeat=4))
PLUS4 = (1, 1, 1, 1)
MINUS4 = (-1, -1, -1, -1)
PLAIN = (1, 0, -1, 0)  # sum 0, no crit


def reference_one_sided(dice: tuple[int, ...], bonus: int, difficulty: int) -> str:
    """Classify a one-sided roll straight from the book, independently of rules.drevo."""
    if all(d == 1 for d in dice):
        return "crit_success"
    if all(d == -1 for d in dice):
        return "crit_failure"
    return "failure" if sum(dice) + bonus < difficulty else "success"


def reference_opposed(a_dice: tuple[int, ...], a_bonus: int, b_dice, b_bonus: int) -> str:
    """Classify an opposed roll from a's view, independently of rules.drevo."""
    a_total, b_total = sum(a_dice) + a_bonus, sum(b_dice) + b_bonus
    a_best, b_best = a_dice == PLUS4, b_dice == PLUS4
    a_worst, b_worst = a_dice == MINUS4, b_dice == MINUS4
    if a_best and b_best:
        a_best = b_best = False
    if a_worst and b_worst:
        a_worst = b_worst = False
    score_a = 10 * (a_best - a_worst)
    score_b = 10 * (b_best - b_worst)
    if score_a != score_b:
        return "win" if score_a > score_b else "lose"
    if a_total == b_total:
        return "tie"
    return "win" if a_total > b_total else "lose"


def side(trait: int, *mods: int) -> Side:
    return Side(trait=trait, modifiers=tuple(Modifier(m, f"мод {m}") for m in mods))


# --- one-sided ---------------------------------------------------------------------------


ONE_SIDED_EVERY_DICE_COMBINATION_MATCHES_REFERENCE = [
    (bonus, difficulty) for difficulty in [-3, -1, 0, 1, 3] for bonus in [-3, 0, 2, 5]
]


def test_one_sided_every_dice_combination_matches_reference() -> None:
    """Сид: «Если его Успех больше или равен Сложности задачи — он поразил цель.
    Если меньше — нет.»"""

    def check_case(bonus: int, difficulty: int) -> None:
        check = OneSidedCheck(side=side(bonus), difficulty=difficulty)
        for dice in ALL_DICE:
            result = resolve_one_sided(check, dice)
            assert result.outcome == reference_one_sided(dice, bonus, difficulty), dice
            assert result.dice == dice
            assert result.dice_sum == sum(dice)
            assert result.total == sum(dice) + bonus
            assert result.margin == result.total - difficulty

    assert_every_case(ONE_SIDED_EVERY_DICE_COMBINATION_MATCHES_REFERENCE, check_case)


def test_modifiers_add_to_the_result() -> None:
    """Сид: «Модификатор имеет числовое значение (положительное или отрицательное)
    и складывается с результатом проверки.»"""
    mods = (Modifier(-2, "Ранение"), Modifier(1, "альпинистское снаряжение"), Modifier(-1, "ночь"))
    s = Side(trait=3, modifiers=mods, name="Ярослав", trait_name="Лазание")
    assert s.modifier_total == sum(m.value for m in mods)
    result = resolve_one_sided(OneSidedCheck(s, 0), PLAIN)
    assert result.total == sum(PLAIN) + 3 + sum(m.value for m in mods)


@pytest.mark.parametrize("bonus", [-5, -2, 0])
def test_plus_four_beats_a_hopeless_difficulty(bonus: int) -> None:
    """Сид: «Если при броске 4dF выпадает «+4» — это критический успех. Действие персонажа
    автоматически считается максимально успешным, вне зависимости от Сложности задачи
    и значения его навыка или качества.»"""
    difficulty = bonus + 4 + 10  # unreachable by arithmetic
    result = resolve_one_sided(OneSidedCheck(side(bonus), difficulty), PLUS4)
    assert result.outcome == "crit_success"
    assert result.by_crit
    assert result.margin == bonus + 4 - difficulty < 0


@pytest.mark.parametrize("bonus", [0, 4, 9])
def test_minus_four_fails_an_easy_difficulty(bonus: int) -> None:
    """Сид: «Если при броске 4dF выпадает «-4» — это критический провал. Действие персонажа
    автоматически считается совершенно безуспешным, вне зависимости от Сложности задачи
    и значения его навыка или качества.»"""
    difficulty = bonus - 4 - 10  # passed by arithmetic with room to spare
    result = resolve_one_sided(OneSidedCheck(side(bonus), difficulty), MINUS4)
    assert result.outcome == "crit_failure"
    assert result.by_crit
    assert result.margin > 0


def test_success_at_exactly_the_difficulty() -> None:
    """Сид: «Если Успех персонажа больше или равен Сложности задачи — он попал в цель.
    Если меньше — промахнулся.»"""
    for dice in ALL_DICE:
        if abs(sum(dice)) == 4:
            continue
        at = resolve_one_sided(OneSidedCheck(side(2, -1), 2 - 1 + sum(dice)), dice)
        above = resolve_one_sided(OneSidedCheck(side(2, -1), 2 - 1 + sum(dice) + 1), dice)
        assert (at.outcome, at.margin) == ("success", 0)
        assert (above.outcome, above.margin) == ("failure", -1)


BAD_DICE_ARE_REFUSED = [(1, 1, 1), (0, 0, 0, 0, 0), (2, 0, 0, 0), (0, True, 0, 0)]


def test_bad_dice_are_refused() -> None:
    """Сид: «Сравниваются суммы броска 4dF и используемого навыка либо качества»
    — только четыре кубика Фудж (−1, 0, +1)."""

    def check(dice: tuple[int, ...]) -> None:
        with pytest.raises(RulesError):
            resolve_one_sided(OneSidedCheck(side(0), 0), dice)
        with pytest.raises(RulesError):
            resolve_opposed(OpposedCheck(side(0), side(0)), PLAIN, dice)

    assert_every_case(BAD_DICE_ARE_REFUSED, check, star=False)


# --- opposed -----------------------------------------------------------------------------


OPPOSED_EVERY_DICE_PAIR_MATCHES_REFERENCE = [(0, 0), (3, 1), (-1, 4), (2, -2)]


def test_opposed_every_dice_pair_matches_reference() -> None:
    """Сид: «Сравниваются суммы броска 4dF и используемого навыка либо качества; тот, чей
    результат выше, — победил, и его действие успешно.»"""

    def check_case(a_bonus: int, b_bonus: int) -> None:
        check = OpposedCheck(a=side(a_bonus), b=side(b_bonus))
        for a_dice in ALL_DICE:
            for b_dice in ALL_DICE:
                result = resolve_opposed(check, a_dice, b_dice)
                assert result.outcome == reference_opposed(a_dice, a_bonus, b_dice, b_bonus)

    assert_every_case(OPPOSED_EVERY_DICE_PAIR_MATCHES_REFERENCE, check_case)


def test_crit_success_cancelled_by_crit_success() -> None:
    """Сид: «При встречных проверках критический успех персонажа аннулируется критическим
    успехом противника ... В этом случае проводится обычный арифметический подсчёт
    результата.»"""
    check = OpposedCheck(a=side(1), b=side(3))
    result = resolve_opposed(check, PLUS4, PLUS4)
    assert (result.a.raw_crit, result.b.raw_crit) == (1, 1)
    assert (result.a.crit, result.b.crit) == (0, 0)
    assert result.a.cancelled and result.b.cancelled
    assert not result.by_crit
    assert result.outcome == "lose"
    assert result.margin == result.b.total - result.a.total == 2


def test_crit_failure_cancelled_by_crit_failure() -> None:
    """Сид: «...а критический провал — критическим провалом. В этом случае проводится
    обычный арифметический подсчёт результата.»"""
    check = OpposedCheck(a=side(2, 1), b=side(2))
    result = resolve_opposed(check, MINUS4, MINUS4)
    assert (result.a.raw_crit, result.b.raw_crit) == (-1, -1)
    assert (result.a.crit, result.b.crit) == (0, 0)
    assert result.outcome == "win"
    assert result.margin == result.a.total - result.b.total == 1


def test_crit_success_beats_crit_failure_and_plain_rolls() -> None:
    """Сид: «При любых проверках у персонажа может быть критический успех или критический
    провал.» — критический успех не аннулируется ни провалом, ни обычным броском."""
    weak, strong = side(-2), side(6)
    vs_fail = resolve_opposed(OpposedCheck(a=weak, b=strong), PLUS4, MINUS4)
    assert (vs_fail.a.crit, vs_fail.b.crit) == (1, -1)
    assert vs_fail.outcome == "win" and vs_fail.by_crit
    assert vs_fail.margin == vs_fail.a.total - vs_fail.b.total
    vs_plain = resolve_opposed(OpposedCheck(a=weak, b=strong), PLUS4, (1, 1, 1, 0))
    assert vs_plain.outcome == "win" and vs_plain.winner == "a"
    assert vs_plain.a.total < vs_plain.b.total  # the crit, not the numbers, decided
    mirrored = resolve_opposed(OpposedCheck(a=strong, b=weak), MINUS4, (-1, -1, -1, 0))
    assert mirrored.outcome == "lose" and mirrored.winner == "b"


def test_equal_results_tie() -> None:
    """Сид: «Если Успех персонажей равен — ничья, никто не пострадал.»"""
    check = OpposedCheck(a=side(2, -1), b=side(0))
    for a_dice in ALL_DICE:
        if not -4 < sum(a_dice) < 3:  # keep both rolls free of crits
            continue
        b_dice = next(d for d in ALL_DICE if sum(d) == sum(a_dice) + 1)
        result = resolve_opposed(check, a_dice, b_dice)
        assert result.a.total == result.b.total
        assert (result.outcome, result.margin, result.winner) == ("tie", 0, None)


def test_margin_is_winner_minus_loser() -> None:
    """Сид: «Если Успех действия одного из противников больше Успеха действия другого —
    он выиграл встречную проверку.»"""
    check = OpposedCheck(a=side(1), b=side(2))
    for a_dice, b_dice in [((1, 1, 0, 0), (-1, 0, 0, 0)), ((-1, 0, 0, 0), (1, 1, 1, 0))]:
        result = resolve_opposed(check, a_dice, b_dice)
        assert result.margin == abs(result.a.total - result.b.total) > 0
        expected = "win" if result.a.total > result.b.total else "lose"
        assert result.outcome == expected


def test_ranking_key_is_crit_then_total() -> None:
    """Сид: «...тот, чей результат выше, — победил» и «критический успех ... аннулируется
    критическим успехом противника, а критический провал — критическим провалом»."""
    check = OpposedCheck(a=side(0), b=side(5))
    result = resolve_opposed(check, PLUS4, PLAIN)
    assert ranking_key(result.a) == (1, result.a.total)
    assert ranking_key(result.b) == (0, result.b.total)
    assert ranking_key(result.a) > ranking_key(result.b)


# --- ladder ------------------------------------------------------------------------------


def test_ladder_has_the_seed_rungs() -> None:
    """Сид: «Сложность задачи при дистанционной атаке на близкой дистанции равна «-2» (Легко),
    на средней дистанции «-1» (Ниже среднего), а на дальней «0» (Средне).»"""
    rungs = ladder()
    seed = {r.value: r.name for r in rungs if r.source == "seed"}
    assert seed == {-2: "Легко", -1: "Ниже среднего", 0: "Средне"}
    assert [r.value for r in rungs] == sorted(r.value for r in rungs)
    assert {r.source for r in rungs} <= {"seed", "default"}
    assert len({r.value for r in rungs}) == len(rungs)
    for rung in rungs:
        assert difficulty_name(rung.value) == rung.name


def test_difficulty_off_the_ladder_is_a_signed_number() -> None:
    """Сид: «Ведущий назначает стрелку Сложность задачи, учитывая ситуацию»
    — сложность вне лестницы показывается числом."""
    top = max(r.value for r in ladder())
    bottom = min(r.value for r in ladder())
    assert difficulty_name(top + 2) == f"+{top + 2}"
    assert difficulty_name(bottom - 1) == str(bottom - 1)


# --- seeded rolls and export -------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_seeded_rolls_are_deterministic(seed: int) -> None:
    """Сид: «Сравниваются суммы броска 4dF и используемого навыка либо качества»
    — один и тот же сид даёт тот же бросок."""
    one = OneSidedCheck(Side(2, (Modifier(-1, "Лёгкая рана"),), "Ратибор", "Стрельба"), 1)
    opp = OpposedCheck(a=Side(3, name="Ратибор", trait_name="Драка"), b=Side(2, name="Волк"))
    assert (
        roll_one_sided(one, random.Random(seed)).to_dict()
        == roll_one_sided(one, random.Random(seed)).to_dict()
    )
    assert (
        roll_opposed(opp, random.Random(seed)).to_dict()
        == roll_opposed(opp, random.Random(seed)).to_dict()
    )
    replay = random.Random(seed)
    expected = [replay.randint(-1, 1) for _ in range(8)]
    rolled = roll_opposed(opp, random.Random(seed))
    assert list(rolled.a.dice) + list(rolled.b.dice) == expected


def test_to_dict_is_json_ready_and_keeps_every_die() -> None:
    """Сид: «Сравниваются суммы броска 4dF и используемого навыка либо качества»
    — в журнале видны все четыре кубика."""
    one = resolve_one_sided(OneSidedCheck(side(1, 1), 0), (1, 0, -1, 1))
    data = json.loads(json.dumps(one.to_dict(), ensure_ascii=False))
    assert data["dice"] == [1, 0, -1, 1]
    assert data["total"] == one.total and data["outcome"] == one.outcome
    assert data["outcome_name"] == OUTCOME_NAMES[one.outcome]
    assert data["difficulty_name"] == difficulty_name(0)
    opp = resolve_opposed(OpposedCheck(side(1), side(0)), (1, 0, 0, 0), (0, 0, -1, 0))
    data = json.loads(json.dumps(opp.to_dict(), ensure_ascii=False))
    assert (data["a"]["dice"], data["b"]["dice"]) == ([1, 0, 0, 0], [0, 0, -1, 0])
    assert data["outcome_name"] == OPPOSED_NAMES[opp.outcome]
    assert set(OUTCOMES) == set(OUTCOME_NAMES) and set(OPPOSED_OUTCOMES) == set(OPPOSED_NAMES)
