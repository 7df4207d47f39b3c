"""The Партия tab's bestiary keys: `B` saves the highlighted character as a template of the
campaign's bestiary (one undo step); `l` opens the bestiary screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from tui.services import lent
from tui.widgets.common.bestiary_writes import run_step
from tui.widgets.common.part import WidgetPart

BINDINGS = [
    Binding(
        "B",
        "save_template",
        "В бестиарий",
        id="party-template",
        tooltip="Сохранить персонажа как шаблон бестиария",
        show=False,
    ),
    Binding(
        "l",
        "bestiary",
        "Бестиарий",
        id="party-bestiary",
        tooltip="Бестиарий: шаблоны НИП и подготовленные сцены",
        show=False,
    ),
]


class BestiaryKeys(WidgetPart):
    """`B` and `l` (mixed into ``PartyPane``)."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def highlighted_id(self) -> str | None: ...

    # The services it uses (tui/services/lent.py): ``run_step`` is handed them.
    store = lent.store
    rng = lent.rng
    journal = lent.journal
    writer = lent.writer

    def action_save_template(self) -> None:
        """Save the highlighted character as a template (one of the same name is replaced)."""
        from tui.table.bestiary import steps

        cid = self.highlighted_id()
        if cid is None:
            return
        run_step(self, steps.save_character, cid)

    def action_bestiary(self) -> None:
        """Open the bestiary screen (the app's: a tab opens no app screen itself)."""
        self.call_later(self.app.run_action, "bestiary")
