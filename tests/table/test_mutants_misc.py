"""The effects, the rounds tracker and the fight on the table engine, where a mutation run of
``tui/table`` (docs/dev/mutation.md) found no test: each test names what it pins. Scripted
dice or pure worlds; no Textual."""

from __future__ import annotations

from dataclasses import replace

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from rules.effects import Effect, Notice
from rules.encounter import ACTION_NAMES, Declaration, Encounter
from tests.table.helpers import duel
from tests.table.tracker import table as tracker_table
from tui.store import LogEntry
from tui.systems.drevo.fight import steps as fight
from tui.systems.drevo.fight.exchange import Exchange
from tui.systems.drevo.fight.report import fight_text, fighters
from tui.systems.drevo.fight.text import damage_prompt, short_declaration, status_lines
from tui.systems.drevo.fight.view import BEFORE_ROLL_ONLY, exchange_id, exchange_view
from tui.table.core import World
from tui.table.effects.steps import notice_line
from tui.table.effects.view import repeat_text
from tui.table.rounds import steps as rounds

# -- effects -------------------------------------------------------------------------------------


def test_an_effects_repeat_says_rounds_or_minutes_as_set():
    """«каждые 3 минуты: патруль»: a repeat in rounds says rounds, one in minutes says мин."""
    rounds = Effect("e1", "Яд", repeat_every=3, repeat_unit="round", repeat_text="урон")
    minutes = Effect("e2", "Патруль", repeat_every=10, repeat_unit="minute")
    assert repeat_text(rounds) == "каждые 3 раунда: урон"
    assert repeat_text(minutes) == "каждые 10 мин: Патруль"
    assert repeat_text(Effect("e3", "Щит")) == ""


# -- the fight -----------------------------------------------------------------------------------


def test_fate_before_the_roll_is_paid_and_kept_in_the_exchange(tmp_path):
    """Сид: «+4 без броска» — Горан (3 Судьбы) spends one before the dice: his sheet pays it,
    the exchange keeps it, his dice are not rolled."""
    table, store, target = duel(tmp_path)
    table.ok(fight.fate_before, "defender")
    assert store.character(target.id).drevo.fate == 2
    assert table.view().exchange.fate_before == ("defender",)
    table.ok(fight.roll)
    assert table.view().exchange.dice["defender"] is None


def test_a_roll_made_again_takes_the_dice_its_undone_line_kept(tmp_path):
    """An exchange rolled, undone and rolled again takes the dice the Журнал kept for it
    (scripted here as an undone line), not new ones, and says so."""
    table, _store, _target = duel(tmp_path)
    _, enc, world = table.session.read()
    name = exchange_id(enc, table.view().pairing.key, 1)
    kept = {"attacker": [1, 1, 1, 0], "defender": [-1, -1, 0, 0]}
    line = LogEntry(
        "old",
        "2026-12-06T10:00:00",
        "combat",
        None,
        "Схватка",
        {"exchange": name, "dice": kept},
        undone=True,
    )
    world = replace(world, journal=lambda _n: [line])
    outcome = fight.roll(enc, world)
    assert outcome.ok, outcome.refused
    assert outcome.log[0].data["dice"] == kept
    assert "(те же кубики, что до отмены)" in outcome.log[0].text


def test_an_effects_notice_names_whom_it_was_on_or_the_scene():
    """«Эффект «Оглушён» закончился (Гриша)»; a scene effect's line says «сцена»."""
    on_grisha = Notice("expired", Effect("e1", "Оглушён", target="g"))
    on_scene = Notice("expired", Effect("e2", "Туман"))
    world = World({})
    names = {"g": "Гриша"}
    assert notice_line(on_grisha, world, None, names).text == "Эффект «Оглушён» закончился (Гриша)"
    assert notice_line(on_grisha, world, None, names).actor == "Гриша"
    assert notice_line(on_scene, world, None, names).text == "Эффект «Туман» закончился (сцена)"


