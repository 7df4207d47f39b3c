"""The IDE4™ procedure after the inputs: d100, energy, rerolls, mastery bonuses, sub-roll, the
order of moves and their caps, and the builder's list of moves still allowed."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from rules import ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case

# At [3] (RULES.md bands): natural ≤ 3 Трагедия, ≥ 95 Триумф, total ≥ 56 Успех, ≥ 31 Средне.
TRAGEDY, FAILURE, MIDDLE, SUCCESS, TRIUMPH = 2, 20, 40, 70, 97


def make(**kw) -> ide4.CheckInput:
    kw.setdefault("attribute", "Мелкая моторика")
    kw.setdefault("attribute_level", 3)
    kw.setdefault("base", 3)
    return ide4.CheckInput(**kw)


def rolled(natural: int, energy: tuple[int, ...] = (), **kw) -> ide4.Check:
    """A check at [3] rolled with the given natural d100 and energy-before dice."""
    inp = make(energy_dice=len(energy), **kw)
    return ide4.roll(ide4.start(inp), natural=natural, energy=energy)


def skilled(natural: int, mastery: int = 100, **kw) -> ide4.Check:
    return rolled(natural, skill="Взлом", mastery=mastery, **kw)


def test_energy_before_is_rolled_before_the_d100() -> None:
    """Сид: «[опц.] энергия до броска → d100 → обычные перебросы → Арбитриум/Фатум → [опц.]
    энергия после броска»."""
    check = ide4.roll(ide4.start(make(energy_dice=2)), random.Random(11))
    same = random.Random(11)
    energy = (same.randint(1, 8), same.randint(1, 8))
    natural = same.randint(1, 100)
    assert (check.before_dice, check.natural) == (energy, natural)
    assert [s.kind for s in check.steps] == ["energy_before", "d100"]


def test_total_is_capped_at_one_hundred() -> None:
    """Сид: «Сумма прибавляется к d100 (итог не выше 100)»."""
    check = rolled(90, (8, 8))
    assert (check.total, check.outcome) == (100, "success")


def test_energy_does_not_create_triumph_nor_save_tragedy() -> None:
    """Сид: «До броска … Не создаёт Триумф. Не спасает Трагедию.»"""
    assert rolled(90, (8, 8)).outcome == "success"  # 100 total, natural below 95
    assert rolled(TRAGEDY, (8, 8, 8)).outcome == "tragedy"
    assert rolled(MIDDLE, (8, 8)).outcome == "success"  # 40 + 16 = 56


def test_energy_is_spent_when_declared_whatever_the_result() -> None:
    """Сид: «Стоимость куба равна номиналу (d4 = 4, d6 = 6, …, d20 = 20)»; RULES: «Energy is
    spent when declared, whatever the result»."""
    check = rolled(TRAGEDY, (1, 1, 1), energy_pool=50)
    assert (check.energy_spent, check.pool_after, check.outcome) == (24, 26, "tragedy")


def test_reroll_replaces_the_natural_and_keeps_energy_before() -> None:
    """Сид: «Энергия изменяет итоговое число. Переброс заменяет результат броска.»"""
    check = ide4.reroll(rolled(FAILURE, (5,)), "food", natural=60)
    assert (check.natural, check.first_natural, check.total) == (60, FAILURE, 65)
    assert check.outcome == "success"
    step = check.steps[-1]
    assert (step.kind, step.source, step.replaced, step.outcome_before) == (
        "reroll",
        "food",
        FAILURE,
        "failure",
    )


def test_a_third_skill_reroll_is_refused() -> None:
    """Сид: «На одну проверку: не более двух перебросов от навыков»."""
    check = skilled(FAILURE, mastery=80)
    check = ide4.reroll(check, "skill", natural=FAILURE)
    check = ide4.bonus(check, "reroll", natural=FAILURE)  # the bonus is a skill reroll
    assert check.skill_rerolls == 2
    with pytest.raises(RulesError, match="двух перебросов от навыков"):
        ide4.reroll(check, "skill", natural=FAILURE)
    assert ide4.reroll(check, "calm", natural=MIDDLE).natural == MIDDLE


def test_skill_rerolls_are_as_many_as_the_mastery_unlocks() -> None:
    """Сид: «Навык даёт бонусы мастерства» — the campaign table unlocks one reroll at 40."""
    check = ide4.reroll(skilled(FAILURE, mastery=45), "skill", natural=FAILURE)
    with pytest.raises(RulesError, match="даёт перебросов: 1"):
        ide4.reroll(check, "skill", natural=FAILURE)
    with pytest.raises(RulesError, match="с мастерства 40"):
        ide4.reroll(skilled(FAILURE, mastery=39), "skill", natural=FAILURE)


def test_a_fourth_reroll_is_refused_and_the_cap_is_a_campaign_setting() -> None:
    """Сид: «перебросы от еды, спокойствия, снаряжения, Арбитриума и Фатума в этот лимит не
    входят, но общее число перебросов на проверку — не более трёх (решение мастера)»."""
    check = skilled(FAILURE, mastery=80)
    for source in ("skill", "skill", "equipment"):
        check = ide4.reroll(check, source, natural=FAILURE)
    with pytest.raises(RulesError, match="Не больше 3 перебросов"):
        ide4.reroll(check, "fatum", natural=FAILURE)
    generous = skilled(FAILURE, reroll_cap=4)
    for source in ("food", "calm", "equipment", "arbitrium"):
        generous = ide4.reroll(generous, source, natural=FAILURE)
    assert len(generous.rerolls) == 4


def test_ordinary_rerolls_come_before_arbitrium_and_fatum() -> None:
    """Сид: «d100 → обычные перебросы → Арбитриум/Фатум → [опц.] энергия после броска»."""
    check = ide4.reroll(rolled(FAILURE), "arbitrium", natural=FAILURE)
    with pytest.raises(RulesError, match="обычные перебросы → Арбитриум/Фатум"):
        ide4.reroll(check, "food", natural=FAILURE)
    assert ide4.reroll(check, "fatum", natural=MIDDLE).outcome == "middle"


def test_no_reroll_after_energy_after() -> None:
    """Сид: «Порядок относительно энергии: … обычные перебросы → Арбитриум/Фатум → [опц.]
    энергия после броска»."""
    check = ide4.energy_after(rolled(FAILURE), 1, dice=(3,))
    for source in ("food", "fatum"):
        with pytest.raises(RulesError, match="до энергии после броска"):
            ide4.reroll(check, source, natural=MIDDLE)


def test_energy_after_recomputes_with_at_most_three_dice() -> None:
    """Сид: «После определения категории (и после перебросов) игрок может потратить до 3
    кубов. Сумма прибавляется к d100, категория определяется заново.»"""
    check = ide4.energy_after(rolled(50, energy_pool=30), 3, 8, dice=(2, 2, 2))
    assert (check.total, check.outcome, check.pool_after) == (56, "success", 6)
    assert check.steps[-1].outcome_before == "middle"
    with pytest.raises(RulesError, match="от 1 до 3 кубов"):
        ide4.energy_after(rolled(50), 4, dice=(1, 1, 1, 1))
    with pytest.raises(RulesError, match="d8"):
        ide4.energy_after(rolled(50), 1, 10, dice=(1,))
    with pytest.raises(RulesError, match="Не хватает энергии"):
        ide4.energy_after(rolled(50, energy_pool=15), 2, dice=(1, 1))
    with pytest.raises(RulesError, match="один раз"):
        ide4.energy_after(check, 1, dice=(1,))


@pytest.mark.parametrize(("natural", "name"), [(TRAGEDY, "Трагедия"), (TRIUMPH, "Триумф")])
def test_energy_after_is_not_applied_to_tragedy_or_triumph(natural: int, name: str) -> None:
    """Сид: «Если исход был Трагедия или уже Триумф, энергия после броска не применяется.»"""
    with pytest.raises(RulesError, match=name):
        ide4.energy_after(rolled(natural), 1, dice=(8,))


def test_energy_after_cannot_reach_success_at_seven() -> None:
    """RULES (bands [default]): at [7] «Успех: natural 100 only»; сид: «Не создаёт Триумф»."""
    check = ide4.energy_after(rolled(75, base=7), 3, dice=(8, 8, 8))
    assert (check.total, check.outcome) == (99, "middle")


def test_softening_raises_one_step_once_per_check() -> None:
    """Сид: «≤ 1 смягчение исхода (Трагедия→Провал и т.п.)» и «Бонусы мастерства —
    единственный способ смягчить Трагедию или создать Триумф после броска»."""
    check = ide4.bonus(skilled(TRAGEDY), "soften")
    assert check.outcome == "failure"
    with pytest.raises(RulesError, match="одного смягчения"):
        ide4.bonus(check, "soften")
    assert ide4.bonus(skilled(FAILURE), "soften").outcome == "middle"
    with pytest.raises(RulesError, match="сейчас Средне"):
        ide4.bonus(skilled(MIDDLE), "soften")


def test_triumph_from_success_once_per_check() -> None:
    """Сид: «≤ 1 повышение до Триумфа от навыков на проверку»."""
    check = ide4.bonus(skilled(SUCCESS), "triumph")
    assert (check.outcome, check.daily_triumph_spent) == ("triumph", True)
    with pytest.raises(RulesError, match="одного повышения до Триумфа"):
        ide4.bonus(check, "triumph")
    with pytest.raises(RulesError, match="только Успех"):
        ide4.bonus(skilled(MIDDLE), "triumph")
    with pytest.raises(RulesError, match="с мастерства 100"):
        ide4.bonus(skilled(SUCCESS, mastery=99), "triumph")


def test_a_second_triumph_in_a_game_day_is_refused() -> None:
    """Сид: «Бонус 100 (Успех → Триумф) можно использовать не более одного раза за игровой
    день на персонажа суммарно по всем навыкам.»"""
    with pytest.raises(RulesError, match="игровой день"):
        ide4.bonus(skilled(SUCCESS, daily_triumph_used=True), "triumph")


def test_bonuses_do_not_work_against_seven() -> None:
    """Сид: «Бонусы не действуют против [7] и [00] без особого правила.»"""
    check = skilled(20, base=3, pinned_seven=True, technique="Отмычка")
    assert check.outcome == "failure"
    for kind in ("soften", "triumph", "technique", "reroll"):
        with pytest.raises(RulesError, match=r"против \[7\]"):
            ide4.bonus(check, kind, natural=50)
    assert ide4.reroll(check, "fatum", natural=50).natural == 50  # not a mastery bonus


def test_technique_needs_the_named_technique() -> None:
    """Сид: «Бонус 20 работает только если персонаж применяет именованную технику этого
    бонуса, а не любую проверку с навыком.»"""
    with pytest.raises(RulesError, match="именованную технику"):
        ide4.bonus(skilled(MIDDLE, mastery=20), "technique")
    check = ide4.bonus(skilled(MIDDLE, mastery=20, technique="Змейка"), "technique")
    assert (check.outcome, check.bonuses) == ("middle", ("technique",))
    with pytest.raises(RulesError, match="с мастерства 20"):
        ide4.bonus(skilled(MIDDLE, mastery=19, technique="Змейка"), "technique")


def test_no_skill_no_mastery_bonuses() -> None:
    """Сид: «При отсутствии навыка персонаж не получает связанные с ним бонусы мастерства.»"""
    for kind in ("soften", "reroll"):
        with pytest.raises(RulesError, match="Без навыка"):
            ide4.bonus(rolled(FAILURE), kind, natural=50)


def test_bonuses_close_energy_after_and_rerolls() -> None:
    """Сид: «d100 → перебросы → энергия после броска → бонусы мастерства → подбросок»."""
    check = ide4.bonus(skilled(FAILURE), "soften")
    with pytest.raises(RulesError, match="до бонусов мастерства"):
        ide4.energy_after(check, 1, dice=(1,))
    with pytest.raises(RulesError, match="до бонусов мастерства"):
        ide4.reroll(check, "food", natural=50)


def test_help_gives_one_reroll_only_when_chosen() -> None:
    """Сид: «мастер может применить один из вариантов: … • предоставить +1 переброс»."""
    with pytest.raises(RulesError, match="«\\+1 переброс»"):
        ide4.reroll(rolled(FAILURE), "help", natural=50)
    check = ide4.reroll(rolled(FAILURE, help="reroll"), "help", natural=FAILURE)
    with pytest.raises(RulesError, match="один переброс"):
        ide4.reroll(check, "help", natural=50)


def test_subroll_refines_strength_not_the_outcome() -> None:
    """Сид: «Подбросок уточняет силу последствия, но не меняет категорию исхода.»"""
    names = {}
    for value in range(1, 7):
        check = ide4.subroll(rolled(MIDDLE), value=value)
        assert check.outcome == "middle"
        names[value] = check.subroll_name
    assert names[1] == names[2] == "слабое последствие"
    assert names[3] == names[4] == "заметное последствие"
    assert names[5] == names[6] == "сильное последствие"
    done = ide4.subroll(rolled(FAILURE), value=3)
    with pytest.raises(RulesError, match="один раз"):
        ide4.subroll(done, value=3)
    with pytest.raises(RulesError, match="Подбросок — последний шаг"):
        ide4.reroll(done, "food", natural=50)


def test_bad_dice_values_are_refused() -> None:
    """Сид: «игрок бросает d100» — a d100 shows 1…100 only."""
    for natural in (0, 101):
        with pytest.raises(RulesError, match="от 1 до 100"):
            ide4.roll(ide4.start(make()), natural=natural)
    with pytest.raises(RulesError, match="нужно 2"):
        ide4.roll(ide4.start(make(energy_dice=2)), natural=5, energy=(1,))


def _apply(check: ide4.Check, move: ide4.Move) -> ide4.Check:
    if move.kind == "roll":
        return ide4.roll(check, natural=50)
    if move.kind == "reroll":
        return ide4.reroll(check, move.source, natural=50)
    if move.kind == "energy_after":
        return ide4.energy_after(check, 1, 4, dice=(1,))  # the cheapest die
    if move.kind == "bonus":
        return ide4.bonus(check, move.source)
    return ide4.subroll(check, value=1)


STATES = {
    "ready": lambda: ide4.start(make(skill="Взлом", mastery=100)),
    "auto": lambda: ide4.start(make(base=0)),
    "impossible": lambda: ide4.start(make(base=8, impossible_reason="стена")),
    "failure": lambda: skilled(FAILURE, technique="Змейка", help="reroll"),
    "success": lambda: skilled(SUCCESS, technique="Змейка"),
    "tragedy": lambda: skilled(TRAGEDY),
    "seven": lambda: skilled(FAILURE, pinned_seven=True),
    "after_arbitrium": lambda: ide4.reroll(skilled(FAILURE), "arbitrium", natural=FAILURE),
    "after_bonus": lambda: ide4.bonus(skilled(FAILURE), "soften"),
    "poor": lambda: skilled(FAILURE, energy_pool=3),
}


ALLOWED_MOVES_AGREE_WITH_THE_MOVES = list(STATES)


def test_allowed_moves_agree_with_the_moves() -> None:
    """Сид: «По требованию игрока мастер обязан использовать Развёрнутую проверку» — the
    builder offers exactly the moves the rules allow, and says why not for the others."""

    def check_case(state: str) -> None:
        check = STATES[state]()
        moves = ide4.allowed_moves(check)
        assert [m.kind for m in moves][:2] == ["roll", "reroll"]
        assert {m.source for m in moves if m.kind == "reroll"} == set(ide4.REROLL_SOURCES)
        for move in moves:
            assert move.reason
            if move.allowed:
                _apply(check, move)
            else:
                with pytest.raises(RulesError) as err:
                    _apply(check, move)
                assert str(err.value) == move.reason, move

    assert_every_case(ALLOWED_MOVES_AGREE_WITH_THE_MOVES, check_case, star=False)


def test_allowed_moves_for_a_rolled_failure() -> None:
    """Сид: «[опц.] энергия до броска → d100 → обычные перебросы → Арбитриум/Фатум → [опц.]
    энергия после броска»."""
    moves = {(m.kind, m.source): m for m in ide4.allowed_moves(skilled(FAILURE))}
    assert not moves["roll", ""].allowed
    assert moves["reroll", "skill"].allowed and moves["reroll", "fatum"].allowed
    assert not moves["reroll", "help"].allowed
    assert moves["energy_after", ""].allowed and moves["energy_after", ""].limit == 3
    assert moves["bonus", "soften"].allowed
    assert "только Успех" in moves["bonus", "triumph"].reason
    assert not moves["bonus", "technique"].allowed
    assert moves["subroll", ""].allowed


A_CHECK_THAT_USED_AN_EXPANDED_STEP_SHOWS_EXPANDED = [
    {"before_dice": (3,)},
    {"rerolls": ("food",)},
    {"after_dice": (4,)},
    {"bonuses": ("reroll",)},
    {"subroll_value": 7},
]


def test_a_check_that_used_an_expanded_step_shows_expanded() -> None:
    """Сид: «По требованию игрока мастер обязан использовать Развёрнутую проверку»: a check
    that used any step only the expanded check has (energy before or after, rerolls, mastery
    bonuses, a subroll) is shown expanded, whatever level it was opened at."""

    def check_case(field) -> None:
        check = dataclasses.replace(ide4.roll(ide4.start(make(level="quick")), natural=50), **field)
        assert check.input.level == "quick" and check.level == "expanded"

    assert_every_case(A_CHECK_THAT_USED_AN_EXPANDED_STEP_SHOWS_EXPANDED, check_case, star=False)


class Highest(random.Random):
    """A random source that always shows a die's highest face, and checks the die asked for."""

    def __init__(self) -> None:
        super().__init__(0)
        self.dice: list[int] = []

    def randint(self, a: int, b: int) -> int:
        self.dice.append(b)
        return b


