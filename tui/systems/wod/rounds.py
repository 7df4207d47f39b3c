"""Мир Тьмы's part of the round tracker: the health track ([default], ``rounds/health.toml``).

Harm is boxes marked by the kind of damage, worst first (``c.wod.health``), healed one at a
time; the last boxes give a dice penalty (:mod:`rules.rounds.health`), a modifier of the
character's pools and initiative.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import RulesError
from rules.modifiers import Modifier
from rules.rounds import health
from rules.wod.sheet import WodSheet
from tui.registry.rounds import NO_ENERGY, Harmed, RoundsHook

if TYPE_CHECKING:
    from tui.store import Character

#: The reason of the health penalty among a check's modifiers.
HEALTH_REASON = "здоровье"


def track(c: Character) -> list[str]:
    """Return ``c``'s health marks (worst first)."""
    return list(c.wod.health)


class WodRounds:
    """The health track: «Здоровье» in the tracker, damage chosen by kind, healed by a box."""

    column = "Здоровье"
    marked = True
    wrong_step = "В Мире Тьмы вред — клетки здоровья: выберите вид урона."

    def text(self, c: Character) -> str:
        """The track in a word with its penalty («XXXXX·· −1»)."""
        try:
            total = health.boxes(c.qualities)
            marks = track(c)
            pen = health.penalty(marks, total)
        except RulesError as err:
            return str(err)
        return health.compact(marks, total) + (f" {pen}".replace("-", "−") if pen else "")

    def penalty(self, c: Character) -> Modifier | None:
        try:
            value = health.penalty(track(c), health.boxes(c.qualities))
        except RulesError:
            return None
        return Modifier(value, HEALTH_REASON) if value else None

    def energy(self, c: Character) -> int:
        return NO_ENERGY

    def kinds(self) -> tuple[tuple[str, str], ...]:
        table = health.rules()
        return tuple((f"{table.names[k]} {table.marks[k]}", k) for k in table.kinds)

    def note(self, c: Character, note: str) -> Harmed:
        raise RulesError(self.wrong_step)

    def damage(self, c: Character, kind: str) -> Harmed:
        name = health.rules().names.get(kind, kind)
        marks = health.damage(track(c), kind, health.boxes(c.qualities))
        return self._health(c, marks, f"урон: {name}")

    def heal(self, c: Character) -> Harmed:
        marks = track(c)
        if not marks:
            raise RulesError(f"{c.name}: здоровье не задето — лечить нечего.")
        return self._health(c, health.heal(marks), "лечение")

    def _health(self, c: Character, marks: list[str], what: str) -> Harmed:
        total = health.boxes(c.qualities)
        changed = c.edit_sheet(WodSheet, health=tuple(marks))
        pen = health.penalty(marks, total)
        shown = f", штраф {pen}".replace("-", "−") if pen else ""
        text = f"Здоровье, {what}: {health.render(marks, total)}{shown}"
        return Harmed(changed, what, text)


ROUNDS: RoundsHook = WodRounds()  # mypy checks it against the protocol
