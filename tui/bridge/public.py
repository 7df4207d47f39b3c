"""What the players may see of a campaign: the one filter between the GM's store and the view.

Secrets are marked in the data the GM's app already writes:

* a Журнал entry with ``data["hidden"]`` is a secret roll until a later entry carries
  ``data["reveals"] = <its id>`` (the Журнал is append-only, so revealing is a new entry);
* an NPC marked ``hidden`` is a secret character: its name becomes «???» everywhere
  the players look, in the combat order and in the text of log entries.

The view never shows an NPC's sheet, hidden or not. Everything here is plain text in, plain
text out, so a test can prove that no secret reaches the view without starting Textual.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.encounter import Encounter
from tui.bridge.effects import party_tracker
from tui.store import Character, LogEntry

SECRET_ROLL = "скрытый бросок"
SECRET_NAME = "???"
NOBODY = "—"


def is_hidden_npc(c: Character) -> bool:
    """Return whether the GM keeps this character secret (NPCs only: PCs are the players')."""
    return c.kind == "npc" and c.hidden


def revealed_ids(entries: Iterable[LogEntry]) -> set[str]:
    """Return the ids of secret entries that a later entry revealed."""
    return {e.data["reveals"] for e in entries if isinstance(e.data.get("reveals"), str)}


def is_secret(entry: LogEntry, revealed: set[str]) -> bool:
    """Return whether the entry is a secret roll the players may not read."""
    return bool(entry.data.get("hidden")) and entry.id not in revealed


class Masker:
    """Replace the names of hidden NPCs with «???» in any text."""

    def __init__(self, characters: Iterable[Character]) -> None:
        characters = list(characters)
        names = {c.name for c in characters if is_hidden_npc(c) and c.name.strip()}
        # Longest first, so «Волк-вожак» is masked whole before «Волк» could split it.
        self._names = sorted(names, key=len, reverse=True)
        # A hidden NPC's weapon names him in a fight's lines («МУ (Булава)»): masked too,
        # unless someone the players see carries the same (then it tells nothing).
        secret = {w for c in characters if is_hidden_npc(c) for w in c.weapons if w.strip()}
        seen = {w for c in characters if not is_hidden_npc(c) for w in c.weapons}
        weapons = sorted(secret - seen, key=len, reverse=True)
        self._weapons = (
            re.compile(r"(?<!\w)(" + "|".join(re.escape(w) for w in weapons) + r")(?!\w)")
            if weapons
            else None
        )

    def __call__(self, text: str) -> str:
        for name in self._names:
            text = text.replace(name, SECRET_NAME)
        if self._weapons is not None:
            text = self._weapons.sub(SECRET_NAME, text)
        return text


@dataclass(frozen=True)
class PublicEntry:
    """One Журнал line as the players see it."""

    at: str
    actor: str
    text: str
    secret: bool
    #: The change it tells of was undone: the players see it marked «отменено».
    undone: bool = False


def public_log(
    entries: Sequence[LogEntry], characters: Iterable[Character], limit: int
) -> list[PublicEntry]:
    """Return the newest ``limit`` entries (``entries`` newest first) with secrets masked.

    A reveal is always newer than the secret roll it reveals, so the newest ``limit`` entries
    are enough: every reveal of one of them is among them.
    """
    revealed = revealed_ids(entries)
    mask = Masker(characters)
    lines = []
    for entry in entries[: max(limit, 0)]:
        if is_secret(entry, revealed):
            lines.append(PublicEntry(entry.at, NOBODY, SECRET_ROLL, True, entry.undone))
        else:
            actor, text = mask(entry.actor or NOBODY), mask(entry.text)
            lines.append(PublicEntry(entry.at, actor, text, False, entry.undone))
    return lines


def public_party(characters: Iterable[Character]) -> list[Character]:
    """Return the characters whose rows the players see: the PCs."""
    return [c for c in characters if c.kind == "pc"]


def combat_names(
    encounter: Encounter, characters: dict[str, Character], system: str | None = None
) -> dict[str, str]:
    """Return the name the players see for each combatant (hidden NPCs are «???»), with the
    mark of its state its system gives (:func:`state_mark`; ``system``: the campaign's)."""
    names = {}
    for combatant in encounter.combatants:
        c = characters.get(combatant.character_id)
        hidden = c is not None and is_hidden_npc(c)
        name = SECRET_NAME if hidden else combatant.name
        state = state_mark(c, system) if c is not None else ""
        names[combatant.character_id] = f"{name} ({state})" if state else name
    return names


def state_mark(c: Character, system: str | None = None) -> str:
    """Return the mark of ``c``'s state as its system gives it (``System.state``: Древо's
    «погиб», «тяжело ранен»), "" for none — a system without wounds says nothing.

    Args:
        system: the campaign's; None: the system whose fight an encounter document is (the
            fight of exchanges, :func:`tui.registry.exchanges_system`).
    """
    from tui import registry

    kind = registry.get(system) if system is not None else registry.exchanges_system()
    return kind.state(c) if kind is not None else ""


def public_effects(
    doc: dict | None, characters: Iterable[Character], round_now: int = 0
) -> list[str]:
    """Return the effects the players may see, one line each (the GM hid the others; on a
    hidden NPC the name is «???»). Plain text."""
    from rules.effects import EffectSet
    from rules.errors import RulesError
    from tui.bridge.effects import left_text

    try:
        effects = EffectSet.from_dict(doc)
    except RulesError:
        return []
    by_id = {c.id: c for c in characters}
    names = {i: SECRET_NAME if is_hidden_npc(c) else c.name for i, c in by_id.items()}
    lines = []
    for e in effects.effects:
        if e.hidden:
            continue
        whom = names.get(e.target, "?") if e.target else "сцена"
        left = left_text(e, round_now, effects.minute, names)
        lines.append(f"{e.label} ({whom}) — {left}")
    return lines


def public_rounds(doc: dict | None, characters: Iterable[Character]) -> list[str]:
    """Return the round tracker (IDE4, Старатели, Мир Тьмы) as the players see it: the round,
    whose turn, the order; hidden NPCs are «???». Plain text."""
    from rules.errors import RulesError
    from rules.rounds import Tracker

    try:
        t = Tracker.from_dict(doc) if doc else None
    except RulesError:
        t = None
    if t is None or not t.started:
        return ["Боя сейчас нет."]
    by_id = {c.id: c for c in characters}
    t = party_tracker(t, by_id)  # a character removed meanwhile is out of the order, as for the GM
    names = {
        e.id: SECRET_NAME if e.id in by_id and is_hidden_npc(by_id[e.id]) else e.name
        for e in t.entrants
    }
    return [
        f"Раунд {t.round} · ходит {names.get(t.actor, '?')}",
        "Порядок: " + " → ".join(names.get(i, "?") for i in t.order),
    ]
