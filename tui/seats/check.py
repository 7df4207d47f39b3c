"""An accepted seat request that applies to the GM's open check (the Проверка tab).

The check a player's choice is about is the GM's open builder check of that character: its
offer (:class:`~tui.widgets.builders.base.SeatCheck`) goes to that character's seat with the
players' view — its id, its stage, the choices the rules give now — and the seat's request
names that id. When the GM accepts, the builder makes the step its own key makes (the same
rules, the same refusals) and the hub writes it as ONE undo step with its Журнал line under
the player: the sheet it pays from (Судьба, energy) or the accepted request, and the line.
Ctrl+Z undoes it (the builder follows the line's undo mark and puts the check back), Ctrl+Y
redoes it. No open check of that character, another character's, one already rolled or
closed, or a move the rules refuse: the request is refused with the Russian reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from tui.seats.protocol import CHECK_KINDS, Request, describe
from tui.seats.rules_check import DOC, KEEP
from tui.widgets.builders.base import SeatLater as Later

__all__ = ["KINDS", "Later", "applies_to_check", "apply_to_check", "check_refusal", "offer_for"]

#: The kinds each system's builder applies (Судьба of Древо: outside a fight; in the fight's
#: exchange it is the Бой tab's step, :mod:`tui.seats.fight`).
KINDS = CHECK_KINDS

NO_CHECK = (
    "У ведущего нет открытой проверки этого персонажа (вкладка «Проверка»): "
    "попросите ведущего открыть её."
)
OTHER = "У ведущего открыта проверка другого персонажа."


def builder_of(app: Any) -> Any:
    """Return the Проверка tab's builder if it is built and takes seats' requests."""
    pane = getattr(app, "_panes", {}).get("check")
    if pane is None or not hasattr(pane, "seat_check"):
        return None
    return pane if pane.seat.opened else None  # built ahead but never shown: nothing open


def offer_for(app: Any, characters: set[str]) -> dict[str, Any] | None:
    """Return the open check's offer when it is about one of ``characters`` (a seat's)."""
    builder = builder_of(app)
    if builder is None:
        return None
    try:
        offer = builder.seat_check()
    except Exception:  # noqa: BLE001 - a half-built form offers nothing
        return None
    return offer if offer and offer["character"] in characters else None


def applies_to_check(app: Any, request: Request) -> bool:
    """Whether ``request`` is about the open check (Судьба: only when it names the check)."""
    if request.kind not in KINDS.get(app.store.campaign.system, ()):
        return False
    return request.kind != "fate" or "check" in request.payload


def check_refusal(app: Any, request: Request) -> str:
    """Return why the open check cannot take ``request`` now ("" when it may; raises
    :class:`Later` when it may once the GM adds what is his to decide)."""
    builder = builder_of(app)
    wanted = request.payload.get("check")
    offer = None
    if builder is not None:
        try:
            offer = builder.seat_check()
        except Exception:  # noqa: BLE001
            offer = None
    if wanted and builder is not None and (offer is None or wanted != offer["id"]):
        if why := builder.seat_closed(wanted):
            return why
    if offer is None:
        return NO_CHECK
    if offer["character"] != request.character:
        return OTHER
    if wanted and wanted != offer["id"]:
        return builder.seat.CLOSED
    return str(builder.seat_refusal(request.kind, request.payload))


def apply_to_check(
    app: Any,
    seat: str,
    request: Request,
    done: Callable[[str], object],
    failed: Callable[[Exception], object],
) -> None:
    """Make the builder's step for ``request`` and write it as one undo step (runs on the UI
    thread; the write goes through the app's worker). Raises RulesError / Later: why not."""
    why = check_refusal(app, request)
    if why:
        raise RulesError(why)
    builder = builder_of(app)
    move = builder.seat_apply(request.kind, request.payload, seat)  # raises RulesError
    text = f"Заявка игрока {seat}: {move.text}"
    data = {**move.data, "seat": seat, "request": request.id}
    entry = replace(app.entry("check", move.actor, text, data), id=move.entry_id)
    log = [*(app.entry("check", move.actor, t, d) for t, d in move.lines), entry]
    label = f"Заявка игрока {seat} принята: {describe(request.kind, request.payload)}"
    store = app.store
    spend = move.spend

    def job() -> str:
        doc = store.get_doc(DOC) or {}
        accepted = [*doc.get("accepted", []), {"seat": seat, **request.to_dict()}][-KEEP:]
        store.apply(
            label,
            upsert=[spend] if spend is not None else (),
            docs={DOC: {"accepted": accepted}},
            log=log,
            what="заявка не записана",
        )
        return label

    def refused(err: Exception) -> None:
        builder.spend_refused(move.entry_id)  # the check goes back to its state before
        failed(err)

    app.write(job, done, failed=refused)
