"""The Мир Тьмы open check as the session sees it: making and restoring (no seat kinds yet:
the seats' «reroll» of Мир Тьмы is a note to the Storyteller, not a step of the check)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.systems.wod.check import steps
from tui.systems.wod.check.state import WodCheck, fresh, unrolled
from tui.systems.wod.check.view import view
from tui.table.check.base import Offer
from tui.table.core import Outcome, World, refuse

__all__ = ["after", "from_doc", "new", "offer", "seat_refusal", "seat_step", "unrolled", "view"]

from_doc = WodCheck.from_doc
new_check = steps.new_check


def new(world: World) -> WodCheck:
    c = next(iter(world.characters.values()), None)
    return WodCheck() if c is None else steps.set_input(WodCheck(), world, "character", c.id).state


def after(stored: WodCheck, world: World) -> WodCheck:
    return fresh(stored)


def offer(state: WodCheck, world: World) -> Offer | None:
    c = view(state, world).character
    if c is None:
        return None
    return Offer(state.id, c.id, "before" if state.rolled is None else "rolled")


def seat_refusal(state: WodCheck, world: World, kind: str, payload: Mapping[str, Any]) -> str:
    return "В этой проверке такой заявки нет."


def seat_step(
    state: WodCheck, world: World, kind: str, payload: Mapping[str, Any]
) -> Outcome[WodCheck]:
    return refuse(state, seat_refusal(state, world, kind, payload))
