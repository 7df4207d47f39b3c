"""An accepted seat request that applies to the GM's open check (the Проверка tab's check).

The check a player's choice is about is the campaign's open check of that character: its
offer goes to that character's seat with the players' view — its id, its stage, the choices
the rules give now — and the seat's request names that id. When the GM accepts, the table
engine makes the step the GM's own key makes (:mod:`tui.table.check`: the same rules, the same
refusals) and it is written as ONE undo step with its Журнал line under the player: the check,
the sheet it pays from (Судьба, energy) and the accepted request. Ctrl+Z undoes it (the check
is the store's again), Ctrl+Y redoes it. No open check of that character, another
character's, one already rolled or closed, or a move the rules refuse: the request is refused
with the Russian reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from rules.errors import RulesError
from tui.seats.protocol import Request, check_kinds, describe
from tui.seats.rules_check import DOC, KEEP
from tui.table.check.base import CLOSED
from tui.table.check.base import SeatLater as Later
from tui.table.core import Line

if TYPE_CHECKING:
    from tui.services import Writer
    from tui.store import Store
    from tui.table.check.session import CheckTable

__all__ = ["Later", "applies_to_check", "apply_to_check", "check_refusal", "offer_for"]


NO_CHECK = (
    "У ведущего нет открытой проверки этого персонажа (вкладка «Проверка»): "
    "попросите ведущего открыть её."
)
OTHER = "У ведущего открыта проверка другого персонажа."


class CheckNeeds(Protocol):
    """What a request on the open check uses of the services (the hub hands them)."""

    @property
    def store(self) -> Store: ...
    @property
    def check_table(self) -> CheckTable | None: ...
    @property
    def writer(self) -> Writer: ...


def table_of(lent: CheckNeeds) -> CheckTable | None:
    """The campaign's open check on the table engine (None: the system is not on it yet)."""
    return lent.check_table


def _offer(lent: CheckNeeds) -> dict[str, Any] | None:
    table = table_of(lent)
    if table is None:
        return None
    try:
        offer = table.offer()
    except Exception:  # noqa: BLE001 - a half-built form offers nothing
        return None
    return offer.to_dict() if offer is not None else None


def offer_for(lent: CheckNeeds, characters: set[str]) -> dict[str, Any] | None:
    """Return the open check's offer when it is about one of ``characters`` (a seat's)."""
    offer = _offer(lent)
    return offer if offer and offer["character"] in characters else None


def applies_to_check(lent: CheckNeeds, request: Request) -> bool:
    """Whether ``request`` is about the open check (Судьба: only when it names the check)."""
    # The kinds the system's open check applies (Судьба of Древо: outside a fight; in the
    # fight's exchange it is the Бой tab's step, :mod:`tui.systems.drevo.seats`).
    if request.kind not in check_kinds(lent.store.campaign.system):
        return False
    return request.kind != "fate" or "check" in request.payload


def _closed(lent: CheckNeeds, check_id: str) -> str:
    table = table_of(lent)
    return str(table.closed(check_id)) if table is not None else ""


def check_refusal(lent: CheckNeeds, request: Request) -> str:
    """Return why the open check cannot take ``request`` now ("" when it may; raises
    :class:`Later` when it may once the GM adds what is his to decide)."""
    wanted = request.payload.get("check")
    offer = _offer(lent)
    if wanted and (offer is None or wanted != offer["id"]):
        if why := _closed(lent, wanted):
            return why
    if offer is None:
        return NO_CHECK
    if offer["character"] != request.character:
        return OTHER
    if wanted and wanted != offer["id"]:
        return CLOSED
    table = table_of(lent)
    if table is None:  # an offer came from it: it is there
        return NO_CHECK
    world = table.world()
    return str(table.engine.seat_refusal(table.state, world, request.kind, request.payload))


def _accepted(store: Any, seat: str, request: Request) -> dict[str, Any]:
    doc = store.get_doc(DOC) or {}
    return {"accepted": [*doc.get("accepted", []), {"seat": seat, **request.to_dict()}][-KEEP:]}


def apply_to_check(
    lent: CheckNeeds,
    seat: str,
    request: Request,
    done: Callable[[str], object],
    failed: Callable[[Exception], object],
) -> None:
    """Make the open check's step for ``request`` and write it as one undo step (runs on the UI
    thread; the write goes through the app's worker). Raises RulesError / Later: why not."""
    why = check_refusal(lent, request)
    if why:
        raise RulesError(why)
    label = f"Заявка игрока {seat} принята: {describe(request.kind, request.payload)}"
    _apply_on_table(lent, table_of(lent), seat, request, label, done, failed)


def _apply_on_table(
    lent: CheckNeeds,
    table: Any,
    seat: str,
    request: Request,
    label: str,
    done: Callable[[str], object],
    failed: Callable[[Exception], object],
) -> None:
    """The engine's step for the request, its lines under the player, the accepted request
    in the same undo step."""

    def as_request(state: Any, world: Any) -> Any:
        made = table.engine.seat_step(state, world, request.kind, request.payload)
        if not made.ok:
            return made
        *before, last = made.log  # a level raised on the way first; the request's own last
        request_data = {**last.data, "seat": seat, "request": request.id}
        lines = (
            *before,
            Line(last.actor, f"Заявка игрока {seat}: {last.text}", request_data, last.kind),
        )
        accepted = {DOC: _accepted(lent.store, seat, request)}
        return replace(made, label=label, log=lines, docs=accepted)

    outcome, job = table.make(as_request)
    if not outcome.ok:
        raise RulesError(outcome.refused)
    assert job is not None  # a seat's step always has its line

    def written() -> str:
        job()
        return label

    lent.writer.write(written, done, failed=failed)
