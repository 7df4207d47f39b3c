"""What a seat may read: the players' view (through :mod:`tui.bridge.public`) and its own
characters.

Built in the GM's app from its store and sent to the seat as plain JSON; the seat never
opens the campaign. A hidden NPC is «???» here as in the view, a secret roll is «скрытый
бросок»; the only sheets sent are the seat's own characters'.

A fight of exchanges (``rules.encounter``: who declares now, the targets, a fighter's weapons)
is read here for any system that fights so; what is Древо's in it — who may still act, the
weapon catalogue — comes from the system's ``fight_readers`` (``tui.registry.fight_readers``).
"""

from __future__ import annotations

from typing import Any

from rules.encounter import Encounter
from rules.errors import RulesError
from rules.systems import exchanges
from tui.bridge.effects import current_round
from tui.bridge.public import combat_names, public_effects, public_log, public_party, public_rounds
from tui.registry import fight_readers
from tui.sanitize import plain as escape
from tui.store import Character
from tui.store.codec import character_to_doc

LOG_LINES = 8


def seat_of(c: Character) -> str:
    """Return the seat a PC belongs to: its player, else its own name."""
    player = c.player.strip()
    return player or c.name


def seat_names(characters: list[Character]) -> list[str]:
    """Return the seats of the party's players, each once."""
    names: dict[str, str] = {}
    for c in public_party(characters):
        names.setdefault(seat_of(c).casefold(), seat_of(c))
    return list(names.values())


def own_characters(characters: list[Character], seat: str) -> list[Character]:
    """Return the PCs of ``seat`` (never an NPC)."""
    return [c for c in public_party(characters) if seat_of(c).casefold() == seat.casefold()]


def encounter_of(store: Any) -> Encounter | None:
    doc = store.get_doc("encounter")
    if not doc:
        return None
    try:
        return Encounter.from_dict(doc)
    except (RulesError, TypeError, KeyError, ValueError):
        return None


def current_declarer(store: Any, characters: dict[str, Character]) -> str | None:
    """Return the id of the character who declares now (Древо), or None."""
    enc = encounter_of(store)
    if enc is None or enc.phase != "declare":
        return None
    current = enc.next_declarer(lambda cid: fight_readers().can_act(characters.get(cid)))
    return current.character_id if current else None


def in_exchange(store: Any, mine: list[Character]) -> list[str]:
    """Return the ids of ``mine`` fighting in the exchange on turn (the dice phase), in the
    seat's order: a Судьба choice is about one of them, not the first of the seat's names."""
    enc = encounter_of(store)
    pending = enc.pending() if enc is not None and enc.phase == "resolve" else []
    if not pending:
        return []
    on_turn = pending[0]
    fighters = {on_turn.attack.actor, on_turn.attack.target}
    if on_turn.answer is not None:
        fighters.add(on_turn.answer.actor)
    return [c.id for c in mine if c.id in fighters]


def declare_offer(store: Any, characters: dict[str, Character], actor: str) -> dict[str, Any]:
    """Return what the declaration form needs for ``actor``: weapons and public targets."""
    enc = encounter_of(store)
    assert enc is not None
    side = next(c.side for c in enc.combatants if c.character_id == actor)
    names = combat_names(enc, characters, store.campaign.system)
    targets = [
        [names.get(c.character_id, "?"), c.character_id]
        for c in enc.combatants
        if c.side != side
        and c.character_id in characters
        and not fight_readers().is_dead(characters[c.character_id])
    ]
    return {
        "actor": actor,
        "weapons": fight_readers().weapon_names(characters[actor]),
        "targets": targets,
    }


def public_names(store: Any) -> dict[str, str]:
    """Return each character's name as the players see it («???» for a hidden NPC)."""
    from tui.bridge.public import SECRET_NAME, is_hidden_npc

    return {c.id: SECRET_NAME if is_hidden_npc(c) else c.name for c in store.characters()}


def party_rows(system: str, players: list[Character]) -> list[list[str]]:
    """The players' rows as the view shows them: at most ``VIEW_ROWS``, then how many more
    (a campaign of thousands sent every row to every seat at every change)."""
    from tui.view import VIEW_ROWS, party_columns, party_row
    from tui.words import plural

    rows = [list(party_row(system, c)) for c in players[:VIEW_ROWS]]
    if len(players) > VIEW_ROWS:
        more = plural(len(players) - VIEW_ROWS, "персонаж", "персонажа", "персонажей")
        rows.append([f"… и ещё {more}", *[""] * (len(party_columns(system)) - 1)])
    return rows


def seat_state(store: Any, seat: str) -> dict[str, Any]:
    """Return everything ``seat`` may read now (JSON-ready)."""
    from tui.view import combat_text, party_columns

    characters = store.characters()
    by_id = {c.id: c for c in characters}
    system = store.campaign.system
    combat = combat_text(store.get_doc("encounter"), by_id, system)
    if not exchanges(system):  # the round tracker
        combat = "[b]Бой[/b]\n" + escape(
            "\n".join(public_rounds(store.get_doc("rounds"), characters))
        )
    effects = public_effects(
        store.get_doc("effects"), characters, current_round(system, store.get_doc)
    )
    if effects:
        combat += "\n[b]Эффекты[/b]\n" + escape("\n".join(f"• {line}" for line in effects))
    mine = own_characters(characters, seat)
    declarer = current_declarer(store, by_id) if exchanges(system) else None
    declare = None
    if declarer is not None and declarer in {c.id for c in mine}:
        declare = declare_offer(store, by_id, declarer)
    return {
        "campaign": store.campaign.name,
        "system": system,
        "columns": list(party_columns(system)),
        "party": party_rows(system, public_party(characters)),
        "combat": combat,
        "log": [
            [e.at, e.actor, e.text, e.secret, e.undone]
            for e in public_log(store.log(LOG_LINES), characters, LOG_LINES)  # see tui/view.py
        ],
        "mine": [character_to_doc(c) for c in mine],
        "declare": declare,
        "exchange": in_exchange(store, mine) if exchanges(system) else [],
        "round": int((store.get_doc("encounter") or {}).get("round", 0) or 0),
    }
