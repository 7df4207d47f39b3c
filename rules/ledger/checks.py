"""The luck of one Журнал entry, computed from the result it records (a plain JSON dict).

Every system's result already keeps its inputs (trait, modifiers, difficulty, pool, energy…),
so the exact distribution of the roll is rebuilt from them with that system's own odds
functions, and the roll is placed in it (``rules.ledger.percentile``). Each system's reader is
its package's ``ledger`` module (``rules/<name>/ledger.py``; a fight's ``initiative``), named by
the system's line in :mod:`rules.systems`; what an entry's luck is made of is ``entry``.
This module reads the entry's kind and hands it on.

What counts as luck: the dice of each fresh roll, once. What a player chose to spend after
seeing the dice — a Судьба shift, energy after the roll, a reroll, Риск — is recorded beside
the luck (``spent``), not mixed into it: the entry that records such a move has no new
percentile. A roll made with Судьба declared before it (no dice) has none either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules import systems
from rules.errors import RulesError
from rules.ledger import initiative
from rules.ledger.entry import SPENT_KINDS, Data, EntryLuck, RollLuck, Tally, system_of
from rules.ledger.percentile import total_luck

__all__ = ["SPENT_KINDS", "EntryLuck", "RollLuck", "entry_luck", "is_notation"]


def is_notation(data: Data) -> bool:
    """Whether the entry is a roll of dice notation (its odds may take a while: a worker)."""
    return isinstance(data.get("expression"), str) and "total" in data and "system" not in data


def _notation(data: Data, actor: str | None, luck: Tally) -> None:
    from rules.odds import odds

    dist = odds(data["expression"])
    totals = data.get("totals") or [data["total"]]  # «6x 4d6dl1»: each repeat is a roll
    for total in totals:
        luck.roll(actor, total_luck(dist.probs, _total(total)))


def _total(value: object) -> int | Fraction:
    """A total as JSON keeps it (``18.5`` for a total not whole), as the distribution's key."""
    if isinstance(value, bool):
        raise RulesError(f"итог «{value}» — не число")
    if isinstance(value, int):
        return value
    exact = Fraction(str(value))  # the JSON number's decimal text: 0.33 is 33/100
    return exact.numerator if exact.denominator == 1 else exact


def entry_luck(
    kind: str, actor: str | None, data: Data, previous: Sequence[Data] = ()
) -> EntryLuck | None:
    """Return the luck of one Журнал entry, or ``None`` if it records no dice.

    Args:
        kind: the entry's kind (``"roll"``, ``"check"``, ``"combat"``, ``"note"``…).
        actor: the entry's actor (who rolled dice notation).
        data: the entry's data: the result's JSON dict.
        previous: the data of earlier entries, newest first (a Судьба shift is priced
            against the entry of the same roll it moves).

    Returns:
        The fresh rolls with their percentiles and what was spent; ``None`` for an entry
        without dice (a note, a session mark) or one whose odds cannot be computed.
    """
    if kind == "session" or data.get("reveals"):
        return None
    luck = Tally()
    try:
        fate_spent = data.get("fate_spent")
        if isinstance(fate_spent, int) and not isinstance(fate_spent, bool) and fate_spent > 0:
            # Судьба spent without dice (lowering damage, a circumstance): its own entry
            luck.spend(actor, "fate", fate_spent)
        elif kind == "note":
            return None
        elif is_notation(data):
            _notation(data, actor, luck)
        elif data.get("fate") == "before" and kind == "combat":
            luck.spend(actor, "fate", 1)  # Судьба declared before a combat roll
        elif data.get("fate") == "shift" and kind == "combat":
            luck.spend(actor, "fate", abs(int(data["points"])))  # ±1 per point after the roll
        elif kind == "combat" and isinstance(data.get("initiative"), list):
            initiative.sides(data, luck)
        elif kind == "combat" and isinstance(data.get("initiative"), Mapping):
            initiative.rounds(data, luck)
        else:
            system = system_of(data)
            if not systems.known(system):
                return None
            systems.get(system).ledger_reader()(data, previous, luck)
    except (KeyError, TypeError, ValueError, RulesError):
        return None  # an entry this version cannot read: no luck rather than a wrong one
    if not luck.rolls and not luck.spent:
        return None
    return EntryLuck(tuple(luck.rolls), luck.spent)
