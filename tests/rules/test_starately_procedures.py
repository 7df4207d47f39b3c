"""Старатели procedures: opposed rolls, the task chain, the group check, Risk."""

from __future__ import annotations

import random

import pytest

from rules.errors import RulesError
from rules.starately import (
    Check,
    GroupCheck,
    Opposed,
    Side,
    TaskChain,
    chain_difficulty,
    helper_refusal,
    resolve,
    resolve_chain,
    resolve_group,
    resolve_opposed,
    resolve_risk,
    risk_refusal,
    roll_chain,
    roll_group,
    roll_opposed,
    roll_risk,
)
from tests.every_case import assert_every_case

# --- opposed ---------------------------------------------------------------------------------


def test_opposed_higher_total_wins() -> None:
    """Сид: «у такого броска нет сложности, кто бросит выше, тот и победил»."""
    check = Opposed(Side(dm=1, skill=1, name="Хаим"), Side(dm=0, skill=1, pc=False), "a")
    result = resolve_opposed(check, (3, 3), (5, 4))
    assert result.a.total == 8 and result.b.total == 10
    assert result.winner == "b"
    assert not result.tie
    assert result.margin == 2


def test_opposed_tie_goes_to_the_initiator() -> None:
    """Сид: «В случае ничьёй побеждает инициатор проверки»."""
    pc, npc = Side(dm=0, skill=1), Side(dm=0, skill=1, pc=False)
    result = resolve_opposed(Opposed(pc, npc, initiator="b"), (3, 4), (4, 3))
    assert result.tie and result.winner == "b"
    assert result.to_dict()["tie_rule"] == "initiator"


def test_opposed_tie_without_initiator_goes_to_the_pc() -> None:
    """Сид: «если такого нельзя определить однозначно – то персонаж игрока»."""
    npc, pc = Side(dm=0, skill=1, pc=False), Side(dm=0, skill=1, pc=True)
    result = resolve_opposed(Opposed(npc, pc), (2, 5), (5, 2))
    assert result.tie and result.winner == "b"
    assert result.to_dict()["tie_rule"] == "pc"


def test_opposed_tie_needs_someone_to_name() -> None:
    """Сид: «побеждает инициатор проверки, если такого нельзя определить однозначно – то
    персонаж игрока» — два игрока без инициатора: правило не решает, просим назвать."""
    with pytest.raises(RulesError, match="инициатора"):
        Opposed(Side(dm=0), Side(dm=0))
    with pytest.raises(RulesError, match="«a» или «b»"):
        Opposed(Side(dm=0), Side(dm=0, pc=False), initiator="c")


def test_opposed_natural_twelve_is_just_a_total() -> None:
    """Сид: «у такого броска нет сложности, кто бросит выше, тот и победил» — натуральное 12
    не побеждает само по себе (выбор kubik: автоуспех — это про сложность)."""
    check = Opposed(Side(dm=-1, skill=None), Side(dm=2, skill=4, pc=False), "a")
    result = resolve_opposed(check, (6, 6), (5, 5))
    assert result.a.total == 8 and result.b.total == 16
    assert result.winner == "b"
    data = result.to_dict()
    flags = [
        {k: data[s][k] for k in ("natural_12", "natural_2")} for s in ("a", "b")
    ]  # shown with the roll, though they decide nothing here
    assert flags == [
        {"natural_12": True, "natural_2": False},
        {"natural_12": False, "natural_2": False},
    ]
    low = resolve_opposed(check, (1, 1), (5, 6)).to_dict()
    assert (low["a"]["natural_12"], low["a"]["natural_2"]) == (False, True)
    assert (low["b"]["natural_12"], low["b"]["natural_2"]) == (False, False)


def test_opposed_roll_records_both_sides() -> None:
    """Сид: «можно кинуть встречный бросок» — оба броска сохраняются, кубик за кубиком."""
    check = Opposed(Side(dm=0, skill=1, boons=1), Side(dm=0, skill=1, pc=False), "a")
    data = roll_opposed(check, random.Random(3)).to_dict()
    assert data["kind"] == "opposed"
    assert len(data["a"]["dice"]) == 3 and len(data["b"]["dice"]) == 2
    assert data["winner"] in ("a", "b")


# --- task chain ------------------------------------------------------------------------------


CHAIN_HELPER_ONE_STEP_LOWER = [(12, 10), (10, 8), (8, 6), (9, 7), (6, 4)]


