"""The steps of an open Древо check (outside a fight): ``step(check, world, …) -> Outcome``.

A choice of the form changes the check in memory (another character: another check); the roll
(paying Судьба declared before it) and each point of Судьба after it return their Журнал line
and the sheet they pay, written with the check as one undo step. A roll made again after an
undo takes its dice from the Журнал. A rolled check is never rolled again, and Судьба before
the roll is never declared once its dice are seen (after the roll, or after its undo): a new
check is the GM's «n» (:func:`new_check`), or a row of the form changed after the roll.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from rules.errors import RulesError
from tui.present.rolls import signed
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.check.lines import one_sided_summary
from tui.systems.drevo.check.state import DrevoCheck, Inputs, Rolled, fresh, result_of
from tui.systems.drevo.check.view import view
from tui.table.check.base import (
    ROLLED_AGAIN,
    earlier_dice,
    first_roll,
    new_check_id,
    stamped,
)
from tui.table.core import Line, Outcome, World, refuse

INPUTS = frozenset(("character", "action", "trait", "difficulty", "mods"))
#: Судьба before the roll asked for after it (the seed: «он должен объявить об этом до броска
#: кубиков»).
FATE_ROLLED = (
    "Проверка уже брошена: Судьбу до броска заявляют до броска кубиков; после него — сдвиг "
    "(+/−). n — новая проверка."
)
#: … or after the roll was undone: its dice were seen (rolled again, it gets them back).
FATE_SEEN = (
    "Кубики этой проверки уже брошены (бросок отменён, снова он даст те же): Судьбу до броска "
    "заявляют до броска. n — новая проверка."
)


#: Судьба after a check that Судьба won before the roll (no dice thrown): refused.
FATE_NO_DICE = "Кубики не бросались — успех куплен Судьбой до броска: сдвигать после броска нечего."


def dice_seen(state: DrevoCheck, world: World) -> bool:
    """Whether this check's dice were rolled and undone (the Журнал keeps them), or its
    character's last roll was (:func:`~tui.table.check.base.earlier_dice`)."""
    return earlier_dice(world, state.id, 0, "roll", _roller(state, world)) is not None


def _roller(state: DrevoCheck, world: World) -> str:
    """The id of the character the form rolls for (as :func:`view` picks him)."""
    who = state.inputs.character
    return who if who in world.characters else next(iter(world.characters), "")


def set_input(state: DrevoCheck, world: World, name: str, value: Any) -> Outcome[DrevoCheck]:
    """Set one choice of the form: another character is another check (his own traits);
    another action ranks its traits anew. A row changed on a rolled check starts the next
    check (the rolled one's choices are the record of its roll)."""
    if name not in INPUTS:
        return refuse(state, f"В форме Древа нет поля «{name}».")
    if getattr(state.inputs, name) == value:
        return Outcome(state)
    if state.rolled is not None:
        state = fresh(state)
    if name == "character":
        if str(value) not in world.characters:
            return refuse(state, "Такого персонажа нет в партии.")
        inputs = replace(state.inputs, character=str(value), trait=None, fate_auto=False)
        return Outcome(DrevoCheck(inputs=inputs))
    changed = replace(state.inputs, **{name: value})
    if name == "action":
        changed = replace(changed, trait=None)  # the trait the rules rank first for it
    return Outcome(replace(state, inputs=changed))


def declare_fate(
    state: DrevoCheck, world: World, on: bool | None = None, *, written: bool = False
) -> Outcome[DrevoCheck]:
    """Declare (or take back) Судьба before the roll: an automatic critical success, its point
    paid when the dice are rolled. ``written``: a player's request from a seat — one undo
    step with its line.

    Refused on a rolled check, and on one whose roll was undone: the seed's Судьба is
    declared before the dice are thrown, never bought once they are seen.
    """
    c = view(state, world).character
    if c is None:
        return refuse(state, "Выберите персонажа: в партии пока никого нет.")
    if state.rolled is not None:
        return refuse(state, FATE_ROLLED)
    want = (not state.inputs.fate_auto) if on is None else on
    if want:
        if dice_seen(state, world):
            return refuse(state, FATE_SEEN)
        if not drevo.fate_rules().allows("auto_success"):
            return refuse(state, "В этой кампании Судьба до броска не даёт автоматического успеха.")
        if c.drevo.fate < 1:
            return refuse(state, "Судьбы не осталось.")
    new = replace(state, inputs=replace(state.inputs, character=c.id, fate_auto=want))
    if not written:
        return Outcome(new)
    text = "Судьба до броска: автоматический критический успех (очко — при броске)"
    data = stamped({"system": "drevo", "fate": "before"}, state.id, 0, [])
    return Outcome(
        new, f"Проверка ({c.name}): Судьба до броска", log=(Line(c.name, text, data, kind="check"),)
    )


