"""The Старатели open check as the session and the seats see it: making, restoring, offering.

A player's Risk from a seat (:mod:`tui.seats.check`) is the step the GM's «r» makes: the same
refusals; it waits (pending) until the GM names the price.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.systems.starately.check import steps
from tui.systems.starately.check.state import StaratelyCheck, fresh, unrolled
from tui.systems.starately.check.view import view
from tui.table.check.base import Offer, SeatLater
from tui.table.core import Outcome, World, refuse

__all__ = [
    "after",
    "from_doc",
    "new",
    "new_check",
    "offer",
    "seat_refusal",
    "seat_step",
    "unrolled",
    "view",
]

from_doc = StaratelyCheck.from_doc
new_check = steps.new_check
RISK = "Риск: бросить снова за цену от ведущего"


def new(world: World) -> StaratelyCheck:
    """A new check on the form for the party's first character."""
    c = next(iter(world.characters.values()), None)
    return (
        StaratelyCheck()
        if c is None
        else steps.set_input(StaratelyCheck(), world, "character", c.id).state
    )


def after(stored: StaratelyCheck, world: World) -> StaratelyCheck:
    return fresh(stored)


def offer(state: StaratelyCheck, world: World) -> Offer | None:
    """The open check as its character's seat sees it: Risk after a failure."""
    shown = view(state, world)
    c = shown.character
    if c is None:
        return None
    risk = shown.rolled is not None and shown.risk_refusal() is None
    stage = "before" if state.rolled is None else "rolled"
    return Offer(state.id, c.id, stage, ("risk",) if risk else (), (RISK,) if risk else ())


def seat_refusal(state: StaratelyCheck, world: World, kind: str, payload: Mapping[str, Any]) -> str:
    """Why a player's ``kind`` cannot apply now ("" if it can); raises ``SeatLater`` while
    Risk waits for the GM's price."""
    if kind != "risk":
        return "В этой проверке такой заявки нет."
    if state.rolled is None:
        return "Проверка ещё не брошена: Риск заявляют после провала."
    why = view(state, world).risk_refusal()
    if why:
        return why
    if not str(payload.get("price") or "").strip():
        raise SeatLater(
            "Цену Риска назначает ведущий: «e» — цена (или «r» — отказать), затем Enter."
        )
    return ""


def seat_step(
    state: StaratelyCheck, world: World, kind: str, payload: Mapping[str, Any]
) -> Outcome[StaratelyCheck]:
    why = seat_refusal(state, world, kind, payload)
    if why:
        return refuse(state, why)
    return steps.risk(state, world, str(payload["price"]))
