"""The steps of the round tracker (IDE4, Старатели, Мир Тьмы): ``step(tracker, world, …) ->
Outcome``, each one undo step.

A step reads the fight as it stands (:func:`tui.table.rounds.state.current`) and the world,
and returns the new tracker, the sheets it changed (harm, health) and its Журнал lines, or
the rules' refusal. A step that passes a boundary of the fight (initiative begins round 1, a
turn ends, the fight ends) makes the effects' step in the same outcome
(:func:`tui.table.effects.steps.tick`), so a turn and the effects it ended are undone
together. The Бой tab's keys and the tests make these same steps.

What differs between the systems — harm as a note or a health track, the penalty and the
energy a fighter brings — is each system's :class:`~tui.registry.rounds.RoundsHook`
(``tui/systems/<name>/rounds.py``), found through its ``System.rounds`` (:func:`hook`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules import rounds
from rules.errors import RulesError
from rules.rounds import Entrant, Fighter, InitiativeRoll, Tracker
from tui import registry
from tui.registry.rounds import Harmed, RoundsHook
from tui.store import Character, LogEntry
from tui.table.core import Line, Outcome, World, refuse, undone_roll
from tui.table.effects import steps as effect_steps

#: The sides a character steps through (``OUT``: not in the fight).
OUT = "—"
SIDE_CYCLE = (OUT, "Отряд", "Противники", "Третья сторона")
NOT_IN_PARTY = "Такого персонажа нет в партии."
RUNNING = "Бой уже идёт: стороны меняют до инициативы (x — закончить бой)."
NOT_STARTED = "Бой ещё не начат: бросьте инициативу (i)."


def _line(t: Tracker, world: World, actor: str | None, text: str, **data: Any) -> Line:
    return Line(actor, text, {"system": world.system, "round": t.round, **data})


def hook(system: str) -> RoundsHook:
    """Return the round tracker's hook of ``system`` (``System.rounds``).

    Raises:
        LookupError: the round tracker runs no fight of ``system`` (it names no hook).
    """
    found = registry.rounds_hook(system)
    if found is None:
        raise LookupError(f"the round tracker runs no fight of {system!r}")
    return found


def _names(world: World) -> dict[str, str]:
    return {cid: c.name for cid, c in world.characters.items()}


# -- the setup ----------------------------------------------------------------------------------


def set_side(t: Tracker, world: World, character_id: str, side: str) -> Outcome[Tracker]:
    """Put a character on ``side`` (``OUT``: out of the fight) before initiative."""
    if t.started:
        return refuse(t, RUNNING)
    c = world.characters.get(character_id)
    if c is None:
        return refuse(t, NOT_IN_PARTY)
    side = side.strip() or OUT
    if side == OUT:
        new = t.without(c.id)
    else:
        new = t.with_entrant(Entrant(c.id, c.name, side, c.kind == "pc"))
        # keep the roster's order: re-adding moved it to the end
        order = [e.id for e in t.entrants] + [c.id]
        new = replace(new, entrants=tuple(sorted(new.entrants, key=lambda e: order.index(e.id))))
    return Outcome(new, f"{c.name}: сторона «{side}»")


def next_side(t: Tracker, character_id: str) -> str:
    """The side after the character's in ``SIDE_CYCLE`` (a side of its own: out)."""
    entrant = t.entrant(character_id)
    side = entrant.side if entrant else OUT
    if side not in SIDE_CYCLE:
        return OUT
    return SIDE_CYCLE[(SIDE_CYCLE.index(side) + 1) % len(SIDE_CYCLE)]


def cycle_side(t: Tracker, world: World, character_id: str) -> Outcome[Tracker]:
    """Move a character to the next side of ``SIDE_CYCLE`` (the Бой tab's space)."""
    return set_side(t, world, character_id, next_side(t, character_id))


def fighter(e: Entrant, c: Character, world: World) -> Fighter:
    """What the initiative rules need of a combatant: its sheet and its active modifiers
    (its effects, the scene's, and its harm's penalty: Мир Тьмы's health) and its energy
    (IDE4), as the system's hook reads them."""
    harm = hook(world.system)
    wound = harm.penalty(c)
    mods = world.modifiers(c.id)
    return Fighter(
        e.id,
        c.name,
        e.side,
        c.kind == "pc",
        dict(c.qualities),
        {s.name: s.value for s in c.skills},
        c.initiative,
        harm.energy(c),
        (*mods, wound) if wound else mods,
    )


#: How far back in the Журнал an initiative rolled before an undo is looked for.
EARLIER_LIMIT = 500


def earlier_initiative(world: World, fighters: Sequence[Fighter]) -> Mapping[str, Any] | None:
    """The initiative these ``fighters`` (the same ids on the same sides) rolled before an
    undo took it back, from the Журнал: its line's data (``order``, ``initiative``), else None.

    Only a roll no fight stood on since: the tracker's newest lines are searched back to the
    first that was not undone (a fight fought, or ended, ends its reach). An undone roll of
    other fighters or sides is passed over.
    """
    sides = {f.id: f.side for f in fighters}

    def ours(entry: LogEntry) -> bool:  # a line of this system's round tracker
        data = entry.data or {}
        return entry.kind == "combat" and data.get("system") == world.system and "round" in data

    return undone_roll(
        world, ours, lambda data: data.get("sides") == sides and "initiative" in data, EARLIER_LIMIT
    )


