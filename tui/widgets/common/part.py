"""The base of a pane's mixins (a pane's keys or drawing by concern, mixed into the pane).

mypy reads :data:`WidgetPart` as Textual's ``Widget``, so a mixin's ``query_one``, ``app`` and
``notify`` are typed; at run time it is ``object``: a mixin stays a plain class, for Textual
collects handlers and bindings only from its message pumps (the pane keeps those). What a
mixin uses of its pane beyond ``Widget`` it declares, typed, in its own body."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widget import Widget as WidgetPart
else:
    WidgetPart = object

__all__ = ["WidgetPart"]
