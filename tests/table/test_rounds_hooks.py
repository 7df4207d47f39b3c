"""Each system's part of the round tracker (``tui/systems/<name>/rounds.py``), reached through
its ``System.rounds``: harm as a note or a health track, the penalty, the fighter's energy.
The steps that use them: tests/table/test_rounds_steps.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RulesError
from rules.rounds import health
from tui import registry
from tui.bridge.effects import harm_modifier
from tui.bridge.public import combat_names, state_mark
from tui.registry.rounds import NO_ENERGY
from tui.store.demo import demo_campaign
from tui.table.rounds import steps

NOTES = ["ide4", "starately"]


def first(system: str):
    return demo_campaign(system)[2][0]


def test_the_round_tracker_has_a_hook_of_each_system_it_runs():
    """A system whose fight is not one of its own (no ``fight_engine``) names its hook; one
    with its own fight (Древо) names none, and the tracker refuses to run it."""
    for system in registry.all_systems():
        hook = registry.rounds_hook(system.name)
        assert (hook is None) == (system.fight_engine is not None), system.name
    assert [s.name for s in registry.all_systems() if s.rounds] == ["ide4", "starately", "wod"]
    with pytest.raises(LookupError):
        steps.hook("drevo")
    assert harm_modifier("drevo", first("drevo")) is None


@pytest.mark.parametrize("system", NOTES)
def test_a_note_system_writes_harm_on_its_own_sheet(system):
    """IDE4 and Старатели: harm is a note on the system's own sheet, the «Вред» column; no
    boxes to mark or heal, no penalty."""
    hook = steps.hook(system)
    c = first(system)
    assert (hook.column, hook.marked, hook.kinds()) == ("Вред", False, ())
    harmed = hook.note(c, "  сломана рука ")
    assert type(harmed.character.sheet) is type(c.sheet)  # its own sheet, nothing carried
    assert harmed.character.carried == c.carried
    assert hook.text(harmed.character) == harmed.character.harm == "сломана рука"
    assert (harmed.label, harmed.text) == ("вред", "Вред: сломана рука")
    assert hook.note(harmed.character, "").text == "Вред снят"
    assert hook.penalty(harmed.character) is None
    for step in (lambda: hook.damage(c, "lethal"), lambda: hook.heal(c)):
        with pytest.raises(RulesError, match="здесь вред — заметка"):
            step()


def test_ide4_brings_its_energy_to_the_initiative_and_the_others_none():
    """IDE4's fighter carries the sheet's energy; Старатели and Мир Тьмы keep none (the
    initiative rules' default)."""
    from rules.ide4.sheet import Ide4Sheet

    c = first("ide4").edit_sheet(Ide4Sheet, energy=37)
    assert steps.hook("ide4").energy(c) == 37
    for system in ("starately", "wod"):
        assert steps.hook(system).energy(first(system)) == NO_ENERGY == 100


def test_wod_marks_its_health_track_by_kind():
    """Мир Тьмы: «a health track of boxes ([default], the seed has none) with its dice
    penalty» — the «Здоровье» column, damage chosen among the table's kinds, a box healed, the
    penalty of the filled last boxes a modifier of its checks."""
    hook = steps.hook("wod")
    table = health.rules()
    assert (hook.column, hook.marked) == ("Здоровье", True)
    assert hook.kinds() == tuple((f"{table.names[k]} {table.marks[k]}", k) for k in table.kinds)
    c = first("wod")
    total = health.boxes(c.qualities)
    assert hook.penalty(c) is None and harm_modifier("wod", c) is None
    for n in range(1, total + 1):
        c = hook.damage(c, "lethal").character
        assert c.wod.health == ("lethal",) * n
        pen = health.penalty(["lethal"] * n, total)
        mod = hook.penalty(c)
        got = (mod.value, mod.reason) if mod else None
        assert got == ((pen, "здоровье") if pen else None)
        assert harm_modifier("wod", c) == mod
        assert hook.text(c) == health.compact(["lethal"] * n, total) + (
            f" {pen}".replace("-", "−") if pen else ""
        )
    healed = hook.heal(c)
    assert healed.character.wod.health == ("lethal",) * (total - 1)
    assert healed.label == "лечение" and healed.text.startswith("Здоровье, лечение: ")
    with pytest.raises(RulesError, match="выберите вид урона"):
        hook.note(c, "x")
    with pytest.raises(RulesError, match="лечить нечего"):
        hook.heal(first("wod"))


def test_a_system_without_wounds_marks_no_state_in_the_fight():
    """The players' fight names a combatant's state as its campaign's system gives it: Древо's
    «тяжело ранен»; a system without wounds says nothing, even of a character carrying
    Древо's wounds."""
    from rules.drevo.sheet import DrevoSheet
    from rules.encounter import Combatant, Encounter

    c = first("drevo")
    c = c.edit_sheet(DrevoSheet, wounds={**c.drevo.wounds, "heavy": 1})
    assert state_mark(c, "drevo") == state_mark(c) == "тяжело ранен"
    other = replace(first("ide4"), carried={"wounds": c.drevo.wounds})
    assert other.drevo.wounds["heavy"] == 1  # the wounds are there to be read
    assert state_mark(other, "ide4") == ""
    enc = Encounter(combatants=(Combatant(other.id, other.name, "А"),))
    assert combat_names(enc, {other.id: other}, "ide4") == {other.id: other.name}
    assert combat_names(enc, {other.id: other}, "drevo") == {
        other.id: f"{other.name} (тяжело ранен)"
    }
