"""Древо's steps of the Партия tab: ``step(character, …) -> Outcome``, each one undo step.

A step reads one character as the campaign has it now — the write makes it under the store's
lock (:func:`tui.table.commit.commit_edit`), so a wound given here lands on the track another
window changed meanwhile — and returns the changed character (the outcome's state and its one
sheet), the undo step's label and its Журнал line, or the rules' reason it is refused (nothing
is written then). The party pane's keys (``tui/systems/drevo/party_keys.py``) and the tests
make these same steps.
"""

from __future__ import annotations

from rules import drevo  # loads each part on first use (PEP 562)
from rules.drevo.sheet import DrevoSheet
from rules.errors import RulesError
from tui import words
from tui.store import Character
from tui.systems.drevo.sheet import track_of, wounds_text
from tui.table.core import Outcome, refuse
from tui.table.party import character_outcome

#: What Судьба on a circumstance costs: one point (``spend_fate``'s default cost).
CIRCUMSTANCE_COST = 1
NO_NOTE = "Напишите, что складывается в пользу персонажа: без этого Судьба не тратится."


def wound(c: Character, level: str) -> Outcome[Character]:
    """Give ``c`` a wound of ``level``; the cascade applies (four Царапины make a Лёгкая рана,
    two Лёгкие an Ранение, two Ранения a Тяжёлая рана; a heavily wounded one dies)."""
    try:
        track = track_of(c).take(level)
    except RulesError as err:  # not a damage level
        return refuse(c, str(err))
    name = drevo.level_name(level)
    state = f" — {words.wound_state(track)}" if not track.can_act else ""
    return character_outcome(
        c,
        c.edit_sheet(DrevoSheet, wounds=dict(track.counts), dead=track.dead),
        f"{c.name}: {name}",
        f"Рана: {name}. Раны: {wounds_text(track.counts)}{state}",
    )


def heal(c: Character, level: str) -> Outcome[Character]:
    """Heal one wound of ``level`` (``"death"``: the GM rules ``c`` was only «при смерти»)."""
    try:
        after = track_of(c).heal(level)
    except RulesError as err:  # no such wound, or alive and «death» asked
        return refuse(c, str(err))
    name = drevo.level_name(level)
    return character_outcome(
        c,
        c.edit_sheet(DrevoSheet, wounds=dict(after.counts), dead=after.dead),
        f"{c.name}: вылечено — {name}",
        f"Вылечено: {name}. Раны: {wounds_text(after.counts)}",
    )


def grant_fate(c: Character) -> Outcome[Character]:
    """The GM gives ``c`` one point of Судьба."""
    fate = c.drevo.fate + 1
    return character_outcome(
        c,
        c.edit_sheet(DrevoSheet, fate=fate),
        f"{c.name}: +1 Судьба",
        f"Ведущий даёт очко Судьбы: теперь {fate}",
    )


def fate_circumstance(c: Character, note: str) -> Outcome[Character]:
    """Spend one point of ``c``'s Судьба on a favourable circumstance, with the GM's consent;
    ``note`` says what turns in the character's favour (the prompt's text, stripped)."""
    try:
        left = drevo.spend_fate("circumstance", c.drevo.fate, CIRCUMSTANCE_COST)
    except RulesError as err:  # the campaign forbids it, or no point left
        return refuse(c, str(err))
    if not note.strip():
        return refuse(c, NO_NOTE)
    return character_outcome(
        c,
        c.edit_sheet(DrevoSheet, fate=left),
        f"{c.name}: Судьба на обстоятельство",
        f"Судьба на благоприятное обстоятельство: {note} (осталось {left})",
        fate_spent=CIRCUMSTANCE_COST,
    )
