"""Мир Тьмы pools and the chance die: successes, n-again, rote, exceptional, withdrawal."""

from __future__ import annotations

import json
import random

import pytest

from rules.errors import DiceLimitError, RulesError
from rules.wod import (
    Modifier,
    Pool,
    resolve_pool,
    roll_pool,
    settings,
    withdraw,
    withdrawal,
)
from tests.every_case import assert_every_case


def chance_pool(**kwargs: object) -> Pool:
    """A pool that penalties cut to zero: 2 dots − 2."""
    return Pool(2, 0, (Modifier(-2, "укрытие, дальность"),), **kwargs)  # type: ignore[arg-type]


# --- normal pool [default, RULES.md §3] ------------------------------------------------------


def test_pool_size_and_chance() -> None:
    """RULES.md §3: «attribute + skill + modifiers dice of d10»; сид: «Всякий раз, когда запас
    дайсов сводится к нулю … вы можете положиться на свою удачу.»"""
    pool = Pool(3, 2, (Modifier(-1, "рана"), Modifier(2, "инструменты")))
    assert pool.size == 6 and not pool.chance
    assert chance_pool().size == 0 and chance_pool().chance
    assert Pool(1, 0, (Modifier(-3, "штрафы"),)).chance


def test_campaign_defaults() -> None:
    """RULES.md §3: «each die ≥ 8 is a success; 10-again … 5+ successes → exceptional success»
    — значения кампании из data/wod/pool.toml."""
    table = settings()
    assert (table.success_threshold, table.again, table.exceptional) == (8, 10, 5)
    pool = Pool(2)
    assert (pool.success_threshold, pool.again, pool.exceptional) == (8, 10, 5)


def test_successes_on_eight_or_more() -> None:
    """RULES.md §3: «each die ≥ 8 is a success … 0 → failure»."""
    result = resolve_pool(Pool(3, 2), [7, 8, 9, 1, 5])
    assert result.successes == 2
    assert result.outcome == "success"
    assert [d.success for d in result.dice] == [False, True, True, False, False]


def test_ten_again_adds_a_die() -> None:
    """RULES.md §3: «10-again (a 10 adds a die…)»; сид: «Как и обычно, вы можете перебросить
    полученную “десятку”»."""
    result = resolve_pool(Pool(2), [10, 10, 3, 8])
    assert [d.value for d in result.dice] == [10, 10, 3, 8]
    assert [d.exploded for d in result.dice] == [True, True, False, False]
    assert [d.added for d in result.dice] == [False, True, True, False]
    assert [d.parent for d in result.dice] == [None, 0, 1, None]
    assert result.successes == 3


OTHER_AGAINS = [(9, [9, 2, 5], 1), (8, [8, 9, 1, 4], 2), (None, [10, 4], 1), (10, [9, 4], 1)]


def test_other_agains() -> None:
    """RULES.md §3: «options 9-again, 8-again, none»."""

    def check(again: int | None, faces: list[int], successes: int) -> None:
        result = resolve_pool(Pool(2, again=again), faces)
        assert result.successes == successes
        assert len(result.dice) == len(faces)

    assert_every_case(OTHER_AGAINS, check)


def test_rote_rerolls_each_failed_die_once() -> None:
    """RULES.md §3: «rote (reroll failed dice once) as an option»."""
    result = resolve_pool(Pool(3, rote=True), [3, 9, 8, 1, 2])
    values = [(d.value, d.kept, d.rerolled, d.parent) for d in result.dice]
    assert values == [
        (3, False, False, None),
        (9, True, True, 0),
        (8, True, False, None),
        (1, False, False, None),
        (2, True, True, 3),  # the reroll failed too: no second reroll
    ]
    assert result.successes == 2


def test_rote_reroll_may_explode_but_explosions_are_not_rerolled() -> None:
    """RULES.md §3: «rote (reroll failed dice once)» — переброшенный куб может взорваться
    (10-снова), а кубы от взрыва не перебрасываются (выбор kubik: только кубы запаса)."""
    result = resolve_pool(Pool(1, rote=True), [4, 10, 2])
    assert [(d.value, d.kept, d.rerolled, d.added) for d in result.dice] == [
        (4, False, False, False),
        (10, True, True, False),
        (2, True, False, True),
    ]
    assert result.successes == 1


