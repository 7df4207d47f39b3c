"""The IDE4™ open check as the session and the seats see it: making, restoring and offering.

The seed's choices for the player — the expanded check on demand, energy before and after the
roll, rerolls — asked from a seat (:mod:`tui.seats.check`) are the same steps as the GM's keys
(:mod:`.ide4_steps`): the same rules, the same refusals, one undo step with a line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.systems.ide4.check import steps
from tui.systems.ide4.check.state import Ide4Check, Inputs, fresh
from tui.systems.ide4.check.view import character_of, rolled_check, view
from tui.table.check.base import NOT_ROLLED, OVER, ROLLED, Offer
from tui.table.core import Outcome, World, refuse

__all__ = ["after", "from_doc", "new", "new_check", "offer", "seat_refusal", "seat_step", "view"]

from_doc = Ide4Check.from_doc
new_check = steps.new_check


def new(world: World) -> Ide4Check:
    """A new check on the form: the party's first character (expanded if they always
    demand it)."""
    c = next(iter(world.characters.values()), None)
    if c is None:
        return Ide4Check()
    level = "expanded" if c.ide4.always_expanded else "standard"
    return Ide4Check(inputs=Inputs(character=c.id, level=level))


def after(stored: Ide4Check, world: World) -> Ide4Check:
    """A new check after a stored concluded one: its character, who and how kept."""
    return fresh(stored)


def unrolled(state: Ide4Check) -> Ide4Check:
    """The form the check was rolled from (the same id: rolled again, the same dice); an
    opposed check's second side as it was chosen, unrolled."""
    opp = state.opposed
    if opp is not None:
        opp = replace(opp, a=None, b=None, resolution="", price="", concluded=False)
    return replace(state, rolled=None, opposed=opp)


# -- the players' seats ------------------------------------------------------------------------


def _stage(state: Ide4Check) -> str:
    if state.rolled is None:
        return "before"
    if state.rolled.concluded:
        return "done"
    check = ide4_check(state)
    return "rolled" if check is not None and check.status == "rolled" else "done"


def ide4_check(state: Ide4Check) -> ide4.Check | None:
    from tui.systems.ide4.check.state import replay

    return replay(state.rolled) if state.rolled is not None else None


def offer(state: Ide4Check, world: World) -> Offer | None:
    """The open check as its character's seat sees it (nothing while an opposed check waits
    for its outcome: its moves are the GM's dialog's)."""
    if state.opposed_open:
        return None
    shown = view(state, world)
    c = shown.character if state.rolled is None else shown.payer
    if c is None:
        return None
    stage = _stage(state)
    demanded = state.inputs.player_demand and shown.level == "expanded"
    kinds, choices = [], []
    if not demanded:
        kinds.append("expanded")
        choices.append("потребовать развёрнутую проверку")
    if stage == "before" and state.inputs.level == "expanded":
        kinds.append("energy")
        nominal = shown.input.nominal if shown.input is not None else 0
        choices.append(f"энергия до броска (кубы до d{nominal})" if nominal else "энергия")
    check = shown.check
    if stage == "rolled" and check is not None:
        if ide4.energy_after_refusal(check) is None:
            kinds.append("energy")
            choices.append(f"энергия после броска (кубы до d{check.input.nominal})")
        if any(m.kind == "reroll" and m.allowed for m in ide4.allowed_moves(check)):
            kinds.append("reroll")
            choices.append("переброс d100")
    return Offer(state.id, c.id, stage, tuple(kinds), tuple(choices))


def _source(check: ide4.Check, named: str = "") -> str:
    """The reroll source a player's request takes: the one named, else the first allowed."""
    if named:
        why = ide4.reroll_refusal(check, named)
        if why:
            raise RulesError(f"Переброс ({ide4.REROLL_SOURCES[named]}): {why}")
        return named
    moves = [m for m in ide4.allowed_moves(check) if m.kind == "reroll"]
    allowed = [m for m in moves if m.allowed]
    if not allowed:
        raise RulesError(moves[0].reason if moves else "Переброс сейчас не разрешён.")
    return allowed[0].source


def seat_refusal(state: Ide4Check, world: World, kind: str, payload: Mapping[str, Any]) -> str:
    """Why a player's ``kind`` cannot apply to this check now ("" if it can)."""
    if state.opposed_open:
        return steps.OPPOSED_OPEN
    try:
        if kind == "expanded":
            level = rolled_check(state, world)[0].level if state.rolled else state.inputs.level
            if state.inputs.player_demand and level == "expanded":
                return "Развёрнутая проверка уже идёт по требованию игрока."
            return ""
        if kind == "energy" and payload.get("when") == "before":
            if state.rolled is not None:
                return ROLLED + " После броска — «Энергия после»."
            made = steps.energy_before(
                state, world, int(payload["amount"]), int(payload.get("die") or 0)
            )
            return made.refused
        if state.rolled is None:
            return (
                NOT_ROLLED if kind in ("energy", "reroll") else "В этой проверке такой заявки нет."
            )
        check = rolled_check(state, world)[0]
        if state.rolled.concluded or check.status != "rolled":
            return OVER
        if kind == "energy":
            die = int(payload.get("die") or check.input.nominal)
            return ide4.energy_after_refusal(check, int(payload["amount"]), die) or ""
        if kind == "reroll":
            _source(check, str(payload.get("source") or ""))
            return ""
    except RulesError as err:
        return str(err)
    return "В этой проверке такой заявки нет."


def seat_step(
    state: Ide4Check, world: World, kind: str, payload: Mapping[str, Any]
) -> Outcome[Ide4Check]:
    """The step the GM's key makes for a player's ``kind`` (refused: the reason)."""
    why = seat_refusal(state, world, kind, payload)
    if why:
        return refuse(state, why)
    if kind == "expanded":
        return steps.demand_expanded(state, world)
    amount, die = int(payload.get("amount") or 0), int(payload.get("die") or 0)
    if kind == "energy" and payload.get("when") == "before":
        return steps.energy_before(state, world, amount, die)
    if kind == "energy":
        return steps.energy_after(state, world, amount, die)
    check = rolled_check(state, world)[0]
    return steps.reroll(state, world, _source(check, str(payload.get("source") or "")))


def character_id(state: Ide4Check, world: World) -> str | None:
    """The character the open check is for."""
    if state.rolled is not None:
        return state.rolled.character
    c = character_of(state.inputs, world)
    return c.id if c is not None else None
