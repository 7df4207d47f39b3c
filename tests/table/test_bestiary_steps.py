"""The bestiary on the table engine (:mod:`tui.table.bestiary`): NPCs from templates, prepared
encounters into the fight being set up and out again — each one step, one undo step, against
the real store, no Textual."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.encounter import Encounter
from rules.rounds import Tracker
from tests.hypo import examples
from tui.store import Store
from tui.store.bestiary import ENCOUNTERS_DOC, Group, Prepared
from tui.table.bestiary import spawn, steps
from tui.table.bestiary.session import BestiarySession
from tui.table.core import Dice

SYSTEMS = ["drevo", "ide4", "starately", "wod"]
ENCOUNTER = {
    "drevo": "Засада у брода",
    "ide4": "Логово врага",
    "starately": "Вражеский катер",
    "wod": "Подвал культа",
}


def session(tmp_path, system="drevo", seed=5):
    store = Store.open(tmp_path / f"{system}.json", system=system)
    return store, BestiarySession(store, Dice(random.Random(seed)))


def fight_sides(store: Store) -> dict[str, str]:
    """Who stands on which side in the fight being set up: name → side."""
    system = store.campaign.system
    doc = store.get_doc(steps.fight_doc(system))
    if system == "drevo":
        return {c.name: c.side for c in Encounter.from_dict(doc).combatants}
    return {e.name: e.side for e in Tracker.from_dict(doc).entrants}


def test_numbered_names():
    assert spawn.numbered("Разбойник", 3, []) == ["Разбойник 1", "Разбойник 2", "Разбойник 3"]
    assert spawn.numbered("Атаман", 1, []) == ["Атаман"]
    assert spawn.numbered("Атаман", 1, ["атаман"]) == ["Атаман 2"]
    assert spawn.numbered("Волк", 2, ["Волк 1", "Волк 5", "Волкодав 9"]) == ["Волк 6", "Волк 7"]
    # kubik's numbers are the digits 0–9: «Волк ٣» (typed) is not its third wolf («\d» read 3)
    assert spawn.numbered("Волк", 2, ["Волк ٣", "Волк ３"]) == ["Волк 1", "Волк 2"]


def test_spread_stays_in_its_bounds_and_keeps_absent_skills():
    """A spread moves each trait by at most N, never past the table's bounds, and gives no
    skill the template lacks (a skill at 0 stays 0)."""
    from rules.data import packaged_table
    from tui.store.bestiary_toml import starter

    table = packaged_table(spawn.VARIATION_TABLE)
    t = starter("ide4").template("Охранник")
    rng = random.Random(1)
    for _ in range(200):
        c = spawn.varied(t.sheet, "ide4", table, rng)
        for q, v in c.qualities.items():
            assert abs(v - t.sheet.qualities[q]) <= 1 and 1 <= v <= 6
        for s, base in zip(c.skills, t.sheet.skills, strict=True):
            assert abs(s.value - base.value) <= 10 and 0 <= s.value <= 100
    seen = {spawn.varied(t.sheet, "ide4", table, rng).qualities["Сила"] for _ in range(100)}
    assert seen == {3, 4, 5}  # all three of −1, 0, +1 happen


@pytest.mark.parametrize("system", SYSTEMS)
def test_add_five_from_a_template_is_one_undo_step(tmp_path, system):
    store, s = session(tmp_path, system)
    name = s.read().shelf.bestiary.templates[0].name
    before = {c.id for c in store.characters()}
    out = s.run(steps.add_from_template, name, 5)
    assert out.ok, out.refused
    new = [c for c in store.characters() if c.id not in before]
    assert sorted(c.name for c in new) == [f"{name} {i}" for i in range(1, 6)]
    assert all(c.kind == "npc" and c.from_template == name for c in new)
    store.undo()
    assert {c.id for c in store.characters()} == before
    store.close()


def test_add_refuses_a_bad_count_and_an_unknown_template(tmp_path):
    store, s = session(tmp_path)
    for count in (0, 51):
        out = s.run(steps.add_from_template, "Разбойник", count)
        assert "от 1 до 50" in out.refused
    out = s.run(steps.add_from_template, "Дракон", 2)
    assert "Шаблона «Дракон» нет" in out.refused and "Разбойник" in out.refused
    assert not store.can_undo
    store.close()


def test_add_with_a_side_joins_the_fight_being_set_up(tmp_path):
    store, s = session(tmp_path, "drevo")
    assert s.run(steps.add_from_template, "Волк", 3, side="Третья сторона").ok
    sides = fight_sides(store)
    assert [sides[f"Волк {i}"] for i in (1, 2, 3)] == ["Третья сторона"] * 3
    assert sides["Ярослав Кречет"] == "Отряд"  # the rest of the default setup stands
    store.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_load_an_encounter_then_remove_what_it_brought(tmp_path, system):
    """«in Бой setup one key lists them and loads one: the NPCs join with their sides,
    hidden from the players if the encounter says so. After the fight one key removes the
    NPCs that the encounter brought.» Each one undo step."""
    store, s = session(tmp_path, system)
    e = s.read().shelf.bestiary.encounter(ENCOUNTER[system])
    before = {c.id: c for c in store.characters()}
    out = s.run(steps.load_encounter, e.name)
    assert out.ok, out.refused
    new = [c for c in store.characters() if c.id not in before]
    assert len(new) == e.size
    assert Counter(c.from_template for c in new) == Counter({g.template: g.count for g in e.groups})
    assert all(c.hidden == e.hidden for c in new)
    sides = fight_sides(store)
    for c in new:
        group = next(g for g in e.groups if g.template == c.from_template)
        assert sides[c.name] == group.side
    entry = store.log(limit=1)[0]
    assert e.name in entry.text and entry.data["hidden"] is True  # the GM's line only
    out = s.run(steps.remove_brought, e.name)
    assert out.ok, out.refused
    assert {c.id for c in store.characters()} == set(before)
    assert set(fight_sides(store)) == {c.name for c in before.values() if c.name in sides}
    store.undo()
    assert len(store.characters()) == len(before) + e.size
    store.undo()
    assert {c.id for c in store.characters()} == set(before)
    store.close()


def test_twelve_npcs_of_a_prepared_encounter(tmp_path):
    """Done when a GM prepares «Засада у брода» and has twelve NPCs on their sides with one key."""
    store, s = session(tmp_path, "starately")
    e = Prepared(
        "e1",
        "Засада у брода",
        (Group("Главарь", 1), Group("Головорез", 8), Group("Стрелок", 3, "Засада")),
        hidden=True,
    )
    assert s.run(steps.put_encounter, e).ok
    assert store.get_doc(ENCOUNTERS_DOC)["encounters"]["e1"]["name"] == "Засада у брода"
    assert s.run(steps.load_encounter, "засада у брода").ok
    sides = fight_sides(store)
    assert Counter(sides.values())["Противники"] == 9 + 2  # and the demo's two NPCs
    assert [sides[f"Стрелок {i}"] for i in (1, 2, 3)] == ["Засада"] * 3
    store.close()


def test_an_encounter_with_a_missing_template_is_refused(tmp_path):
    store, s = session(tmp_path, "wod")
    e = Prepared("e", "Пустая", (Group("Дракон", 2),))
    assert "Шаблона «Дракон» нет" in s.run(steps.put_encounter, e).refused
    assert "Сцены «Пустая» нет" in s.run(steps.load_encounter, "Пустая").refused
    store.close()


def test_a_running_drevo_fight_refuses_a_load_and_a_removal(tmp_path):
    from tests.table.helpers import Table
    from tui.systems.drevo.fight import steps as fight

    store, s = session(tmp_path, "drevo")
    assert s.run(steps.load_encounter, "Волчья стая").ok
    Table(store).ok(fight.roll_initiative)
    assert "НИП не добавлены в бой" in s.run(steps.load_encounter, "Засада у брода").refused
    assert "после боя" in s.run(steps.remove_brought, "Волчья стая").refused
    store.close()


def test_save_a_character_as_a_template_and_remove_it(tmp_path):
    store, s = session(tmp_path, "drevo")
    lyko = next(c for c in store.characters() if c.name == "Лыко")
    assert s.run(steps.save_character, lyko.id, ("разбойники",)).ok
    t = s.read().shelf.bestiary.template("Лыко")
    assert not t.default and t.tags == ("разбойники",)
    assert t.sheet.qualities == lyko.qualities and t.sheet.weapons == lyko.weapons
    out = s.run(steps.add_from_template, "Лыко", 2)
    assert [c.name for c in out.sheets] == ["Лыко 2", "Лыко 3"]  # «Лыко» is taken
    assert s.run(steps.remove_template, "Лыко").ok
    assert s.read().shelf.bestiary.template("Лыко") is None
    assert "стартового бестиария" in s.run(steps.remove_template, "Волк").refused
    store.close()


def test_npcs_named_otherwise_are_marked_with_their_templates_name(tmp_path):
    """``kubik party add Копия --from Волк``: the NPCs are «Копия 1…», made from «Волк»."""
    store, s = session(tmp_path, "drevo")
    out = s.run(steps.add_from_template, "Волк", 2, name="Серый")
    assert [c.name for c in out.sheets] == ["Серый 1", "Серый 2"]
    assert [c.from_template for c in out.sheets] == ["Волк", "Волк"]
    store.close()


def test_a_player_characters_template_leaves_the_seat_behind(tmp_path):
    """A template made of a seat's player character makes NPCs nobody plays: the ``player``
    mark stays with the character, as its wounds and its hidden mark do."""
    store, s = session(tmp_path, "ide4")
    pc = next(c for c in store.characters() if c.kind == "pc")
    store.upsert_character(replace(pc, player="Маша"), label="Игрок")
    assert s.run(steps.save_character, pc.id).ok
    assert s.read().shelf.bestiary.template(pc.name).sheet.player == ""
    out = s.run(steps.add_from_template, pc.name, 2)
    assert [c.player for c in out.sheets] == ["", ""]
    # A template stored with the mark (an older kubik's, a TOML file) makes no seat's NPCs.
    t = s.read().shelf.bestiary.template(pc.name)
    held = replace(t, sheet=replace(t.sheet, player="Маша"))
    assert [spawn.made(held, "Тень", "id1").player] == [""]
    store.close()


# -- adding N and undoing leaves the campaign exactly as before ------------------------------


def snapshot(store: Store) -> tuple:
    import json

    docs = {n: store.get_doc(n) for n in ("encounter", "rounds", "bestiary", "encounters")}
    chars = sorted(
        json.dumps(c.__dict__ | {"origin": None}, default=str, sort_keys=True)
        for c in store.characters()
    )
    return chars, json.dumps(docs, sort_keys=True)


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    system=st.sampled_from(SYSTEMS),
    counts=st.lists(st.integers(1, 50), min_size=1, max_size=3),
    side=st.sampled_from([None, "Противники", "Засада"]),
    spread=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_adding_n_and_undoing_leaves_the_campaign_as_before(
    tmp_path_factory, system, counts, side, spread, seed
):
    """Whatever was added — several groups, into the fight or not, varied or not — each undo
    takes back exactly one add, and all of them leave the campaign as it was."""
    path = tmp_path_factory.mktemp("undo")
    store, s = session(path, system, seed)
    shelf = s.read().shelf
    before = snapshot(store)
    states = []
    for i, count in enumerate(counts):
        states.append(snapshot(store))
        t = shelf.bestiary.templates[i % len(shelf.bestiary.templates)].name
        variation = spawn.SPREAD if spread else None
        assert s.run(steps.add_from_template, t, count, side=side, variation=variation).ok
    for state in reversed(states):
        store.undo()
        assert snapshot(store) == state
    assert snapshot(store) == before
    store.close()


def test_the_campaigns_variation_table_is_the_one_applied(tmp_path):
    """«optionally with the variation the campaign allows (a [default] table: none, or a
    trait spread)»: kubik's table adds everyone alike; the campaign's «spread» varies them;
    a hand-broken one is ignored for kubik's."""
    import copy

    from rules.data import packaged_table

    store, s = session(tmp_path, "wod", seed=11)
    alike = s.run(steps.add_from_template, "Бандит", 10).sheets
    assert len({tuple(c.qualities.values()) for c in alike}) == 1
    table = copy.deepcopy(packaged_table(spawn.VARIATION_TABLE))
    table["variation"]["mode"] = spawn.SPREAD
    store.put_doc("settings", {spawn.VARIATION_TABLE: table}, label="разброс")
    varied = s.run(steps.add_from_template, "Бандит", 10).sheets
    assert len({tuple(c.qualities.values()) for c in varied}) > 1
    table["variation"]["mode"] = "wild"
    store.put_doc("settings", {spawn.VARIATION_TABLE: table}, label="сломано")
    again = s.run(steps.add_from_template, "Бандит", 10).sheets
    assert len({tuple(c.qualities.values()) for c in again}) == 1
    store.close()
