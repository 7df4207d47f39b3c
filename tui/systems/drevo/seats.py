"""An accepted seat request that applies in the fight: Судьба in a Древо exchange.

The seats' hub reaches it as Древо's ``System.fight_requests`` (by the registry's string: the
seats import no system package).

The step is the table engine's (:func:`tui.systems.drevo.fight.steps.fate_before`, ``fate_shift``):
the same checks, the same one undo step and Журнал line as the GM's «f» and «p» keys, the line
saying which player asked. No widget is involved: the fight is read from the store, the step
made, and its outcome handed to the app's writer. Where it cannot apply now (no fight at the
dice, another character's exchange, the wrong moment) the reason comes back in Russian and
nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.errors import RulesError
from rules.systems import exchanges
from tui import registry
from tui.table.core import Dice
from tui.table.world import world_of

if TYPE_CHECKING:
    from tui.seats.protocol import Request
    from tui.services.lent import StepServices

#: The kinds that apply in the fight (the others are recorded for the GM to apply by hand).
KINDS = ("fate",)

NO_DICE = (
    "Сейчас не применить: Судьба в бою тратится в схватке, когда дойдёт до бросков "
    "(а сейчас {now})."
)
PHASES = {"setup": "бой не начат", "declare": "идут заявки", "end": "бой окончен"}


def applies_in_fight(lent: StepServices, request: Request) -> bool:
    return request.kind in KINDS and exchanges(lent.store.campaign.system)


def apply_in_fight(
    lent: StepServices,
    seat: str,
    request: Request,
    done: Callable[[str], object],
    failed: Callable[[Exception], object],
) -> str:
    """Make the fight's step for ``request`` and hand its write to the app's writer; return
    "" or why it cannot apply now."""
    store = lent.store
    world = world_of(store, Dice(lent.rng))
    fight = registry.get(world.system).fight_engine  # its own fight's engine, by its name
    if fight is None:
        return NO_DICE.format(now="боя обменами нет")
    steps = registry.load(f"{fight}.steps")
    write = registry.load(f"{fight}.session:write")
    stored = store.get_doc(steps.DOC)
    try:
        enc = steps.current(stored, world)
    except RulesError as err:
        return f"Сейчас не применить: {err}"
    view = registry.load(f"{fight}.view:exchange_view")(enc, world)
    if view is None:
        return NO_DICE.format(now=PHASES.get(enc.phase, "не фаза бросков"))
    role = view.role_of(request.character)
    if role is None:
        who = world.characters.get(request.character)
        name = who.name if who is not None else "персонаж"
        return (
            f"Сейчас не применить: {name} не участвует в схватке на очереди — Судьба "
            "тратится в своей."
        )
    data = {"seat": seat, "request": request.id}
    if request.payload.get("use") == "before":
        outcome = steps.fate_before(enc, world, role, by=seat, data=data)
    else:
        points = request.payload.get("points")
        if not points:
            return (
                "Сейчас не применить: сколько очков и в какую сторону? "
                "«e» — изменить: число, например +1 или −2."
            )
        outcome = steps.fate_shift(enc, world, role, int(points), by=seat, data=data)
    if not outcome.ok:
        return f"Сейчас не применить: {outcome.refused}"

    def job() -> str:
        write(store, outcome, stored, lent.journal.entry)
        return outcome.label

    lent.writer.write(job, done, failed=failed)
    return ""
