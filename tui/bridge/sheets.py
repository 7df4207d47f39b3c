"""Character sheets: the party table's columns and the detail panel, each system's own parts
asked of its :class:`~tui.systems.System` (``tui/systems/<name>/``)."""

from __future__ import annotations

from tui import systems
from tui.sanitize import cell, plain
from tui.store import Character
from tui.systems.base import best_skill as best_skill
from tui.systems.drevo.sheet import WOUND_NAMES as WOUND_NAMES
from tui.systems.drevo.sheet import track_of as track_of
from tui.systems.drevo.sheet import wounds_text as wounds_text
from tui.systems.ide4.sheet import IDE4_BONUS_NAMES as IDE4_BONUS_NAMES
from tui.systems.ide4.sheet import ide4_bonuses as ide4_bonuses
from tui.systems.wod.sheet import dots as dots
from tui.words import KIND_NAMES  # one word list: the app, the view and the CLI


def stat_text(system: str, name: str, value: int) -> str:
    """Return one attribute as the system writes it."""
    return systems.get(system).stat_text(name, value)


def skill_text(system: str, c: Character) -> str:
    """Return the skills line of a sheet."""
    kind = systems.get(system)
    return " · ".join(kind.skill_text(s) for s in c.skills) or "—"


def columns(system: str) -> tuple[str, ...]:
    """Return the party table's column titles for a system."""
    return ("Имя", "Кто", *systems.get(system).columns())


def row(system: str, c: Character) -> tuple[str, ...]:
    """Return the party table's row of one character."""
    kind = KIND_NAMES.get(c.kind, c.kind)
    name = cell(c.name)  # a 10,000-character name would push every other column off screen
    return (name, kind, *systems.get(system).row(c))


def sheet_text(system: str, c: Character) -> str:
    """Return the markup of a character sheet for the detail panel."""
    kind = systems.get(system)
    stats = plain(" · ".join(kind.stat_text(name, v) for name, v in c.qualities.items()))
    head = f"[b]{plain(c.name)}[/b] — {KIND_NAMES.get(c.kind, c.kind)}" + kind.sheet_head(c)
    lines = [
        head,
        f"[b]{kind.stat_label}:[/b] {stats or '—'}",
        f"[b]Навыки:[/b] {plain(skill_text(system, c))}",
        *kind.sheet_lines(c),
    ]
    if c.rolls:
        saved = "; ".join(f"{name}: {notation}" for name, notation in c.rolls)
        lines.append(f"[b]Броски:[/b] {plain(saved)}  [dim](r — бросить)[/dim]")
    if c.notes:
        lines.append(f"[dim]{plain(c.notes)}[/dim]")
    return "\n".join(lines)
