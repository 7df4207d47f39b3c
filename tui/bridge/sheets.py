"""Character sheets: the party table's columns and the detail panel, each system's own parts
asked of its :class:`~tui.registry.System` (``tui/systems/<name>/``).

The wound ladder's reader (:func:`track_of`) is here, not in Древо's package, for the
common core's typed view (``Character.drevo``) holds it on every character and the
players' view and the fight read it; which system shows a state in the party table is
its ``System.state``. Its rules are ``rules.drevo``'s (``DrevoSheet.track``), its words
``tui.words``'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui import registry
from tui.registry.base import best_skill as best_skill
from tui.sanitize import cell, plain
from tui.store import Character
from tui.words import KIND_NAMES  # one word list: the app, the view and the CLI
from tui.words import wounds_text as wounds_text  # re-exported: the sheet's wound list

if TYPE_CHECKING:
    from rules.drevo.wounds import WoundTrack


def track_of(c: Character) -> WoundTrack:
    """Return the character's wound track (its Древо sheet's wounds and Смерть)."""
    return c.drevo.track()


def stat_text(system: str, name: str, value: int) -> str:
    """Return one attribute as the system writes it."""
    return registry.get(system).stat_text(name, value)


def skill_text(system: str, c: Character) -> str:
    """Return the skills line of a sheet."""
    kind = registry.get(system)
    return " · ".join(kind.skill_text(s) for s in c.skills) or "—"


#: The GM's mark of an NPC hidden from the players (they see «???»).
HIDDEN = "скрыт"


def columns(system: str) -> tuple[str, ...]:
    """Return the party table's column titles for a system."""
    return ("Имя", "Кто", *registry.get(system).columns())


def row(system: str, c: Character) -> tuple[str, ...]:
    """Return the party table's row of one character (the GM's: an NPC hidden from the
    players is «НИП скрыт»; the players' view has its own rows)."""
    kind = KIND_NAMES.get(c.kind, c.kind) + (f" {HIDDEN}" if c.hidden else "")
    name = cell(c.name)  # a 10,000-character name would push every other column off screen
    return (name, kind, *registry.get(system).row(c))


def sheet_text(system: str, c: Character) -> str:
    """Return the markup of a character sheet for the detail panel."""
    kind = registry.get(system)
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
