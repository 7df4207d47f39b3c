"""Which requests a seat may make now, and what an accepted one writes (the GM's side only).

Shared by every system: a request's kinds are the system's (``System.seat_kinds``); a
declaration in a fight of exchanges is checked and worded by the system's ``fight_readers``
(Древо's legality and words, ``tui.registry.fight_readers``), never by an import of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.encounter import Declaration
from rules.errors import RulesError
from tui.numbers import read_typed_whole
from tui.registry import fight_readers, reroll_sources
from tui.seats.protocol import ProtocolError, Request, describe, system_kinds
from tui.seats.state import current_declarer, encounter_of, own_characters
from tui.store import LogEntry

if TYPE_CHECKING:
    from tui.services import Journal

#: The campaign document holding the requests the GM accepted (newest last, a few kept).
DOC = "seat_requests"
KEEP = 50


def declaration_of(request: Request) -> Declaration:
    """Return the request's declaration; raises RulesError when the rules cannot make one."""
    p = request.payload
    return Declaration(
        actor=request.character,
        action=p["action"],
        target=p["target"] if p["action"] in ("melee", "throw", "shoot") else None,
        weapon=None if p["weapon"] in (None, fight_readers().NO_WEAPON) else p["weapon"],
        distance=p["distance"],
        turns=p["turns"],
        note=p["note"],
    )


def refusal(store: Any, seat: str, request: Request) -> str:
    """Return why ``seat`` may not make ``request`` now ("" when it may)."""
    characters = store.characters()
    mine = {c.id: c for c in own_characters(characters, seat)}
    if request.character not in mine:
        return "Это не ваш персонаж: заявки — только за своих."
    system = store.campaign.system
    if request.kind not in system_kinds(system):
        return "В этой системе такой заявки нет."
    if request.kind == "fate" and mine[request.character].drevo.fate < 1:
        return "Судьбы не осталось."
    if request.kind != "declare":
        return ""
    by_id = {c.id: c for c in characters}
    if current_declarer(store, by_id) != request.character:
        return "Сейчас заявляет не ваш персонаж."
    try:
        declaration = declaration_of(request)
    except RulesError as err:
        return str(err)
    enc = encounter_of(store)
    assert enc is not None
    if declaration.target is not None:
        sides = {c.character_id: c.side for c in enc.combatants}
        if declaration.target not in sides or sides[declaration.target] == sides[request.character]:
            return "Такой цели в бою нет."
    actor = mine[request.character]
    readers = fight_readers()
    if declaration.weapon is not None and declaration.weapon not in readers.weapon_names(actor):
        return "Такого оружия у персонажа нет."
    problem, _ = readers.declaration_problem(declaration, actor)
    return problem


def apply(journal: Journal, seat: str, request: Request) -> str:
    """Write an accepted request as ONE undo step with its Журнал line under the player
    (``journal``: the campaign and its entries stamped now).

    Runs in the app's write worker; raises RulesError (the reason) when it no longer fits.
    Returns the step's label.
    """
    store = journal.store
    why = refusal(store, seat, request)
    if why:
        raise RulesError(why)
    character = store.character(request.character)
    assert character is not None  # refusal() found it among the seat's own
    if request.kind == "declare":
        by_id = {c.id: c for c in store.characters()}
        can_act = lambda cid: fight_readers().can_act(by_id.get(cid))  # noqa: E731
        enc = encounter_of(store)
        assert enc is not None
        declaration = declaration_of(request)
        enc = enc.declare(declaration, can_act)
        if enc.next_declarer(can_act) is None:  # the last one and the dice: one step
            enc = enc.start_resolution(can_act)
        label = f"Бой: заявка {character.name} (игрок {seat})"
        store.put_doc("encounter", enc.to_dict(), label=label)
        names = {c.character_id: c.name for c in enc.combatants}
        text = f"Заявка игрока {seat}: " + fight_readers().declaration_text(declaration, names)
        data: dict[str, Any] = {"round": enc.round, "declaration": vars(declaration)}
        kind = "combat"
    else:
        label = f"Заявка игрока {seat} принята: {describe(request.kind, request.payload)}"
        doc = store.get_doc(DOC) or {}
        accepted = [*doc.get("accepted", []), {"seat": seat, **request.to_dict()}][-KEEP:]
        store.put_doc(DOC, {"accepted": accepted}, label=label)
        text = f"Игрок {seat} (принято ведущим): {describe(request.kind, request.payload)}"
        data = {}
        kind = "note"
    step = store.take_last_step()
    data = {**data, "seat": seat, "request": request.id}
    entry: LogEntry = journal.entry(kind, character.name, text, data)
    store.append_log(entry, step=step)
    return label


def edited(request: Request, text: str) -> Request:
    """Return the request with the GM's edit: the note (an energy's dice, a shift's points,
    Risk's price) replaced by ``text``."""
    p = dict(request.payload)
    if request.kind == "fate" and p.get("use") == "shift":  # the points of the shift
        from tui.seats.protocol import check_payload

        value = read_typed_whole(text)
        if value is None:
            raise ProtocolError("Введите сдвиг числом: например +1 или −2.")
        return replace(request, payload=check_payload(request.kind, {**p, "points": value}))
    if request.kind == "risk":  # the GM names Risk's price (required)
        from tui.seats.protocol import check_payload

        return replace(request, payload=check_payload(request.kind, {**p, "price": text}))
    if request.kind == "energy":
        value = read_typed_whole(text)
        if value is None:
            raise ProtocolError("Введите число.")
        from tui.seats.protocol import check_payload

        return replace(request, payload=check_payload(request.kind, {**p, "amount": value}))
    if request.kind == "reroll":  # a source's name («еда», «Фатум») names the source
        from tui.seats.protocol import check_payload

        named = {name.casefold(): key for key, name in reroll_sources().items()}
        if text.strip().casefold() in named:
            source = named[text.strip().casefold()]
            return replace(request, payload=check_payload("reroll", {**p, "source": source}))
    key = "text" if request.kind == "note" else "note"
    from tui.seats.protocol import check_payload

    return replace(request, payload=check_payload(request.kind, {**p, key: text}))
