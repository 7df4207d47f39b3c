"""IDE4™: [00] is a state, which [7] a check faces, level changes on record, futile energy."""

from __future__ import annotations

import pytest

from rules import data, ide4
from rules.errors import RulesError
from tests.every_case import assert_every_case


def make(**kw) -> ide4.CheckInput:
    return ide4.CheckInput(attribute="Сила", attribute_level=3, **kw)


def mods(*values: int) -> tuple[ide4.Modifier, ...]:
    return tuple(ide4.Modifier(v, f"м{i}") for i, v in enumerate(values))


# -- [00] ----------------------------------------------------------------------------------------


MODIFIERS_AND_HELP_NEVER_MOVE_A_BASE_IMPOSSIBLE = [
    (values, help_kind)
    for help_kind in ["", "difficulty", "reroll", "risk"]
    for values in [(-1,), (-2,), (-5, -3), (-10,)]
]


def test_modifiers_and_help_never_move_a_base_impossible() -> None:
    """Сид: «[00] означает не «очень трудно», а «этим способом сейчас нельзя»» и «Это не
    сверхвысокая сложность и не плохой шанс»: no modifier and no help but «сделать действие
    возможным» turns a base [00] into a number."""

    def check_case(values, help_kind) -> None:
        d = ide4.resolve_difficulty(make(base=8, modifiers=mods(*values), help=help_kind))
        assert (d.final, d.kind, d.label, d.made_possible) == (8, "impossible", "[00]", False)
        check = ide4.start(
            make(base=8, modifiers=mods(*values), help=help_kind, impossible_reason="x")
        )
        assert check.status == "impossible" and check.outcome is None
        with pytest.raises(RulesError, match=r"\[00\]"):
            ide4.roll(check, natural=50)
        with pytest.raises(RulesError, match=r"\[00\]"):
            ide4.check_odds(make(base=8, modifiers=mods(*values), help=help_kind))

    assert_every_case(MODIFIERS_AND_HELP_NEVER_MOVE_A_BASE_IMPOSSIBLE, check_case)


def test_final_eight_or_more_is_impossible() -> None:
    """Сид: «Если после всех модификаторов итоговая сложность становится ≥ 8, она превращается
    в [00], если специальное правило не предусматривает иное»."""
    d = ide4.resolve_difficulty(make(base=6, modifiers=mods(2)))
    assert (d.final, d.kind, d.base_impossible) == (8, "impossible", False)


def test_the_allys_possible_opens_impossible_at_the_gms_difficulty_and_is_named() -> None:
    """Сид: «Если союзник помогает, мастер может применить один из вариантов: … • сделать
    действие возможным»."""
    d = ide4.resolve_difficulty(
        make(base=8, modifiers=mods(-2), help="possible", help_difficulty=6)
    )
    assert (d.final, d.made_possible, d.kind) == (6, True, "roll")
    assert d.opened_by == "помощь союзника «сделать действие возможным»"
    check = ide4.roll(ide4.start(make(base=8, help="possible", help_difficulty=6)), natural=95)
    assert check.to_dict()["difficulty"]["opened_by"] == d.opened_by
    assert "[00] открыто: помощь союзника" in ide4.summary(check)
    assert "[00] открыто исключением: помощь союзника" in ide4.full_template(check)


def test_a_named_special_rule_opens_impossible() -> None:
    """Сид: «Энергия, перебросы и обычные бонусы мастерства не позволяют выполнить действие
    через [00], если специальное правило прямо не предусматривает исключение»."""
    inp = make(base=8, special_rule="Ключ от Архива", help_difficulty=5)
    d = ide4.resolve_difficulty(inp)
    assert (d.final, d.opened_by) == (5, "особое правило «Ключ от Архива»")
    with pytest.raises(RulesError, match="^Особое правило «Ключ Ы» — только для"):
        ide4.resolve_difficulty(make(base=4, special_rule="Ключ Ы"))
    with pytest.raises(RulesError, match="новую сложность"):
        ide4.resolve_difficulty(make(base=8, special_rule="Ключ"))
    with pytest.raises(RulesError, match="новую сложность"):
        ide4.resolve_difficulty(make(base=8, special_rule="Ключ", help_difficulty=8))


# -- [7] -----------------------------------------------------------------------------------------


def rolled(inp: ide4.CheckInput, natural: int = 60) -> ide4.Check:
    return ide4.roll(ide4.start(inp), natural=natural)


def test_a_pinned_seven_is_plot_armour_and_bars_mastery() -> None:
    """Сид: «если этот персонаж должен пережить сцену, мастер может назначить [7] — Сюжетную
    броню» и «Бонусы не действуют против [7] и [00] без особого правила»."""
    check = rolled(make(base=7, pinned_seven=True, skill="Бой", mastery=100))
    assert check.difficulty.seven == "pinned" and check.difficulty.name == "Сюжетная броня"
    refusal = ide4.bonus_refusal(check, "soften")
    assert refusal is not None and "Сюжетная броня, её назначил мастер" in refusal
    assert "Сюжетная броня" in (ide4.reroll_refusal(check, "skill") or "")


