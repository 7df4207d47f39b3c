"""The Древо open check (outside a fight) as the session and the seats see it.

A player's Судьба from a seat (:mod:`tui.seats.check`) is the step the GM's «f» / «+» / «−»
make: the same rules, the same refusals; a shift waits (pending) for the GM's points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import drevo
from rules.errors import RulesError
from tui.systems.drevo.check import steps
from tui.systems.drevo.check.state import DrevoCheck, fresh, result_of, unrolled
from tui.systems.drevo.check.view import view
from tui.table.check.base import ROLLED, Offer, SeatLater
from tui.table.core import Outcome, World, refuse

__all__ = ["after", "from_doc", "new", "offer", "seat_refusal", "seat_step", "unrolled", "view"]

from_doc = DrevoCheck.from_doc
new_check = steps.new_check


def new(world: World) -> DrevoCheck:
    c = next(iter(world.characters.values()), None)
    return (
        DrevoCheck() if c is None else steps.set_input(DrevoCheck(), world, "character", c.id).state
    )


def after(stored: DrevoCheck, world: World) -> DrevoCheck:
    return fresh(stored)


def offer(state: DrevoCheck, world: World) -> Offer | None:
    shown = view(state, world)
    c = shown.payer if state.rolled is not None else shown.character
    if c is None:
        return None
    rules, rolled = drevo.fate_rules(), state.rolled is not None
    choices = []
    if (
        c.drevo.fate > 0
        and not rolled
        and not state.inputs.fate_auto
        and rules.allows("auto_success")
        and not steps.dice_seen(state, world)
    ):
        choices.append("Судьба до броска: автоматический критический успех")
    no_dice = state.rolled is not None and state.rolled.fate_auto  # nothing to move
    if c.drevo.fate > 0 and rolled and rules.allows("shift") and not no_dice:
        choices.append("Судьба после броска: ±1 к результату за очко")
    kinds = ("fate",) if choices else ()
    return Offer(state.id, c.id, "rolled" if rolled else "before", kinds, tuple(choices))


def seat_refusal(state: DrevoCheck, world: World, kind: str, payload: Mapping[str, Any]) -> str:
    """Why a player's Судьба cannot apply now ("" if it can); raises ``SeatLater`` while a
    shift waits for the GM's points."""
    if kind != "fate":
        return "В этой проверке такой заявки нет."
    rules = drevo.fate_rules()
    if payload.get("use") == "before":
        c = view(state, world).character
        if state.rolled is not None:
            return ROLLED + " После броска — сдвиг Судьбой (±)."
        if not rules.allows("auto_success"):
            return "В этой кампании Судьба до броска не даёт автоматического успеха."
        if state.inputs.fate_auto:
            return "Судьба до броска в этой проверке уже заявлена."
        if steps.dice_seen(state, world):
            return steps.FATE_SEEN
        return "" if c is not None and c.drevo.fate > 0 else "Судьбы не осталось."
    rolled = state.rolled
    if rolled is None:
        return "Проверка ещё не брошена: сдвиг Судьбой — после броска."
    if rolled.fate_auto:
        return steps.FATE_NO_DICE
    points = payload.get("points")
    if not points:
        raise SeatLater(
            "Сколько очков и в какую сторону? «e» — изменить: число, например +1 или −2."
        )
    c = world.characters.get(rolled.character)
    try:
        drevo.spend_fate("shift", c.drevo.fate if c is not None else 0, cost=abs(int(points)))
        drevo.shift_one_sided(result_of(rolled), int(points))
    except RulesError as err:
        return str(err)
    return ""


def seat_step(
    state: DrevoCheck, world: World, kind: str, payload: Mapping[str, Any]
) -> Outcome[DrevoCheck]:
    why = seat_refusal(state, world, kind, payload)
    if why:
        return refuse(state, why)
    if payload.get("use") == "before":
        return steps.declare_fate(state, world, True, written=True)
    return steps.fate_shift(state, world, int(payload["points"]))
