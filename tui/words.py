"""One word list: the Russian terms, case forms, plurals and signed numbers on screen.

The app, the players' view and the CLI take their words from here, so every screen and every
command says the same word for the same thing (tests/tui/test_words.py checks that no text
leaves a plural to the reader). Small plain functions, usable anywhere.

Wound levels are the ids of ``data/drevo/wounds.toml``; a level
whose name a campaign changed falls back to that name unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

#: The rules terms as the app shows them.
FATE = "Судьба"
#: A player's character / the GM's (the app's «Игрок» and «НИП»).
KIND_NAMES = {"pc": "Игрок", "npc": "НИП"}

#: Wound level id → (nominative, accusative, genitive) of the default names.
WOUND_FORMS: dict[str, tuple[str, str, str]] = {
    "scratch": ("Царапина", "царапину", "царапины"),
    "light": ("Лёгкая рана", "лёгкую рану", "лёгкой раны"),
    "wound": ("Ранение", "ранение", "ранения"),
    "heavy": ("Тяжёлая рана", "тяжёлую рану", "тяжёлой раны"),
    "death": ("Смерть", "смертельную рану", "смертельной раны"),
}
CASES = ("nom", "acc", "gen")
#: A wound level's short name in a wound list (``wounds_text``).
WOUND_SHORT = {"scratch": "Царапина", "light": "Лёгкая", "wound": "Ранение", "heavy": "Тяжёлая"}


def wounds_text(wounds: Mapping[str, int]) -> str:
    """Return a compact wound list, e.g. ``Лёгкая×1, Царапина×2``, or ``—``."""
    parts = [
        f"{WOUND_SHORT[key]}×{wounds[key]}"
        for key in ("heavy", "wound", "light", "scratch")
        if wounds.get(key)
    ]
    return ", ".join(parts) or "—"


def wound(level: str, case: str = "nom", name: str | None = None) -> str:
    """Return a wound level's name in a case: ``wound("light", "acc")`` → «лёгкую рану».

    Args:
        level: a wound level id (``"scratch"`` … ``"death"``).
        case: ``"nom"`` (Лёгкая рана), ``"acc"`` (получает лёгкую рану), ``"gen"`` (до лёгкой
            раны).
        name: the campaign's name of the level; when it differs from the default name the
            campaign's name is returned as it is (kubik cannot decline a name it does not know).
    """
    forms = WOUND_FORMS.get(level)
    if forms is None or (name is not None and name != forms[0]):
        return name if name is not None else level
    return forms[CASES.index(case)] if case in CASES else forms[0]


def plural(count: int, one: str, few: str, many: str) -> str:
    """Return ``count`` with the noun form Russian needs: 1 раунд, 2 раунда, 5 раундов.

    Args:
        count: any integer (the sign is ignored for the choice of form).
        one: the form after 1, 21, 101 (раунд); few: after 2–4, 22–24 (раунда);
            many: after 0, 5–20, 25–30 (раундов).
    """
    n = abs(count)
    if n % 10 == 1 and n % 100 != 11:
        form = one
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        form = few
    else:
        form = many
    return f"{number(count)} {form}"


def genitive(count: int, one: str, many: str) -> str:
    """Return ``count`` with its noun after «из», «до», «не больше»: из 1 успеха, из 5 успехов.

    Args:
        count: any integer; one: the genitive singular (after 1, 21: успеха, броска, куба);
            many: the genitive plural (after every other count: успехов, бросков, кубов).
    """
    return plural(count, one, many, many)


def rounds(count: int, case: str = "nom") -> str:
    """Return «1 раунд», «2 раунда», «5 раундов»; ``case="gen"`` (после …): «1 раунда»,
    «2 раундов», «5 раундов»."""
    if case == "gen":
        return plural(count, "раунда", "раундов", "раундов")
    return plural(count, "раунд", "раунда", "раундов")


def rounds_after(count: int) -> str:
    """Return «после 1 раунда», «после 3 раундов»."""
    return f"после {rounds(count, 'gen')}"


def values(count: int) -> str:
    """Return «1 значение», «2 значения», «5 значений»."""
    return plural(count, "значение", "значения", "значений")


def turns(count: int) -> str:
    """Return «1 ход», «2 хода», «5 ходов»."""
    return plural(count, "ход", "хода", "ходов")


def points(count: int) -> str:
    """Return «1 очко», «2 очка», «5 очков»."""
    return plural(count, "очко", "очка", "очков")


def levels(count: int) -> str:
    """Return «1 уровень», «2 уровня», «5 уровней»."""
    return plural(count, "уровень", "уровня", "уровней")


def number(value: int) -> str:
    """Return an integer with the minus sign «−» when negative: ``−2``, ``0``, ``5``."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """Return an integer with an explicit sign, the minus sign «−»: ``+2``, ``0``, ``−1``."""
    return f"+{value}" if value > 0 else number(value)


def minus_signs(text: str) -> str:
    """Return ``text`` with each hyphen-minus that stands before a digit as «−».

    For numbers that reach the screen inside text made elsewhere (a rules message «-2»).
    A hyphen between two letters or digits (a range «2-3», a word) is kept.
    """
    out = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else ""
        if ch == "-" and after.isdigit() and not before.isalnum():
            ch = "−"
        out.append(ch)
    return "".join(out)


def wound_state(track: object) -> str:
    """Return «погиб» or «тяжело ранен» for a wound track (``rules.drevo.WoundTrack``), or ""."""
    if getattr(track, "dead", False):
        return "погиб"
    if not getattr(track, "can_act", True):
        return "тяжело ранен"
    return ""
