"""IDE4™ before the dice: difficulty, [0], [00], [7], allies' help, actions, energy declared,
the need-a-roll checklist and the clear-risk card."""

from __future__ import annotations

import pytest

from rules import ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case


def make(**kw) -> ide4.CheckInput:
    """An input with a plain attribute of level 3 (nominal d8) unless told otherwise."""
    kw.setdefault("attribute", "Мелкая моторика")
    kw.setdefault("attribute_level", 3)
    return ide4.CheckInput(**kw)


def mods(*values: int) -> tuple[ide4.Modifier, ...]:
    return tuple(ide4.Modifier(v, f"мод {v}") for v in values)


def test_final_is_base_plus_modifiers_as_in_the_seed_example() -> None:
    """Сид: «Базовая сложность: [3] / Темнота: +1 / Хорошие инструменты: −1 /
    Итоговая сложность: [3]»."""
    inp = make(
        base=3,
        modifiers=(ide4.Modifier(1, "темнота"), ide4.Modifier(-1, "хорошие инструменты")),
    )
    d = ide4.resolve_difficulty(inp)
    assert (d.raw, d.final, d.label, d.kind) == (3, 3, "[3]", "roll")
    d = ide4.resolve_difficulty(make(base=3, modifiers=mods(1, 1)))
    assert (d.final, d.label) == (5, "[5]")


FINAL_AT_OR_BELOW_ZERO_IS_AN_AUTOMATIC_SUCCESS = [(3, (-3,)), (1, (-1, -2)), (0, ()), (2, (-5,))]


def test_final_at_or_below_zero_is_an_automatic_success() -> None:
    """Сид: «Если после всех модификаторов итоговая сложность становится ≤ 0, действие
    считается автоматическим Успехом без броска»."""

    def check_case(base: int, values: tuple[int]) -> None:
        check = ide4.start(make(base=base, modifiers=mods(*values)))
        assert check.difficulty.kind == "auto" and check.difficulty.label == "[0]"
        assert (check.status, check.outcome, check.natural) == ("auto", "success", None)
        with pytest.raises(RulesError, match=r"\[0\]"):
            ide4.roll(check, natural=50)

    assert_every_case(FINAL_AT_OR_BELOW_ZERO_IS_AN_AUTOMATIC_SUCCESS, check_case)


def test_hidden_risk_keeps_one_and_rolls() -> None:
    """Сид: «Исключение: если в сцене есть скрытый риск (ловушка, засада, яд, социальное
    давление), мастер может оставить сложность на уровне [1] и потребовать бросок»."""
    check = ide4.start(make(base=1, modifiers=mods(-3), hidden_risk=True))
    assert (check.difficulty.final, check.difficulty.hidden_risk, check.status) == (
        1,
        True,
        "ready",
    )
    assert ide4.roll(check, natural=1).outcome == "tragedy"
    # A hidden risk does not change a difficulty that is already rolled.
    assert ide4.resolve_difficulty(make(base=4, hidden_risk=True)).final == 4


@pytest.mark.parametrize(("base", "values"), [(8, ()), (5, (2, 1)), (7, (4,))])
def test_eight_or_more_is_impossible_and_needs_a_reason(base: int, values: tuple[int]) -> None:
    """Сид: «Если после всех модификаторов итоговая сложность становится ≥ 8, она превращается
    в [00]» и «Мастер должен объяснить, почему выбранный способ невозможен»."""
    inp = make(base=base, modifiers=mods(*values))
    assert ide4.resolve_difficulty(inp).label == "[00]"
    with pytest.raises(RulesError, match=r"\[00\].*причин"):
        ide4.start(inp)
    check = ide4.start(make(base=base, modifiers=mods(*values), impossible_reason="стена"))
    assert (check.status, check.outcome, check.natural) == ("impossible", None, None)


