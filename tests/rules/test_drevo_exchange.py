"""Древо combat exchanges: which check each pair of actions makes, refusals, automatic
modifiers, crits, ties, damage and exact odds."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.drevo import (
    DISTANCE_NAMES,
    EXCHANGE_OUTCOMES,
    Action,
    ExchangePlan,
    Fighter,
    Modifier,
    Sheet,
    WoundTrack,
    action_problem,
    plan_exchange,
    resolve_exchange,
    resolve_exchange_with_dice,
    weapon,
)
from rules.errors import RulesError
from tests.every_case import assert_every_case

ALL_DICE = list(product((-1, 0, 1), repeat=4))
ZERO = (0, 0, 0, 0)
PLUS4 = (1, 1, 1, 1)

SWORDSMAN = Sheet(
    {"Сила": 2, "Ловкость": 1},
    (("Драка", 2, None), ("Фехтование", 3, "Драка"), ("Щиты", 2, "Драка"), ("Уклонение", 1, None)),
)
ARCHER = Sheet(
    {"Ловкость": 2}, (("Стрельба", 2, None), ("Луки", 3, "Стрельба"), ("Уклонение", 2, None))
)


def fighter(name: str, trait: int = 0, held: str | None = None, **kw: object) -> Fighter:
    return Fighter(name, weapon=weapon(held) if held else None, trait=trait, **kw)  # type: ignore[arg-type]


def act(kind: str, held: str | None = None, parry: bool = False) -> Action:
    return Action(kind, weapon(held) if held else None, parry)


def brute_force(plan: ExchangePlan) -> dict[str, Fraction]:
    """Count outcomes over every roll of the sides that roll."""
    att = ALL_DICE if plan.attacker.rolls else [None]
    dfn = ALL_DICE if plan.defender.rolls else [None]
    counts: Counter[str] = Counter()
    for a, d in product(att, dfn):
        counts[resolve_exchange_with_dice(plan, a, d).outcome] += 1
    total = len(att) * len(dfn)
    return {key: Fraction(counts[key], total) for key in EXCHANGE_OUTCOMES[plan.kind]}


def values(plan: ExchangePlan, role: str) -> list[int]:
    return [m.value for m in plan.side(role).modifiers]


# --- kinds of exchange ------------------------------------------------------------------


def test_melee_against_melee_is_opposed_and_either_side_may_hurt() -> None:
    """Сид: «В ближнем бою: Чтобы определить, кто победил в текущем раунде, проводится
    встречная проверка. … Выигравший наносит урон проигравшему»."""
    plan = plan_exchange(
        fighter("А", 2, "Сабля"), act("melee"), fighter("Б", 1, "Топор"), act("melee"), "close"
    )
    assert plan.kind == "opposed"
    assert plan.attacker.deals_damage and plan.defender.deals_damage
    assert "Встречная проверка: победитель наносит урон, ничья — никто не пострадал." in plan.notes
    assert not any("только нападающий" in note for note in plan.notes)
    assert plan.odds == brute_force(plan)
    lost = resolve_exchange_with_dice(plan, (-1, -1, 0, 0), (1, 1, 0, 0))
    assert lost.winner == "defender"
    hit = lost.hit_on("attacker")
    assert hit is not None and (hit.margin, hit.damage_mod, hit.value) == (3, 1, 4)
    assert hit.level == "wound" and hit.level_name == "Ранение"


def test_melee_only_at_close_range() -> None:
    """Сид: «Сражаться оружием ближнего боя (холодным оружием) и драться без оружия можно,
    разумеется, только в ближнем бою.»"""
    for distance in ("near", "medium", "far"):
        with pytest.raises(RulesError, match="ближний бой только вплотную"):
            plan_exchange(fighter("А", 2, "Меч"), act("melee"), fighter("Б"), None, distance)


def test_a_melee_answer_at_range_leaves_the_shot_one_sided() -> None:
    """Сид: «Нельзя ударить саблей человека с револьвером, находящегося на расстоянии
    нескольких десятков метров.» — the blow does not reach, so the target «не может …
    защищаться от выстрела» and the shot is one-sided."""
    plan = plan_exchange(
        fighter("А", 2, "Лук"), act("shoot"), fighter("Б", 1, "Меч"), act("melee"), "near"
    )
    assert plan.kind == "one_sided" and plan.attacker.difficulty == -2
    assert plan.notes[0].startswith("Нападение на беззащитного: Б — ближний бой только вплотную")


def test_gm_exception_allows_melee_beyond_close_range() -> None:
    """Сид: «исключения определяет ведущий или они оговариваются в дополнительных правилах»."""
    allowed = Action("melee", weapon("Меч"), gm_exception=True)
    plan = plan_exchange(fighter("А", 2, "Меч"), allowed, fighter("Б", 1), act("dodge"), "near")
    assert plan.kind == "opposed"
    assert any(n.startswith("Исключение ведущего: А — ближний бой") for n in plan.notes)


ILLEGAL_DECLARATIONS_ARE_NAMED_WITH_THEIR_REASON = [
    (act("melee", "Меч"), "medium", ["Меч"], "ближний бой только вплотную", True),
    (act("throw", "Дротик"), "far", ["Дротик"], "метание на дистанцию «далеко»", True),
    (act("shield"), "close", ["Меч"], "нет щита", True),
    (act("parry", "Меч"), "near", ["Меч"], "нужно особое умение", True),
    (act("parry", parry=True), "near", [], "только оружием ближнего боя", True),
    (act("shoot", "Меч"), "near", ["Меч"], "для стрельбы", False),
    (act("throw", "Щит"), "near", ["Щит"], "выберите, что метать", False),
    (act("melee", "Лук"), "close", ["Лук"], "не оружие ближнего боя", False),
]


def test_illegal_declarations_are_named_with_their_reason() -> None:
    """Сид: «Сражаться оружием ближнего боя … можно, разумеется, только в ближнем бою»;
    «Метание на дальнюю дистанцию … как правило, невозможно»; «Защищаться щитом»; «отбить
    при помощи оружия ближнего боя и специфического умения»."""

    def check(
        action: Action, distance: str, carried: list[str], reason: str, may_allow: bool
    ) -> None:
        problem, allowable = action_problem(action, distance, [weapon(w) for w in carried])
        assert reason in problem and allowable is may_allow

    assert_every_case(ILLEGAL_DECLARATIONS_ARE_NAMED_WITH_THEIR_REASON, check)


def test_legal_declarations_have_no_problem() -> None:
    """Сид: «Все остальные варианты — возможны. Можно стрелять в упор в ближнем бою»."""
    for action, distance, carried in [
        (act("shoot", "Пистолет"), "close", ["Пистолет"]),
        (act("shield"), "far", ["Щит", "Меч"]),
        (act("parry", "Меч", parry=True), "medium", ["Меч"]),
        (act("throw", "Нож"), "medium", ["Нож"]),
        (act("dodge"), "far", []),
    ]:
        assert action_problem(action, distance, [weapon(w) for w in carried]) == ("", True)
    with pytest.raises(RulesError, match="Неизвестная дистанция"):
        action_problem(act("dodge"), "рядом")


def test_point_blank_shot_against_a_sabre_is_opposed() -> None:
    """Сид: «если тот же самый противник пытается выстрелить в упор, ничто не мешает ответить
    ему ударом сабли»; «При стрельбе / метании в ближнем бою (в упор), всё происходит
    аналогично — проводится встречная проверка»."""
    plan = plan_exchange(
        fighter("А", 1, "Пистолет"), act("shoot"), fighter("Б", 2, "Сабля"), act("melee"), "close"
    )
    assert plan.kind == "opposed"
    assert plan.attacker.deals_damage and plan.defender.deals_damage
    assert values(plan, "attacker") == [] and values(plan, "defender") == []


def test_point_blank_shot_against_a_shot_is_opposed() -> None:
    """Сид: «проводится встречная проверка, даже если противник тоже стреляет или метает
    оружие в упор»."""
    plan = plan_exchange(
        fighter("А", 1, "Пистолет"), act("shoot"), fighter("Б", 1, "Ружьё"), act("shoot"), "close"
    )
    assert plan.kind == "opposed" and plan.defender.deals_damage


DODGE_OR_SHIELD_IS_OPPOSED_AND_DEALS_NO_DAMAGE = [
    (held, attack, distance, defence)
    for defence in ["dodge", "shield"]
    for (held, attack, distance) in [
        ("Меч", "melee", "close"),
        ("Лук", "shoot", "medium"),
        ("Дротик", "throw", "near"),
    ]
]


def test_dodge_or_shield_is_opposed_and_deals_no_damage() -> None:
    """Сид: «При уклонении или защите щитом, урон, естественно не наносится.»"""

    def check(held: str, attack: str, distance: str, defence: str) -> None:
        plan = plan_exchange(
            fighter("А", 1, held), act(attack), fighter("Б", 1, "Щит"), act(defence), distance
        )
        assert plan.kind == "opposed"
        assert plan.attacker.deals_damage and not plan.defender.deals_damage
        assert (
            "Встречная проверка: урон может нанести только нападающий; "
            "победа в защите урона не наносит."
        ) in plan.notes
        assert not any("победитель наносит урон" in note for note in plan.notes)
        won = resolve_exchange_with_dice(plan, (-1, 0, 0, 0), (1, 1, 0, 0))
        assert won.winner == "defender" and won.hits == ()

    assert_every_case(DODGE_OR_SHIELD_IS_OPPOSED_AND_DEALS_NO_DAMAGE, check)


def test_shield_against_a_firearm_at_range_leaves_the_shot_one_sided() -> None:
    """Сид: «от выстрела из огнестрельного оружия, как правило, нельзя защититься при помощи
    щита. Однако для защиты от стрел, дротиков и т.п. щиты вполне пригодны.»; «Стрельба …
    является односторонней проверкой, если цель … не может / не хочет защищаться»."""
    plan = plan_exchange(
        fighter("А", 1, "Пистолет"), act("shoot"), fighter("Б", 1), act("shield", "Щит"), "near"
    )
    assert plan.kind == "one_sided" and not plan.defender.rolls
    assert plan.notes[0] == (
        "Нападение на беззащитного: Б — щит, как правило, не останавливает пулю."
    )
    assert plan.odds == brute_force(plan)
    plan = plan_exchange(
        fighter("А", 1, "Арбалет"), act("shoot"), fighter("Б", 1), act("shield", "Щит"), "far"
    )
    assert plan.kind == "opposed"


def test_shield_without_a_shield_does_not_defend() -> None:
    """Сид: «Защищаться щитом — навык «Драка» (или навык «Щиты»)» — with a shield."""
    plan = plan_exchange(
        fighter("А", 1, "Сабля"), act("melee"), fighter("Б", 1, "Меч"), act("shield"), "close"
    )
    assert plan.kind == "one_sided" and "нет щита" in plan.notes[0]


def test_parrying_bullets_leaves_the_shot_one_sided() -> None:
    """Сид: «Отбить пулю, естественно, нельзя.»"""
    plan = plan_exchange(
        fighter("А", 1, "Пистолет"),
        act("shoot"),
        fighter("Б", 1),
        act("parry", "Сабля", parry=True),
        "near",
    )
    assert plan.kind == "one_sided"
    assert plan.notes[0] == "Нападение на беззащитного: Б — пулю отбить нельзя."


def test_parrying_needs_the_special_ability() -> None:
    """Сид: «Летящую стрелу, камень из пращи, дротик, нож и т.п. можно отбить при помощи
    оружия ближнего боя и специфического умения (если оно у персонажа есть …)»."""
    plan = plan_exchange(
        fighter("А", 1, "Дротик"), act("throw"), fighter("Б", 1), act("parry", "Меч"), "near"
    )
    assert plan.kind == "one_sided" and "нужно особое умение" in plan.notes[0]
    plan = plan_exchange(
        fighter("А", 1, "Дротик"), act("throw"), fighter("Б", 1), act("parry", parry=True), "near"
    )
    assert plan.kind == "one_sided" and "только оружием ближнего боя" in plan.notes[0]
    plan = plan_exchange(
        fighter("А", 1, "Лук"),
        act("shoot"),
        fighter("Б", 1),
        act("parry", "Меч", parry=True),
        "medium",
    )
    assert plan.kind == "opposed" and not plan.defender.deals_damage
    assert plan.odds == brute_force(plan)
    excepted = Action("parry", weapon("Меч"), gm_exception=True)
    plan = plan_exchange(fighter("А", 1, "Дротик"), act("throw"), fighter("Б", 1), excepted, "near")
    assert plan.kind == "opposed"


A_PARRY_THE_GM_ALLOWS_USES_A_MELEE_WEAPON_OR_BARE_HANDS = [
    ("Лук", "Без оружия"),
    ("Щит", "Без оружия"),
    (None, "Без оружия"),
    ("Меч", "Меч"),
]


def test_a_parry_the_gm_allows_uses_a_melee_weapon_or_bare_hands() -> None:
    """Сид: «Отбивание летящего оружия» — «в этом случае используется навык «Драка» или его
    производные»: a parry the GM allows without a melee weapon (a bow, a shield, nothing in
    hand) is made bare-handed; with a melee weapon, with it. Found by a mutation run: only a
    random example happened to check it."""

    def check(held, used) -> None:
        excepted = Action("parry", weapon(held) if held else None, gm_exception=True)
        plan = plan_exchange(
            fighter("А", 1, "Дротик"), act("throw"), fighter("Б", 1), excepted, "near"
        )
        assert plan.kind == "opposed"
        chosen = plan.defender.action.weapon
        assert chosen is not None and chosen.name == used

    assert_every_case(A_PARRY_THE_GM_ALLOWS_USES_A_MELEE_WEAPON_OR_BARE_HANDS, check)


def test_parrying_a_melee_blow_leaves_it_one_sided() -> None:
    """Сид: «Отбивание летящего оружия» — отбивают летящее, а не удар в ближнем бою;
    «Если персонаж по каким-либо причинам не может … сражаться с противником, то противнику
    назначается односторонняя проверка — обычно со Сложностью «-2» (Легко)»."""
    plan = plan_exchange(
        fighter("А", 1, "Меч"),
        act("melee"),
        fighter("Б", 1),
        act("parry", "Меч", True),
        "close",
    )
    assert plan.kind == "one_sided" and plan.attacker.difficulty == -2
    assert "отбивают только летящее оружие" in plan.notes[0]


def test_parry_uses_brawling_family_from_the_sheet() -> None:
    """Сид: «в этом случае используется навык «Драка» или его производные»."""
    plan = plan_exchange(
        fighter("А", 1, "Лук"),
        act("shoot"),
        Fighter("Б", SWORDSMAN),
        act("parry", "Меч", parry=True),
        "near",
    )
    assert plan.defender.trait is not None and plan.defender.trait.name == "Фехтование"


def test_two_shooters_at_range_make_two_one_sided_checks() -> None:
    """Сид: «Если же противник в дистанционном бою в ответ на выстрел / бросок тоже совершает
    выстрел / бросок — вместо встречной проверки назначаются две односторонние проверки»."""
    plan = plan_exchange(
        fighter("А", 1, "Лук"), act("shoot"), fighter("Б", 0, "Пистолет"), act("shoot"), "medium"
    )
    assert plan.kind == "two_one_sided"
    assert plan.attacker.difficulty == plan.defender.difficulty == -1
    assert plan.odds == brute_force(plan)
    both = resolve_exchange_with_dice(plan, ZERO, ZERO)
    assert both.outcome == "both_hit" and {h.target for h in both.hits} == {"attacker", "defender"}
    # Both reach −1 from 0 and +1 exactly or better: margins 1−(−1)+1 = 3 and 0−(−1)+1 = 2.
    assert both.hit_on("defender").margin == 3  # type: ignore[union-attr]
    assert both.hit_on("attacker").margin == 2  # type: ignore[union-attr]
    # a poor shot in return (less than an even chance): the four outcomes still as counted
    weak = plan_exchange(
        fighter("А", 1, "Лук"), act("shoot"), fighter("Б", -2, "Пистолет"), act("shoot"), "far"
    )
    assert weak.kind == "two_one_sided" and weak.odds == brute_force(weak)
    assert weak.odds["attacker_hits"] > weak.odds["defender_hits"]


DEFENCELESS_TARGET_IS_A_ONE_SIDED_CHECK = [
    ("melee", "Меч", "close", -2),
    ("shoot", "Лук", "close", -2),
    ("shoot", "Лук", "near", -2),
    ("shoot", "Лук", "medium", -1),
    ("shoot", "Лук", "far", 0),
    ("throw", "Дротик", "medium", -1),
]


def test_defenceless_target_is_a_one_sided_check() -> None:
    """Сид: «противнику назначается односторонняя проверка — обычно со Сложностью «-2»
    (Легко)»; «на близкой дистанции равна «-2» (Легко), на средней дистанции «-1» (Ниже
    среднего), а на дальней «0» (Средне).»"""

    def check(attack: str, held: str, distance: str, difficulty: int) -> None:
        plan = plan_exchange(fighter("А", 1, held), act(attack), fighter("Б", 3), None, distance)
        assert plan.kind == "one_sided"
        assert plan.attacker.difficulty == difficulty
        assert not plan.defender.rolls and plan.defender.trait is None
        assert plan.odds == brute_force(plan)

    assert_every_case(DEFENCELESS_TARGET_IS_A_ONE_SIDED_CHECK, check)


def test_throwing_far_is_impossible() -> None:
    """Сид: «Метание на дальнюю дистанцию (в отличие от стрельбы), как правило, невозможно»."""
    with pytest.raises(RulesError, match="метание на дистанцию «далеко»"):
        plan_exchange(fighter("А", 1, "Дротик"), act("throw"), fighter("Б"), None, "far")


def test_heavily_wounded_defender_is_defenceless() -> None:
    """Сид: «Если же действия персонажей не противопоставлены друг другу (один из противников
    игнорирует атаку, тяжело ранен, спит, парализован, и т.п.), то назначаются односторонние
    проверки»."""
    down = fighter("Б", 3, wounds=WoundTrack().take("heavy"))
    plan = plan_exchange(fighter("А", 1, "Меч"), act("melee"), down, act("dodge"), "close")
    assert plan.kind == "one_sided" and plan.attacker.difficulty == -2
    assert any("Тяжёлая рана" in note for note in plan.notes)
    # What he declared does not matter: he cannot act, so a melee «answer» at range is moot.
    shot = plan_exchange(fighter("А", 1, "Лук"), act("shoot"), down, act("melee"), "medium")
    assert shot.kind == "one_sided" and shot.attacker.difficulty == -1


def test_heavily_wounded_attacker_cannot_attack() -> None:
    """Сид: «Тяжелораненый персонаж не может ничего делать, может только лежать и стонать.»"""
    down = fighter("А", 3, "Меч", wounds=WoundTrack().take("heavy"))
    with pytest.raises(RulesError, match="не может ничего делать"):
        plan_exchange(down, act("melee"), fighter("Б"), None, "close")


def test_non_attacks_and_unknown_inputs_are_refused() -> None:
    """Сид: «Персонаж, делающий ход, выбирает действие, которое он совершает, а также —
    противника»."""
    with pytest.raises(RulesError, match="нападающий должен атаковать"):
        plan_exchange(fighter("А"), act("dodge"), fighter("Б"), None, "close")
    with pytest.raises(RulesError, match="Неизвестная дистанция"):
        plan_exchange(fighter("А"), act("melee"), fighter("Б"), None, "space")
    with pytest.raises(RulesError, match="для стрельбы"):
        plan_exchange(fighter("А"), act("shoot"), fighter("Б"), None, "near")
    with pytest.raises(RulesError, match="нет листа персонажа"):
        plan_exchange(Fighter("А"), act("melee"), fighter("Б"), None, "close")


# --- automatic modifiers ----------------------------------------------------------------


def test_better_weapon_by_two_gives_minus_one_in_melee() -> None:
    """Сид: «Если у одного из персонажей урон от оружия на 2 и более единицы больше — его хуже
    вооружённый оппонент получает модификатор -1 при сражении с ним оружием ближнего боя»."""
    plan = plan_exchange(
        fighter("А", 1, "Меч"), act("melee"), fighter("Б", 1, "Нож"), act("melee"), "close"
    )
    assert values(plan, "attacker") == [] and values(plan, "defender") == [-1]
    close = plan_exchange(
        fighter("А", 1, "Меч"), act("melee"), fighter("Б", 1, "Сабля"), act("melee"), "close"
    )
    assert values(close, "attacker") == values(close, "defender") == []


def test_weapon_advantage_does_not_touch_other_actions() -> None:
    """Сид: «(на другие действия оппонента это преимущество не влияет)»."""
    plan = plan_exchange(
        fighter("А", 1, "Меч"), act("melee"), fighter("Б", 1, "Нож"), act("dodge"), "close"
    )
    assert values(plan, "defender") == []


@pytest.mark.parametrize(("held", "penalty"), [("Нож", []), ("Сабля", [-1]), ("Меч", [-2])])
def test_bare_hands_against_a_weapon(held: str, penalty: list[int]) -> None:
    """Сид: «безоружный получает модификатор (штраф) «-1», если модификатор урона оружия его
    противника (МУ) = 1 и штраф «-2», если МУ оружия его противника = «2» и более.»"""
    plan = plan_exchange(
        fighter("А", 1, held), act("melee"), fighter("Б", 1), act("melee"), "close"
    )
    assert plan.defender.action.weapon is not None and plan.defender.action.weapon.bare_hands
    assert values(plan, "defender") == penalty
    assert values(plan, "attacker") == []


def test_wound_penalty_is_applied_automatically() -> None:
    """Сид: «Модификаторы состояния персонажа — ранения … влияют на успешность его действий»;
    «штраф … у персонажа с Ранением, получившего Лёгкую рану …, будет по-прежнему «-2»»."""
    hurt = WoundTrack().take("wound").take("light")
    gm = (Modifier(1, "на холме"),)
    plan = plan_exchange(
        fighter("А", 2, "Сабля", wounds=hurt, modifiers=gm),
        act("melee"),
        fighter("Б"),
        None,
        "close",
    )
    mods = plan.attacker.modifiers
    assert [m.value for m in mods] == [-2, 1]
    assert mods[0].reason == "рана: Ранение"
    assert plan.attacker.side.bonus == 1


def test_sheet_trait_choice_flows_into_the_plan() -> None:
    """Сид: «Защищаться щитом — навык «Драка» (или навык «Щиты»)»."""
    plan = plan_exchange(
        Fighter("Лучница", ARCHER, weapon("Лук")),
        act("shoot"),
        Fighter("Ярослав", SWORDSMAN),
        act("shield", "Щит"),
        "medium",
    )
    assert plan.attacker.side.trait_name == "Луки" and plan.attacker.side.trait == 3
    assert plan.defender.side.trait_name == "Щиты"


# --- resolution -------------------------------------------------------------------------


def test_tie_hurts_nobody() -> None:
    """Сид: «Если Успех персонажей равен — ничья, никто не пострадал.»"""
    plan = plan_exchange(
        fighter("А", 1, "Меч"), act("melee"), fighter("Б", 1, "Меч"), act("melee"), "close"
    )
    result = resolve_exchange_with_dice(plan, ZERO, ZERO)
    assert result.tie and result.winner is None and result.hits == ()
    assert result.outcome == "tie"


def test_crits_cancel_inside_an_exchange() -> None:
    """Сид: «При встречных проверках критический успех персонажа аннулируется критическим
    успехом противника … В этом случае проводится обычный арифметический подсчёт»."""
    plan = plan_exchange(
        fighter("А", 0, "Меч"), act("melee"), fighter("Б", 2, "Меч"), act("melee"), "close"
    )
    result = resolve_exchange_with_dice(plan, PLUS4, PLUS4)
    assert result.winner == "defender" and result.margin == 2
    assert result.opposed is not None and result.opposed.a.cancelled


def test_a_crit_win_deals_at_least_the_crit_floor() -> None:
    """Сид: «Если при броске 4dF выпадает «+4» — это критический успех. Действие персонажа
    автоматически считается максимально успешным»; RULES.md: «its margin is at least a floor
    [default 4, as if the +4 broke a tie]»."""
    plan = plan_exchange(
        fighter("А", -4, "Нож"), act("melee"), fighter("Б", 4, "Нож"), act("melee"), "close"
    )
    result = resolve_exchange_with_dice(plan, PLUS4, (1, 1, 1, 0))
    assert result.winner == "attacker" and result.margin == -7
    hit = result.hits[0]
    assert (hit.difference, hit.floor, hit.margin, hit.value, hit.level) == (-7, 4, 4, 4, "wound")


def test_a_crit_win_above_the_floor_keeps_its_margin() -> None:
    """Сид: «максимально успешным» — the floor never lowers a bigger margin."""
    plan = plan_exchange(
        fighter("А", 3, "Нож"), act("melee"), fighter("Б", 0, "Нож"), act("melee"), "close"
    )
    result = resolve_exchange_with_dice(plan, PLUS4, (-1, 0, 0, 0))
    hit = result.hits[0]
    assert (hit.difference, hit.floor, hit.margin) == (8, None, 8)


def test_a_fate_crit_in_a_one_sided_check_uses_the_floor_with_the_bonus() -> None:
    """Сид: «Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим)
    успехом пройти одностороннюю проверку»."""
    plan = plan_exchange(fighter("А", -3, "Нож"), act("melee"), fighter("Б"), None, "close")
    result = resolve_exchange_with_dice(plan, None, fate=("attacker",))
    hit = result.hits[0]
    assert (hit.difference, hit.bonus, hit.floor, hit.margin) == (3, 1, None, 4)
    plan = plan_exchange(fighter("А", -6, "Нож"), act("melee"), fighter("Б"), None, "close")
    hit = resolve_exchange_with_dice(plan, None, fate=("attacker",)).hits[0]
    assert (hit.difference, hit.bonus, hit.floor, hit.margin) == (0, 1, 4, 4)


def test_the_crit_floor_is_a_campaign_setting() -> None:
    """RULES.md: «the floor … a campaign setting named on the damage line»."""
    from rules.data import load_table, packaged_table, set_overrides

    table = {**packaged_table("drevo/damage.toml"), "crit_floor": 6}
    set_overrides({"drevo/damage.toml": table})
    try:
        assert load_table("drevo/damage.toml")["crit_floor"] == 6
        plan = plan_exchange(
            fighter("А", -4, "Нож"), act("melee"), fighter("Б", 4, "Нож"), act("melee"), "close"
        )
        hit = resolve_exchange_with_dice(plan, PLUS4, (1, 1, 1, 0)).hits[0]
        assert (hit.floor, hit.margin) == (6, 6)
        set_overrides({"drevo/damage.toml": {**table, "crit_floor": "четыре"}})
        with pytest.raises(RulesError, match="«crit_floor» должно быть целым"):
            resolve_exchange_with_dice(plan, PLUS4, (1, 1, 1, 0))
    finally:
        set_overrides({})


def test_crit_failure_misses_a_defenceless_target() -> None:
    """Сид: «Если при броске 4dF выпадает «-4» — это критический провал. Действие персонажа
    автоматически считается совершенно безуспешным»."""
    plan = plan_exchange(fighter("А", 9, "Меч"), act("melee"), fighter("Б"), None, "close")
    result = resolve_exchange_with_dice(plan, (-1, -1, -1, -1))
    assert result.outcome == "miss" and result.hits == ()


def test_one_sided_hit_damage_uses_difficulty_margin() -> None:
    """RULES.md [default]: «margin is … result − difficulty + 1 (one-sided)»."""
    plan = plan_exchange(fighter("А", 2, "Ружьё"), act("shoot"), fighter("Б"), None, "far")
    result = resolve_exchange_with_dice(plan, (1, 0, 0, 0))
    hit = result.hits[0]
    assert (hit.difference, hit.bonus) == (3, 1)
    assert (hit.margin, hit.damage_mod, hit.value, hit.level) == (4, 3, 7, "heavy")
    assert WoundTrack().take(hit.level).can_act is False


def test_seeded_resolution_is_repeatable_and_json_ready() -> None:
    """Сид: «Только после этого происходят проверки (бросаются кубики).»"""
    plan = plan_exchange(
        fighter("А", 1, "Сабля"), act("melee"), fighter("Б", 1, "Топор"), act("melee"), "close"
    )
    first = resolve_exchange(plan, random.Random(7)).to_dict()
    assert first == resolve_exchange(plan, random.Random(7)).to_dict()
    data = json.loads(json.dumps(first, ensure_ascii=False))
    assert data["plan"]["distance_name"] == DISTANCE_NAMES["close"] == "вплотную"
    assert len(data["opposed"]["a"]["dice"]) == 4


def test_missing_dice_are_an_error() -> None:
    """Сид: «Сравниваются суммы броска 4dF и используемого навыка либо качества»."""
    plan = plan_exchange(fighter("А", 1, "Меч"), act("melee"), fighter("Б"), act("dodge"), "close")
    with pytest.raises(RulesError, match="Нужны четыре кубика"):
        resolve_exchange_with_dice(plan, ZERO, None)
