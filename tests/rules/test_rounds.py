"""Rounds in IDE4, Старатели and Мир Тьмы (RULES.md §5 [default], data/rounds/): initiative
each system's way, ties by the named rule, the turn order over four rounds, the Мир Тьмы
health track."""

from __future__ import annotations

import random

import pytest

from rules import ide4
from rules.data import packaged_table, set_overrides
from rules.errors import RulesError
from rules.modifiers import Modifier
from rules.rounds import Entrant, Fighter, InitiativeRoll, Tracker, health, order, roll_initiative
from rules.rounds.initiative import roll_one, tie_rule
from rules.starately import characteristic_dm
from rules.wod.initiative import wod_initiative
from tests.every_case import assert_every_case

FIGHTERS = {
    "ide4": [
        Fighter("v", "Вера", "Отряд", True, {"Внимание": 4, "Крупная моторика": 4}),
        Fighter("t", "Тимур", "Отряд", True, {"Внимание": 3, "Крупная моторика": 4}),
        Fighter("g", "Гриша", "Противники", False, {"Внимание": 3, "Крупная моторика": 3}),
    ],
    "starately": [
        Fighter("h", "Хаим", "Отряд", True, {"Ловкость": 10}),
        Fighter("d", "Дарина", "Отряд", True, {"Ловкость": 12}),
        Fighter("s", "Сергей", "Противники", False, {"Ловкость": 7}),
    ],
    "wod": [
        Fighter("g", "Глеб", "Отряд", True, {"Ловкость": 3, "Самообладание": 3}),
        Fighter("v", "Вера", "Отряд", True, {"Ловкость": 2, "Самообладание": 2}),
        Fighter("k", "Клим", "Противники", False, {"Ловкость": 3, "Самообладание": 1}),
    ],
}


def with_table(**changes):
    table = packaged_table("rounds/initiative.toml")
    new = {k: dict(v) for k, v in table.items()}
    for section, values in changes.items():
        new[section].update(values)
    set_overrides({"rounds/initiative.toml": new})


@pytest.fixture(autouse=True)
def _defaults():
    set_overrides({})
    yield
    set_overrides({})


#: Each system's fighters, each with five seeds.
INITIATIVE_AND_TURN_ORDER_OVER_FOUR_ROUNDS = [
    (system, seed) for system in ("ide4", "starately", "wod") for seed in range(5)
]


def test_initiative_and_turn_order_over_four_rounds() -> None:
    """«initiative per combatant … IDE4: a check of the action Инициатива, order by outcome
    then total; Старатели: 2d6 + the DM of a characteristic the campaign names; Мир Тьмы:
    d10 + the sheet's initiative»; the order then holds for every round."""

    def check(system: str, seed: int) -> None:
        fighters = FIGHTERS[system]
        turn, rolls = roll_initiative(system, fighters, random.Random(seed))
        keys = [rolls[i].key for i in turn]
        assert keys == sorted(keys, reverse=True) and sorted(turn) == sorted(f.id for f in fighters)
        t = Tracker(system, tuple(Entrant(f.id, f.name, f.side, f.pc) for f in fighters))
        t, events = t.start(turn, rolls)
        assert [(e.kind, e.round, e.combatant) for e in events] == [
            ("round_start", 1, ""),
            ("turn_start", 1, turn[0]),
        ]
        seen = [(t.round, t.actor)]
        for _ in range(4 * len(turn) - 1):
            t, events = t.next_turn()
            seen.append((t.round, t.actor))
        assert seen == [(r, a) for r in range(1, 5) for a in turn]

    cases = INITIATIVE_AND_TURN_ORDER_OVER_FOUR_ROUNDS
    assert_every_case(cases, check)


def test_starately_total_is_2d6_plus_the_named_dm() -> None:
    """Старатели: «2d6 + the DM of a characteristic the campaign names» (Ловкость [default]);
    an effect's modifier adds to it."""
    f = Fighter(
        "d",
        "Дарина",
        qualities={"Ловкость": 12, "Интеллект": 5},
        modifiers=(Modifier(-1, "эффект «Оглушён»"),),
    )
    r = roll_one("starately", f, random.Random(3))
    rng = random.Random(3)
    dice = rng.randint(1, 6), rng.randint(1, 6)
    assert r.key == (sum(dice) + characteristic_dm(12) - 1,)
    assert r.text == f"{dice[0]}+{dice[1]} +2 −1 = {r.key[0]}"
    with_table(starately={"characteristic": "Интеллект"})
    r = roll_one("starately", f, random.Random(3))
    assert r.key == (sum(dice) + characteristic_dm(5) - 1,)