def test_chain_helper_one_step_lower() -> None:
    """Сид: «один из них может предварительно пройти проверку другого навыка сложностью на один
    шаг ниже основного броска» (шаги 12→10→8→6; вне названных — на 2 ниже, настройка)."""

    def check(main: int, helper: int) -> None:
        assert chain_difficulty(main) == helper

    assert_every_case(CHAIN_HELPER_ONE_STEP_LOWER, check)


def test_boat_chase_chain() -> None:
    """Сид: «Скачок между движущимися катерами - очень сложная задача и потребует броска
    Атлетики 12+. … ему нужно будет совершить бросок Моряк 10+, и весь Эффект этого броска
    станет модификатором для броска Хаима.»"""
    dmitry = Side(dm=1, skill=3, name="Дмитрий", skill_name="Моряк")
    haim = Side(dm=1, skill=2, name="Хаим", skill_name="Атлетика")
    chain = TaskChain(helper=dmitry, main=Check(haim, 12))
    assert chain.helper_check.difficulty == 10
    result = resolve_chain(chain, (5, 4), (4, 4))
    assert result.helper.total == 13 and result.helper.effect == 3
    assert result.carried == 3
    assert result.main.total == 8 + 1 + 2 + 3
    assert result.main.effect == 2
    assert result.outcome == "success"
    assert result.main.check.side.modifiers[-1].value == 3
    assert "Дмитрий" in result.main.check.side.modifiers[-1].reason


def test_chain_carries_a_negative_effect() -> None:
    """Сид: «В таком случае Эффект первой проверки будет добавлен как модификатор ко второй»
    — и отрицательный тоже."""
    chain = TaskChain(Side(dm=0, skill=0), Check(Side(dm=1, skill=2), 12))
    result = resolve_chain(chain, (1, 3), (6, 5))
    assert result.helper.effect == 4 - 10
    assert result.main.total == 11 + 3 - 6
    assert result.outcome == "failure"


def test_chain_helper_difficulty_override_and_roll() -> None:
    """Сид: «проверку другого навыка сложностью на один шаг ниже» — ведущий может назначить
    иную; бросок помощника идёт первым."""
    chain = TaskChain(Side(dm=0, skill=1), Check(Side(dm=0, skill=1), 12), helper_difficulty=9)
    assert chain.helper_check.difficulty == 9
    data = roll_chain(chain, random.Random(5)).to_dict()
    assert data["helper"]["difficulty"] == 9
    assert data["main"]["side"]["modifiers"][-1]["value"] == data["helper"]["effect"]


# --- group check -----------------------------------------------------------------------------


def medics() -> tuple[Side, Side, Side, Side]:
    boris = Side(dm=1, skill=3, name="Борис", skill_name="Медицина")
    sergei = Side(dm=0, skill=1, name="Сергей", skill_name="Медицина", pc=False)
    alik = Side(dm=0, skill=1, name="Алик", skill_name="Медицина", pc=False)
    darina = Side(dm=1, skill=None, name="Дарина", skill_name="Медицина")
    return boris, sergei, alik, darina


def test_field_medic_group_check() -> None:
    """Сид: «опытный полевой врач Борис (Медицина-3) пытается залетать своего товарища Франца …
    Ему вызываются помочь военные Сергей и Алик, у которых есть Медицина-1. Они оба совершают
    проверки по той же сложности, и в случае успеха дают бонусы +1 к броску Бориса.»"""
    boris, sergei, alik, _ = medics()
    group = GroupCheck(Check(boris, 10), (sergei, alik))
    assert [c.difficulty for c in group.helper_checks] == [10, 10]
    both = resolve_group(group, [(5, 4), (6, 3)], (3, 3))
    assert both.bonus == 2
    assert both.main.total == 6 + 1 + 3 + 2
    assert both.outcome == "success"
    one = resolve_group(group, [(5, 4), (1, 2)], (3, 3))
    assert one.bonus == 1
    assert one.main.total == 11
    assert one.outcome == "success"


def test_group_failures_cost_nothing() -> None:
    """Сид: «в случае успеха к основному броску добавляется модификатор +1, в случае провала
    штрафов нет»."""
    boris, sergei, alik, _ = medics()
    result = resolve_group(GroupCheck(Check(boris, 10), (sergei, alik)), [(1, 1), (2, 3)], (3, 3))
    assert result.bonus == 0
    assert result.main.total == 6 + 1 + 3
    assert result.main.check.side.modifiers == ()
    assert result.outcome == "success"