def test_impossible_is_not_rolled_nor_passed_by_energy() -> None:
    """Сид: «Если итоговая сложность становится [00], игрок не бросает кубик. Энергия,
    перебросы и обычные бонусы мастерства не позволяют выполнить действие через [00]»."""
    check = ide4.start(make(base=9, impossible_reason="нет инструмента", energy_dice=3))
    with pytest.raises(RulesError, match=r"\[00\]"):
        ide4.roll(check, natural=50)
    assert check.energy_spent == 0 and check.pool_after == 100
    moves = {(m.kind, m.source): m for m in ide4.allowed_moves(check)}
    assert not any(m.allowed for m in moves.values())
    assert "[00]" in moves["bonus", "soften"].reason
    assert "[00]" in moves["reroll", "fatum"].reason


def test_pinned_seven_ignores_modifiers() -> None:
    """Сид: «если этот персонаж должен пережить сцену, мастер может назначить [7] — Сюжетную
    броню»; RULES: «modifiers do not move a pinned [7]»."""
    for values in [(-5,), (3,), (-1, -1)]:
        inp = make(base=2, modifiers=mods(*values), pinned_seven=True, help="difficulty")
        d = ide4.resolve_difficulty(inp)
        assert (d.final, d.pinned, d.label, d.name) == (7, True, "[7]", "Сюжетная броня")


def test_help_lowers_the_difficulty_by_one() -> None:
    """Сид: «Если союзник помогает, мастер может применить один из вариантов: • снизить
    сложность на 1»."""
    d = ide4.resolve_difficulty(make(base=4, help="difficulty"))
    assert d.final == 3
    assert d.modifiers[-1] == ide4.Modifier(-1, "помощь союзника")


def test_help_makes_impossible_possible_at_the_gms_difficulty() -> None:
    """Сид: «• сделать действие возможным»."""
    d = ide4.resolve_difficulty(make(base=9, help="possible", help_difficulty=5))
    assert (d.final, d.made_possible, d.kind) == (5, True, "roll")
    with pytest.raises(RulesError, match=r"только для \[00\]"):
        ide4.resolve_difficulty(make(base=3, help="possible", help_difficulty=2))
    with pytest.raises(RulesError, match="новую сложность"):
        ide4.resolve_difficulty(make(base=9, help="possible"))


def test_base_comes_from_the_action_else_ordinary_three() -> None:
    """Сид: «Если используется действие — база определяется правилами действия» и
    «[3] — обычная задача»."""
    assert ide4.resolve_difficulty(make()).base == 3
    assert ide4.resolve_difficulty(make(action="Взлом")).base == ide4.action("Взлом").base
    assert ide4.resolve_difficulty(make(action="Взлом", base=5)).base == 5
    with pytest.raises(RulesError, match="Действия «Полёт» нет"):
        ide4.resolve_difficulty(make(action="Полёт"))


def test_action_limits_the_attributes() -> None:
    """Сид: «Оно может задавать: … допустимые атрибуты» и «Даже при использовании действия
    проверка всё равно выполняется через главный атрибут»."""
    ide4.start(make(action="Взлом", attribute="Мелкая моторика"))
    with pytest.raises(RulesError, match="Взлом.*через"):
        ide4.start(make(action="Взлом", attribute="Обаяние"))


def test_combat_skill_refused_at_a_distance_it_does_not_list() -> None:
    """Сид: «Для боя: дистанции П / Д / Б / К.»"""
    fist = dict(skill="Рукопашный бой", mastery=40, skill_distances=("К", "Б"))
    ide4.start(make(distance="К", **fist))
    with pytest.raises(RulesError, match="Рукопашный бой.*не на Д"):
        ide4.start(make(distance="Д", **fist))
    with pytest.raises(RulesError, match="Ближний бой.*не на П"):
        ide4.start(make(action="Ближний бой", attribute="Сила", distance="П"))
    with pytest.raises(RulesError, match="Дистанция"):
        ide4.start(make(distance="Z"))


