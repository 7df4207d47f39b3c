"""One word list: the Russian terms and plurals the app, the players' view and the CLI share.

A plain module of small functions and constants, so every screen and every command says the
same word for the same thing (tests/tui/test_words.py checks that no text says it otherwise).
"""

from __future__ import annotations

#: The rules terms as the app shows them.
FATE = "Судьба"
#: A player's character / the GM's (the app's «Игрок» and «НИП»).
KIND_NAMES = {"pc": "Игрок", "npc": "НИП"}


def plural(n: int, one: str, few: str, many: str) -> str:
    """Return the form of a noun for ``n``: 1 раунд, 2 раунда, 5 раундов (11–14: раундов)."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def count(n: int, one: str, few: str, many: str) -> str:
    """Return ``n`` with its noun: «1 раунд», «3 раунда», «11 раундов»."""
    return f"{n} {plural(n, one, few, many)}"


def rounds(n: int) -> str:
    """Return «1 раунд», «2 раунда», «5 раундов»."""
    return count(n, "раунд", "раунда", "раундов")


def rounds_after(n: int) -> str:
    """Return «после 1 раунда», «после 5 раундов» (после + genitive)."""
    return f"после {n} {plural(n, 'раунда', 'раундов', 'раундов')}"


def values(n: int) -> str:
    """Return «1 значение», «2 значения», «5 значений»."""
    return count(n, "значение", "значения", "значений")