def _rolled_before(
    world: World, fighters: Sequence[Fighter]
) -> tuple[tuple[str, ...], dict[str, InitiativeRoll]] | None:
    """The order and rolls of :func:`earlier_initiative`; None when there are none (or the
    Журнал's line cannot be read: a hand edit — then the dice are rolled)."""
    data = earlier_initiative(world, fighters)
    if data is None:
        return None
    try:
        order = tuple(str(i) for i in data["order"])
        rolls = {str(k): InitiativeRoll.from_dict(v) for k, v in data["initiative"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return order, rolls


def roll_initiative(t: Tracker, world: World) -> Outcome[Tracker]:
    """Roll initiative the system's way (per combatant or per side) and begin round 1.

    Rolled again after an undo took it back, it is the same roll (the Журнал keeps it), as a
    check or a Древо exchange rolled again shows the same dice."""
    fighters = [
        fighter(e, world.characters[e.id], world) for e in t.entrants if e.id in world.characters
    ]
    earlier = _rolled_before(world, fighters)
    try:
        if earlier is not None:
            order, rolls = earlier
        else:
            order, rolls = rounds.roll_initiative(world.system, fighters, world.dice.rng)
        new, events = t.start(order, rolls)
    except RulesError as err:
        return refuse(t, str(err))
    names = _names(world)
    ranked = " → ".join(f"{names.get(k, k)} ({r.text})" for k, r in rolls.items())
    data = {
        "initiative": {k: r.to_dict() for k, r in rolls.items()},
        "order": list(order),
        "names": {k: names.get(k, k) for k in rolls},  # the luck ledger names who rolled
        "sides": {f.id: f.side for f in fighters},  # who rolled, on which side (rolled again)
    }
    again = " (те же кубики, что до отмены)" if earlier is not None else ""
    text = f"Инициатива ({registry.title(world.system)}){again}: {ranked}"
    begun = Outcome(new, "Инициатива, раунд 1", log=(_line(new, world, None, text, **data),))
    ticked = effect_steps.tick(world.effects, world, events, new.order)
    return effect_steps.folded(begun, ticked, world.effects)


# -- turns, the end ------------------------------------------------------------------------------


def next_turn(t: Tracker, world: World) -> Outcome[Tracker]:
    """End the turn and begin the next (a new round after the last); the effects tick."""
    try:
        new, events = t.next_turn()
    except RulesError as err:
        return refuse(t, str(err))
    who = _names(world).get(new.actor, "?")
    lines = (_line(new, world, None, f"Раунд {new.round}"),) if new.round != t.round else ()
    passed = Outcome(new, f"Раунд {new.round}, ход: {who}", log=lines)
    ticked = effect_steps.tick(world.effects, world, events, new.order)
    return effect_steps.folded(passed, ticked, world.effects)


def end(t: Tracker, world: World) -> Outcome[Tracker]:
    """End the fight (the roster stays); the effects counted in rounds and turns end too."""
    if not t.started:
        return refuse(t, NOT_STARTED)
    ended = Outcome(t.end(), "Конец боя", log=(_line(t, world, None, "Конец боя"),))
    return effect_steps.folded(
        ended, effect_steps.end_of_fight(world.effects, world), world.effects
    )


# -- harm -----------------------------------------------------------------------------------------


def _character(t: Tracker, world: World, character_id: str) -> Character | Outcome[Tracker]:
    c = world.characters.get(character_id)
    return c if c is not None else refuse(t, NOT_IN_PARTY)


def _harmed(t: Tracker, world: World, harmed: Harmed) -> Outcome[Tracker]:
    c = harmed.character
    line = _line(t, world, c.name, harmed.text)
    return Outcome(t, f"{c.name}: {harmed.label}", sheets=(c,), log=(line,))


def _harm(
    t: Tracker, world: World, character_id: str, marked: bool, step: Callable[[Character], Harmed]
) -> Outcome[Tracker]:
    """Make a harm step of the system's hook where harm is ``marked`` (or a note)."""
    harm = hook(world.system)
    if harm.marked != marked:
        return refuse(t, harm.wrong_step)
    c = _character(t, world, character_id)
    if isinstance(c, Outcome):
        return c
    try:
        return _harmed(t, world, step(c))
    except RulesError as err:
        return refuse(t, str(err))


def harm_note(t: Tracker, world: World, character_id: str, note: str) -> Outcome[Tracker]:
    """Harm as a note (IDE4, Старатели): write (or, empty, clear) a character's harm note."""
    return _harm(t, world, character_id, False, lambda c: hook(world.system).note(c, note))


def damage(t: Tracker, world: World, character_id: str, kind: str) -> Outcome[Tracker]:
    """Harm in boxes (Мир Тьмы's health): mark a box of ``kind`` damage on the character."""
    return _harm(t, world, character_id, True, lambda c: hook(world.system).damage(c, kind))


def heal(t: Tracker, world: World, character_id: str) -> Outcome[Tracker]:
    """Harm in boxes (Мир Тьмы's health): clear the character's mildest box."""
    return _harm(t, world, character_id, True, hook(world.system).heal)
