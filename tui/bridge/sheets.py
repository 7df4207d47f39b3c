"""Character sheets per rules system: the party table's columns and the detail panel."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules import drevo
from tui.sanitize import cell, plain
from tui.store import Character
from tui.words import KIND_NAMES, signed  # one word list: the app, the view and the CLI

WOUND_NAMES = {"scratch": "Царапина", "light": "Лёгкая", "wound": "Ранение", "heavy": "Тяжёлая"}
STAT_LABELS = {
    "drevo": "Качества",
    "ide4": "Атрибуты",
    "starately": "Характеристики",
    "wod": "Атрибуты",
}


def wounds_text(wounds: Mapping[str, int]) -> str:
    """Return a compact wound list, e.g. ``Лёгкая×1, Царапина×2``, or ``—``."""
    parts = [
        f"{WOUND_NAMES[key]}×{wounds[key]}"
        for key in ("heavy", "wound", "light", "scratch")
        if wounds.get(key)
    ]
    return ", ".join(parts) or "—"


def dots(value: int, top: int = 5) -> str:
    """Return Мир Тьмы dots: ``●●●○○``."""
    value = max(0, min(value, top))
    return "●" * value + "○" * (top - value)


def stat_text(system: str, name: str, value: int) -> str:
    """Return one attribute as the system writes it."""
    if system == "ide4":
        return f"{name} ур.{value}"
    if system == "starately":
        from rules import starately

        return f"{name} {value} (DM {signed(starately.characteristic_dm(value))})"
    if system == "wod":
        return f"{name} {dots(value)}"
    return f"{name} {signed(value)}"


def skill_text(system: str, c: Character) -> str:
    """Return the skills line of a sheet."""
    parts = []
    for s in c.skills:
        if system == "ide4":
            where = f" [{'/'.join(s.distances)}]" if s.distances else ""
            bonuses = ide4_bonuses(s.value)
            parts.append(f"{s.name} {s.value}{where}" + (f" ({bonuses})" if bonuses else ""))
        elif system == "wod":
            parts.append(f"{s.name} {dots(s.value)}")
        elif system == "starately":
            parts.append(f"{s.name}-{s.value}")
        else:
            parts.append(f"{s.name} {signed(s.value)}" + (f" (← {s.parent})" if s.parent else ""))
    return " · ".join(parts) or "—"


def _needs(track: drevo.WoundTrack) -> list[tuple[str, str]]:
    return [(drevo.level_name(level), need) for level, need in track.needs()]


IDE4_BONUS_NAMES = {
    "reroll": "переброс",
    "soften": "смягчение",
    "triumph": "Успех→Триумф",
    "technique": "техника",
}


def ide4_bonuses(mastery: int) -> str:
    """Return the mastery bonuses a skill level unlocks, e.g. ``техника, переброс×2``."""
    from rules.ide4.tables import unlocked

    parts = []
    for kind, name in IDE4_BONUS_NAMES.items():
        count = unlocked(mastery, kind)
        if count:
            parts.append(name if count == 1 else f"{name}×{count}")
    return ", ".join(parts)


def columns(system: str) -> tuple[str, ...]:
    """Return the party table's column titles for a system."""
    if system == "drevo":
        return ("Имя", "Кто", "Судьба", "Раны", "Оружие")
    if system == "ide4":
        return ("Имя", "Кто", "Энергия", "Лучший навык")
    return ("Имя", "Кто", "Лучший навык", "Навыков")


def track_of(c: Character) -> drevo.WoundTrack:
    """Return the character's wound track (death is kept in ``extra["dead"]``)."""
    return drevo.WoundTrack.from_dict({**c.wounds, "dead": bool(c.extra.get("dead"))})


def best_skill(c: Character) -> str:
    """Return the character's highest skill as ``Name value``."""
    if not c.skills:
        return "—"
    top = max(c.skills, key=lambda s: s.value)
    return f"{top.name} {top.value}"


def row(system: str, c: Character) -> tuple[str, ...]:
    """Return the party table's row of one character."""
    kind = KIND_NAMES.get(c.kind, c.kind)
    name = cell(c.name)  # a 10,000-character name would push every other column off screen
    if system == "drevo":
        return (name, kind, str(c.fate), wounds_text(c.wounds), ", ".join(c.weapons) or "—")
    if system == "ide4":
        return (name, kind, f"{c.extra.get('energy', 100)}/100", best_skill(c))
    return (name, kind, best_skill(c), str(len(c.skills)))


def sheet_text(system: str, c: Character) -> str:
    """Return the markup of a character sheet for the detail panel."""
    stats = plain(" · ".join(stat_text(system, name, v) for name, v in c.qualities.items()))
    head = f"[b]{plain(c.name)}[/b] — {KIND_NAMES.get(c.kind, c.kind)}"
    extra_line: Callable[[], str] | None = None
    if system == "drevo":
        head += f", Судьба {c.fate}"

        def extra_line() -> str:
            track = track_of(c)
            line = (
                f"[b]Оружие:[/b] {plain(', '.join(c.weapons)) or 'без оружия'}   "
                f"[b]Раны:[/b] {wounds_text(c.wounds)}"
            )
            if track.dead:
                line += " — [b $error]погиб[/]"
            elif not track.can_act:
                line += " — [b $error]не может действовать[/]"
            elif track.penalty:
                line += f" (штраф {signed(track.penalty)})"
            if c.extra.get("parry_ability"):
                line += "\n[b]Особое умение:[/b] отбивать летящее оружие (стрелы, ножи, камни)"
            # «Смерть: … ведущего.; Лёгкая рана: …» read badly: one full stop, at the end.
            needs = "; ".join(f"{name}: {need.rstrip('. ')}" for name, need in _needs(track))
            return line + (f"\n[b]Лечение:[/b] {needs}." if needs else "")

    elif system == "ide4":
        head += f", энергия {c.extra.get('energy', 100)}/100"
        if c.extra.get("always_expanded"):
            head += ", всегда развёрнутая проверка"
    lines = [
        head,
        f"[b]{STAT_LABELS.get(system, 'Черты')}:[/b] {stats or '—'}",
        f"[b]Навыки:[/b] {plain(skill_text(system, c))}",
    ]
    if extra_line is not None:
        lines.append(extra_line())
    if c.rolls:
        saved = "; ".join(f"{name}: {notation}" for name, notation in c.rolls)
        lines.append(f"[b]Броски:[/b] {plain(saved)}  [dim](r — бросить)[/dim]")
    if c.notes:
        lines.append(f"[dim]{plain(c.notes)}[/dim]")
    return "\n".join(lines)
