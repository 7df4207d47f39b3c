"""The Бой tab's prepared encounters: `l` lists them (type to filter) and loads one into the
fight being set up; `L`, after the fight, removes the NPCs an encounter brought or keeps them.

Mixed into both Бой panes (Древо's and the round tracker's); each step is the bestiary's
engine step (:mod:`tui.table.bestiary.steps`), one undo step, written by the app's writer.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from tui.services import lent
from tui.store.bestiary import Prepared
from tui.widgets.common.bestiary_writes import encounters_in_party, run_step
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.filter_choice import FilterChoiceScreen
from tui.widgets.common.part import WidgetPart

KEEP = "keep"


def encounter_bindings(prefix: str) -> list[Binding]:
    """The two keys, with ids ``<prefix>-encounter…``."""
    return [
        Binding(
            "l",
            "load_encounter",
            "Сцена",
            id=f"{prefix}-encounter",
            tooltip="Загрузить подготовленную сцену: её НИП — в партию и на свои стороны",
            show=False,
        ),
        Binding(
            "L",
            "unload_encounter",
            "Убрать сцену",
            id=f"{prefix}-encounter-unload",
            tooltip="После боя: убрать из партии НИП, которых привела сцена (или оставить)",
            show=False,
        ),
    ]


def encounter_label(e: Prepared) -> str:
    """«Засада у брода — Атаман ×1, Разбойник ×5, Стрелок ×2 (8 НИП, скрыта)»."""
    groups = ", ".join(f"{g.template} ×{g.count}" for g in e.groups)
    marks = [f"{e.size} НИП"] + (["скрыта"] if e.hidden else [])
    return f"{e.name} — {groups} ({', '.join(marks)})"


def encounter_choices(encounters: Any) -> list[Choice]:
    return [Choice(encounter_label(e), e.name) for e in encounters]


class EncounterKeys(WidgetPart):
    """`l` and `L` of the Бой tab (mixed into its panes)."""

    # The services it uses (tui/services/lent.py); ``run_step`` is handed them.
    store = lent.store
    rng = lent.rng
    journal = lent.journal
    writer = lent.writer

    def action_load_encounter(self) -> None:
        """List the prepared encounters (type to filter) and load the one picked."""
        from tui.store.bestiary_toml import campaign_bestiary
        from tui.store.schema import SchemaError
        from tui.table.bestiary import steps

        try:
            encounters = campaign_bestiary(self.store).encounters
        except SchemaError as err:
            self.app.notify(f"Бестиарий кампании повреждён: {err}", severity="error")
            return
        if not encounters:
            self.app.notify("Подготовленных сцен нет: kubik encounter add …", severity="warning")
            return

        def picked(name: str | None) -> None:
            if name is not None:
                run_step(self, steps.load_encounter, name)

        screen = FilterChoiceScreen("Загрузить сцену в бой", encounter_choices(encounters))
        self.app.push_screen(screen, picked)

    def action_unload_encounter(self) -> None:
        """Ask which encounter's NPCs to remove (or keep) and do it."""
        found = encounters_in_party(self.store.characters())
        if not found:
            self.app.notify("В партии нет НИП из подготовленных сцен.", severity="warning")
            return
        if len(found) == 1:
            self._confirm_unload(next(iter(found)), next(iter(found.values())))
            return
        choices = [Choice(f"{name} ({count} НИП)", name) for name, count in found.items()]

        def picked(name: str | None) -> None:
            if name is not None:
                self._confirm_unload(name, found[name])

        self.app.push_screen(ChoiceScreen("НИП какой сцены убрать?", choices), picked)

    def _confirm_unload(self, name: str, count: int) -> None:
        from tui.table.bestiary import steps

        def chosen(value: str | None) -> None:
            if value == name:
                run_step(self, steps.remove_brought, name)

        choices = [Choice(f"Убрать их из партии ({count})", name), Choice("Оставить", KEEP)]
        self.app.push_screen(ChoiceScreen(f"НИП сцены «{name}» после боя", choices), chosen)

    def encounter_action(self, action: str, setup: bool) -> bool | None:
        """Whether `l`/`L` apply now (None: not theirs): both only while the fight is set up."""
        if action == "load_encounter":
            return setup
        if action == "unload_encounter":
            # the party this pane shows: check_action runs at every redraw of the key bar
            shown = getattr(self, "characters", {})
            return setup and bool(encounters_in_party(shown.values()))
        return None