def test_exceptional_at_five() -> None:
    """RULES.md §3: «5+ successes → exceptional success»."""
    assert resolve_pool(Pool(5), [8, 8, 8, 8, 8]).outcome == "exceptional_success"
    assert resolve_pool(Pool(5), [8, 8, 8, 8, 7]).outcome == "success"
    assert resolve_pool(Pool(2, exceptional=2), [8, 8]).outcome == "exceptional_success"


def test_normal_pool_never_fails_dramatically() -> None:
    """Сид: «Если персонаж делает обычный бросок, полный провал ему не грозит. … Результат 1 в
    таком случае расценивается как обычный провал, а не трагедия.»"""
    result = resolve_pool(Pool(1), [1])
    assert result.outcome == "failure"
    assert resolve_pool(Pool(3), [1, 1, 1]).outcome == "failure"


# --- chance die [seed] -----------------------------------------------------------------------


def test_chance_die_example_two_successes() -> None:
    """Сид: «Он получает ещё одну 10 и набирает уже два успеха, после чего перебрасывает дайс
    ещё раз. Третий бросок даёт результат 8, поэтому бросок на удачу заканчивается с двумя
    успехами … Обратите внимание, что в этом примере 8 не дала персонажу ни одного успеха.»"""
    result = resolve_pool(chance_pool(), [10, 10, 8])
    assert result.chance
    assert result.successes == 2
    assert [d.success for d in result.dice] == [True, True, False]
    assert [d.exploded for d in result.dice] == [True, True, False]
    assert result.outcome == "success"


CHANCE_DIE_NEEDS_A_TEN = [2, 5, 8, 9]


def test_chance_die_needs_a_ten() -> None:
    """Сид: «Бросьте один-единственный дайс. Вы должны выкинуть 10. … Любой результат ниже 10
    приводит к провалу.»"""

    def check(face: int) -> None:
        result = resolve_pool(chance_pool(), [face])
        assert result.successes == 0
        assert result.outcome == "failure"

    assert_every_case(CHANCE_DIE_NEEDS_A_TEN, check, star=False)


def test_chance_die_eight_and_nine_never_count_even_with_eight_again() -> None:
    """Сид: «независимо от того, сколько десяток вы перебросили, уровень сложности остаётся
    равен 10. Результаты 8 и 9 не дают успехов даже при перебрасывании дайса.»"""
    result = resolve_pool(chance_pool(again=8, rote=True), [10, 9])
    assert result.successes == 1
    assert [d.success for d in result.dice] == [True, False]
    assert resolve_pool(chance_pool(again=8), [8]).successes == 0  # and 8 does not reroll
    # kubik's choice (the seed is silent): rote does not reroll a failed chance die either.
    assert len(resolve_pool(chance_pool(rote=True), [3]).dice) == 1


def test_chance_die_first_one_is_dramatic() -> None:
    """Сид: «Полный провал может произойти только тогда, когда персонаж делает бросок на удачу
    и получает результат 1.»"""
    assert resolve_pool(chance_pool(), [1]).outcome == "dramatic_failure"


def test_chance_die_one_after_a_ten_keeps_the_success() -> None:
    """Сид: «Если при первой попытке вы получили 10 (а значит, один успех), после чего
    перебросили дайс и выкинули единицу, вы остаётесь с одним успехом и прекращаете
    перебрасывать этот дайс.»"""
    result = resolve_pool(chance_pool(), [10, 1])
    assert result.successes == 1
    assert result.outcome == "success"


def test_chance_die_many_tens_can_be_exceptional() -> None:
    """Сид: «У вас есть возможность добиться ошеломляющего результата, получив 10 ещё раз и
    перебросив дайс снова.» (5+ успехов — исключительный, настройка кампании.)"""
    result = resolve_pool(chance_pool(), [10, 10, 10, 10, 10, 4])
    assert result.successes == 5
    assert result.outcome == "exceptional_success"


# --- withdrawal [seed] -----------------------------------------------------------------------


def test_withdrawal_allowed_when_foreseeable() -> None:
    """Сид: «Рассказчик может позволить вам отказаться от выполнения действия, если в момент
    проверки протагонист мог обдумать своё положение и решить, что его шансы слишком
    невелики»."""
    pool = chance_pool()
    verdict = withdrawal(pool)
    assert verdict.allowed
    assert "отказаться" in verdict.reason
    data = withdraw(pool).to_dict()
    assert data["kind"] == "withdrawn" and data["dice"] == []


