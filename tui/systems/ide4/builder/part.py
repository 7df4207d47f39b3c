"""The base of ``Ide4Builder``'s mixins (its setup, result and moves, one file each): for mypy
the builder's surface they use, typed; at run time ``object`` (a mixin stays a plain class:
Textual collects handlers and bindings only from its message pumps)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.widget import Widget

    from rules import ide4
    from tui.systems.ide4.check.view import Ide4View
    from tui.table.core import Outcome

    class Ide4Part(Widget):
        """What ``Ide4Builder`` (tui/systems/ide4/builder/builder.py) gives its mixins."""

        #: What the result area shows: the moves, or the quick / full template.
        view: str

        @property
        def table(self) -> Any: ...
        @property
        def shown(self) -> Ide4View: ...
        @property
        def check(self) -> ide4.Check | None: ...
        @property
        def phase(self) -> str: ...
        def current_input(self) -> ide4.CheckInput: ...
        def step(
            self, step: Callable[..., Outcome[Any]], *args: Any, quiet: bool = False
        ) -> bool: ...
        def redraw(self) -> None: ...
        def after_form(self, action: Callable[[], object]) -> None: ...
        def action_conclude(self) -> None: ...

else:
    Ide4Part = object

__all__ = ["Ide4Part"]
