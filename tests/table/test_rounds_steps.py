"""The round tracker of IDE4, Старатели and Мир Тьмы through the engine alone
(:mod:`tui.table.rounds`): initiative, turns, harm, what the Бой tab shows — each step one
undo step against the real store, no Textual. (The keys and the screen: tests/tui/test_rounds.py.)
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.data import packaged_table, set_overrides
from rules.effects import EffectSpec
from rules.rounds import Entrant, InitiativeRoll, Tracker
from rules.rounds import health as wod_health
from tests.table.tracker import table
from tui.bridge.effects import ROUNDS_DOC
from tui.bridge.luck import read_sessions
from tui.bridge.public import public_rounds
from tui.store import LogEntry, Store
from tui.table.rounds import steps
from tui.table.rounds.state import current
from tui.table.rounds.view import rounds_view

SYSTEMS = ["ide4", "starately", "wod"]


def shown_words(view) -> str:
    """Every word the Бой tab draws from a view."""
    parts = [view.system_name, view.rule.text, view.actor_name]
    for r in view.rows:
        parts += [r.number, r.side, r.name, r.initiative, r.harm, r.effects]
    return " ".join(parts)


@pytest.mark.parametrize("system", SYSTEMS)
def test_initiative_and_four_rounds(tmp_path, system):
    """«the Бой tab runs rounds with that system's own dice and words, never Fudge dice,
    wound tracks or «черта»»: initiative the system's way, best first; four rounds of turns,
    each actor once a round in the order; the Журнал says each new round."""
    t = table(tmp_path, system, seed=5)
    t.ok(steps.roll_initiative)
    tracker = t.tracker
    assert tracker.round == 1 and len(tracker.order) == 6
    keys = [tracker.rolls[i].key for i in tracker.order]
    assert keys == sorted(keys, reverse=True)
    seen = [(tracker.round, tracker.actor)]
    for _ in range(4 * 6 - 1):
        t.ok(steps.next_turn)
        seen.append((t.tracker.round, t.tracker.actor))
    assert seen == [(r, a) for r in range(1, 5) for a in tracker.order]
    texts = t.texts()
    assert any(x.startswith("Инициатива (") for x in texts)
    assert [x for x in texts if x.startswith("Раунд")] == ["Раунд 4", "Раунд 3", "Раунд 2"]
    words = shown_words(t.view())
    assert "4dF" not in words and "черта" not in words and "Раны" not in words
    assert t.store.depth[0] == 24  # initiative and 23 turns: one undo step each


def test_initiative_refused_with_nobody_in_the_fight_writes_nothing(tmp_path):
    """Everyone out («—»): initiative is refused with what to do; nothing is written."""
    t = table(tmp_path, "wod")
    for c in t.store.characters():
        t.ok(steps.set_side, c.id, steps.OUT)
    depth = t.store.depth
    outcome = t.run(steps.roll_initiative)
    assert "добавьте участников" in outcome.refused
    assert t.store.depth == depth and t.store.log() == []


def test_sides_cycle_and_keep_the_roster_order(tmp_path):
    """Space: «—» → Отряд → Противники → Третья сторона → «—»; a character moved to another
    side keeps its place in the roster; once initiative is rolled, sides stay."""
    t = table(tmp_path, "starately")
    first, second = t.tracker.entrants[:2]
    seen, places = [], []
    for _ in range(4):
        t.ok(steps.cycle_side, second.id)
        e = t.tracker.entrant(second.id)
        seen.append(e.side if e else steps.OUT)
        places.append([e.id for e in t.tracker.entrants].index(second.id) if e else None)
    assert seen == ["Противники", "Третья сторона", steps.OUT, "Отряд"]
    assert places[:2] == [1, 1]
    t.ok(steps.roll_initiative)
    assert steps.RUNNING == t.run(steps.cycle_side, first.id).refused


@pytest.fixture
def per_side():
    """The campaign rolls initiative per side (a setting of rounds/initiative.toml)."""
    tables = {k: dict(v) for k, v in packaged_table("rounds/initiative.toml").items()}
    tables["initiative"]["per"] = "side"
    set_overrides({"rounds/initiative.toml": tables})
    yield
    set_overrides({})


def test_initiative_per_side_is_a_campaign_setting(tmp_path, per_side):
    """«initiative per combatant (or per side, a campaign setting)»: with «per = side» each
    side rolls once and its members act together; the rule line says so, and each member's
    row shows its side's roll."""
    t = table(tmp_path, "starately", seed=1)
    t.ok(steps.roll_initiative)
    tracker = t.tracker
    assert set(tracker.rolls) == {"Отряд", "Противники"}
    sides = [tracker.entrant(i).side for i in tracker.order]
    assert sides == sorted(sides, key=sides.index)  # each side's members together
    view = t.view()
    assert "по сторонам" in view.rule.text
    for row in view.rows:
        assert row.initiative == tracker.rolls[row.side].text


