"""The steps of an open Мир Тьмы check: ``step(check, world, …) -> Outcome``.

A choice of the form changes the check in memory (another character: another check; a skill
brings its usual attribute); a roll, a withdrawal before a chance die, a contested roll and
each roll of an extended action return their Журнал line and are written with the check as one
undo step. A roll made again after an undo takes its faces from the Журнал. A rolled check is
never rolled again — by Enter, a withdrawal, a contest or an extended action of its form; Enter
during an extended action is that action's next roll. A new check is the GM's «n»
(:func:`new_check`), or a row of the form changed after the roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules import wod
from rules.errors import RulesError
from tui import words
from tui.present.rolls import signed
from tui.systems.wod.check import text as txt
from tui.systems.wod.check.state import Inputs, Rolled, Throw, WodCheck, extended_of, fresh, results
from tui.systems.wod.check.view import character_gone_of, contest_verdict, view
from tui.table.check.base import (
    DOC,
    ROLLED_AGAIN,
    earlier_dice,
    first_roll,
    new_check_id,
    stamped,
)
from tui.table.core import Line, Outcome, World, refuse

INPUTS = frozenset(("character", "attribute", "skill", "mods", "again", "rote"))


def set_input(state: WodCheck, world: World, name: str, value: Any) -> Outcome[WodCheck]:
    """Set one choice of the form: another character is another check (his own sheet); a
    skill brings its usual attribute (the GM may take another after it). During an extended
    action a row sets the pool of its next roll; on a rolled check it starts the next check
    (the rolled one's choices are the record of its roll)."""
    if name not in INPUTS:
        return refuse(state, f"В форме Мира Тьмы нет поля «{name}».")
    if name == "again":
        value = "none" if value is None else str(value)
    if getattr(state.inputs, name) == value:
        return Outcome(state)
    if name == "character":
        if str(value) not in world.characters:
            return refuse(state, "Такого персонажа нет в партии.")
        inputs = replace(state.inputs, character=str(value), attribute="", skill=None)
        return Outcome(WodCheck(inputs=inputs))
    changed = replace(state.inputs, **{name: value})
    if name == "skill":
        changed = replace(changed, attribute="")  # its usual attribute (wod_view)
    if state.extending:  # the pool of an extended action's next roll: the same action
        return Outcome(replace(state, inputs=changed))
    if state.rolled is not None:
        state = fresh(state)
    return Outcome(replace(state, inputs=changed))


def _line(
    state: WodCheck,
    actor: str | None,
    text: str,
    data: dict[str, Any],
    event: str,
    move: int,
    dice: Any,
    dice_of: str = "",
) -> Line:
    form = {"system": "wod", **data, "event": event, "form": state.inputs.to_dict()}
    roller = state.inputs.character if event == "roll" else ""  # a first roll's character
    return Line(actor, text, stamped(form, state.id, move, dice, roller, dice_of), kind="check")


class _Again:
    """A roller that first gives the faces a pool drew before an undo, then new ones: the
    same check rolled again keeps its dice as far as they go (a smaller pool, fewer)."""

    def __init__(self, faces: list[int], rng: Any) -> None:
        self.faces, self.rng = list(faces), rng

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0) if self.faces else int(self.rng.randint(low, high))


def _roller(world: World, check_id: str, move: int, event: str, which: int = 0) -> Any:
    return _again(world, earlier_dice(world, check_id, move, event) or [], which)


def _again(world: World, earlier: Sequence[Any], which: int = 0) -> Any:
    """The dice source of a throw: ``earlier[which]``'s faces first (an undone roll's), then
    the table's dice."""
    faces = [int(f) for f in earlier[which]] if which < len(earlier) else []
    return _Again(faces, world.dice.rng) if faces else world.dice.rng


def _rolled_faces(result: wod.PoolResult) -> tuple[int, ...]:
    return tuple(d.value for d in result.dice)