def test_wod_total_is_d10_plus_the_sheets_initiative() -> None:
    """Мир Тьмы: «d10 + the sheet's initiative»: the sheet's own value, else Ловкость +
    Самообладание [default]."""
    f = FIGHTERS["wod"][0]
    assert wod_initiative(f) == 6
    assert wod_initiative(Fighter("x", "X", initiative=9, qualities={"Ловкость": 1})) == 9
    assert wod_initiative(Fighter("x", "X", qualities={"Инициатива": 4})) == 4
    die = random.Random(1).randint(1, 10)
    assert roll_one("wod", f, random.Random(1)).key == (die + 6,)


def test_ide4_orders_by_outcome_then_total() -> None:
    """IDE4: «a check of the action Инициатива, ordered by outcome, then total» — through the
    better of the action's attributes."""
    f = FIGHTERS["ide4"][1]  # Крупная моторика 4 > Внимание 3
    r = roll_one("ide4", f, random.Random(2))
    check = ide4.roll(
        ide4.start(
            ide4.CheckInput(
                actor=f.name,
                action="Инициатива",
                attribute="Крупная моторика",
                attribute_level=4,
                level="quick",
            )
        ),
        random.Random(2),
    )
    assert r.key == (ide4.OUTCOME_RANK[check.outcome], check.total)
    assert r.text == f"{ide4.OUTCOME_NAMES[check.outcome]} · {check.total}"
    a = InitiativeRoll("a", (4, 20), 0, "")
    b = InitiativeRoll("b", (3, 90), 0, "")
    assert [x.id for x in order("ide4", [b, a], random.Random(0))] == ["a", "b"]


def test_ide4_initiative_at_00_rolls_nothing_and_acts_last() -> None:
    """IDE4 [seed]: «Если итоговая сложность становится [00], игрок не бросает кубик.» A
    fighter whose effects push the initiative check to [00] rolls no die and acts after
    everyone with an outcome; the fight starts (it was refused, asking the GM for a reason).
    """
    slow = Fighter(
        "slow",
        "Медленный",
        qualities={"Крупная моторика": 3},
        modifiers=(Modifier(-9, "эффект «Оглушён»"),),
    )
    fast = Fighter("fast", "Быстрый", qualities={"Крупная моторика": 1})
    rng = random.Random(3)
    r = roll_one("ide4", slow, rng)
    assert (r.key, r.text, r.check) == ((0, 0), "[00] невозможно", None)
    assert rng.random() == random.Random(3).random()  # no die was rolled for it
    turn, rolls = roll_initiative("ide4", [slow, fast], random.Random(4))
    assert turn == ("fast", "slow") and rolls["fast"].key[0] >= 1


TIED = [
    InitiativeRoll("npc1", (9,), 2, "", pc=False),
    InitiativeRoll("pc1", (9,), 0, ""),
    InitiativeRoll("npc2", (9,), 1, "", pc=False),
    InitiativeRoll("pc2", (9,), 0, ""),
]
SEEDS = range(40)


def test_tie_pc_first_puts_players_ahead() -> None:
    """Старатели tie rule «pc_first» [default]: players before the GM's characters, whatever
    the dice (a sweep of seeds: the tie rolls alone put a player first about half the time),
    then the players' own tie and the GM's rolled apart."""
    assert tie_rule("starately") == "pc_first"
    for seed in SEEDS:
        ranked = order("starately", TIED, random.Random(seed))
        assert {r.id for r in ranked[:2]} == {"pc1", "pc2"}, seed
        assert {r.id for r in ranked[2:]} == {"npc1", "npc2"}, seed
        assert all(len(r.rerolls) >= 1 for r in ranked)  # each pair rolled among itself
    one_each = [TIED[0], TIED[1]]
    for seed in SEEDS:
        ranked = order("starately", one_each, random.Random(seed))
        assert [r.id for r in ranked] == ["pc1", "npc1"], seed
        assert [r.rerolls for r in ranked] == [(), ()]  # nothing left to roll


def test_without_pc_first_the_dice_decide_between_a_player_and_the_gm() -> None:
    """Tie rule «reroll» between a player and a GM's character: the one who rolls higher goes
    first, and over many ties each side does (what «pc_first» overrides)."""
    with_table(starately={"tie": "reroll"})
    firsts = set()
    for seed in SEEDS:
        ranked = order("starately", [TIED[0], TIED[1]], random.Random(seed))
        assert ranked[0].rerolls[-1] > ranked[1].rerolls[-1], seed
        firsts.add(ranked[0].id)
    assert firsts == {"pc1", "npc1"}


TIE_ROLLS_USE_THE_SYSTEMS_DIE = [("ide4", 100), ("starately", 6), ("wod", 10)]