def test_group_helper_needs_the_skill() -> None:
    """Сид: «Для помощи необходимо иметь тот же навык хотя бы на 1 уровне. … Снайперша Дарина,
    не владеющая навыком Медицина, не может помочь»."""
    boris, sergei, _, darina = medics()
    assert helper_refusal(sergei, boris) is None
    assert "Медицина" in (helper_refusal(darina, boris) or "")
    with pytest.raises(RulesError, match="Дарина"):
        GroupCheck(Check(boris, 10), (sergei, darina))
    level_zero = Side(dm=2, skill=0, name="Новичок", skill_name="Медицина")
    with pytest.raises(RulesError, match="1-го уровня"):
        GroupCheck(Check(boris, 10), (level_zero,))
    shooter = Side(dm=2, skill=3, name="Хаим", skill_name="Стрельба")
    with pytest.raises(RulesError, match="тем же навыком"):
        GroupCheck(Check(boris, 10), (shooter,))


def test_group_roll_order_and_dice_count() -> None:
    """Сид: «Все остальные персонажи могут совершить бросок по той же сложности» — помощники
    бросают первыми, затем основной бросок."""
    boris, sergei, alik, _ = medics()
    group = GroupCheck(Check(boris, 10), (sergei, alik))
    rolled = roll_group(group, random.Random(11))
    rng = random.Random(11)
    expected = [tuple(rng.randint(1, 6) for _ in range(2)) for _ in range(3)]
    assert [tuple(d.value for d in h.dice) for h in rolled.helpers] == expected[:2]
    assert tuple(d.value for d in rolled.main.dice) == expected[2]
    with pytest.raises(RulesError, match="наборов кубиков"):
        resolve_group(group, [(1, 2)], (3, 3))


# --- Risk ------------------------------------------------------------------------------------


def test_risk_rolls_again_and_keeps_the_price() -> None:
    """Сид: «При провале любой проверки игрок может заявить, что он Рискует – в таком случае
    проверка совершается повторно … Вне зависимости от результата этой повторной проверки
    игрок заплатит за это какую-то цену, определяемую ведущим.»"""
    sasha = Check(Side(dm=0, skill=1, name="Кейт", skill_name="Атлетика"), 8)
    first = resolve(sasha, (2, 3))
    assert first.outcome == "failure"
    risky = resolve_risk(first, "кобура с пистолетом падает в пыль", (5, 4))
    assert risky.outcome == "success"
    assert risky.price == "кобура с пистолетом падает в пыль"
    assert all(d.rerolled for d in risky.retry.dice)
    assert risky.retry.risk
    failed_again = resolve_risk(first, "урон", (1, 2))
    assert failed_again.outcome == "failure" and failed_again.price == "урон"
    data = risky.to_dict()
    assert data["first"]["outcome"] == "failure" and data["retry"]["outcome"] == "success"


def test_risk_needs_a_failure_and_a_price() -> None:
    """Сид: «При провале любой проверки игрок может заявить, что он Рискует» и «игрок заплатит
    за это какую-то цену, определяемую ведущим» — цена обязательна."""
    check = Check(Side(dm=0, skill=1), 8)
    success = resolve(check, (6, 5))
    with pytest.raises(RulesError, match="после провала"):
        resolve_risk(success, "аптечка", (3, 3))
    failure = resolve(check, (1, 2))
    with pytest.raises(RulesError, match="цену"):
        resolve_risk(failure, "  ", (3, 3))
    retry = resolve_risk(failure, "аптечка", (1, 3)).retry
    assert risk_refusal(retry, "ещё аптечка") is not None


def test_gm_may_forbid_risk() -> None:
    """Сид: «ведущему нужно будет назначить другую цену или, если ситуация не предполагает
    таковой, запретить использование данной механики»."""
    failure = resolve(Check(Side(dm=0, skill=1), 8), (1, 2))
    assert risk_refusal(failure, "аптечка") is None
    assert "запретил" in (risk_refusal(failure, "аптечка", forbidden=True) or "")
    rng = random.Random(1)
    state = rng.getstate()
    with pytest.raises(RulesError, match="запретил"):
        roll_risk(failure, "аптечка", rng, forbidden=True)
    assert rng.getstate() == state  # nothing was drawn
    assert roll_risk(failure, "аптечка", rng).retry.risk