def test_energy_before_within_ten_dice_nominal_and_pool() -> None:
    """Сид: «Перед d100 игрок может потратить до 10 кубов (в пределах номинала и запаса)»."""
    ide4.start(make(energy_dice=10, energy_die=8, energy_pool=80))
    ide4.start(make(energy_dice=3, energy_die=4))  # smaller than the nominal d8
    with pytest.raises(RulesError, match="10 кубов"):
        ide4.start(make(energy_dice=11, energy_die=4))
    with pytest.raises(RulesError, match="d8"):
        ide4.start(make(energy_dice=1, energy_die=10))
    with pytest.raises(RulesError, match="Не хватает энергии"):
        ide4.start(make(energy_dice=10, energy_die=8, energy_pool=79))
    with pytest.raises(RulesError, match="Запас энергии"):
        ide4.start(make(energy_pool=101))


def test_nominal_and_cost_follow_the_attribute_level() -> None:
    """Сид: «Доступный номинал зависит от уровня главного атрибута проверки» и «Стоимость
    куба равна номиналу (d4 = 4, d6 = 6, …, d20 = 20)»."""
    sizes = {level: make(attribute_level=level).nominal for level in range(1, 7)}
    assert sizes == {1: 4, 2: 6, 3: 8, 4: 10, 5: 12, 6: 20}
    check = ide4.roll(
        ide4.start(make(attribute_level=6, energy_dice=2)), natural=40, energy=(20, 1)
    )
    assert (check.energy_spent, check.pool_after) == (40, 60)
    with pytest.raises(RulesError, match="Уровень атрибута 7"):
        ide4.start(make(attribute_level=7))


def test_checklist_has_the_seeds_eight_conditions() -> None:
    """Сид: «Проверка нужна, если существует хотя бы одно из условий: • риск;
    • сопротивление; • ограниченное время; • опасность; • важная выгода; • конфликт интересов;
    • неизвестный результат; • последствия провала.»"""
    assert list(ide4.ROLL_REASONS.values()) == [
        "риск",
        "сопротивление",
        "ограниченное время",
        "опасность",
        "важная выгода",
        "конфликт интересов",
        "неизвестный результат",
        "последствия провала",
    ]


def test_no_stake_no_roll_unless_the_player_demands() -> None:
    """Сид: «Есть ставка — есть проверка. Нет ставки — нет броска.» и «отсутствие
    необходимости в проверке не запрещает игроку потребовать Развёрнутую проверку»."""
    assert not ide4.roll_need().needed
    assert ide4.roll_need(("danger",)).needed
    assert ide4.roll_need(player_demand=True).needed
    need = ide4.roll_need(("unknown", "risk"))
    assert need.reasons == ("risk", "unknown")  # the seed's order
    assert need.reason_names == ("риск", "неизвестный результат")
    with pytest.raises(RulesError, match="Условия проверки"):
        ide4.roll_need(("boredom",))


def test_clear_risk_card_names_intent_difficulty_circumstances_risk() -> None:
    """Сид: «Перед важной проверкой мастер сообщает игроку: • чего хочет добиться персонаж;
    • какая сложность назначена; • какие очевидные обстоятельства влияют на проверку; • что
    может произойти при неблагоприятном исходе»."""
    inp = make(
        intent="Вскрыть дверь подвала",
        base=3,
        modifiers=(ide4.Modifier(1, "темнота"),),
        circumstances="патруль каждые 3 минуты",
        risk="патруль услышит",
    )
    card = ide4.clear_risk(inp)
    assert card.intent == "Вскрыть дверь подвала" and card.difficulty.label == "[4]"
    assert card.circumstances == ("патруль каждые 3 минуты", "темнота +1")
    assert card.risk == "патруль услышит" and card.missing == ()
    assert ide4.clear_risk(make()).missing == ("намерение", "риск")
    text = ide4.clear_risk_text(card)
    assert text.splitlines() == [
        "Чего хочет персонаж: Вскрыть дверь подвала",
        "Сложность: [4]",
        "Обстоятельства: патруль каждые 3 минуты, темнота +1",
        "Что может случиться при неудаче: патруль услышит",
    ]