def roll(
    state: WodCheck, world: World, withdrawal_allowed: bool | None = None
) -> Outcome[WodCheck]:
    """Roll the form's pool (a chance die: after the player's «go ahead», with the
    Storyteller's word on withdrawing); during an extended action, its next roll."""
    if state.extending:
        return extend(state, world)
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown = view(state, world)
    pool, c = shown.pool, shown.character
    if pool is None or c is None:
        return refuse(state, shown.error)
    state = replace(state, inputs=replace(state.inputs, character=c.id))
    if withdrawal_allowed is not None:
        pool = replace(pool, withdrawal_allowed=withdrawal_allowed)
    try:
        earlier, source = first_roll(world, state.id, "roll", c.id)
        result = wod.roll_pool(pool, _again(world, earlier or []))
    except RulesError as err:
        return refuse(state, str(err))
    faces = _rolled_faces(result)
    new = replace(state, rolled=Rolled("pool", (Throw(pool, faces, c.id),)))
    line = _line(
        new,
        pool.name or None,
        txt.summary(result),
        result.to_dict(),
        "roll",
        0,
        [list(faces)],
        source,
    )
    return Outcome(new, f"Проверка ({pool.name or 'без имени'}): бросок запаса", log=(line,))


def withdraw(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """The player withdraws before a chance die (when the Storyteller allows it): logged."""
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown = view(state, world)
    if shown.pool is None or shown.character is None:
        return refuse(state, shown.error)
    try:
        withdrawn = wod.withdraw(shown.pool)
    except RulesError as err:
        return refuse(state, str(err))
    pool = withdrawn.pool
    new = replace(state, rolled=Rolled("withdrawn", (Throw(pool, (), shown.character.id),)))
    text = (
        f"{pool.attribute_name} + {pool.skill_name or 'без навыка'}: "
        f"отказ от броска на удачу (запас {signed(pool.size)}) — {withdrawn.reason}"
    )
    line = _line(new, pool.name or None, text, withdrawn.to_dict(), "withdrawn", 0, [])
    return Outcome(new, f"Проверка ({pool.name or 'без имени'}): отказ от броска", log=(line,))


def contest(
    state: WodCheck, world: World, other: wod.Pool, other_id: str = ""
) -> Outcome[WodCheck]:
    """A contested roll: both roll their pools, more successes wins."""
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown = view(state, world)
    pool, c = shown.pool, shown.character
    if pool is None or c is None:
        return refuse(state, shown.error)
    if other_id == c.id:
        return refuse(state, "Состязание — с другим персонажем, не с собой.")
    try:
        a_roll = wod.roll_pool(pool, _roller(world, state.id, 0, "contest", 0))
        b_roll = wod.roll_pool(other, _roller(world, state.id, 0, "contest", 1))
        result = wod.resolve_contested(a_roll, b_roll)
    except RulesError as err:
        return refuse(state, str(err))
    a, b = result.a, result.b
    throws = (Throw(pool, _rolled_faces(a), c.id), Throw(other, _rolled_faces(b), other_id))
    new = replace(state, rolled=Rolled("contest", throws))
    text = (
        f"Состязание: {a.pool.name}: {txt.summary(a)}; {b.pool.name}: {txt.summary(b)} — "
        f"{contest_verdict(result)}"
    )
    dice = [list(t.faces) for t in throws]
    line = _line(new, a.pool.name or None, text, result.to_dict(), "contest", 0, dice)
    return Outcome(new, f"Проверка ({a.pool.name or 'без имени'}): состязание", log=(line,))


def start_extended(state: WodCheck, world: World, target: int) -> Outcome[WodCheck]:
    """Start an extended action toward ``target`` successes (its rolls: Enter): written with
    its line, so a restart before the first roll still has the action and its target."""
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown = view(state, world)
    if shown.pool is None or shown.character is None:
        return refuse(state, shown.error)
    try:
        wod.Extended(wod.Pool(1), target)
    except RulesError as err:
        return refuse(state, str(err))
    state = replace(state, inputs=replace(state.inputs, character=shown.character.id))
    new = replace(state, rolled=Rolled("extended", (), target))
    rolls = wod.contest_rules().max_rolls
    limit = (
        f"не больше {words.genitive(rolls, 'броска', 'бросков')}"
        if rolls
        else "без предела бросков"
    )
    pool, name = shown.pool, shown.pool.name or None
    text = (
        f"Продолжительное действие начато: {pool.attribute_name} + "
        f"{pool.skill_name or 'без навыка'}, цель — "
        f"{words.plural(target, 'успех', 'успеха', 'успехов')}, {limit}"
    )
    line = _line(new, name, text, {"target": target}, "extended_start", 0, [])
    label = f"Проверка ({name or 'без имени'}): продолжительное, цель {target}"
    return Outcome(new, label, log=(line,))


def extend(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """The extended action's next roll: its successes add up toward the target."""
    rolled = state.rolled
    if rolled is None or rolled.kind != "extended" or rolled.stopped:
        return refuse(state, "Продолжительного действия нет: e — начать.")
    why = wod.extended_refusal(extended_of(rolled))
    if why:
        return refuse(state, why)
    if gone := character_gone_of(state, world):  # never rolled on for another character
        return refuse(state, f"{gone} Продолжительное действие не продолжить: e — остановить.")
    shown = view(state, world)
    pool, c = shown.pool, shown.character
    if pool is None or c is None:
        return refuse(state, shown.error)
    number = len(rolled.throws) + 1
    try:
        result = wod.roll_pool(pool, _roller(world, state.id, number, "extended"))
    except RulesError as err:
        return refuse(state, str(err))
    faces = _rolled_faces(result)
    grown = replace(rolled, throws=(*rolled.throws, Throw(pool, faces, c.id)))
    new = replace(state, rolled=grown)
    ext = extended_of(grown)
    said = {
        "done": "цель достигнута",
        "failed": "полный провал — действие сорвано, успехи потеряны",
        "out_of_rolls": "броски кончились (предел кампании)",
    }.get(ext.status, "")
    text = (
        f"Продолжительное, бросок {number}: {txt.summary(result)}; всего {ext.successes} из "
        f"{ext.target}" + (f" ({said})" if said else "")
    )
    line = _line(new, pool.name or None, text, ext.to_dict(), "extended", number, [list(faces)])
    return Outcome(
        new, f"Проверка ({pool.name or 'без имени'}): продолжительное, бросок {number}", log=(line,)
    )


def stop_extended(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """Stop the extended action in progress (its successes are logged)."""
    rolled = state.rolled
    if rolled is None or rolled.kind != "extended" or rolled.stopped:
        return refuse(state, "Продолжительного действия нет.")
    ext = extended_of(rolled)
    new = replace(state, rolled=replace(rolled, stopped=True))
    if not rolled.throws:  # nothing rolled yet: the start is undone by a line of its own
        pool = view(state, world).pool
        name = pool.name if pool is not None else None
        text = "Продолжительное действие отменено до первого броска"
        line = _line(state, name or None, text, {"target": rolled.target}, "stopped", 1, [])
        return Outcome(
            replace(state, rolled=None),
            f"Проверка ({name or 'без имени'}): продолжительное отменено",
            docs={DOC: replace(state, rolled=None).to_doc()},
            log=(line,),
        )
    text = (
        f"Продолжительное действие остановлено: {ext.successes} из "
        f"{words.genitive(ext.target, 'успеха', 'успехов')} за "
        f"{words.plural(len(ext.rolls), 'бросок', 'броска', 'бросков')}"
    )
    pool = rolled.throws[0].pool
    data = {**ext.to_dict(), "event": "stopped"}
    line = _line(new, pool.name or None, text, data, "stopped", len(rolled.throws) + 1, [])
    return Outcome(
        new, f"Проверка ({pool.name or 'без имени'}): продолжительное остановлено", log=(line,)
    )


def new_check(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """«n»: a new check with the same choices (its own id and dice)."""
    return Outcome(fresh(state))


def repeat_last(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """The character's last pool of this kind (the same skill, when one is chosen)."""
    c = view(state, world).character
    if c is None:
        return refuse(state, "Выберите персонажа: в партии пока никого нет.")
    skill = state.inputs.skill
    for entry in world.journal(500):
        form = entry.data.get("form")
        if entry.undone or entry.data.get("system") != "wod" or not isinstance(form, dict):
            continue
        if form.get("character") != c.id or (skill and form.get("skill") not in (None, skill)):
            continue
        return Outcome(
            WodCheck(id=new_check_id(), inputs=Inputs.from_dict(form)),
            notices=(f"Как в прошлый раз ({c.name}): {entry.text}",),
        )
    return refuse(state, f"У {c.name} ещё не было такой проверки в этом Журнале.")


__all__ = ["results"]
