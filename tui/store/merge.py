"""Three-way merge of one stored document: what a window read, what it wants, what is there now.

A screen edits a copy of what it read. When it saves, another window (another kubik, the
CLI, an undo) may have changed the same document since. Writing the copy back whole would
put back everything the other window changed; instead only the fields this window changed
are applied to the current document, and a field both changed to different values is a
conflict: the write is refused and the GM told which fields (nothing is written).
"""

from __future__ import annotations

from typing import Any

from .models import SHEET_EXTRAS

#: Russian names of a character's fields, for the message of a refused write.
FIELD_NAMES = {
    "name": "имя",
    "kind": "вид",
    "qualities": "качества",
    "skills": "навыки",
    "weapons": "оружие",
    "fate": "Судьба",
    "wounds": "раны",
    "notes": "заметки",
    "extra": "данные листа",
    # Schema 5 keeps each core mark apart (they once lived in ``extra``).
    "hidden": "скрытность",
    "player": "игрок",
    "template": "шаблон",
    "encounter": "сцена",
    # Schema 4 keeps each sheet field apart (the rest of the sheet once lived in ``extra``).
    **dict.fromkeys(SHEET_EXTRAS, "данные листа"),
}

_MISSING = object()


def merge3(base: Any, new: Any, current: Any, path: tuple[str, ...] = ()) -> tuple[Any, list[str]]:
    """Return ``current`` with the changes from ``base`` to ``new``, and the conflicting keys.

    Dicts merge key by key (recursively); any other value is taken whole. A key is in
    conflict when ``new`` and ``current`` both changed it from ``base``, to different values.
    The conflicts are the top-level keys (``"fate"``, ``"notes"``); the merge is only
    meaningful when there are none.
    """
    if new == base:
        return current, []
    if current == base or current == new:
        return new, []
    if not (isinstance(base, dict) and isinstance(new, dict) and isinstance(current, dict)):
        return current, [path[0] if path else ""]
    merged = dict(current)
    conflicts: list[str] = []
    for key in dict.fromkeys([*base, *new]):
        b, n = base.get(key, _MISSING), new.get(key, _MISSING)
        if b == n:
            continue
        c = current.get(key, _MISSING)
        if c == b or c == n:
            value: Any = n
        elif b is _MISSING or n is _MISSING or c is _MISSING:
            conflicts.append(path[0] if path else key)
            continue
        else:
            value, inner = merge3(b, n, c, (*path, key) if path else (key,))
            if inner:
                conflicts.extend(inner)
                continue
        if value is _MISSING:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged, list(dict.fromkeys(conflicts))


def field_list(keys: list[str]) -> str:
    """Return the Russian names of conflicting fields: «Судьба и заметки»."""
    names = list(dict.fromkeys(FIELD_NAMES.get(k, k) for k in keys))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " и " + names[-1]