def test_tie_rolls_use_the_systems_die() -> None:
    """A tie is rolled again with the system's own die (d100, 2d6's d6, d10): over a sweep of
    seeds the rolls stay within 1…die and (the small dice) show every face."""

    def check(system: str, die: int) -> None:
        tied = [InitiativeRoll(i, (7,), 0, "") for i in "ab"]
        seen = set()
        for seed in range(200):
            for r in order(system, tied, random.Random(seed)):
                seen.update(r.rerolls)
        if die <= 10:  # 400 rolls miss a face with a chance below 1e-17
            assert seen == set(range(1, die + 1))
        else:
            assert 1 <= min(seen) and 10 < max(seen) <= die

    assert_every_case(TIE_ROLLS_USE_THE_SYSTEMS_DIE, check)


def test_tie_bonus_puts_the_higher_fixed_part_ahead() -> None:
    """Мир Тьмы tie rule «bonus» [default]: the higher sheet initiative first — a GM's
    character's too, ahead of a player — then the dice among equal bonuses."""
    assert tie_rule("wod") == "bonus"
    rolls = [InitiativeRoll("low", (9,), 3, ""), InitiativeRoll("high", (9,), 6, "")]
    for seed in SEEDS:
        assert [r.id for r in order("wod", rolls, random.Random(seed))] == ["high", "low"]
        ranked = [r.id for r in order("wod", TIED, random.Random(seed))]
        assert ranked[:2] == ["npc1", "npc2"], seed  # bonuses 2 and 1 before the players' 0
        assert set(ranked[2:]) == {"pc1", "pc2"}, seed
    firsts = {order("wod", TIED[1::2], random.Random(seed))[0].id for seed in SEEDS}
    assert firsts == {"pc1", "pc2"}  # equal bonuses: the dice, not the order given


TIE_REROLL_RECORDS_THE_REROLLS_AND_SPLITS = range(20)


def test_tie_reroll_records_the_rerolls_and_splits() -> None:
    """Tie rule «reroll»: the tied ones roll again among themselves until split; the order
    follows those rerolls."""

    def check(seed: int) -> None:
        rolls = [InitiativeRoll(i, (5, 50), 0, "", pc=i != "b") for i in "abc"]
        ranked = order("ide4", rolls, random.Random(seed))
        assert sorted(r.id for r in ranked) == ["a", "b", "c"]
        firsts = [r.rerolls[0] for r in ranked]
        assert firsts == sorted(firsts, reverse=True)  # a GM's character (b) rolls with the rest

    assert_every_case(TIE_REROLL_RECORDS_THE_REROLLS_AND_SPLITS, check, star=False)


def test_unknown_tie_rule_and_per_are_refused() -> None:
    """A campaign table naming an unknown rule gets a message naming the known ones."""
    with_table(wod={"tie": "coin"})
    with pytest.raises(RulesError, match="reroll"):
        tie_rule("wod")
    with_table(initiative={"per": "table"})
    with pytest.raises(RulesError, match="combatant"):
        roll_initiative("wod", FIGHTERS["wod"], random.Random(0))


def test_drevo_and_unknown_systems_are_not_this_tracker() -> None:
    """Древо keeps its own Бой tab; the tracker refuses it with a message."""
    with pytest.raises(RulesError, match="Древа"):
        roll_one("drevo", FIGHTERS["wod"][0], random.Random(0))
    with pytest.raises(RulesError, match="Древа"):
        tie_rule("drevo")


def test_a_missing_table_key_is_named() -> None:
    """A campaign table without a key says which one to put back."""
    table = {k: dict(v) for k, v in packaged_table("rounds/initiative.toml").items()}
    del table["wod"]["tie"]
    set_overrides({"rounds/initiative.toml": table})
    with pytest.raises(RulesError, match=r"\[wod\] tie"):
        tie_rule("wod")


def test_per_side_members_act_together() -> None:
    """Per side (a campaign setting): each side rolls once; its members act together."""
    with_table(initiative={"per": "side"})
    turn, rolls = roll_initiative("starately", FIGHTERS["starately"], random.Random(4))
    assert set(rolls) == {"Отряд", "Противники"}
    sides = ["Отряд" if i in "hd" else "Противники" for i in turn]
    assert sides in (["Отряд", "Отряд", "Противники"], ["Противники", "Отряд", "Отряд"])
    assert [i for i in turn if i in "hd"] == ["h", "d"]


def test_no_fighters_is_refused() -> None:
    """A fight with nobody in it says how to add someone."""
    with pytest.raises(RulesError, match="никого нет"):
        roll_initiative("ide4", [], random.Random(0))
    with pytest.raises(RulesError, match="никого нет"):
        Tracker("ide4").start((), {})


