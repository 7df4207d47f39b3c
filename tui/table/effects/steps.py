"""The steps of effects and the scene clock: ``step(effects, world, …) -> Outcome``.

The state is the campaign's :class:`~rules.effects.EffectSet`. Adding, removing, hiding an
effect and moving the scene clock are steps of their own (the Партия tab's and the round
tracker's keys); :func:`tick` moves the effects past a fight's boundaries and is folded into
the fight's own step (:func:`folded`): a new turn or round and the effects it ends are one
undo step, whoever makes it. Each expiry and each repeat that comes due is a Журнал line that
says which boundary brought it (``data["at"]``); a hidden effect's lines are secret.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rules.effects import Boundary, ClockStep, EffectSet, EffectSpec, Notice
from rules.effects import tick as tick_once
from rules.errors import RulesError
from tui.bridge.effects import EFFECTS_DOC, left_text
from tui.table.core import Line, Outcome, World, refuse
from tui.table.effects.time import FightTime

S = TypeVar("S")

#: The longest step of the scene clock, in minutes (a day).
MAX_MINUTES = 24 * 60
#: Durations counted in the fight: they end with it.
COMBAT_DURATIONS = ("rounds", "turn_start", "turn_end")
CLOCK_REFUSED = f"Время сцены: целое число минут от 1 до {MAX_MINUTES}, например 3."
#: Where time stands outside a fight.
OUTSIDE_A_FIGHT = FightTime()
NO_SUCH_EFFECT = "Такого эффекта нет: его уже сняли (в этом или другом окне)."


def names_of(world: World) -> dict[str, str]:
    """The party's names by character id."""
    return {cid: c.name for cid, c in world.characters.items()}


def whom(effect_target: str, names: Mapping[str, str]) -> str:
    """Who an effect is on: the character's name («?» once removed), or «сцена»."""
    return names.get(effect_target, "?") if effect_target else "сцена"


def _data(world: World, effect: Any, **more: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"system": world.system, "effect": effect.to_dict(), **more}
    if effect.hidden:  # the players do not learn of a hidden effect from the Журнал either
        data["hidden"] = True
    return data


def notice_line(
    notice: Notice, world: World, at: Boundary | ClockStep | None, names: Mapping[str, str]
) -> Line:
    """The Журнал line of an expiry or a repeat due: «Эффект «Оглушён» закончился (Гриша)»,
    with the boundary (or the clock's minute) that brought it (None: the fight's end)."""
    e = notice.effect
    who = names.get(e.target, "") if e.target else "сцена"
    text = f"{notice.text} ({who})" if who else notice.text
    when: dict[str, Any] = {}
    if isinstance(at, Boundary):
        when = {"round": at.round, "at": [at.kind, at.round, at.combatant]}
    elif isinstance(at, ClockStep):
        when = {"minute": at.after}
    return Line(names.get(e.target) or None, text, _data(world, e, notice=notice.kind, **when))


# -- the fight's boundaries -------------------------------------------------------------------


def tick(
    effects: EffectSet,
    world: World,
    boundaries: Sequence[Boundary],
    in_order: Iterable[str] = (),
) -> Outcome[EffectSet]:
    """Move the effects past ``boundaries`` in order (one turn change: its end, maybe the
    round's end and start, the next turn's start), each once.

    ``in_order``: who is in the fight (a round repeat on one of them comes at their turn's
    start; on anyone else, at the round's start).
    """
    order = tuple(in_order)
    names = names_of(world)
    lines: list[Line] = []
    for boundary in boundaries:
        effects, notices = tick_once(effects, boundary, order)
        lines += [notice_line(n, world, boundary, names) for n in notices]
    return Outcome(effects, "Эффекты", log=tuple(lines))


def folded(outcome: Outcome[S], effects: Outcome[EffectSet], before: EffectSet) -> Outcome[S]:
    """``outcome`` with an effects step made in it (a tick, the end of a fight): the effects
    written in the same undo step (only when they changed), their lines after its own."""
    if not effects.ok:
        return outcome
    docs = dict(outcome.docs)
    if effects.state != before:
        docs[EFFECTS_DOC] = effects.state.to_dict()
    return replace(
        outcome,
        docs=docs,
        log=(*outcome.log, *effects.log),
        notices=(*outcome.notices, *effects.notices),
    )


def end_of_fight(effects: EffectSet, world: World) -> Outcome[EffectSet]:
    """The effects counted in rounds and turns end with the fight (each with its line)."""
    names = names_of(world)
    ended = [e for e in effects.effects if e.duration in COMBAT_DURATIONS]
    for e in ended:
        effects = effects.without(e.id)
    lines = tuple(notice_line(Notice("expired", e), world, None, names) for e in ended)
    return Outcome(effects, "Эффекты: конец боя", log=lines)


# -- the GM's steps ---------------------------------------------------------------------------


def add(
    effects: EffectSet, world: World, spec: EffectSpec, time: FightTime = OUTSIDE_A_FIGHT
) -> Outcome[EffectSet]:
    """Add the effect the GM described, starting now (``time``: where the fight stands)."""
    if spec.target and spec.target not in world.characters:
        return refuse(effects, "Такого персонажа нет в партии: выберите другого или сцену.")
    if spec.duration in ("turn_start", "turn_end") and spec.anchor:
        if spec.anchor not in world.characters:
            return refuse(effects, "Того, чей ход закончит эффект, нет в партии: выберите другого.")
    try:
        new, effect = effects.add(spec, time.now(effects))
    except RulesError as err:
        return refuse(effects, str(err))
    names = names_of(world)
    who = whom(effect.target, names)
    left = left_text(effect, time.round, new.minute, names)
    line = Line(
        names.get(effect.target), f"Эффект «{effect.label}» ({who}): {left}", _data(world, effect)
    )
    return Outcome(new, f"Эффект «{effect.name}» ({who})", log=(line,))


def remove(effects: EffectSet, world: World, effect_id: str) -> Outcome[EffectSet]:
    """Remove an effect (the GM's choice)."""
    effect = next((e for e in effects.effects if e.id == effect_id), None)
    if effect is None:
        return refuse(effects, NO_SUCH_EFFECT)
    label = f"Эффект «{effect.name}» снят"
    line = Line(None, label, _data(world, effect, removed=True))
    return Outcome(effects.without(effect.id), label, log=(line,))


def toggle_hidden(effects: EffectSet, world: World, effect_id: str) -> Outcome[EffectSet]:
    """Hide an effect from the players' view, or show it again."""
    effect = next((e for e in effects.effects if e.id == effect_id), None)
    if effect is None:
        return refuse(effects, NO_SUCH_EFFECT)
    changed = replace(effect, hidden=not effect.hidden)
    new = replace(
        effects, effects=tuple(changed if e.id == effect.id else e for e in effects.effects)
    )
    word = "скрыт от игроков" if changed.hidden else "виден игрокам"
    label = f"Эффект «{effect.name}» {word}"
    return Outcome(new, label, notices=(label,))


def advance_clock(effects: EffectSet, world: World, minutes: int) -> Outcome[EffectSet]:
    """Move the scene clock ``minutes`` on: repeats in minutes come due, timers end."""
    if not 0 < minutes <= MAX_MINUTES:
        return refuse(effects, CLOCK_REFUSED)
    step = ClockStep(effects.minute, effects.minute + minutes)
    new, notices = tick_once(effects, step)
    names = names_of(world)
    lines = tuple(notice_line(n, world, step, names) for n in notices)
    return Outcome(new, f"Время сцены +{minutes} мин", log=lines)
