"""Every refusal of the rules is reached, Russian, and says what to fix (issue 15, item 8).

A sampled mutation run of ``rules/`` left alive mutants that removed a refusal or weakened a
validation; each case below reaches one ``raise RulesError`` that no other test reached and
checks the message: Cyrillic, and naming the value or the field the GM changes. Cases on
data files put a broken copy of the packaged table in place through the campaign settings
(``rules.data.set_overrides``), as a GM's edit of the table would.

The seed sentences the rule-based refusals rest on are quoted in the cases' docstrings.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from rules import data
from rules.errors import RulesError
from tests.every_case import assert_every_case

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


@pytest.fixture(autouse=True)
def packaged_tables():
    """Every case starts and ends with the packaged tables."""
    data.set_overrides(None)
    yield
    data.set_overrides(None)


def broken(relpath: str, change: Callable[[dict[str, Any]], Any]) -> None:
    """Put a copy of the packaged ``relpath``, changed by ``change``, in place."""
    table = copy.deepcopy(data.packaged_table(relpath))
    change(table)
    data.set_overrides({relpath: table})


def refused(call: Callable[[], Any], *named: str) -> str:
    """Run ``call``; it must refuse with a Russian message naming every one of ``named``."""
    with pytest.raises(RulesError) as err:
        call()
    message = str(err.value)
    assert CYRILLIC.search(message), message
    for part in named:
        assert part in message, (part, message)
    return message


def rows(key: str, i: int = 0) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda t: t[key][i]


def setkey(get: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any):
    def change(t: dict[str, Any]) -> None:
        if value is KeyError:
            get(t).pop(key, None)
        else:
            get(t)[key] = value

    return change


def drop(key: str, match: Callable[[dict[str, Any]], bool]):
    def change(t: dict[str, Any]) -> None:
        t[key] = [row for row in t[key] if not match(row)]

    return change


# -- data files ------------------------------------------------------------------------------------


def _ladder():
    from rules.drevo.ladder import ladder

    return ladder()


def _damage():
    from rules.drevo.damage import damage_bands

    return damage_bands()


def _fate():
    from rules.drevo.fate import fate_rules

    return fate_rules()


def _drevo_settings():
    from rules.drevo.settings import settings

    return settings()


def _weapons():
    from rules.drevo.weapons import weapons

    return weapons()


def _wounds():
    from rules.drevo.wounds import wound_levels

    return wound_levels()


def _distances():
    from rules.drevo.exchange import distances

    return distances()


def _drevo_actions():
    from rules.drevo.traits import _load_actions

    return _load_actions()


def _ide4(name: str):
    def load():
        from rules.ide4 import tables

        return getattr(tables, name)()

    return load


def _starately(name: str):
    def load():
        from rules.starately import tables

        return getattr(tables, name)()

    return load


def _wod_settings():
    from rules.wod.tables import settings

    return settings()


def both(*changes):
    def change(t):
        for c in changes:
            c(t)

    return change


LADDER, DAMAGE, FATE = "drevo/ladder.toml", "drevo/damage.toml", "drevo/fate.toml"
WEAPONS, WOUNDS, ACTIONS = "drevo/weapons.toml", "drevo/wounds.toml", "drevo/actions.toml"
BANDS, ENERGY, SKILLS = "ide4/bands.toml", "ide4/energy.toml", "ide4/skills.toml"
IDE4_ACTIONS, CHECK, DM, POOL = (
    "ide4/actions.toml",
    "starately/check.toml",
    "starately/dm.toml",
    "wod/pool.toml",
)

#: id → (table, change, loader, what the message must name)
TABLE_CASES: dict[str, tuple[str, Callable, Callable, tuple[str, ...]]] = {
    "ladder-value": (LADDER, setkey(rows("rung"), "value", "три"), _ladder, ("№1", "value")),
    "ladder-name": (LADDER, setkey(rows("rung"), "name", " "), _ladder, ("№1", "name")),
    "ladder-source": (LADDER, setkey(rows("rung"), "source", "x"), _ladder, ("source", "seed")),
    "ladder-twice": (
        LADDER,
        lambda t: t["rung"].append(dict(t["rung"][0])),
        _ladder,
        ("одним и тем же значением",),
    ),
    "damage-level": (DAMAGE, setkey(rows("band"), "level", "deadly"), _damage, ("level", "from")),
    "damage-order": (DAMAGE, lambda t: t["band"].reverse(), _damage, ("возрастанию", "from")),
    "fate-start": (FATE, lambda t: t.update(starting_points=-1), _fate, ("starting_points",)),
    "fate-npc-start": (
        FATE,
        lambda t: t.update(npc_starting_points="ноль"),
        _fate,
        ("npc_starting_points",),
    ),
    "absent-skill": (
        "drevo/settings.toml",
        lambda t: t.update(absent_skill="нет"),
        _drevo_settings,
        ("absent_skill",),
    ),
    "weapon-fields": (WEAPONS, setkey(rows("weapons", 1), "damage_mod", "1"), _weapons, ("№2",)),
    "weapon-kind": (WEAPONS, setkey(rows("weapons", 1), "kind", "laser"), _weapons, ("kind",)),
    "weapon-twice": (
        WEAPONS,
        lambda t: t["weapons"].append(dict(t["weapons"][1])),
        _weapons,
        ("дважды",),
    ),
    "bare-hands": (
        WEAPONS,
        drop("weapons", lambda r: r["name"] == "Без оружия"),
        _weapons,
        ("Без оружия",),
    ),
    "wound-level": (WOUNDS, drop("level", lambda r: r["id"] == "light"), _wounds, ("light",)),
    "distance": (
        ACTIONS,
        setkey(rows("distance", 1), "ranged_difficulty", KeyError),
        _distances,
        ("ranged_difficulty",),
    ),
    "action-id": (ACTIONS, setkey(rows("action"), "id", 5), _drevo_actions, ("id", "name")),
    "bands-missing-difficulty": (
        BANDS,
        drop("band", lambda r: r["difficulty"] == 4),
        _ide4("bands"),
        ("[4]",),
    ),
    "bands-text-field": (
        BANDS,
        setkey(rows("band"), "middle_min", "11"),
        _ide4("bands"),
        ("middle_min", "целым"),
    ),
    "bands-order": (
        BANDS,
        setkey(rows("band"), "middle_min", 0),
        _ide4("bands"),
        ("tragedy_max < middle_min",),
    ),
    "bands-triumph": (
        BANDS,
        setkey(rows("band"), "triumph_min", 101),
        _ide4("bands"),
        ("triumph_min",),
    ),
    "bands-twice": (
        BANDS,
        lambda t: t["band"].append(dict(t["band"][0])),
        _ide4("bands"),
        ("[1]", "повторяется"),
    ),
    "energy-key": (ENERGY, lambda t: t["die_size"].update(x=4), _ide4("energy_rules"), ("«x»",)),
    "energy-die": (
        ENERGY,
        lambda t: t["die_size"].update({"1": 1}),
        _ide4("energy_rules"),
        ("2 грани",),
    ),
    "energy-empty": (ENERGY, lambda t: t.update(die_size={}), _ide4("energy_rules"), ("die_size",)),
    "energy-negative": (
        ENERGY,
        lambda t: t.update(reroll_cap=-1),
        _ide4("energy_rules"),
        ("отрицательными",),
    ),
    "mastery": (
        SKILLS,
        setkey(rows("threshold"), "mastery", 101),
        _ide4("mastery_thresholds"),
        ("0 до 100",),
    ),
    "mastery-kind": (
        SKILLS,
        setkey(rows("threshold"), "kind", "x"),
        _ide4("mastery_thresholds"),
        ("kind",),
    ),
    "mastery-source": (
        SKILLS,
        setkey(rows("threshold"), "source", "x"),
        _ide4("mastery_thresholds"),
        ("source",),
    ),
    "ide4-action-name": (
        IDE4_ACTIONS,
        setkey(rows("action"), "name", KeyError),
        _ide4("actions"),
        ("name",),
    ),
    "ide4-action-distance": (
        IDE4_ACTIONS,
        setkey(rows("action"), "distances", ["X"]),
        _ide4("actions"),
        ("X",),
    ),
    "subroll-missing": (
        IDE4_ACTIONS,
        lambda t: t.pop("subroll"),
        _ide4("general_subroll"),
        ("subroll",),
    ),
    "subroll-name": (
        IDE4_ACTIONS,
        setkey(rows("subroll"), "name", KeyError),
        _ide4("general_subroll"),
        ("№1", "name"),
    ),
    "subroll-cover": (
        IDE4_ACTIONS,
        lambda t: t.update(subroll=t["subroll"][:1]),
        _ide4("general_subroll"),
        ("d6",),
    ),
    "starately-int": (
        CHECK,
        lambda t: t["check"].update(default_difficulty="8"),
        _starately("settings"),
        ("check", "default_difficulty"),
    ),
    "starately-name": (
        CHECK,
        setkey(rows("difficulty"), "name", KeyError),
        _starately("difficulties"),
        ("№1", "name"),
    ),
    "starately-value": (
        CHECK,
        setkey(rows("difficulty"), "value", "6"),
        _starately("difficulties"),
        ("№1", "value"),
    ),
    "starately-source": (
        CHECK,
        setkey(rows("difficulty"), "source", "x"),
        _starately("difficulties"),
        ("source",),
    ),
    "starately-twice": (
        CHECK,
        lambda t: t["difficulty"].append(dict(t["difficulty"][0])),
        _starately("difficulties"),
        ("одним и тем же",),
    ),
    "dm-band": (DM, setkey(rows("band"), "dm", "1"), _starately("_dm_bands"), ("№1", "dm")),
    "dm-empty": (DM, lambda t: t.update(band=[]), _starately("_dm_bands"), ("[[band]]",)),
    "wod-int": (
        POOL,
        lambda t: t["pool"].update(exceptional="5"),
        _wod_settings,
        ("exceptional",),
    ),
    "wod-withdrawal": (
        POOL,
        lambda t: t["chance"].update(withdrawal_allowed="да"),
        _wod_settings,
        ("withdrawal_allowed",),
    ),
}


def test_a_broken_table_is_refused_naming_the_field() -> None:
    """Every case of ``TABLE_CASES`` (one test, naming every case that fails), each from the
    packaged tables as its own test item started."""

    def check(case: str) -> None:
        data.set_overrides(None)
        relpath, change, load, named = TABLE_CASES[case]
        broken(relpath, change)
        message = refused(load, *named)
        assert relpath in message or case.startswith("bands"), message

    assert_every_case(list(TABLE_CASES), check)


# -- inputs the GM gives ---------------------------------------------------------------------------


def test_negative_wound_counts_are_refused() -> None:
    """A campaign file with «light: −2» crashed the app; the rules refuse it by name."""
    from rules.drevo import WoundTrack

    refused(lambda: WoundTrack({"light": -2}), "отрицательн", "укажите 0 или больше")


def test_eight_again_needs_a_threshold_of_eight_or_less() -> None:
    """RULES.md: «8-снова» rerolls successes; with a threshold of 9 an 8 is no success."""
    from rules.wod import Pool

    refused(lambda: Pool(3, 0, again=8, success_threshold=9), "8", "порог", "9")
    refused(lambda: Pool(3, 0, success_threshold=11), "от 2 до 10", "11")
    refused(lambda: Pool(3, 0, exceptional=0), "1 успеха")


def test_negative_boons_are_refused() -> None:
    from rules.starately import Side

    refused(lambda: Side(dm=0, skill=0, boons=-1), "0 или больше")
    refused(lambda: Side(dm=0, skill=0, banes=-1), "0 или больше")


def test_band_for_an_unrolled_difficulty_is_a_rules_error() -> None:
    """[0] and [00] are not rolled: asking for their band was a bare KeyError."""
    from rules.ide4.tables import band_for

    refused(lambda: band_for(0), "[1]…[7]", "[0]")
    refused(lambda: band_for(8), "[8]")


def test_fate_shifts_only_a_side_that_rolled() -> None:
    """Сид: «После броска кубиков игрок может потратить одно очко Судьбы» — no dice, no shift."""
    from rules.drevo import Action, Fighter, plan_exchange, resolve_exchange_with_dice, weapon
    from rules.drevo.resolve import resolve_exchange, shift_exchange

    plan = plan_exchange(
        Fighter("А", weapon=weapon("Лук"), trait=2), Action("shoot"), Fighter("Б", trait=1),
        None, "near",
    )  # fmt: skip
    assert not plan.defender.rolls
    result = resolve_exchange_with_dice(plan, (0, 0, 0, 0), None)
    refused(lambda: shift_exchange(result, "defender", 1), "кто бросал кубики")
    refused(
        lambda: resolve_exchange(plan, random.Random(1), fate=["judge"]), "attacker", "defender"
    )
    refused(lambda: plan.side("judge"), "attacker", "defender", "judge")
    refused(lambda: plan.opposed_check(), "не встречная")


def test_an_opposed_plan_has_no_one_sided_checks() -> None:
    from rules.drevo import Action, Fighter, plan_exchange, weapon

    plan = plan_exchange(
        Fighter("А", weapon=weapon("Меч"), trait=1), Action("melee"),
        Fighter("Б", weapon=weapon("Меч"), trait=1), Action("melee"), "close",
    )  # fmt: skip
    refused(lambda: plan.one_sided_checks(), "встречная")


def test_shift_opposed_names_the_sides() -> None:
    from rules.drevo import OpposedCheck, Side, resolve_opposed
    from rules.drevo.opposed import shift_opposed

    result = resolve_opposed(OpposedCheck(Side(1), Side(1)), (0, 0, 0, 0), (0, 0, 0, 0))
    refused(lambda: shift_opposed(result, "c", 1), "«a» или «b»", "'c'")


def test_fate_spending_and_damage_reduction_refuse_bad_counts() -> None:
    """Сид: «потратить одно очко Судьбы» — whole points, never below zero."""
    from rules.drevo.fate import reduce_damage, spend_fate

    refused(lambda: spend_fate("shift", 3, 0), "от одного")
    refused(lambda: reduce_damage("wound", -1), "меньше нуля")


def test_throwing_needs_something_to_throw_and_a_defence_a_known_action() -> None:
    from rules.drevo import Action, Fighter, plan_exchange, weapon

    bow = Fighter("А", weapon=weapon("Лук"), trait=1)
    refused(
        lambda: plan_exchange(bow, Action("throw"), Fighter("Б", trait=1), None, "near"),
        "А",
        "что метать",
    )
    sword = Fighter("А", weapon=weapon("Меч"), trait=1)
    refused(
        lambda: plan_exchange(
            sword, Action("melee", weapon("Лук")), Fighter("Б", trait=1), None, "close"
        ),
        "Лук",
        "ближнего боя",
    )


def test_a_declaration_lasts_a_turn_and_targets_someone_in_the_fight() -> None:
    """Сид: «первыми делают ходы персонажи стороны, обладающей инициативой … Затем — их
    противники»: declarations go in order, at their phase, against someone in the fight."""
    from rules.encounter import Combatant, Declaration, Encounter

    def everyone(_: str) -> bool:
        return True

    refused(lambda: Declaration("a", "melee", target="b", turns=0), "хотя бы один ход")
    enc = Encounter()
    for cid, name, side in (("a", "А", "Свои"), ("b", "Б", "Чужие")):
        enc = enc.with_combatant(Combatant(cid, name, side))
    enc = enc.with_initiative(["Свои", "Чужие"])
    refused(
        lambda: enc.declare(Declaration("a", "melee", target="zz"), everyone),
        "Цель",
        "выберите цель из участников",
    )
    refused(lambda: enc.with_combatant(Combatant("c", "В", "Свои")), "Сейчас нельзя", "подготовке")
    enc = enc.declare(Declaration("a", "melee", target="b"), everyone)
    enc = enc.declare(Declaration("b", "melee", target="a"), everyone)
    refused(lambda: enc.declare(Declaration("a", "melee", target="b"), everyone), "к броскам")


def test_ide4_inputs_are_refused_by_name() -> None:
    from rules import ide4
    from rules.ide4.model import check_die, validate

    base = dict(attribute="Мелкая моторика", attribute_level=3, base=3)
    refused(lambda: validate(ide4.CheckInput(**base, level="slow")), "quick", "«slow»")
    refused(lambda: validate(ide4.CheckInput(**base, help="магия")), "Помощь")
    refused(lambda: validate(ide4.CheckInput(**base, mastery=101)), "от 0 до 100")
    refused(lambda: check_die(7, 8, 3), "d7")
    check = ide4.roll(ide4.start(ide4.CheckInput(**base)), natural=50)
    refused(lambda: ide4.moves.reroll_refusal(check, "удача"), "Источник переброса")
    refused(lambda: ide4.moves.bonus_refusal(check, "x"), "Бонус мастерства")
    refused(lambda: ide4.procedure._dice(None, None, 1, 6, "Энергия"), "Энергия", "генератор")


def test_the_dice_limits_name_the_fix() -> None:
    from rules.dice import parse

    refused(lambda: parse("+".join(["500d6"] * 3)), "1000 кубиков", "уменьшите")
    refused(lambda: parse("3d6kx1"), "позиция 5", "встретилось «x»")


# -- behaviour no test pinned ----------------------------------------------------------------------


def test_a_thrown_weapon_other_than_the_dart_keeps_its_damage_modifier() -> None:
    """Сид: «Метать оружие в цель — навык «Метание» (или его разновидность, соответствующая
    типу или виду используемого оружия)»; the weapon thrown deals its own МУ."""
    from rules.drevo import Action, Fighter, plan_exchange, resolve_exchange_with_dice, weapon

    for name in ("Топор", "Секира"):  # МУ 1 and 2; a dart's is 0
        thrown = weapon(name)
        plan = plan_exchange(
            Fighter("А", weapon=thrown, trait=3), Action("throw"), Fighter("Б", trait=0),
            None, "near",
        )  # fmt: skip
        assert plan.attacker.action.weapon == thrown
        assert plan.attacker.damage_mod == thrown.damage_mod != weapon("Дротик").damage_mod
        hit = resolve_exchange_with_dice(plan, (1, 1, 1, 0), None).hit_on("defender")
        assert hit is not None and hit.damage_mod == thrown.damage_mod


def test_a_trait_the_gm_picked_wins_over_the_sheet() -> None:
    """Сид: the GM decides which skill applies («конкретику определяет ведущий»)."""
    from rules.drevo import Action, Fighter, Sheet, plan_exchange, weapon
    from rules.drevo.traits import TraitChoice

    sheet = Sheet({"Сила": 2}, (("Драка", 3, None),))
    picked = TraitChoice("Сила", 2, "quality", "ведущий решил: сила, а не умение")
    fighter = Fighter("А", sheet=sheet, weapon=weapon("Меч"), trait_choice=picked)
    plan = plan_exchange(fighter, Action("melee"), Fighter("Б", trait=0), None, "close")
    assert plan.attacker.trait == picked
    auto = plan_exchange(
        Fighter("А", sheet=sheet, weapon=weapon("Меч")), Action("melee"), Fighter("Б", trait=0),
        None, "close",
    )  # fmt: skip
    assert auto.attacker.trait != picked


def test_d_percent_plus_five_parses() -> None:
    """RULES.md: «d%» is d100; a constant may follow it."""
    from rules.dice import parse, roll

    expr = parse("d%+5")
    result = roll(expr, random.Random(3))
    assert 6 <= result.total <= 105
    assert str(expr).replace(" ", "") in ("d100+5", "1d100+5", "d%+5")


def test_the_last_refusals() -> None:
    """The remaining ones: a dice total past the limit in a built expression, a defence
    kubik does not know, an endless run of 10s, and a «снова» rule that is none of 10/9/8."""
    from rules.dice import Expression, validate
    from rules.dice.model import Binary, Dice
    from rules.drevo import Action, Fighter, plan_exchange, weapon
    from rules.errors import DiceLimitError
    from rules.wod import Pool, roll_pool
    from rules.wod.tables import parse_again

    built = Expression("600d6+600d6", Binary("+", Dice(600, 6), Dice(600, 6)))  # not parsed
    refused(lambda: validate(built), "1000 кубиков")
    sword = Fighter("А", weapon=weapon("Меч"), trait=1)
    odd = Action.__new__(Action)  # what an old saved fight could hold: a kind kubik lacks
    object.__setattr__(odd, "kind", "dance")
    object.__setattr__(odd, "weapon", None)
    object.__setattr__(odd, "parry_ability", False)
    refused(
        lambda: plan_exchange(sword, Action("melee"), Fighter("Б", trait=1), odd, "close"),
        "Б",
        "назначьте проверку вручную",
    )

    class AlwaysTen(random.Random):
        def randint(self, a: int, b: int) -> int:
            return 10

    with pytest.raises(DiceLimitError) as err:
        roll_pool(Pool(3, 0), AlwaysTen())
    assert "генератор" in str(err.value)
    refused(lambda: parse_again("7"), "«7»", "10, 9, 8 или none")


def test_every_refusal_message_in_rules_is_russian() -> None:
    """Static check of every ``raise`` in ``rules/``: its message text is Russian. Raises
    that pass on a message built elsewhere (a refusal function's, checked by its own tests)
    or that are programming errors, never a GM's input, are listed by name."""
    import ast
    from pathlib import Path

    passed_on = {"refusal", "verdict.reason", "_too_many_dice"}  # built elsewhere, Russian
    # A name plus a reason from the Древо legality checks (Russian, pinned by their tests).
    passed_on |= {"f'{fighter.name}: {hard}'", "f'{attacker.name}: {problem}'"}
    programming = {
        ("initiative.py", "ValueError"),  # round 0 is never asked for by any screen
        ("__init__.py", "AttributeError"),  # the lazy-import module protocol
        ("faces.py", "AttributeError"),  # the lazy-import module protocol
        ("ledger.py", "ValueError"),  # an initiative entry of other dice: left uncounted
        ("checks.py", "ValueError"),  # a log entry of other dice: the ledger leaves it uncounted
    }
    root = Path(__file__).resolve().parents[2] / "rules"
    english = []
    checked = 0
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Raise) or node.exc is None:
                continue
            call = node.exc if isinstance(node.exc, ast.Call) else None
            name = ast.unparse(call.func) if call else ast.unparse(node.exc)
            if (path.name, name) in programming:
                continue
            first = ast.unparse(call.args[0]) if call and call.args else ""
            if name in passed_on or first in passed_on:
                continue
            text = "".join(  # every argument: `_bounds_error(position, message)` too
                n.value
                for n in ast.walk(node.exc)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            )
            checked += 1
            if not CYRILLIC.search(text):
                english.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(node)[:80]}")
    assert checked > 150 and english == []


def test_a_saved_fight_in_an_unknown_phase_is_refused() -> None:
    """A campaign file whose encounter had «phase: 5» stopped the app at the Бой tab."""
    from rules.encounter import Encounter

    refused(lambda: Encounter.from_dict({"phase": 5}), "«5»", "начните бой заново")
