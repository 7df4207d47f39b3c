"""Harm in the round tracker, as the system's hook has it (``tui/systems/<name>/rounds.py``):
a free note (a prompt: IDE4, Старатели) or boxes marked by the kind of damage (a choice; ``u``
heals the mildest box: Мир Тьмы's health). The dialogs ask; the engine's steps
(:mod:`tui.table.rounds.steps`) write."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.errors import RulesError
from rules.rounds import Tracker
from tui.table.core import Outcome
from tui.table.rounds import steps
from tui.widgets.common.choice import Choice, ChoiceScreen
from tui.widgets.common.part import WidgetPart


class RoundsHarm(WidgetPart):
    """The harm keys (mixed into ``RoundsPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def highlighted_id(self) -> str | None: ...
        def act(self, step: Callable[..., Outcome[Tracker]], *args: Any, **kwargs: Any) -> None: ...

    # Provided by RoundsPane.
    characters: dict[str, Any]
    system: str

    def _highlighted_name(self) -> tuple[str, str] | None:
        cid = self.highlighted_id()
        c = self.characters.get(cid or "")
        return (c.id, c.name) if c is not None else None

    def action_harm(self) -> None:
        """Mark a box of damage (harm in boxes: Мир Тьмы) or write the harm note (IDE4,
        Старатели), as the system's hook has it."""
        chosen = self._highlighted_name()
        if chosen is None:
            return
        cid, name = chosen
        if steps.hook(self.system).marked:
            self._damage(cid, name)
            return
        from tui.widgets.common.prompt import TextPrompt

        def noted(note: str | None) -> None:
            if note is not None:
                self.act(steps.harm_note, cid, note)

        prompt = TextPrompt(
            f"{name}: вред (заметка; пусто — снять)", "например: сломана рука", required=False
        )
        self.app.push_screen(prompt, noted)

    def _damage(self, cid: str, name: str) -> None:
        try:
            kinds = steps.hook(self.system).kinds()
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return

        def chosen(kind: str | None) -> None:
            if kind is not None:
                self.act(steps.damage, cid, kind)

        choices = [Choice(label, kind) for label, kind in kinds]
        self.app.push_screen(ChoiceScreen(f"{name}: какой урон?", choices), chosen)

    def action_heal(self) -> None:
        """Clear the mildest box of the highlighted character's harm (Мир Тьмы's health)."""
        chosen = self._highlighted_name()
        if chosen is not None:
            self.act(steps.heal, chosen[0])
