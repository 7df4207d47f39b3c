"""Tests that kill mutants a seeded mutation run of ``rules/`` left alive (issue 36).

Each test pins one behaviour a single changed operator or constant would break; every verdict
comes from scripted values, never from the luck of a seed.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules import drevo, ide4
from rules.effects import Effect, remaining_text, rounds_left
from rules.encounter import Combatant, Declaration, Encounter
from rules.errors import RulesError
from rules.initiative import MAX_REROLLS, roll_side_initiative
from rules.ledger import entry_luck
from rules.ledger.stats import Sample, summarise, verdict
from rules.rounds import Fighter
from rules.rounds.initiative import roll_bonus
from rules.starately import Check, GroupCheck, Side, resolve_group
from rules.wod import Pool, pool_odds
from rules.wod.odds import _CHANCE_DEPTH


def test_wod_pool_refuses_minus_one_skill() -> None:
    """RULES.md §3: «attribute + skill + modifiers dice of d10» — dots are never negative; a
    skill of −1 is refused as a skill of −5 is (a penalty is a modifier)."""
    with pytest.raises(RulesError, match="не бывают отрицательными"):
        Pool(attribute=2, skill=-1)
    assert Pool(attribute=2, skill=0).skill == 0


def test_group_refuses_more_dice_sets_than_helpers() -> None:
    """Сид: «Все остальные персонажи могут совершить бросок по той же сложности» — one roll
    per helper: three sets of dice for two helpers is refused with a Russian message."""
    group = GroupCheck(Check(Side(dm=1, skill=3), 10), (Side(dm=0, skill=1), Side(dm=0, skill=1)))
    with pytest.raises(RulesError, match="Помощников 2, а наборов кубиков для них 3"):
        resolve_group(group, [(3, 3), (4, 4), (5, 5)], (4, 4))


def test_verdict_of_one_high_roll_is_lucky() -> None:
    """RULES.md `data/ledger/sessions.toml`: «exact mean-percentile verdict up to 30 rolls» —
    a mean percentile of 0.7 is above a half: lucky, not unlucky."""
    samples = [Sample(0.6, (0.2, 0.2, 0.6), 1 / 12), Sample(0.8, (0.2, 0.2, 0.6), 1 / 12)]
    result = verdict(samples)
    assert result is not None and result.direction == "lucky"


def test_top_share_counts_a_roll_exactly_at_the_edge() -> None:
    """RULES.md: «top/bottom» share 10 %; data/ledger/sessions.toml: «a roll at or above
    1 − edge» — a percentile of exactly 0.9 is in the top share."""
    samples = [Sample(0.9, None, 1 / 12), Sample(0.5, None, 1 / 12)]
    assert summarise(samples).top == 0.5


def test_turn_start_effect_says_until_the_start() -> None:
    """RULES.md §5: «a duration (N rounds; until the start or end of …» — an effect until the
    start of Гриша's turn says «до начала хода», not «до конца»."""
    effect = Effect("e1", "Оглушён", duration="turn_start", expires=("turn_start", "g", 1))
    assert remaining_text(effect, 1, 0, {"g": "Гриша"}) == "до начала хода: Гриша"
    ends = Effect("e2", "Оглушён", duration="turn_end", expires=("turn_end", "g", 1))
    assert remaining_text(ends, 1, 0, {"g": "Гриша"}) == "до конца хода: Гриша"


def test_rounds_left_counts_the_current_round_to_a_round_end() -> None:
    """RULES.md §5: «a duration (N rounds …» — an effect ending at the end of round 3, read in
    round 2, still has rounds 2 and 3: two left; in round 4, none."""
    effect = Effect("e1", "Оглушён", duration="rounds", amount=2, expires=("round_end", "", 3))
    assert rounds_left(effect, 2) == 2
    assert rounds_left(effect, 3) == 1
    assert rounds_left(effect, 4) == 0


def test_ide4_initiative_bonus_is_the_attribute_not_a_dm() -> None:
    """RULES.md §5: «IDE4 Инициатива» — the side rolls through the better allowed attribute
    (data: «Внимание», «Крупная моторика»), not through a Старатели DM of Ловкость."""
    f = Fighter("a", "Аня", qualities={"Внимание": 4, "Крупная моторика": 2, "Ловкость": 12})
    assert roll_bonus("ide4", f) == 4
    assert roll_bonus("starately", f) == 2  # DM of 12 is +2 (data/starately/dm.toml)


class _AlwaysTied(random.Random):
    """Every Fudge die shows 0: every 4dF roll of every side ties."""

    def randint(self, a: int, b: int) -> int:
        return 0


def test_endless_initiative_ties_stop_after_the_reroll_cap() -> None:
    """RULES.md §4: «each side rolls initiative (4dF [default]; ties reroll)» — a tie that never
    breaks stops after MAX_REROLLS rerolls and keeps the given order (no endless recursion)."""
    rolls = roll_side_initiative(["Отряд", "Противники"], _AlwaysTied())
    assert [r.side for r in rolls] == ["Отряд", "Противники"]
    assert [len(r.rolls) for r in rolls] == [MAX_REROLLS + 1, MAX_REROLLS + 1]


def _everyone(_: str) -> bool:
    return True


def _declared() -> Encounter:
    enc = Encounter()
    for cid, name, side in [("a1", "Ярослав", "Отряд"), ("a2", "Милава", "Отряд")]:
        enc = enc.with_combatant(Combatant(cid, name, side))
    enc = enc.with_combatant(Combatant("b1", "Шкуро", "Противники"))
    enc = enc.with_initiative(["Противники", "Отряд"])
    enc = enc.declare(Declaration("b1", "melee", target="a1"), _everyone)
    enc = enc.declare(Declaration("a1", "melee", target="b1"), _everyone)
    return enc.declare(Declaration("a2", "shoot", target="b1", distance="near"), _everyone)


def test_redeclare_replaces_only_that_fighters_declaration() -> None:
    """Сид: «первыми делают ходы персонажи стороны, обладающей инициативой (игроки говорят, что
    эти персонажи делают)» — the GM corrects Милава's declaration; Шкуро's and Ярослав's stay."""
    enc = _declared()
    before = enc.declarations
    fixed = Declaration("a2", "melee", target="b1")
    after = enc.redeclare(fixed).declarations
    assert after == (before[0], before[1], fixed)


def test_declaring_during_setup_is_refused() -> None:
    """Сид: «первыми делают ходы персонажи стороны, обладающей инициативой» — no declaration
    before the fight is set up and its initiative given."""
    enc = Encounter().with_combatant(Combatant("a1", "Ярослав", "Отряд"))
    enc = enc.with_combatant(Combatant("b1", "Шкуро", "Противники"))
    with pytest.raises(RulesError, match="Сейчас нельзя объявлять действия"):
        enc.declare(Declaration("a1", "melee", target="b1"), _everyone)


def test_energy_after_the_roll_spends_its_own_dice() -> None:
    """Сид: «После определения категории (и после перебросов) игрок может потратить до 3
    кубов.» — the ledger charges the energy-after step's dice (1 × the die), not the step
    before it (the d100, which cost nothing)."""
    inp = ide4.CheckInput(
        attribute="Сила", attribute_level=3, base=3, energy_dice=2, energy_pool=50, actor="Ника"
    )
    rolled = ide4.roll(ide4.start(inp), natural=20, energy=(2, 3))
    after = ide4.energy_after(rolled, 1, dice=(3,))
    size = after.steps[-1].die
    assert size > 0 and after.steps[-2].energy_spent == 0
    luck = entry_luck("check", "Ника", {**after.to_dict(), "event": "energy_after"})
    assert luck.spent == {"Ника": {"energy": size}} and luck.rolls == ()


def test_a_step_without_dice_records_no_die_size() -> None:
    """Сид: «Итоговая сложность ≤ 0 означает, что действие гарантировано. Кубик не
    бросается.» — the saved record of an automatic Успех names no dice and no die size (0),
    not a d1."""
    auto = ide4.start(ide4.CheckInput(attribute="Сила", attribute_level=3, base=0))
    assert auto.status == "auto"
    (step,) = auto.to_dict()["steps"]
    assert step["kind"] == "auto" and step["dice"] == [] and step["die"] == 0


def test_both_shooting_at_range_may_both_deal_damage() -> None:
    """Сид: «Если же противник в дистанционном бою в ответ на выстрел / бросок тоже совершает
    выстрел / бросок — вместо встречной проверки назначаются две односторонние проверки» —
    each side's hit is a hit: the plan lets both deal damage."""
    bow = drevo.weapon("Лук")
    plan = drevo.plan_exchange(
        drevo.Fighter("А", weapon=bow, trait=2),
        drevo.Action("shoot", bow),
        drevo.Fighter("Б", weapon=bow, trait=1),
        drevo.Action("shoot", bow),
        "near",
    )
    assert plan.kind == "two_one_sided"
    assert plan.attacker.deals_damage and plan.defender.deals_damage
    assert plan.to_dict()["attacker"]["deals_damage"] is True


def test_chance_die_lists_its_run_of_tens_to_the_stated_depth() -> None:
    """Сид: «Вы должны выкинуть 10. … Как и обычно, вы можете перебросить полученную
    “десятку”.»; RULES.md §0: infinite explosions «are truncated where the remaining probability
    is below 1e-12» — the chance die lists 0…_CHANCE_DEPTH successes (k tens, then one of the 9
    other faces) and cuts exactly the runs of more tens than that."""
    odds = pool_odds(Pool(0))
    expected = {k: Fraction(9, 10 ** (k + 1)) for k in range(_CHANCE_DEPTH + 1)}
    assert odds.successes == expected
    assert odds.truncated == Fraction(1, 10 ** (_CHANCE_DEPTH + 1)) < Fraction(1, 10**12)