def test_withdrawal_forbidden_when_unforeseen() -> None:
    """Сид: «если персонаж просто не знал об опасности или не предвидел всех факторов
    (штрафов), которые могут привести его к краху, Рассказчик может заявить, что объявленное
    игроком действие уже нельзя отменить.»"""
    pool = chance_pool(withdrawal_allowed=False)
    verdict = withdrawal(pool)
    assert not verdict.allowed
    assert "нельзя отменить" in verdict.reason
    with pytest.raises(RulesError, match="нельзя отменить"):
        withdraw(pool)


def test_withdrawal_only_before_a_chance_die() -> None:
    """Сид: «Если штрафы сводят весь запас дайсов к нулю, Рассказчик может спросить игрока,
    действительно ли тот собирается рисковать.»"""
    assert not withdrawal(Pool(3)).allowed
    with pytest.raises(RulesError, match="бросок на удачу|броском на удачу"):
        withdraw(Pool(3))


# --- inputs, limits, JSON --------------------------------------------------------------------


def test_bad_inputs_are_refused() -> None:
    """RULES.md §0: «Bounds against abuse, each a clear error, never a hang»."""
    with pytest.raises(RulesError, match="отрицательными"):
        Pool(-1)
    with pytest.raises(RulesError, match="снова"):
        Pool(2, again=7)
    with pytest.raises(RulesError, match="больше 100"):
        Pool(50, 51)
    with pytest.raises(RulesError, match="не хватило"):
        resolve_pool(Pool(2), [10, 3])
    with pytest.raises(RulesError, match="Лишние"):
        resolve_pool(Pool(1), [3, 4])
    with pytest.raises(RulesError, match="1…10"):
        resolve_pool(Pool(1), [11])


def test_endless_explosions_stop_with_a_limit_error() -> None:
    """RULES.md §0: «explosion chain ≤ 100 per die» — сломанный генератор не вешает программу."""

    class AlwaysTen(random.Random):
        def randint(self, a: int, b: int) -> int:
            return 10

    with pytest.raises(DiceLimitError):
        roll_pool(Pool(1), AlwaysTen())
    with pytest.raises(DiceLimitError):
        roll_pool(chance_pool(), AlwaysTen())


def test_roll_is_seeded_and_json_keeps_every_die() -> None:
    """RULES.md §0: «every rolled die is kept in the result … Same seed, same inputs: same
    result, byte for byte.»"""
    pool = Pool(4, 3, rote=True, again=9, name="Глеб", attribute_name="Ловкость")
    first, again = roll_pool(pool, random.Random(9)), roll_pool(pool, random.Random(9))
    assert json.dumps(first.to_dict()) == json.dumps(again.to_dict())
    data = first.to_dict()
    assert data["system"] == "wod" and data["kind"] == "pool"
    assert data["successes"] == sum(d["success"] and d["kept"] for d in data["dice"])
    assert all({"kept", "exploded", "rerolled", "added", "value"} <= set(d) for d in data["dice"])
    unkept = [d for d in data["dice"] if not d["kept"]]
    assert all(not d["success"] for d in unkept)
    assert sum(not d["added"] and not d["rerolled"] for d in data["dice"]) == 7


def test_demo_party_fits_the_rules() -> None:
    """RULES.md §3: «attribute + skill + modifiers dice of d10» — демо-партия: девять атрибутов
    в точках 1–5, навыки 0–5."""
    from rules.data import load_table

    table = load_table("demo/wod.toml")
    assert table["campaign"]["system"] == "wod"
    kinds = [c["kind"] for c in table["characters"]]
    assert 3 <= kinds.count("pc") <= 4 and kinds.count("npc") == 2
    names = {
        "Интеллект",
        "Сообразительность",
        "Решимость",
        "Сила",
        "Ловкость",
        "Выносливость",
        "Презентабельность",
        "Манипуляция",
        "Самообладание",
    }
    for character in table["characters"]:
        assert set(character["qualities"]) == names
        assert all(1 <= v <= 5 for v in character["qualities"].values())
        assert all(0 <= s["value"] <= 5 for s in character["skills"])
        assert "fate" not in character and "weapons" not in character  # no Судьба here
        best = max(s["value"] for s in character["skills"])
        assert not Pool(max(character["qualities"].values()), best).chance