def test_tracker_refuses_turns_before_start_and_a_second_start() -> None:
    """«n» before initiative and «i» during a fight are refused with what to do."""
    t = Tracker("wod", (Entrant("a", "A", "x"),))
    with pytest.raises(RulesError, match="бросьте инициативу"):
        t.next_turn()
    t, _ = t.start(("a",), {})
    with pytest.raises(RulesError, match="уже идёт"):
        t.start(("a",), {})


def test_removing_the_actor_keeps_the_turn_sane() -> None:
    """Dropping a combatant mid-fight keeps whose turn it is (or the next one's)."""
    t = Tracker("wod", tuple(Entrant(i, i, "x") for i in "abc"))
    t, _ = t.start(("a", "b", "c"), {})
    t, _ = t.next_turn()  # b
    assert t.without("a").actor == "b"
    assert t.without("b").actor == "c"
    assert t.with_entrant(Entrant("d", "d", "x")).order[-1] == "d"
    with pytest.raises(RulesError, match="повреждён"):
        Tracker.from_dict({**t.to_dict(), "turn": 9})
    with pytest.raises(RulesError, match="повреждён"):
        Tracker.from_dict({"order": []})


def test_wod_health_track_fills_worst_first_and_penalises_the_last_boxes() -> None:
    """Мир Тьмы: «Health [default]: a track of boxes, with a dice penalty as it fills»
    (Выносливость + 5 boxes; the last three filled give −1, −2, −3)."""
    total = health.boxes({"Выносливость": 2})
    assert total == 7
    track: list[str] = []
    penalties = []
    for _ in range(total):
        track = health.damage(track, "bashing", total)
        penalties.append(health.penalty(track, total))
    assert penalties == [0, 0, 0, 0, -1, -2, -3]
    track = health.damage(track, "lethal", total)  # full: a bashing becomes lethal
    assert track.count("lethal") == 1 and len(track) == total
    assert health.render(["bashing", "lethal"], 4) == "[X][/][ ][ ]"
    assert health.render(["bashing"] * 3 + ["lethal"], 4) == "[X][/][/][/]"  # full: no empty box
    assert health.render([], 3) == "[ ][ ][ ]"
    assert health.compact(["bashing", "aggravated"], 4) == "*/··"
    assert health.heal(["lethal", "bashing"]) == ["lethal"]
    with pytest.raises(RulesError, match="Вид урона"):
        health.damage([], "fire", 5)


def test_wod_health_table_malformed_is_named() -> None:
    """A campaign health table with a missing part is reported, not guessed."""
    set_overrides({"rounds/health.toml": {"health": {"size": 5}}})
    with pytest.raises(RulesError, match="здоровья"):
        health.rules()


def test_checked_tables_refuse_wod_attributes_that_are_no_list() -> None:
    """The tracker's table check names the Мир Тьмы attributes when they are not a list."""
    from rules.rounds import checked_tables

    assert checked_tables() is True
    with_table(wod={"attributes": "Ловкость"})
    with pytest.raises(RulesError, match="список атрибутов"):
        checked_tables()


ORDERING_KEEPS_EACH_IDE4_CHECK_FOR_THE_LUCK_LEDGER = range(5)


def test_ordering_keeps_each_ide4_check_for_the_luck_ledger() -> None:
    """IDE4 initiative is «a check of the action Инициатива»: after ordering (ties rerolled
    among themselves) every fighter's roll still carries the check the luck ledger places
    (it was dropped, so no IDE4 initiative ever reached the luck stats)."""

    def check(seed: int) -> None:
        single = {f.id: roll_one("ide4", f, random.Random(seed)) for f in FIGHTERS["ide4"]}
        assert all(r.check is not None for r in single.values())
        _turn, rolls = roll_initiative("ide4", FIGHTERS["ide4"], random.Random(seed))
        assert set(rolls) == {"v", "t", "g"}
        for roll in rolls.values():
            assert roll.check is not None
            assert set(roll.check) == {"final", "hidden_risk", "outcome"}
            assert roll.to_dict()["check"] == roll.check
        tied = [InitiativeRoll(i, (3, 40), 0, "", check={"final": 3}) for i in "ab"]
        assert [r.check for r in order("ide4", tied, random.Random(seed))] == [{"final": 3}] * 2

    assert_every_case(ORDERING_KEEPS_EACH_IDE4_CHECK_FOR_THE_LUCK_LEDGER, check, star=False)


def test_a_side_rolling_in_ide4_keeps_its_check() -> None:
    """Per side («each side rolls once … IDE4: its first member's check»), the side's roll
    carries that check for the luck ledger too."""
    with_table(initiative={"per": "side"})
    _turn, rolls = roll_initiative("ide4", FIGHTERS["ide4"], random.Random(3))
    assert set(rolls) == {"Отряд", "Противники"}
    assert all(r.check is not None and "outcome" in r.check for r in rolls.values())
