"""Effects and the scene clock through the engine alone (:mod:`tui.table.effects`): added,
ticking with the round tracker's turns and the Древо fight's rounds, expiring, undone, removed,
hidden, the clock moved — each step one undo step against the real store, no Textual.
(The keys and the form: tests/tui/test_rounds.py.)"""

from __future__ import annotations

from rules.effects import EffectSet, EffectSpec, Now
from tests.table.helpers import duel
from tests.table.tracker import table
from tui.bridge.effects import EFFECTS_DOC, load_effects
from tui.systems.drevo.fight import steps as fight_steps
from tui.table.effects import steps
from tui.table.effects.time import FightTime
from tui.table.effects.view import choice_label, effect_lines, sheet_effects
from tui.table.rounds import steps as round_steps
from tui.widgets.common.effect_keys import effects_sheet_line


def test_an_effect_ticks_expires_and_undo_brings_it_back(tmp_path):
    """«Оглушён на 2 раунда», added on the actor's turn with −1: it counts in the checks
    until it expires by itself as that turn comes round twice, with a line in the Журнал;
    undoing that turn brings it back, in the same undo step."""
    t = table(tmp_path, "starately", seed=2)
    t.ok(round_steps.roll_initiative)
    actor = t.tracker.actor
    t.added(EffectSpec("Оглушён", actor, -1, "rounds", 2))
    assert [(e.name, e.modifier, e.amount, e.target) for e in t.effects.effects] == [
        ("Оглушён", -1, 2, actor)
    ]
    assert t.texts()[0] == f"Эффект «Оглушён −1» ({t.store.character(actor).name}): ещё 2 раунда"
    world = t.rounds.read().world
    assert [(m.value, m.reason) for m in world.modifiers(actor)] == [(-1, "эффект «Оглушён»")]
    turns = len(t.tracker.order)
    for _ in range(2 * turns - 1):
        t.ok(round_steps.next_turn)
    assert len(t.effects.effects) == 1  # the last turn of round 2
    t.ok(round_steps.next_turn)  # round 3, the actor's turn begins: it ends
    assert t.effects.effects == ()
    assert t.rounds.read().world.modifiers(actor) == ()
    assert "Эффект «Оглушён» закончился" in t.texts()[0]
    t.store.undo()
    assert [e.name for e in t.effects.effects] == ["Оглушён"] and t.tracker.round == 2


def test_the_scene_clock_warns_when_the_patrol_comes(tmp_path):
    """«Патруль обходит здание каждые 3 минуты»: the clock moved 2 minutes says nothing, one
    more and the patrol is due; a step out of range is refused with what to type."""
    t = table(tmp_path, "ide4")
    t.added(EffectSpec("Патруль", repeat_every=3, repeat_unit="minute", repeat_text="патруль"))
    assert t.clock(2).ok and t.effects.minute == 2
    assert not any("Пора" in x for x in t.texts())
    outcome = t.clock(1)
    assert t.effects.minute == 3
    assert t.texts()[0] == "Пора: патруль (эффект «Патруль») (сцена)"
    assert [line.data["notice"] for line in outcome.log] == ["due"]
    for wrong in (0, -3, steps.MAX_MINUTES + 1):
        assert t.clock(wrong).refused == steps.CLOCK_REFUSED
    assert t.clock(4).ok and t.effects.minute == 7


def test_minutes_of_scene_time_end_an_effect(tmp_path):
    """«Факел на 10 минут»: it ends when the clock reaches its minute, not before."""
    t = table(tmp_path, "wod")
    c = t.store.characters()[0]
    t.added(EffectSpec("Факел", c.id, 1, "minutes", 10))
    t.clock(9)
    assert [e.name for e in t.effects.effects] == ["Факел"]
    t.clock(1)
    assert t.effects.effects == ()
    assert t.texts()[0] == f"Эффект «Факел» закончился ({c.name})"


def test_an_effect_removed_and_hidden(tmp_path):
    """The GM removes an effect (a line in the Журнал) or hides one from the players (a
    notice, no line); an effect already gone is refused, nothing written."""
    t = table(tmp_path, "wod")
    c = t.store.characters()[0]
    t.added(EffectSpec("Горит", c.id, -1))
    t.added(EffectSpec("Темнота", modifier=-2))
    first, second = t.effects.effects
    hidden = t.effect(steps.toggle_hidden, first.id)
    assert hidden.notices == ("Эффект «Горит» скрыт от игроков",)
    assert [e.hidden for e in t.effects.effects] == [True, False]
    lines = effect_lines(t.effects, 0, {c.id: c.name})
    assert [choice_label(x) for x in lines] == [
        f"Горит −1 ({c.name}) — скрыт",
        "Темнота −2 (сцена)",
    ]
    t.effect(steps.remove, second.id)
    assert [e.name for e in t.effects.effects] == ["Горит"]
    assert t.texts()[0] == "Эффект «Темнота» снят"
    depth = t.store.depth
    assert t.effect(steps.remove, second.id).refused == steps.NO_SUCH_EFFECT
    assert t.store.depth == depth


