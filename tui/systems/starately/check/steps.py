"""The steps of an open Старатели check: ``step(check, world, …) -> Outcome``.

A choice of the form changes the check in memory (another character: another check); a roll
(a check, a task chain, a group check, an встречный бросок) and Risk return their Журнал line
and are written with the check as one undo step. A roll made again after an undo takes its
dice from the Журнал (:func:`~tui.table.check.base.earlier_dice`). A rolled check is never
rolled again — by Enter or by a chain, a group or an встречный бросок of its form: a new check
is the GM's «n» (:func:`new_check`), or a row of the form changed after the roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules import starately
from rules.errors import RulesError
from tui.systems.starately.check import text as txt
from tui.systems.starately.check.state import (
    Inputs,
    Part,
    Risk,
    Rolled,
    StaratelyCheck,
    fresh,
    results,
)
from tui.systems.starately.check.view import view
from tui.table.check.base import ROLLED_AGAIN, earlier_dice, first_roll, new_check_id, stamped
from tui.table.core import Line, Outcome, World, refuse

INPUTS = frozenset(("character", "characteristic", "skill", "difficulty", "tried", "boons"))
INPUTS = INPUTS | {"banes", "mods"}


def set_input(
    state: StaratelyCheck, world: World, name: str, value: Any
) -> Outcome[StaratelyCheck]:
    """Set one choice of the form (another character starts another check: his own sheet's
    rows, not the last character's). A row changed on a rolled check starts the next check
    (the rolled one's choices are the record of its roll)."""
    if name not in INPUTS:
        return refuse(state, f"В форме Старателей нет поля «{name}».")
    if getattr(state.inputs, name) == value:
        return Outcome(state)
    if state.rolled is not None:
        state = fresh(state)
    if name == "character":
        if str(value) not in world.characters:
            return refuse(state, "Такого персонажа нет в партии.")
        inputs = replace(
            state.inputs, character=str(value), characteristic="", skill=None, tried=""
        )
        return Outcome(StaratelyCheck(inputs=inputs))
    return Outcome(replace(state, inputs=replace(state.inputs, **{name: value})))


def _dice(
    world: World, check_id: str, event: str, sides: Sequence[starately.Side]
) -> list[tuple[int, ...]]:
    """Each side's dice in the order rolled: the Журнал's after an undo, else new ones."""
    return _dice_from(world, earlier_dice(world, check_id, 0, event) or [], sides)


def _dice_from(
    world: World, earlier: Sequence[Any], sides: Sequence[starately.Side]
) -> list[tuple[int, ...]]:
    """Each side's dice: ``earlier``'s (one list a side) as far as they go, then new ones."""
    dice = []
    for i, side in enumerate(sides):  # the dice it had, as far as they go (a boon added: one
        had = [int(d) for d in earlier[i]] if i < len(earlier) else []  # more is rolled)
        fresh = (
            starately.roll_dice(side, world.dice.rng)[len(had) :]
            if len(had) < side.dice_count
            else ()
        )
        dice.append(tuple([*had[: side.dice_count], *fresh]))
    return dice


def _opened(state: StaratelyCheck, world: World) -> tuple[StaratelyCheck, Any] | str:
    """The form's check a roll rolls (never a rolled one again) and its view, or why none."""
    if state.rolled is not None:
        return ROLLED_AGAIN
    shown = view(state, world)
    if shown.check is None:
        return shown.error
    c = shown.character
    assert c is not None
    return replace(state, inputs=replace(state.inputs, character=c.id)), shown


def _written(
    state: StaratelyCheck,
    rolled: Rolled,
    actor: str | None,
    text: str,
    data: dict[str, Any],
    event: str,
    dice: Any,
    dice_of: str = "",
) -> Outcome[StaratelyCheck]:
    new = replace(state, rolled=rolled)
    line = Line(
        actor,
        text,
        stamped(
            {"system": "starately", **data, "event": event, "form": state.inputs.to_dict()},
            state.id,
            0,
            dice,
            state.inputs.character if event == "roll" else "",
            dice_of,
        ),
        kind="check",
    )
    return Outcome(new, f"Проверка ({actor or 'без имени'}): {LABELS[event]}", log=(line,))


LABELS = {
    "roll": "бросок 2d6",
    "chain": "цепочка задач",
    "group": "групповая проверка",
    "opposed": "встречный бросок",
    "risk": "Риск",
    "risk_forbidden": "Риск запрещён",
}


def roll(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """Roll the form's check: every die, the total, Effect and outcome."""
    opened = _opened(state, world)
    if isinstance(opened, str):
        return refuse(state, opened)
    state, shown = opened
    check = shown.check
    earlier, source = first_roll(world, state.id, "roll", state.inputs.character)
    (dice,) = _dice_from(world, earlier or [], [check.side])
    result = starately.resolve(check, dice)
    rolled = Rolled("check", check.difficulty, (Part(check.side, dice, shown.character.id),))
    actor = check.side.name or None
    return _written(
        state, rolled, actor, txt.summary(result), result.to_dict(), "roll", [list(dice)], source
    )


def chain(
    state: StaratelyCheck, world: World, helper: starately.Side, helper_id: str = ""
) -> Outcome[StaratelyCheck]:
    """A task chain: the helper rolls a step easier; his Effect goes into the main roll."""
    opened = _opened(state, world)
    if isinstance(opened, str):
        return refuse(state, opened)
    state, shown = opened
    check = shown.check
    try:
        task = starately.TaskChain(helper, check)
        helper_dice, main_dice = _dice(world, state.id, "chain", [helper, check.side])
        result = starately.resolve_chain(task, helper_dice, main_dice)
    except RulesError as err:
        return refuse(state, str(err))
    parts = (Part(helper, helper_dice, helper_id), Part(check.side, main_dice, shown.character.id))
    rolled = Rolled("chain", check.difficulty, parts)
    dice = [list(helper_dice), list(main_dice)]
    actor = check.side.name or None
    return _written(
        state, rolled, actor, txt.chain_summary(result), result.to_dict(), "chain", dice
    )


def group(
    state: StaratelyCheck, world: World, helpers: Sequence[tuple[starately.Side, str]]
) -> Outcome[StaratelyCheck]:
    """A group check: helpers with the same skill roll; each success adds +1."""
    opened = _opened(state, world)
    if isinstance(opened, str):
        return refuse(state, opened)
    state, shown = opened
    check = shown.check
    sides = tuple(s for s, _ in helpers)
    try:
        together = starately.GroupCheck(check, sides)
        *helper_dice, main_dice = _dice(world, state.id, "group", [*sides, check.side])
        result = starately.resolve_group(together, helper_dice, main_dice)
    except RulesError as err:
        return refuse(state, str(err))
    parts = tuple(Part(s, d, cid) for (s, cid), d in zip(helpers, helper_dice, strict=True))
    rolled = Rolled(
        "group", check.difficulty, (*parts, Part(check.side, main_dice, shown.character.id))
    )
    dice = [*(list(d) for d in helper_dice), list(main_dice)]
    actor = check.side.name or None
    return _written(
        state, rolled, actor, txt.group_summary(result), result.to_dict(), "group", dice
    )


def opposed(
    state: StaratelyCheck, world: World, other: starately.Side, other_id: str, initiator: str | None
) -> Outcome[StaratelyCheck]:
    """An встречный бросок: the form's side against ``other``; the higher total wins."""
    opened = _opened(state, world)
    if isinstance(opened, str):
        return refuse(state, opened)
    state, shown = opened
    side = shown.check.side
    if other_id and other_id == shown.character.id:
        return refuse(state, "Встречный бросок — против другого персонажа, не против себя.")
    try:
        contest = starately.Opposed(side, other, initiator)
        a_dice, b_dice = _dice(world, state.id, "opposed", [side, other])
        result = starately.resolve_opposed(contest, a_dice, b_dice)
    except RulesError as err:
        return refuse(state, str(err))
    parts = (Part(side, a_dice, shown.character.id), Part(other, b_dice, other_id))
    rolled = Rolled("opposed", 0, parts, initiator=initiator)
    dice = [list(a_dice), list(b_dice)]
    actor = side.name or None
    data = {**result.to_dict(), "opponent": other_id}
    return _written(state, rolled, actor, txt.opposed_summary(result), data, "opposed", dice)


def risk(
    state: StaratelyCheck, world: World, price: str, forbidden: bool = False
) -> Outcome[StaratelyCheck]:
    """Risk after a failure: the check rolled again at the GM's price (paid whatever comes);
    or the GM forbids it (no meaningful price)."""
    rolled = state.rolled
    if rolled is None:
        return refuse(state, "Проверка ещё не брошена: Риск заявляют после провала.")
    found = results(rolled)
    if found.main is None:
        return refuse(state, "Риск — после провала проверки; у встречного броска его нет.")
    first = found.main
    assert found.last is not None
    why = starately.risk_refusal(
        found.last, price if not forbidden else "-", forbidden=rolled.risk_forbidden
    )
    if why:
        return refuse(state, why)
    actor = first.check.side.name or None
    if forbidden:  # the GM's word for this moment: nothing rolled, nothing written
        return Outcome(replace(state, rolled=replace(rolled, risk_forbidden=True)))
    side = first.check.side
    # the dice it had before an undo, as far as they go (a boon added: one more is rolled)
    (dice,) = _dice_from(world, [earlier_dice(world, state.id, 1, "risk") or []], [side])
    try:
        risky = starately.resolve_risk(first, price, dice)
    except RulesError as err:
        return refuse(state, str(err))
    new = replace(state, rolled=replace(rolled, risk=Risk(risky.price, dice)))
    data = stamped({**risky.to_dict(), "event": "risk"}, state.id, 1, list(dice))
    line = Line(actor, txt.risk_summary(first, risky), data, kind="check")
    return Outcome(new, f"Риск: {actor or 'проверка'}", log=(line,))


def new_check(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """«n»: a new check with the same choices (the last result leaves the screen)."""
    return Outcome(fresh(state))


def repeat_last(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """The character's last check of this kind (the same skill, when one is chosen): its
    choices in the form again."""
    shown = view(state, world)
    c = shown.character
    if c is None:
        return refuse(state, "Выберите персонажа: в партии пока никого нет.")
    skill = state.inputs.skill
    for entry in world.journal(500):
        form = entry.data.get("form")
        if entry.undone or entry.data.get("system") != "starately" or not isinstance(form, dict):
            continue
        if form.get("character") != c.id or (skill and form.get("skill") not in (None, skill)):
            continue
        inputs = Inputs.from_dict(form)
        return Outcome(
            StaratelyCheck(id=new_check_id(), inputs=inputs),
            notices=(f"Как в прошлый раз ({c.name}): {entry.text}",),
        )
    return refuse(state, f"У {c.name} ещё не было такой проверки в этом Журнале.")


def last_opponent(world: World, character_id: str) -> str | None:
    """Whom ``character_id`` last rolled a встречный бросок against (None: never, or gone):
    the opposed dialog starts there, not on the party's first."""
    for entry in world.journal(500):
        data = entry.data
        form = data.get("form")
        if entry.undone or data.get("event") != "opposed" or not isinstance(form, dict):
            continue
        if form.get("character") == character_id:
            other = str(data.get("opponent") or "")
            return other if other in world.characters else None
    return None
