"""Древо's undo steps: the steps of one fight exchange go together, and the key bar names a
fight's step by its exchange («схватка 2») or what it did («заявка Волк»).

Imports nothing: the key bar asks at the first paint, before the rules are loaded
(``tests/tui/test_startup_imports.py``).
"""

from __future__ import annotations

#: The Бой tab's steps outside an exchange («Бой: заявка Волк», «Бой: инициатива»).
FIGHT = "Бой: "


def exchange_group(label: str | None) -> str | None:
    """Return the exchange an undo step belongs to, or None.

    The Бой tab labels every step of one exchange «Раунд 2, схватка 1: …» (the roll, each
    Судьба point, the damage, the result): they are undone and redone as one.
    """
    if label and label.startswith("Раунд ") and ", схватка " in label and ": " in label:
        return label.split(": ", 1)[0]
    return None


def step_name(label: str) -> str | None:
    """Return a fight step's name as the key bar says it (an exchange's: «схватка 3»; another
    of the Бой tab's: what it did, «заявка Волк»), or None: not a fight's step."""
    group = exchange_group(label)
    if group is not None:
        return group.split(", ", 1)[-1]
    if label.startswith(FIGHT):
        return label[len(FIGHT) :]
    return None