def test_the_fight_report_gives_each_fighter_kind_and_fate_from_the_sheet(tmp_path):
    """`kubik fight show --json`: a fighter of the party has his sheet's kind and Судьба; one
    no longer in the party has neither (and the report does not fail)."""
    table, store, target = duel(tmp_path)
    _, enc, world = table.session.read()
    rows = {row["name"]: row for row in fighters(enc, world)}
    goran, shkuro = rows["Горан Рябой"], rows["Атаман Шкуро"]
    assert (goran["kind"], goran["fate"]) == (target.kind, 3)
    attacker = next(c for c in store.characters() if c.name == "Атаман Шкуро")
    assert (shkuro["kind"], shkuro["fate"]) == (attacker.kind, attacker.drevo.fate)
    gone = replace(world, characters={target.id: world.characters[target.id]})
    rows = {row["name"]: row for row in fighters(enc, gone)}
    assert rows["Атаман Шкуро"]["kind"] is None and rows["Атаман Шкуро"]["fate"] is None
    assert rows["Атаман Шкуро"]["in_party"] is False
    # the text said «Атаман Шкуро (нет в партии) — раны: —, Судьба 0»: he had Судьба 1
    text = fight_text(enc, gone)
    line = next(x for x in text.splitlines() if "Атаман Шкуро (нет в партии)" in x)
    assert "Судьба" not in line and "раны" not in line, line


def test_a_simultaneous_round_rolls_with_the_wounds_it_began_with(tmp_path):
    """Сид: «действия совершаются одновременно» ([default] wounds = next_round): a wound Горан
    took earlier in this round does not weigh on this exchange's roll."""
    table, _store, target = duel(tmp_path, {"light": 1})
    _, enc, world = table.session.read()
    unhurt = {k: 0 for k in world.characters[target.id].drevo.wounds}
    begun = {cid: dict(unhurt) for cid in (c.character_id for c in enc.combatants)}
    outcome = fight.roll(replace(enc, round_wounds=begun), world)
    assert outcome.ok, outcome.refused
    stored = Exchange.from_dict(outcome.state.exchange)
    assert stored.wounds[target.id] == unhurt


def test_after_an_undone_roll_fate_before_is_too_late(tmp_path):
    """The exchange rolled and undone: its dice are in the Журнал and come back when it is
    rolled again, so «+4 без броска» is no longer offered nor taken."""
    table, _store, _target = duel(tmp_path)
    before = table.view().fate_before_offers()
    assert before  # Горан has Судьба: offered before the dice
    table.ok(fight.roll)
    table.undo()
    view = table.view()
    assert view.result is None and view.earlier
    assert view.fate_before_offers() == []
    assert table.run(fight.fate_before, "defender").refused == BEFORE_ROLL_ONLY


def test_fate_before_is_offered_to_each_side_with_points(tmp_path):
    """Both fighters have Судьба: both are offered «+4 без броска» before the dice."""
    table, store, _target = duel(tmp_path)
    shkuro = next(c for c in store.characters() if c.name == "Атаман Шкуро")
    store.upsert_character(shkuro.edit_sheet(DrevoSheet, fate=2))
    offers = table.view().fate_before_offers()
    assert [o.value for o in offers] == ["attacker", "defender"]
    assert not any(o.refused for o in offers)


def test_a_fighters_first_roll_of_the_round_is_kept_as_the_rounds_roll(tmp_path):
    """Сид: «каждый участник делает один бросок 4dF»: the first exchange's line keeps each
    fighter's dice as the round's roll (what an undo gives back to his next exchange)."""
    table, _store, target = duel(tmp_path)
    outcome = table.ok(fight.roll)
    data = outcome.log[0].data
    ids = data["ids"]
    assert data["round_roll"]
    assert data["round_dice"] == {
        ids["attacker"]: data["dice"]["attacker"],
        ids["defender"]: data["dice"]["defender"],
    }


def test_the_order_table_names_a_parry_or_shield_weapon():
    names = {"a": "Шкуро"}
    parry = Declaration("b", "parry", None, "Сабля")
    assert short_declaration(parry, names) == f"{ACTION_NAMES['parry']} (Сабля)"
    assert short_declaration(Declaration("b", "dodge"), names) == ACTION_NAMES["dodge"]