def test_a_bad_effect_is_refused_with_what_to_do(tmp_path):
    """No name, an unknown duration, a removed target: refused, the reason says what to do."""
    t = table(tmp_path, "ide4")
    assert "Назовите эффект" in t.add(EffectSpec("  ")).refused
    assert "Длительность" in t.add(EffectSpec("Яд", duration="forever")).refused
    assert "нет в партии" in t.add(EffectSpec("Яд", target="nobody")).refused
    assert "чей ход" in t.add(EffectSpec("Яд", duration="turn_end")).refused
    assert t.store.get_doc(EFFECTS_DOC) is None and t.store.log() == []


def test_a_hidden_effects_lines_are_secret(tmp_path):
    """A hidden effect is not in the players' view; its Журнал lines (added, ended) are
    secret too, so the view's Журнал does not give it away."""
    t = table(tmp_path, "wod")
    t.added(EffectSpec("Засада", duration="minutes", amount=1, hidden=True))
    t.clock(1)
    added, ended = [e for e in t.store.log() if "Засада" in e.text][::-1]
    assert added.data.get("hidden") and ended.data.get("hidden")


def test_the_end_of_a_fight_ends_the_effects_counted_in_it(tmp_path):
    """Effects in rounds and turns cannot tick once the fight is over: they end with it (each
    with its line); a scene's minutes and «until removed» stay."""
    t = table(tmp_path, "ide4", seed=1)
    t.ok(round_steps.roll_initiative)
    actor = t.tracker.actor
    t.added(EffectSpec("Оглушён", actor, -1, "rounds", 3))
    t.added(EffectSpec("Ослеплён", actor, -1, "turn_end", anchor=actor))
    t.added(EffectSpec("Темнота", modifier=-1))
    t.added(EffectSpec("Факел", duration="minutes", amount=5))
    t.ok(round_steps.end)
    assert [e.name for e in t.effects.effects] == ["Темнота", "Факел"]
    texts = t.texts(3)
    assert texts[2] == "Конец боя"
    assert all("закончился" in x for x in texts[:2])
    t.store.undo()
    assert len(t.effects.effects) == 4 and t.tracker.started


def test_the_drevo_next_round_ticks_through_the_same_step(tmp_path):
    """The Древо fight's next round makes the effects' step: «на 1 раунд» ends with round 1,
    in the same undo step (play-test: such effects never ended in a Древо fight; the Журнал
    says so, and the undo marks both lines); a round with nothing to tick leaves the effects'
    document alone (another window's change to it stays). (The key `n`:
    tests/tui/test_combat_pace.py::test_a_three_against_three_round_of_unchanged_declarations_is_under_twenty_keys.)"""
    fight, store, target = duel(tmp_path)
    shkuro = next(c for c in store.characters() if c.name == "Атаман Шкуро")
    e, _ = EffectSet().add(EffectSpec("Оглушён", shkuro.id, -1, "rounds", 1), Now())
    store.put_doc(EFFECTS_DOC, e.to_dict(), label="effect")
    resolve(fight)
    outcome = fight.ok(fight_steps.next_round)
    assert fight.enc.round == 2
    assert load_effects(store).effects == ()
    expired = [x for x in outcome.log if x.data.get("notice") == "expired"]
    assert [x.text for x in expired] == ["Эффект «Оглушён» закончился (Атаман Шкуро)"]
    assert expired[0].data["at"] == ["round_end", 1, ""]
    assert "Эффект «Оглушён» закончился (Атаман Шкуро)" in [e.text for e in store.log()]
    store.undo()
    assert fight.enc.round == 1
    assert [x.name for x in load_effects(store).effects] == ["Оглушён"]
    marked = {e.text.split(":")[0]: e.undone for e in store.log()[:2]}  # one undo step
    assert marked == {"Эффект «Оглушён» закончился (Атаман Шкуро)": True, "Раунд 2": True}
    (tmp_path / "quiet").mkdir()
    quiet, quiet_store, _ = duel(tmp_path / "quiet")
    resolve(quiet)
    assert EFFECTS_DOC not in quiet.ok(fight_steps.next_round).docs
    assert quiet_store.get_doc(EFFECTS_DOC) is None


