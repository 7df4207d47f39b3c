"""The base of ``CombatPane``'s Древо mixins (its setup and declarations, one file each): for
mypy the pane's surface they use, typed; at run time ``object`` (a mixin stays a plain class:
Textual collects handlers and bindings only from its message pumps)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.store import Character
from tui.widgets.common.part import WidgetPart

if TYPE_CHECKING:
    from tui.table.core import Outcome, World


class DrevoPart(WidgetPart):
    """What ``CombatPane`` (tui/systems/drevo/fight_pane/pane.py) gives its mixins."""

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)
        _editing: str | None

        def act(self, step: Callable[..., Outcome[Any]], *args: Any, **kwargs: Any) -> None: ...
        def _focus_phase(self) -> None: ...
        def _can_act(self) -> Callable[[str], bool]: ...
        def _names(self) -> dict[str, str]: ...
        def _marked(self, name: str, character_id: str) -> str: ...
        def _redraw(self) -> None: ...
        def world(self) -> World: ...

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
