"""Key names as a person types them, one function for the key bar and the ``?`` screen.

Textual's own names («space», «esc», «tab», «pgdn», «del») read as a programmer's; kubik says
«Пробел», «Esc», «Tab», «PgDn», «Delete» on the bar and in ``?`` alike. The bar alone keeps
two short spellings, «⏎» and «^Q», for the room its one line has at 80 columns.
"""

from __future__ import annotations

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "exclamation_mark": "!",
    "asterisk": "*",
    "equals_sign": "=",
    "number_sign": "#",
    "enter": "Enter",
    "escape": "Esc",
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "space": "Пробел",
    "plus": "+",
    "minus": "-",
    "tab": "Tab",
    "home": "Home",
    "end": "End",
    "delete": "Delete",
    "backspace": "Backspace",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


#: The bar's shorter spelling of a few keys (its 80 columns hold one line of keys).
SHORT_NAMES = {"enter": "⏎"}


def key_label(key: str, *, short: bool = False) -> str:
    """Return a key as a person types it: «Ctrl+S», «Shift+Tab», «/», «Пробел».

    ``short`` is the key bar's spelling of the same names: «⏎» for Enter and «^S» for Ctrl+S,
    so the bar keeps its keys at 80 columns; every other name is the same as ``?`` shows."""
    names = []
    for part in key.split(","):
        part = part.strip()
        if short and part in SHORT_NAMES:
            names.append(SHORT_NAMES[part])
            continue
        if part in KEY_NAMES:
            names.append(KEY_NAMES[part])
            continue
        *mods, last = part.split("+")
        if not mods:
            names.append(last)
            continue
        last = KEY_NAMES.get(last, last.upper() if len(last) == 1 else last.title())
        if short and mods == ["ctrl"]:
            names.append(f"^{last}")
            continue
        names.append("+".join([*(m.title() for m in mods), last]))
    return ", ".join(names)