def test_a_reroll_rolls_a_whole_d100() -> None:
    """Сид: «Переброс — новый бросок d100»: the new die can show 100 like the first."""
    rng = Highest()
    check = ide4.reroll(ide4.roll(ide4.start(make()), natural=FAILURE), "food", rng)
    assert rng.dice == [100] and check.natural == 100


def test_level_is_switchable_and_expanded_always_reachable() -> None:
    """Сид: «Игрок имеет право потребовать Развёрнутую проверку в любой ситуации.»"""
    check = ide4.start(make(level="quick"))
    assert check.level == "quick"
    assert ide4.set_level(check, "expanded").level == "expanded"
    assert ide4.set_level(ide4.start(make(base=0, level="quick")), "expanded").level == "expanded"
    assert ide4.start(make(level="quick", always_expanded=True)).level == "expanded"
    used = ide4.reroll(ide4.roll(check, natural=FAILURE), "food", natural=50)
    assert used.level == "expanded"  # a step only the expanded check has
    with pytest.raises(RulesError, match="Уровень проверки"):
        ide4.set_level(check, "brief")
    assert ide4.LEVEL_CHAINS["quick"] == ("атрибут", "модификаторы", "сложность", "d100", "исход")


def test_same_seed_same_record_and_json_keeps_every_die() -> None:
    """Сид: «игрок бросает d100, а система определяет один из пяти исходов» — the record keeps
    every die and is reproducible from a seed."""
    inp = make(skill="Взлом", mastery=80, energy_dice=3)

    def run() -> ide4.Check:
        return ide4.play(
            inp,
            random.Random(5),
            rerolls=["fatum", "food"],
            energy_after_dice=0,
            bonuses=["reroll"],
            with_subroll=True,
        )

    first, second = run(), run()
    assert first == second
    data = json.loads(json.dumps(first.to_dict(), ensure_ascii=False))
    assert data["rerolls"] == ["food", "skill", "fatum"]  # ordinary first, Фатум last
    assert len(data["energy_before"]["dice"]) == 3
    assert [s["kind"] for s in data["steps"]] == [
        "energy_before",
        "d100",
        "reroll",
        "reroll",
        "reroll",
        "subroll",
    ]
    assert data["pool_after"] == 100 - 24


def test_play_refuses_what_the_caps_forbid() -> None:
    """Сид: «общее число перебросов на проверку — не более трёх (решение мастера)»."""
    with pytest.raises(RulesError, match="Не больше 3 перебросов"):
        ide4.play(make(), random.Random(1), rerolls=["food"] * 4)
    auto = ide4.play(make(base=0), random.Random(1))
    assert auto.outcome == "success" and auto.natural is None


def test_energy_after_needs_at_least_one_die() -> None:
    """Сид: «После броска До 3 кубов.» — zero dice is no declaration at all."""
    with pytest.raises(RulesError, match="от 1 до 3"):
        ide4.energy_after(rolled(50), 0, dice=())
