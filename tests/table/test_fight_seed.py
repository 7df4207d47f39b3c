"""The Древо round as the seed has it, one level below the screen: one roll per fighter,
Судьба after the roll as far as the points go, a simultaneous round, several opponents."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.data import packaged_table, set_overrides
from rules.drevo.sheet import DrevoSheet
from tests.table.helpers import skirmish
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.text import exchange_lines

TRIO = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Богдан Сыч": "Отряд"}


@pytest.fixture
def fight_setting():
    """Set ``data/drevo/fight.toml`` for one test (the campaign's setting)."""

    def put(**values):
        set_overrides({"drevo/fight.toml": {**packaged_table("drevo/fight.toml"), **values}})

    yield put
    set_overrides({})


def _resolve_all(table) -> list:
    """Roll and finish every exchange of the round; return each exchange's (ids, dice)."""
    seen = []
    while table.view() is not None:
        view = table.view()
        if view.stage == "plan":
            table.ok(steps.roll)
            view = table.view()
            seen.append((dict(view.ids), dict(view.exchange.dice)))
        if table.stage() == "refused":
            table.ok(steps.skip)
        else:
            _close(table)
    return seen


def test_a_lone_dodger_rolls_once_against_three(tmp_path) -> None:
    """Сид: «Если во встречной проверке с разных сторон участвует разное количество
    персонажей (к примеру, один персонаж убегает от троих), каждый участник делает один
    бросок 4dF. Потом сравниваются результаты.» Шкуро dodges three attackers: one 4dF,
    the same in each of the three exchanges."""
    sides = {**TRIO, "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Богдан Сыч", "melee", "Атаман Шкуро", "Кинжал"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    seen = _resolve_all(table)
    shkuro = people["Атаман Шкуро"].id
    assert len(seen) == 3
    assert all(ids["defender"] == shkuro for ids, _ in seen)
    defended = {tuple(dice["defender"]) for _, dice in seen}
    assert len(defended) == 1, f"one declared dodge rolled {len(defended)} times: {defended}"


def test_the_dodgers_one_roll_survives_an_undo(tmp_path) -> None:
    """The round's roll is kept in the Журнал: undoing the first exchange and skipping it
    does not give the dodger new dice in the second."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    table.ok(steps.roll)
    first = tuple(table.view().exchange.dice["defender"])
    table.undo()
    assert table.stage() == "plan"
    table.ok(steps.skip)
    table.ok(steps.roll)
    assert tuple(table.view().exchange.dice["defender"]) == first


def test_fate_before_the_roll_is_refused_once_the_fighter_rolled_this_round(tmp_path) -> None:
    """«+4 без броска» is declared before the roll: once the dodger's one roll fell in the
    first exchange, the second exchange offers it to the attacker only."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    _resolve_first(table)
    offers = table.view().fate_before_offers()
    assert [o.value for o in offers if not o.refused] == ["attacker"]
    refused = [o for o in offers if o.refused]
    assert refused and "бросок этого раунда уже сделан" in refused[0].refused
    assert table.run(steps.fate_before, "defender").refused


def test_fate_after_the_roll_goes_as_far_as_the_points(tmp_path) -> None:
    """Сид: «одно очко Судьбы, чтобы поднять или опустить результат этого броска на одну
    единицу (два — на две и т.д.)»: Милава with 4 points is offered ±4."""
    sides = {"Милава": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [("Милава", "melee", "Атаман Шкуро", "Нож"), ("Атаман Шкуро", "dodge", None, None)]
    table, store, people = skirmish(tmp_path, sides, blows)
    assert store.character(people["Милава"].id).drevo.fate == 4
    table.ok(steps.roll)
    values = {o.value for o in table.view().shift_offers()}
    assert ("attacker", 4) in values and ("attacker", -4) in values
    assert ("attacker", 5) not in values
    table.ok(steps.fate_shift, "attacker", 4)
    assert store.character(people["Милава"].id).drevo.fate == 0


def _wound(store, people, name, **wounds) -> None:
    c = store.character(people[name].id)
    store.upsert_character(c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, **wounds}))


def test_a_wound_taken_in_the_round_weighs_from_the_next(tmp_path, fight_setting) -> None:
    """Сид: «пошаговый бой моделирует реальность, в которой действия совершаются
    одновременно»: by default a wound from exchange 1 does not lower the same fighter's
    exchange 2 of that round; the line says which setting made it so."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    table.ok(steps.roll)
    _wound(store, people, "Атаман Шкуро", wound=1)  # as if exchange 1 gave him an Ранение
    _close(table)
    view = table.view()
    assert not any("рана" in m.reason for m in view.plan.defender.modifiers)
    assert any("со следующего раунда" in n for n in view.setting_notes)
    assert any("со следующего раунда" in line for line in exchange_lines(view))
    fight_setting(wounds="at_once")
    view = table.view()
    assert any(m.value == -2 for m in view.plan.defender.modifiers)
    assert any("уже действует" in n and "сразу" in n for n in view.setting_notes)


def test_a_fighter_struck_down_still_resolves_his_blow(tmp_path, fight_setting) -> None:
    """Simultaneous round: Шкуро, heavily wounded in exchange 1, still strikes Ярослав in
    exchange 2 (he declared it for this round); with wounds at once he cannot."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "dodge", None, None),
        ("Атаман Шкуро", "melee", "Ярослав Кречет", "Сабля", "helpless"),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    table.ok(steps.roll)
    _wound(store, people, "Атаман Шкуро", heavy=1)
    assert not bridge.can_act(store.character(people["Атаман Шкуро"].id))
    _close(table)
    view = table.view()
    assert view.refusal == "" and view.plan.attacker.fighter.name == "Атаман Шкуро"
    fight_setting(wounds="at_once")
    assert "не может ничего делать" in table.view().refusal


def test_an_attacker_engaged_elsewhere_meets_the_others_with_his_one_roll(tmp_path) -> None:
    """Сид: «Если персонаж в течение одного и того же раунда вынужден противостоять
    нескольким противникам, он может сражаться одним из двух способов»: Шкуро fights
    Горан; Ярослав attacks him too. «meet»: his one roll meets Ярослав's blow (he deals
    Ярослав no damage); «helpless»: he is defenceless against it. The screen says which."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    for how in ("meet", "helpless"):
        table, store, people = skirmish(
            tmp_path / how,
            sides,
            [
                ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
                ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
                ("Атаман Шкуро", "melee", "Горан Рябой", "Сабля", how),
            ],
        )
        keys = [p.key for p in table.enc.pairings()]
        yaroslav = people["Ярослав Кречет"].id
        (pairing,) = [p for p in table.enc.pairings() if p.attack.actor == yaroslav]
        assert len(keys) == 2
        _resolve_first(table)
        view = table.view()
        assert view.pairing.key == pairing.key
        note = view.plan.notes[0]
        if how == "meet":
            assert view.plan.kind == "opposed"
            assert not view.plan.defender.deals_damage
            assert "встречает и эту атаку" in note
        else:
            assert view.plan.kind == "one_sided"
            assert "защиты нет" in note and "Ярослав Кречет" in note
        # Names stay in the nominative: «сражается с Горан Рябой», «против Ярослав Кречет»,
        # «урона Ярослав Кречет» read wrong (a name is not declined), so none follows a
        # word that governs a case.
        assert " его " not in note  # Милава fights too
        for word in ("с", "против", "урона"):
            for name in ("Горан Рябой", "Ярослав Кречет"):
                assert f"{word} {name}" not in note, note
        store.close()


def _resolve_first(table) -> None:
    table.ok(steps.roll)
    _close(table)


def _close(table) -> None:
    """Accept the rolled exchange on turn, write its damage, go on to the next."""
    key = table.view().pairing.key
    while table.view() is not None and table.view().pairing.key == key:
        table.ok(steps.accept)


def test_the_campaign_default_fills_the_declaration(tmp_path, fight_setting) -> None:
    """An attack declared without the GM's choice takes the campaign's «others» setting."""
    fight_setting(others="helpless")
    sides = {"Горан Рябой": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [("Горан Рябой", "melee", "Атаман Шкуро", "Топор")]
    table, store, people = skirmish(tmp_path, sides, blows)
    (d,) = table.enc.declarations
    assert d.others == "helpless"


def test_a_parry_against_a_blow_is_refused_with_the_true_reason(tmp_path) -> None:
    """Сид: «Летящую стрелу, камень из пращи, дротик, нож и т.п. можно отбить при помощи
    оружия ближнего боя и специфического умения … Отбить пулю, естественно, нельзя».
    «Отбить» against a knife blow was refused with the ability's reason; the true one is
    that a blow is not parried. Against a thrown knife the ability is what is missing, and
    it has a place on the sheet."""
    from rules.encounter import Declaration

    sides = {"Ярослав Кречет": "Отряд", "Лыко": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    lyko, yaroslav = people["Лыко"].id, people["Ярослав Кречет"].id
    table.ok(steps.declare, Declaration(yaroslav, "melee", lyko, "Меч"))
    parry = Declaration(lyko, "parry", None, "Нож")
    refused = table.run(steps.declare, parry).refused
    assert refused.startswith("отбить нечего: Ярослав Кречет: удар в ближнем бою не отбивают")
    assert "особое умение" not in refused


def test_the_parry_ability_is_asked_for_a_thrown_weapon_and_named_on_the_sheet(tmp_path):
    from rules.encounter import Declaration
    from tui.bridge.sheets import sheet_text

    sides = {"Горан Рябой": "Отряд", "Лыко": "Противники"}
    table, store, people = skirmish(tmp_path, sides, [])
    lyko, goran = people["Лыко"].id, people["Горан Рябой"].id
    table.ok(steps.declare, Declaration(goran, "throw", lyko, "Дротик", distance="near"))
    parry = Declaration(lyko, "parry", None, "Нож")
    assert "отметьте его на листе персонажа" in table.run(steps.declare, parry).refused
    c = store.character(lyko)
    store.upsert_character(replace(c, extra={**c.extra, "parry_ability": True}))
    sheet = sheet_text("drevo", store.character(lyko))
    assert "Особое умение:[/b] отбивать летящее оружие" in sheet
    table.ok(steps.declare, parry)


def test_a_side_of_only_the_heavily_wounded_rolls_no_initiative(tmp_path) -> None:
    """Сид: «Тяжелораненый персонаж не может ничего делать»: a side of only such fighters
    cannot fight, so it rolls no initiative — the GM is told to take them out."""
    from rules.encounter import Combatant, Encounter

    table, store, people = skirmish(tmp_path, {"Горан Рябой": "Отряд", "Лыко": "Б"}, [])
    lyko = store.character(people["Лыко"].id)
    store.upsert_character(lyko.edit_sheet(DrevoSheet, wounds={**lyko.drevo.wounds, "heavy": 1}))
    enc = Encounter()
    for name, side in (("Горан Рябой", "Отряд"), ("Лыко", "Противники")):
        enc = enc.with_combatant(Combatant(people[name].id, name, side))
    world = table.session.read()[2]
    refused = steps.roll_initiative(enc, world).refused
    assert refused.startswith("Сторона «Противники» не может сражаться: Лыко")
    assert steps.ambush(enc, world, ["Отряд", "Противники"]).refused == refused


def test_the_words_of_a_round(tmp_path) -> None:
    """The round summary names what the cascade made («получает лёгкую рану — теперь
    Ранение −2»); a dodger has no «Без оружия МУ −1»; a defenceless side is not «беззащитен»
    (a woman is «беззащитна»); an ambush line says the GM set the order, once."""
    from rules.encounter import Combatant, Encounter
    from tui.systems.drevo.fight.text import round_summary, status_lines
    from tui.systems.drevo.present import plan_lines

    sides = {"Горан Рябой": "Отряд", "Милава": "Противники"}
    blows = [("Горан Рябой", "melee", "Милава", "Топор"), ("Милава", "dodge", None, None)]
    table, store, people = skirmish(tmp_path, sides, blows)
    lines = plan_lines(table.view().plan)
    milava = next(line for line in lines if line.startswith("[b]Милава[/b]"))
    assert "МУ" not in milava
    c = store.character(people["Милава"].id)
    store.upsert_character(
        c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, "wound": 1})
    )  # 2 Лёгкие → Ранение
    enc = replace(table.enc, outcomes=({"key": "k", "hurt": [[c.id, "light"]]},))
    summary = round_summary(enc, table.session.read()[2].characters)
    assert summary[1] == "Милава: получает лёгкую рану — [b]теперь Ранение −2[/b]"
    ambush = Encounter()
    for name, side in sides.items():
        ambush = ambush.with_combatant(Combatant(people[name].id, name, side))
    ambush = ambush.with_initiative(
        ["Противники", "Отряд"], [{"side": "Противники"}, {"side": "Отряд"}]
    )
    assert status_lines(ambush)[1] == (
        "[dim]Инициатива: засада, порядок задал ведущий — Противники → Отряд[/dim]"
    )


def test_a_mutual_exchange_keeps_its_roles_when_the_attacker_fell_earlier_this_round(tmp_path):
    """Simultaneous round: Шкуро, struck down in exchange 1, still strikes Горан in their
    mutual exchange 2 as the attacker the plan shows — the dice and the damage go to the
    fighters the plan names (roles read with the round's wounds, as the plan is)."""
    sides = {"Лыко": "Противники", "Атаман Шкуро": "Противники", "Горан Рябой": "Отряд"}
    blows = [
        ("Лыко", "melee", "Горан Рябой", "Нож"),
        ("Атаман Шкуро", "melee", "Горан Рябой", "Сабля"),
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    table.ok(steps.roll)  # the round's first roll: its wounds are kept
    _wound(store, people, "Атаман Шкуро", heavy=1)  # as if he fell in exchange 1
    _close(table)
    view = table.view()
    shkuro = people["Атаман Шкуро"].id
    assert view.plan.attacker.fighter.name == "Атаман Шкуро"
    assert view.ids["attacker"] == shkuro
    table.ok(steps.roll)
    rolled = table.view()
    assert rolled.exchange.ids["attacker"] == shkuro
    assert rolled.plan.attacker.fighter.name == "Атаман Шкуро"


def test_fate_after_the_roll_moves_the_fighters_one_roll_in_each_exchange(tmp_path) -> None:
    """Сид: «каждый участник делает один бросок 4dF. Потом сравниваются результаты» and
    «После броска кубиков игрок может потратить одно очко Судьбы, чтобы поднять или опустить
    результат этого броска на одну единицу». Шкуро's dodge is one roll met by two attackers:
    the point he spends on it in the first exchange moves that roll in the second too (paid
    once)."""
    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    shkuro = people["Атаман Шкуро"].id
    store.upsert_character(store.character(shkuro).edit_sheet(DrevoSheet, fate=3))
    table.ok(steps.roll)
    before = table.view().result.opposed.b.total
    table.ok(steps.fate_shift, "defender", 1)
    assert table.view().result.opposed.b.total == before + 1
    assert store.character(shkuro).drevo.fate == 2
    _close(table)
    planned = " ".join(exchange_lines_plain(table.view()))
    assert "([+" in planned or "([0" in planned or "([−" in planned, planned
    assert "+1 Судьбой" in planned, planned  # said before the roll too
    table.ok(steps.roll)
    second = table.view()
    assert second.ids["defender"] == shkuro
    assert second.result.opposed.b.total == before + 1, "the shift stayed in the first exchange"
    assert store.character(shkuro).drevo.fate == 2, "paid once for one roll"
    lines = " ".join(exchange_lines_plain(second))
    assert "+1 Судьбой" in lines


def exchange_lines_plain(view) -> list[str]:
    from tui.present.markup import plain_text

    return [plain_text(line) for line in exchange_lines(view)]


def test_the_odds_of_a_later_exchange_know_the_fighters_one_roll(tmp_path) -> None:
    """Сид: «каждый участник делает один бросок 4dF. Потом сравниваются результаты»: once
    Шкуро's dodge fell in the first exchange, the second exchange's odds are those of the
    attacker's 4dF against that roll — not of two fresh rolls. Checked against the 81
    attacker faces resolved one by one; without a known roll they are the plan's own."""
    from collections import Counter
    from fractions import Fraction
    from itertools import product

    from rules import drevo

    sides = {"Горан Рябой": "Отряд", "Ярослав Кречет": "Отряд", "Атаман Шкуро": "Противники"}
    blows = [
        ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
        ("Ярослав Кречет", "melee", "Атаман Шкуро", "Меч"),
        ("Атаман Шкуро", "dodge", None, None),
    ]
    table, store, people = skirmish(tmp_path, sides, blows)
    first = table.view()
    assert first.odds() == drevo.exchange_odds(first.plan)
    _resolve_first(table)
    view = table.view()
    kept = tuple(table.enc.rolled[people["Атаман Шкуро"].id])
    counts = Counter(
        drevo.resolve_exchange_with_dice(view.plan, faces, kept).outcome
        for faces in product((-1, 0, 1), repeat=4)
    )
    expected = {k: Fraction(n, 81) for k, n in counts.items()}
    odds = {k: p for k, p in view.odds().items() if p}
    assert odds == expected and sum(odds.values()) == 1
    table.ok(steps.roll)
    assert table.view().result.outcome in odds