def test_the_first_exchange_of_a_round_is_number_1(tmp_path):
    table, _store, _target = duel(tmp_path)
    view = table.view()
    assert (view.number, view.total) == (1, 1)
    assert view.group == "Раунд 1, схватка 1"


def test_no_fight_reads_as_no_fight(tmp_path):
    """`kubik fight show` before any fight: «Боя нет» and how to start one."""
    assert fight_text(None, World({})).startswith("Боя нет. kubik fight start")
    assert fight_text(Encounter(), World({})).startswith("Боя нет. kubik fight start")


def test_the_round_tracker_marks_players_and_npcs(tmp_path):
    """A side set in the rounds tracker: a PC's entrant is a player's, an NPC's is not (the
    tie rule «pc_first» reads it)."""
    t = tracker_table(tmp_path, "starately")
    people = t.store.characters()
    pc = next(c for c in people if c.kind == "pc")
    npc = next(c for c in people if c.kind != "pc")
    t.ok(rounds.set_side, pc.id, "Отряд")
    t.ok(rounds.set_side, npc.id, "Противники")
    marks = {e.id: e.pc for e in t.tracker.entrants}
    assert marks[pc.id] is True and marks[npc.id] is False


def test_the_fight_report_names_each_declaration_once_declared(tmp_path):
    """`kubik fight show` in the dice phase: each fighter's line names what he declared."""
    table, _store, _target = duel(tmp_path)
    _, enc, world = table.session.read()
    assert enc.phase == "resolve"
    text = fight_text(enc, world)
    assert text.count("; заявка: ") == 2


def test_an_arrow_may_be_parried_a_bullet_not():
    """Сид: «Отбить пулю, естественно, нельзя» — a bullet only; an arrow or a thrown knife
    may be parried, a melee blow is fought back instead."""
    catalogue = drevo.weapons()
    kind = {name: drevo.weapon(name).kind for name in catalogue}
    bow = next(n for n, k in kind.items() if k == "bow")
    gun = next(n for n, k in kind.items() if k == "firearm")
    world = World({})
    assert fight._parry_problem(Declaration("a", "shoot", "b", bow), world) == ""
    assert fight._parry_problem(Declaration("a", "shoot", "b", gun), world) == "пулю отбить нельзя"


def test_the_fight_status_sums_each_sides_last_initiative_roll():
    """A side's initiative rolled again on a tie: its total is the last roll's."""
    enc = replace(
        Encounter(),
        sides=("Отряд", "Противники"),
        phase="declare",
        round=1,
        initiative=(
            {"side": "Отряд", "rolls": [[1, 1, 1, 1], [0, 0, 0, -1]]},
            {"side": "Противники", "rolls": [[1, 1, 1, 1], [-1, -1, 0, 0]]},
        ),
    )
    text = " ".join(status_lines(enc))
    assert "Отряд" in text and "= −1" in text and "= −2" in text and "= +4" not in text


def test_the_damage_prompt_names_the_keys_only_where_keys_are(tmp_path):
    """Шкуро's sabre hits (dice scripted: ++++ against ----); Горан may lower the wound with
    Судьба: the Бой tab's prompt names f and Enter, the command line's does not."""
    table, _store, _target = duel(tmp_path)
    _, enc, world = table.session.read()
    name = exchange_id(enc, table.view().pairing.key, 1)
    dice = {"attacker": [1, 1, 1, 1], "defender": [-1, -1, -1, -1]}
    line = LogEntry(
        "old",
        "2026-12-06T10:00:00",
        "combat",
        None,
        "",
        {"exchange": name, "dice": dice},
        undone=True,
    )
    world = replace(world, journal=lambda _n: [line])
    enc = fight.roll(enc, world).state
    enc = fight.accept(enc, world).state
    view = exchange_view(enc, world)
    assert view.stage == "damage" and view.reduce_options()
    assert damage_prompt(view).endswith("; f — снизить Судьбой, Enter — принять урон.")
    plain = damage_prompt(view, keys=False)
    assert plain.endswith(".") and "f —" not in plain and "Enter" not in plain