def resolve(fight) -> None:
    """Roll and accept every exchange of the round."""
    while fight.stage():
        fight.ok(fight_steps.roll if fight.stage() == "plan" else fight_steps.accept)


def test_the_party_sheet_lists_the_characters_and_the_scenes_effects(tmp_path):
    """The Партия tab's sheet: «Эффекты: Оглушён −1 (пока не снимут), Темнота −2 (сцена, …)»;
    nothing when there are none."""
    t = table(tmp_path, "drevo")
    c, other = t.store.characters()[:2]
    assert effects_sheet_line(t.store, c) == ""
    t.added(EffectSpec("Оглушён", c.id, -1))
    t.added(EffectSpec("Темнота", modifier=-2, duration="minutes", amount=3))
    t.added(EffectSpec("Яд", other.id, -1))
    assert sheet_effects(t.effects, 0, {}, c.id) == (
        "Оглушён −1 (пока не снимут), Темнота −2 (сцена, ещё 3 мин)"
    )
    assert effects_sheet_line(t.store, c).endswith(
        "[b]Эффекты:[/b] Оглушён −1 (пока не снимут), Темнота −2 (сцена, ещё 3 мин)"
    )


def test_an_effect_added_during_a_fight_starts_where_it_stands(tmp_path):
    """An effect added in round 2 on X's turn, «until the end of X's next turn», ends at the
    end of X's turn in round 3, not this one."""
    t = table(tmp_path, "wod", seed=4)
    t.ok(round_steps.roll_initiative)
    for _ in range(len(t.tracker.order)):
        t.ok(round_steps.next_turn)
    actor = t.tracker.actor
    assert t.tracker.round == 2
    t.added(EffectSpec("Щит", actor, 1, "turn_end", anchor=actor))
    (shield,) = t.effects.effects
    assert shield.expires == ("turn_end", actor, 3) and shield.started_round == 2
    t.ok(round_steps.next_turn)
    assert [e.name for e in t.effects.effects] == ["Щит"]
    while t.tracker.round < 3 or t.tracker.actor != actor:
        t.ok(round_steps.next_turn)
    assert [e.name for e in t.effects.effects] == ["Щит"]
    t.ok(round_steps.next_turn)
    assert t.effects.effects == ()


def test_a_second_window_adding_an_effect_keeps_a_turn_that_ticks_nothing(tmp_path):
    """A turn that ends no effect does not write the effects: another window's new effect,
    added after this one read the fight, stays."""
    from tui.store import Store

    t = table(tmp_path, "ide4", seed=1)
    t.ok(round_steps.roll_initiative)
    read = t.rounds.read()
    other = Store.open(t.store.path)
    e, _ = EffectSet().add(EffectSpec("Темнота", modifier=-1), Now())
    other.put_doc(EFFECTS_DOC, e.to_dict(), label="effect")
    other.close()
    t.store.refresh()
    outcome = round_steps.next_turn(read.tracker, read.world)
    from tui.table.rounds.session import write

    write(t.store, outcome, read)
    assert [x.name for x in t.effects.effects] == ["Темнота"] and t.tracker.turn == 1


def test_where_the_fight_stands_for_an_effect(tmp_path):
    """An effect added now starts where the campaign's fight stands: the round tracker's
    round, actor and order (a removed character out of them), the Древо fight's round (no
    turns), or round 0 and the whole party outside a fight."""
    from tui.table.effects.time import fight_time

    t = table(tmp_path, "ide4", seed=1)
    chars = {c.id: c for c in t.store.characters()}
    assert fight_time("ide4", t.store.get_doc, chars) == FightTime(0, "", tuple(chars))
    t.ok(round_steps.roll_initiative)
    order = t.tracker.order
    assert fight_time("ide4", t.store.get_doc, chars) == FightTime(1, order[0], order)
    t.store.delete_character(order[0])
    chars = {c.id: c for c in t.store.characters()}
    assert fight_time("ide4", t.store.get_doc, chars) == FightTime(1, order[1], order[1:])
    _, store, _ = duel(tmp_path)
    people = {c.id: c for c in store.characters()}
    assert fight_time("drevo", store.get_doc, people) == FightTime(1, "", tuple(people))
