"""Modifiers shared by every system, and the GM's free-text list («+1 высота, -2 темнота»)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError


def signed(value: int, zero: str = "0") -> str:
    """Return ``value`` with its sign and the minus sign «−»: ``+2``, ``−1``, and ``zero`` for 0.

    The one signed number of the rules' Russian messages (``zero="+0"`` where a list of
    bonuses reads better with it).
    """
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else zero)


#: A number is the digits 0–9 («\d» reads «٣» as 3); one running on into another script's
#: digit or an underscore («1_0», «1٣») is no number, not +1 with a reason «_0».
#: Matched against an item stripped of its spaces: a pattern that also skipped the spaces
#: around the reason («(.*?)\s*$») backtracked over them, quadratic in their number — a
#: 10,000-space item cost 0.34 s, ten times that a hundred times more.
_ITEM = re.compile(r"^([+\-−]?)\s*([0-9]+)(?![\d_])\s*(.*)$")
#: The largest modifier: three digits (a fourth is a typo, never a rule's number).
MAX_DIGITS = 3
#: How much of a refused item its message quotes: 10,000 characters pasted into a modifier
#: field were quoted whole, and the message filled the screen over the roll.
QUOTE_CHARS = 20


def quoted(raw: str) -> str:
    """Return the item ``raw`` as a message quotes it, in «»: its first :data:`QUOTE_CHARS`
    characters, then «…» when it has more."""
    text = raw.strip()
    if len(text) > QUOTE_CHARS:
        text = text[:QUOTE_CHARS].rstrip() + "…"
    return f"«{text}»"


@dataclass(frozen=True)
class Modifier:
    """A signed bonus or penalty with its reason: a Древо or 2d6 modifier, an IDE4 step of
    difficulty, Мир Тьмы dice added to or taken from a pool."""

    value: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"value": self.value, "reason": self.reason}


def parse_modifiers(text: str) -> tuple[Modifier, ...]:
    """Parse a comma- or semicolon-separated list of signed integers with optional reasons.

    Args:
        text: e.g. ``"+1 высота, -2 темнота"``; an empty string means no modifiers.

    Returns:
        The modifiers in the order typed.

    Raises:
        RulesError: an item that does not start with a number, a number of more than three
            digits, or a fraction («5.5»); the message names the item.
    """
    result: list[Modifier] = []
    for index, raw in enumerate(re.split(r"[,;]", text), start=1):
        if not raw.strip():
            continue
        match = _ITEM.match(raw.strip())
        if match is None:
            raise RulesError(
                f"Модификатор {index} ({quoted(raw)}): начните с числа, например «+1 высота» "
                "или «-2 темнота»; несколько — через запятую."
            )
        sign, digits, reason = match.groups()
        if len(digits) > MAX_DIGITS:
            raise RulesError(
                f"Модификатор {index} ({quoted(raw)}): слишком большое число — "
                "не больше 999 по модулю."
            )
        if re.match(r"[.,]\d", reason):  # any script's digit: this only refuses
            raise RulesError(
                f"Модификатор {index} ({quoted(raw)}): нужно целое число, например «+1 "
                "высота»; дробей в модификаторах нет."
            )
        value = -int(digits) if sign in ("-", "−") else int(digits)
        result.append(Modifier(value=value, reason=reason or "ситуация"))
    return tuple(result)
