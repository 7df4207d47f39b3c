"""An accepted seat request that applies in the GM's Бой tab: Судьба in a Древо exchange.

The step is the Бой tab's own (:meth:`~tui.widgets.combat.drevo_fate.FateMixin.fate_before`,
``fate_shift``): the same checks, the same one undo step and Журнал line as the GM's «f» and
«p» keys, the line saying which player asked. Where it cannot apply now (no fight at the
dice, another character's exchange, the wrong moment) the reason comes back in Russian and
nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.seats.protocol import Request

#: The kinds that apply in the fight (the others are recorded for the GM to apply by hand).
KINDS = ("fate",)

NO_DICE = (
    "Сейчас не применить: Судьба в бою тратится в схватке, когда дойдёт до бросков "
    "(а сейчас {now})."
)
PHASES = {"setup": "бой не начат", "declare": "идут заявки", "end": "бой окончен"}


def applies_in_fight(app: Any, request: Request) -> bool:
    return request.kind in KINDS and app.store.campaign.system == "drevo"


def apply_in_fight(
    pane: Any,
    seat: str,
    request: Request,
    done: Callable[[str], object],
    failed: Callable[[Exception], object],
) -> str:
    """Start the fight's step for ``request`` in the Бой pane; return "" or why not now."""
    enc = pane.encounter
    if enc.phase != "resolve" or pane._pairing() is None:
        return NO_DICE.format(now=PHASES.get(enc.phase, "не фаза бросков"))
    ids = pane._ids()
    role = next((r for r, cid in ids.items() if cid == request.character), None)
    if role is None:
        return "Сейчас не применить: это не его схватка — Судьба тратится в своей."
    data = {"seat": seat, "request": request.id}
    if request.payload.get("use") == "before":
        why = pane.fate_before(role, by=seat, data=data, then=done, failed=failed)
    else:
        points = request.payload.get("points")
        if not points:
            return (
                "Сейчас не применить: сколько очков и в какую сторону? "
                "«e» — изменить: число, например +1 или −2."
            )
        why = pane.fate_shift(role, points, by=seat, data=data, then=done, failed=failed)
    return f"Сейчас не применить: {why}" if why else ""
