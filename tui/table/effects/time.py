"""Where time stands for the effects: the fight's round, whose turn it is, who is in it.

An effect added now starts here (``rules.effects.Now``); «until X's turn» needs X in the
fight. Read from the campaign's fight: the round tracker's (IDE4, Старатели, Мир Тьмы) or the
Древо fight's round; outside a fight, round 0 and the whole party.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.effects import EffectSet, Now
from rules.errors import RulesError
from rules.rounds import Tracker
from rules.systems import exchanges
from tui.bridge.effects import ROUNDS_DOC, current_round, party_tracker
from tui.store import Character


@dataclass(frozen=True)
class FightTime:
    """Where the fight stands for the effects.

    Attributes:
        round: the fight's round, 0 outside a fight.
        actor: whose turn it is (a character id), ``""`` for none (Древо has no turns).
        order: who may end an effect with their turn, in turn order.
    """

    round: int = 0
    actor: str = ""
    order: tuple[str, ...] = ()

    def now(self, effects: EffectSet) -> Now:
        """The moment an effect added now starts at (with the scene clock of ``effects``)."""
        return Now(self.round, self.actor, effects.minute)


def of_tracker(t: Tracker) -> FightTime:
    """Where a round tracker's fight stands (before initiative: its roster)."""
    ids = t.order if t.started else tuple(e.id for e in t.entrants)
    return FightTime(t.round, t.actor, tuple(ids))


def fight_time(
    system: str,
    get_doc: Callable[[str], dict[str, Any] | None],
    characters: Mapping[str, Character],
) -> FightTime:
    """Where the campaign's fight stands now, from its stored documents.

    A character removed from the party is out of the order (and not the actor); a fight
    document that cannot be read counts as no fight.
    """
    everyone = tuple(characters)
    if exchanges(system):  # Древо's exchanges have no turns: the round alone
        return FightTime(current_round(system, get_doc), "", everyone)
    doc = get_doc(ROUNDS_DOC)
    if not doc:
        return FightTime(0, "", everyone)
    try:
        t = party_tracker(Tracker.from_dict(doc), dict(characters))
    except (RulesError, TypeError, ValueError, AttributeError):
        return FightTime(0, "", everyone)
    return FightTime(t.round, t.actor, tuple(t.order) or everyone)
