"""Counts in rules messages, declined as Russian needs them (``rules`` cannot use ``tui.words``)."""

from __future__ import annotations


def genitive(count: int, one: str, many: str) -> str:
    """Return ``count`` with its noun after «из», «до», «больше»: «1 куба», «21 куба», «5 кубов».

    Args:
        count: a whole number (its sign is ignored for the choice of form).
        one: the genitive singular, after 1, 21, 101 (куба, успеха, броска).
        many: the genitive plural, after every other count (кубов, успехов, бросков).
    """
    n = abs(count)
    return f"{count} {one if n % 10 == 1 and n % 100 != 11 else many}"
