"""Harm in the round tracker, as the system has it: IDE4 and Старатели a free note, Мир Тьмы
the health track (a box of damage marked, the mildest healed); shown in the table, written as
one step with its Журнал line."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.effects import EffectSet
from rules.errors import RulesError
from rules.rounds import Tracker
from rules.rounds import health as wod_health
from tui.bridge.effects import health_track
from tui.store import Character
from tui.widgets.common.choice import Choice, ChoiceScreen


class RoundsHarm:
    """Harm shown and written (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    tracker: Tracker
    effects: EffectSet
    characters: dict[str, Character]
    app: Any

    def _harm_text(self, c: Character) -> str:
        if self.system != "wod":
            return str(c.extra.get("harm", ""))
        try:
            total = wod_health.boxes(c.qualities)
            track = health_track(c)
            pen = wod_health.penalty(track, total)
        except RulesError as err:
            return str(err)
        return wod_health.compact(track, total) + (f" {pen}".replace("-", "−") if pen else "")

    def _highlighted(self) -> Character | None:
        return self.characters.get(self.highlighted_id() or "")

    def action_harm(self) -> None:
        """Мир Тьмы: mark a box of damage; IDE4 / Старатели: write the harm note."""
        c = self._highlighted()
        if c is None:
            return
        if self.system == "wod":
            self._wod_damage(c)
            return
        from tui.widgets.common.prompt import TextPrompt

        def noted(note: str | None) -> None:
            if note is None:
                return
            changed = replace(c, extra={**c.extra, "harm": note})
            text = f"Вред: {note}" if note else "Вред снят"
            self._save(
                f"{c.name}: вред",
                upsert=[changed],
                then=lambda step: self._log(c.name, text, step=step),
            )

        self.app.push_screen(
            TextPrompt(
                f"{c.name}: вред (заметка; пусто — снять)",
                "например: сломана рука",
                required=False,
            ),
            noted,
        )

    def _wod_damage(self, c: Character) -> None:
        rules = wod_health.rules()

        def chosen(kind: str | None) -> None:
            if kind is None:
                return
            total = wod_health.boxes(c.qualities)
            track = wod_health.damage(health_track(c), kind, total)
            self._save_health(c, track, f"урон: {rules.names[kind]}")

        choices = [Choice(f"{rules.names[k]} {rules.marks[k]}", k) for k in rules.kinds]
        self.app.push_screen(ChoiceScreen(f"{c.name}: какой урон?", choices), chosen)

    def _save_health(self, c: Character, track: list[str], what: str) -> None:
        total = wod_health.boxes(c.qualities)
        changed = replace(c, extra={**c.extra, "health": track})
        pen = wod_health.penalty(track, total)
        shown = f", штраф {pen}".replace("-", "−") if pen else ""
        text = f"Здоровье, {what}: {wod_health.render(track, total)}{shown}"
        self._save(
            f"{c.name}: {what}",
            upsert=[changed],
            then=lambda step: self._log(c.name, text, step=step),
        )

    def action_heal(self) -> None:
        """Мир Тьмы: clear the mildest box of the highlighted character's health."""
        c = self._highlighted()
        if c is None or self.system != "wod":
            return
        track = health_track(c)
        if not track:
            self.app.notify(f"{c.name}: здоровье не задето — лечить нечего.")
            return
        self._save_health(c, wod_health.heal(track), "лечение")