def test_a_tie_shows_the_roll_that_broke_it(tmp_path):
    """data/rounds/initiative.toml: «"reroll" — the tied ones roll again among themselves
    (only to order them)». Play-test: two «Средне · 47» stood one above the other with nothing
    saying why; the tie-break roll is shown."""
    t = table(tmp_path, "ide4")
    a, b, c = t.store.characters()[:3]
    tracker = Tracker("ide4", tuple(Entrant(x.id, x.name, "Отряд") for x in (a, b, c)))
    rolls = {
        a.id: InitiativeRoll(a.id, (3, 47), 0, "Средне · 47", rerolls=(63,)),
        b.id: InitiativeRoll(b.id, (3, 47), 0, "Средне · 47", rerolls=(12,)),
        c.id: InitiativeRoll(c.id, (4, 70), 0, "Успех · 70"),
    }
    tracker, _ = tracker.start((c.id, a.id, b.id), rolls)
    t.store.put_doc(ROUNDS_DOC, tracker.to_dict(), label="Инициатива")
    view = t.view()
    assert view.row(a.id).initiative == "Средне · 47 (ничья: 63)"
    assert view.row(b.id).initiative == "Средне · 47 (ничья: 12)"
    assert view.row(c.id).initiative == "Успех · 70"
    assert [r.number for r in view.rows[:3]] == ["▶ 1", "2", "3"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_actors_opponents_are_the_other_sides_first(tmp_path, system):
    """The actor's opposed check faces the other sides' fighters first, then its own side's,
    each in the turn order."""
    t = table(tmp_path, system, seed=5)
    t.ok(steps.roll_initiative)
    tracker, view = t.tracker, t.view()
    mine = tracker.entrant(tracker.actor).side
    others = [i for i in tracker.order if tracker.entrant(i).side != mine]
    own = [i for i in tracker.order if tracker.entrant(i).side == mine and i != tracker.actor]
    assert view.opponents == (*others, *own) and others


def test_a_character_removed_mid_fight_leaves_the_order(tmp_path):
    """Play-test: the GM's tracker dropped a removed character, the players' view and the
    seats still showed them in «Порядок» until the GM's next turn. Removed by another kubik
    (the CLI), they are out of the fight as it stands, of every row, and of the players'
    order; the next turn goes on without them."""
    t = table(tmp_path, "wod", seed=1)
    t.ok(steps.roll_initiative)
    gone = t.store.character(t.tracker.order[1])
    other = Store.open(t.store.path)
    other.delete_character(gone.id)
    other.close()
    t.store.refresh()
    tracker, view = t.tracker, t.view()
    assert gone.id not in tracker.order and tracker.entrant(gone.id) is None
    assert gone.id not in [r.id for r in view.rows]
    order = public_rounds(t.store.get_doc(ROUNDS_DOC), t.store.characters())[1]
    assert gone.name not in order and order.startswith("Порядок: ")
    t.ok(steps.next_turn)
    assert t.tracker.actor != gone.id and gone.id not in t.store.get_doc(ROUNDS_DOC)["order"]


def test_a_renamed_character_is_shown_under_the_new_name(tmp_path):
    """The fight follows the party: a rename elsewhere is the row's and the status's name."""
    t = table(tmp_path, "ide4", seed=2)
    t.ok(steps.roll_initiative)
    actor = t.store.character(t.tracker.actor)
    t.store.upsert_character(replace(actor, name="Новое имя"))
    view = t.view()
    assert view.actor_name == "Новое имя" and view.row(actor.id).name == "Новое имя"
    assert t.tracker.entrant(actor.id).name == "Новое имя"


def test_a_damaged_fight_says_to_start_a_new_one(tmp_path):
    """A stored fight that cannot be read is refused with what to do (the pane starts anew)."""
    from rules.errors import RulesError

    t = table(tmp_path, "ide4")
    t.store.put_doc(ROUNDS_DOC, {"system": "ide4", "round": 2, "turn": 9, "order": []}, label="x")
    with pytest.raises(RulesError, match="начните новый"):
        current(t.store.get_doc(ROUNDS_DOC), t.rounds.read().world)


def test_the_end_of_the_fight_keeps_the_roster(tmp_path):
    """x: back to the setup, the sides kept; «Конец боя» in the Журнал; nothing to end then."""
    t = table(tmp_path, "starately", seed=2)
    t.ok(steps.roll_initiative)
    roster = t.tracker.entrants
    t.ok(steps.end)
    assert not t.tracker.started and t.tracker.entrants == roster
    assert t.texts()[0] == "Конец боя"
    assert t.run(steps.end).refused == steps.NOT_STARTED


# -- harm ------------------------------------------------------------------------------------------


def test_a_harm_note_is_written_and_cleared(tmp_path):
    """IDE4 and Старатели: harm is a free note on the sheet, written with its Журнал line;
    empty clears it. Мир Тьмы has the health track instead."""
    t = table(tmp_path, "ide4")
    c = t.store.characters()[0]
    t.ok(steps.harm_note, c.id, "сломана рука")
    assert t.store.character(c.id).starately.harm == "сломана рука"
    assert t.view().row(c.id).harm == "сломана рука"
    assert t.texts()[0] == "Вред: сломана рука"
    t.ok(steps.harm_note, c.id, "")
    assert t.store.character(c.id).starately.harm == "" and t.texts()[0] == "Вред снят"
    assert t.store.get_doc(ROUNDS_DOC) is None  # harm does not touch the fight
    assert t.run(steps.damage, c.id, "lethal").refused
    w = table(tmp_path, "wod")
    assert w.run(steps.harm_note, w.store.characters()[0].id, "x").refused


def test_wod_health_track_and_its_penalty(tmp_path):
    """Мир Тьмы: «a health track of boxes ([default], the seed has none) with its dice
    penalty» — a box of damage marked, the mildest healed; the penalty shows in the row and
    enters the fighter's initiative modifiers."""
    t = table(tmp_path, "wod")
    c = t.store.characters()[0]
    t.store.upsert_character(replace(c, extra={**c.extra, "health": ["lethal"] * 4}))
    assert t.view().row(c.id).harm == "XXXX···"  # Выносливость 2 + 5 = 7 boxes
    t.ok(steps.damage, c.id, "lethal")  # the fifth mark is −1
    assert t.store.character(c.id).wod.health == ("lethal",) * 5
    assert t.view().row(c.id).harm == "XXXXX·· −1"
    lethal = wod_health.rules().names["lethal"]
    assert t.texts()[0] == f"Здоровье, урон: {lethal}: [X][X][X][X][X][ ][ ], штраф −1"
    world = t.rounds.read().world
    fighter = steps.fighter(t.tracker.entrant(c.id), world.characters[c.id], world)
    assert [(m.reason, m.value) for m in fighter.modifiers] == [("здоровье", -1)]
    t.ok(steps.heal, c.id)
    assert t.store.character(c.id).wod.health == ("lethal",) * 4
    assert "неизвестен" in t.run(steps.damage, c.id, "fire").refused
    fresh = t.store.characters()[1]
    assert "лечить нечего" in t.run(steps.heal, fresh.id).refused


# -- the luck ledger -------------------------------------------------------------------------------


@pytest.mark.parametrize("system", ["starately", "wod"])
def test_initiative_counts_for_each_fighter_in_the_ledger(tmp_path, system):
    """The initiative of Старатели or Мир Тьмы: every fighter's dice are in the luck ledger
    under its name; an older entry without the names reads them from its line."""
    t = table(tmp_path, system, seed=5)
    t.ok(steps.roll_initiative)
    names = {e.id: e.name for e in t.tracker.entrants}
    entries = list(reversed(t.store.log()))
    rolls = read_sessions(entries)[-1].rolls
    assert sorted(r.who for r in rolls) == sorted(names[i] for i in t.tracker.order)
    line = next(e for e in entries if e.text.startswith("Инициатива ("))
    older = {k: v for k, v in line.data.items() if k not in ("names", "luck", "percentile")}
    old = LogEntry("old", line.at, line.kind, None, line.text, older)
    assert [r.who for r in read_sessions([old])[0].rolls] == [r.who for r in rolls]


def test_the_view_is_derived_from_the_sheets_now(tmp_path):
    """Nothing shown is a copy: a sheet or an effect changed elsewhere is in the next view."""
    t = table(tmp_path, "ide4", seed=2)
    t.ok(steps.roll_initiative)
    c = t.store.character(t.tracker.actor)
    t.added(EffectSpec("Оглушён", c.id, -1))
    other = Store.open(t.store.path)
    other.upsert_character(replace(c, extra={**c.extra, "harm": "ожог"}))
    other.close()
    t.store.refresh()
    read = t.rounds.read()
    view = rounds_view(read.tracker, read.world.effects, read.world.characters, "ide4")
    assert view.row(c.id).harm == "ожог" and view.row(c.id).effects == "Оглушён −1"


@pytest.mark.parametrize("system", SYSTEMS)
def test_initiative_rolled_again_after_an_undo_is_the_same_roll(tmp_path, system):
    """PLAYBOOK: «No way to roll the same thing twice.» Ctrl+Z of the initiative and `i` again
    (in this window or after a restart, with other dice) gives the same order and rolls, and
    the line says so; the same fighters on other sides roll anew."""
    t = table(tmp_path, system, seed=5)
    first = t.ok(steps.roll_initiative).state
    assert t.store.undo() == "Инициатива, раунд 1"
    again = table(tmp_path, system, seed=99)  # a restart: another roller
    second = again.ok(steps.roll_initiative).state
    assert (second.order, second.rolls) == (first.order, first.rolls)
    assert again.texts()[0].startswith(f"Инициатива ({t.view().system_name}) (те же кубики")
    assert again.store.undo() == "Инициатива, раунд 1"
    mover = again.tracker.entrants[0]
    other = "Противники" if mover.side != "Противники" else "Отряд"
    again.ok(steps.set_side, mover.id, other)
    third = again.ok(steps.roll_initiative).state
    assert "те же кубики" not in again.texts()[0], "other sides: a new roll"
    assert set(third.order) == set(first.order)