def test_a_seven_reached_by_modifiers_is_not_plot_armour_but_bars_mastery() -> None:
    """Сид: «Бонусы не действуют против [7] и [00]»; RULES: «A [7] reached by modifiers (not
    pinned) also bars mastery … [default: bars]»."""
    check = rolled(make(base=6, modifiers=mods(1), skill="Бой", mastery=100))
    d = check.difficulty
    assert (d.final, d.pinned, d.seven) == (7, False, "modifiers")
    assert d.name == "по модификаторам, не Сюжетная броня"
    refusal = ide4.bonus_refusal(check, "soften")
    assert refusal is not None
    assert "до неё дошли модификаторы; это не Сюжетная броня" in refusal
    assert "modified_seven_bars_mastery" in refusal


def test_the_campaign_setting_lets_mastery_act_against_a_modified_seven() -> None:
    """RULES: «a campaign setting may relax it [default: bars]» (ide4/skills.toml)."""
    table = dict(data.packaged_table("ide4/skills.toml"))
    table["modified_seven_bars_mastery"] = False
    data.set_overrides({"ide4/skills.toml": table})
    try:
        modified = rolled(make(base=6, modifiers=mods(1), skill="Бой", mastery=100), natural=50)
        assert ide4.seven_refusal(modified) is None
        assert ide4.bonus(modified, "soften").outcome == "middle"
        pinned = rolled(make(base=7, pinned_seven=True, skill="Бой", mastery=100), natural=5)
        assert ide4.seven_refusal(pinned) is not None
        table["modified_seven_bars_mastery"] = "да"
        data.set_overrides({"ide4/skills.toml": table})
        with pytest.raises(RulesError, match="true или false"):
            ide4.seven_refusal(modified)
    finally:
        data.set_overrides(None)


# -- levels --------------------------------------------------------------------------------------


def test_an_expanded_only_step_raises_the_level_on_record() -> None:
    """Сид: «По требованию игрока мастер обязан использовать Развёрнутую проверку» — and the
    three levels are «разные способы пройти один и тот же алгоритм»: a standard check that takes
    an expanded-only step (energy after) is recorded as raised, never silently."""
    check = rolled(make(level="standard"), natural=40)
    assert check.level == "standard"
    after = ide4.energy_after(check, 1, 4, dice=[4])
    kinds = [s.kind for s in after.steps]
    assert kinds[-2:] == ["level", "energy_after"] and after.level == "expanded"
    assert "Стандартная → Развёрнутая" in after.steps[-2].note
    assert "энергия после броска" in after.steps[-2].note


def test_set_level_records_a_change_and_not_a_non_change() -> None:
    """Сид: «Игрок имеет право потребовать Развёрнутую проверку в любой ситуации»."""
    check = rolled(make(level="quick"))
    raised = ide4.set_level(check, "expanded", "игрок требует")
    assert raised.steps[-1].kind == "level"
    assert raised.steps[-1].note == "Быстрая → Развёрнутая: игрок требует"
    assert ide4.set_level(raised, "expanded").steps == raised.steps
    with pytest.raises(RulesError, match="Уровень проверки"):
        ide4.set_level(check, "huge")


# -- energy after that cannot change anything ---------------------------------------------------


def test_energy_after_on_success_says_it_changes_nothing() -> None:
    """Сид: энергия после броска «Не создаёт Триумф»: on Успех it cannot change the outcome."""
    check = rolled(make(base=3), natural=60)
    assert check.outcome == "success"
    note = ide4.energy_after_futile(check, 3)
    assert note is not None and "не изменит исход" in note and "Не создаёт Триумф" in note
    failure = rolled(make(base=3), natural=10)
    assert failure.outcome == "failure"
    assert ide4.energy_after_futile(failure, 3, 8) is None  # 10 + 24 ≥ 31: Средне possible
    assert "всё равно Провал" in (ide4.energy_after_futile(failure, 1, 4) or "")


def test_futile_energy_note_reads_right_for_one_die_and_for_several() -> None:
    """Сид: «игрок может потратить до 3 кубов. Сумма прибавляется к d100, категория
    определяется заново». Play-test: «даже 1×d12 на максимуме дадут сумму 17» — a plural
    verb after one die; the note names the sum without a verb that must agree."""
    failure = rolled(make(base=3), natural=5)
    one = ide4.energy_after_futile(failure, 1, 12) or ""
    three = ide4.energy_after_futile(failure, 2, 4) or ""
    assert "дадут" not in one and "дадут" not in three
    assert "даже 1×d12 на максимуме — сумма 17, всё равно Провал" in one
    assert "даже 2×d4 на максимуме — сумма 13, всё равно Провал" in three