def roll(state: DrevoCheck, world: World) -> Outcome[DrevoCheck]:
    """Roll 4dF (or, with Судьба declared, no dice: a critical success, its point paid).

    Refused on a rolled check: it is never rolled again (a new check is «n»)."""
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown = view(state, world)
    check, c = shown.check, shown.character
    if check is None or c is None:
        return refuse(state, shown.error)
    if not bridge.track_of(c).can_act:
        return refuse(state, f"{c.name} тяжело ранен и не может действовать.")
    sheets: tuple[Character, ...] = ()
    earlier, source = first_roll(world, state.id, "roll", c.id)
    if check.fate_auto and earlier:
        return refuse(state, FATE_SEEN)
    if check.fate_auto:
        try:
            left = drevo.spend_fate("auto_success", c.drevo.fate)
        except RulesError as err:
            return refuse(state, str(err))
        sheets = (c.edit_sheet(DrevoSheet, fate=left),)
    if check.uses_fate:
        dice = None
    elif earlier and len(earlier) == 4:
        dice = tuple(int(d) for d in earlier)
    else:
        dice = drevo.roll_4df(world.dice.rng)
    rolled = Rolled(c.id, check.side, check.difficulty, dice, fate_auto=check.fate_auto)
    inputs = replace(state.inputs, character=c.id, fate_auto=False)
    new = replace(state, inputs=inputs, rolled=rolled)
    result = result_of(rolled)
    data = {"system": "drevo", **result.to_dict(), "event": "roll", "form": state.inputs.to_dict()}
    line = Line(
        c.name,
        one_sided_summary(result),
        stamped(data, state.id, 0, list(dice or []), c.id, source),
        kind="check",
    )
    return Outcome(new, f"Проверка ({c.name}): бросок 4dF", sheets=sheets, log=(line,))


def fate_shift(state: DrevoCheck, world: World, points: int) -> Outcome[DrevoCheck]:
    """Spend Судьба after the roll: ``points`` (±N, a point each) move the result."""
    rolled = state.rolled
    if rolled is None:
        return refuse(state, "Проверка ещё не брошена: сдвиг Судьбой — после броска.")
    c = world.characters.get(rolled.character)
    if c is None:
        gone = world.removed(rolled.character, rolled.side.name)
        return refuse(state, f"{gone} — Судьбу тратить не из кого.")
    if not drevo.fate_rules().allows("shift"):
        return refuse(state, "В этой кампании Судьба не сдвигает результат после броска.")
    if rolled.fate_auto:  # «после броска кубиков … результат этого броска»: none was thrown
        return refuse(state, FATE_NO_DICE)
    try:
        left = drevo.spend_fate("shift", c.drevo.fate, cost=abs(points))
        shifted = drevo.shift_one_sided(result_of(rolled), points)
    except RulesError as err:
        return refuse(state, str(err))
    new = replace(state, rolled=replace(rolled, shifts=(*rolled.shifts, points)))
    number = len(rolled.shifts) + 1
    data = {"system": "drevo", **shifted.to_dict(), "event": "fate"}
    text = f"Судьба {signed(points)}: {one_sided_summary(shifted)}"
    line = Line(c.name, text, stamped(data, state.id, number, []), kind="check")
    label = f"Проверка ({c.name}): Судьба {signed(points)}"
    return Outcome(new, label, sheets=(c.edit_sheet(DrevoSheet, fate=left),), log=(line,))


def new_check(state: DrevoCheck, world: World) -> Outcome[DrevoCheck]:
    """«n»: a new check of the same choices (its own id and dice; Судьба not declared)."""
    return Outcome(fresh(state))


def repeat_last(state: DrevoCheck, world: World) -> Outcome[DrevoCheck]:
    """The character's last check of this kind (the same action): its choices again."""
    c = view(state, world).character
    if c is None:
        return refuse(state, "Выберите персонажа: в партии пока никого нет.")
    for entry in world.journal(500):
        form = entry.data.get("form")
        if entry.undone or entry.data.get("system") != "drevo" or not isinstance(form, dict):
            continue
        if form.get("character") != c.id or form.get("action") != state.inputs.action:
            continue
        inputs = replace(Inputs.from_dict(form), fate_auto=False)
        return Outcome(
            DrevoCheck(id=new_check_id(), inputs=inputs),
            notices=(f"Как в прошлый раз ({c.name}): {entry.text}",),
        )
    return refuse(state, f"У {c.name} ещё не было такой проверки в этом Журнале.")
