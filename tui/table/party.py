"""The Партия tab's steps every system shares, headless: ``step(character, …) -> Outcome``.

A step reads one character as the campaign has it now (the write makes it under the store's
lock, :func:`tui.table.commit.commit_edit`) and returns the changed character — the outcome's
state and its one sheet — with the undo step's label and its Журнал line, or why it is
refused (nothing is written then). A system's own party steps (Древо's wounds and Судьба:
``tui/systems/drevo/party/steps.py``) are made the same way, with :func:`character_outcome`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from tui.store import Character
from tui.table.core import Line, Outcome, refuse

Rolls = tuple[tuple[str, str], ...]


def character_outcome(
    c: Character, new: Character, label: str, text: str, **data: Any
) -> Outcome[Character]:
    """The outcome of a step on ``c``: its new sheet, the label and the Журнал note (with the
    character's id; ``data``: more of the note's data, such as the Судьба it spent)."""
    line = Line(c.name, text, {"character": c.id, **data}, kind="note")
    return Outcome(new, label, sheets=(new,), log=(line,))


def with_saved_roll(rolls: Rolls, text: str) -> Rolls:
    """Return ``rolls`` with «Название: выражение» added or replaced («Название:» removes it).

    Raises:
        RulesError: no name, or the expression does not parse (the message says where).
    """
    from rules.dice import parse

    name, colon, notation = text.partition(":")
    name, notation = name.strip(), notation.strip()
    if not colon or not name:
        raise RulesError("напишите «Название: выражение», например «Атака топором: 2d6+3»")
    kept = tuple((n, e) for n, e in rolls if n.casefold() != name.casefold())
    if not notation:
        return kept
    try:
        parse(notation)
    except RulesError as err:
        raise RulesError(f"«{name}»: {err}") from err
    if len(kept) == len(rolls):
        return (*rolls, (name, notation))
    return tuple((name, notation) if n.casefold() == name.casefold() else (n, e) for n, e in rolls)


def saved_roll_refusal(rolls: Rolls, text: str) -> str:
    """Why «Название: выражение» cannot be saved on ``rolls`` («» when it can): what the
    prompt says while it stays open to fix the line."""
    try:
        with_saved_roll(rolls, text)
    except RulesError as err:
        return str(err)
    return ""


def save_roll(c: Character, text: str) -> Outcome[Character]:
    """Save «Название: выражение» on ``c``'s rolls (a name it has is replaced), or remove the
    named one («Название:» alone)."""
    try:
        rolls = with_saved_roll(c.rolls, text)
    except RulesError as err:
        return refuse(c, str(err))
    name = text.partition(":")[0].strip()
    gone = len(rolls) < len(c.rolls)
    return character_outcome(
        c,
        replace(c, rolls=rolls),
        f"{c.name}: бросок «{name}»",
        f"Бросок «{name}» {'удалён' if gone else 'сохранён'}",
    )
