"""Древо's own ``kubik party add --set`` keys beyond its sheet's fields: ``wound.КЛЮЧ=N``.

The wounds are given one at a time, as the Партия tab's wound key gives them, so the Древо
cascade applies (four Царапины make a Лёгкая рана…); a new character is not added dead.
Each function raises ``ValueError`` with the whole Russian message the command prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.drevo.sheet import DrevoSheet
from rules.drevo.wounds import WOUND_KEYS

if TYPE_CHECKING:
    from tui.store import Character

#: The keys as ``kubik party add -h`` lists them.
HELP = "wound.КЛЮЧ"
#: How many wounds of a level one ``--set`` may give.
COUNT_RANGE = (0, 99)


def owns(key: str) -> bool:
    """Return whether ``key`` is one of these keys (``wound.…``)."""
    head, dot, _ = key.partition(".")
    return head == "wound" and bool(dot)


def read(key: str, value: str) -> tuple[str, int]:
    """Return the wound level and count ``wound.КЛЮЧ=N`` gives, checked as the form checks a
    number."""
    from tui.widgets.party import fields  # the character form's parser

    level = key.partition(".")[2]
    if level not in WOUND_KEYS:
        raise ValueError(f"--set {key}: неизвестная рана «{level}»; есть: {', '.join(WOUND_KEYS)}")
    try:
        return level, fields.parse_int(value, *COUNT_RANGE)
    except fields.FieldError as err:
        raise ValueError(f"--set {key}={value}: число ран: {err}") from err


def apply(c: Character, items: list[Any]) -> Character:
    """Return ``c`` given the wounds ``items`` (what :func:`read` returned) one at a time."""
    track = c.drevo.track()
    for level, count in items:
        for _ in range(count):
            track = track.take(level)
        if track.dead:
            given = ", ".join(f"wound.{k}={n}" for k, n in items)
            raise ValueError(
                f"--set {given}: по шкале ран Древа (раны складываются в более тяжёлые) "
                "персонаж от них погибает; укажите меньше ран"
            )
    return c.edit_sheet(DrevoSheet, wounds=dict(track.counts))
