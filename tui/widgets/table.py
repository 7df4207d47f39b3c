"""A DataTable that keeps its rendered rows when only its focus or visibility changes.

Textual's DataTable drops every rendered row when its styles are re-applied (each focus change)
and when it is resized (each time its tab is shown again), then renders every cell anew: on a
tab switch that was most of the frame (~11 ms of ~15 ms for a party of eight, measured
headless). Its row and cell caches are already keyed on the focus state and base style, so
they stay valid through a focus change; only the cell-style cache is not keyed on it and is
cleared. Anything else that re-styles the table (another theme, new CSS) changes the
component styles, and then every cache is dropped as before. A resize drops the rows only when
the size really changed.

This leans on DataTable internals (``_on_resize``, ``_styles_cache``,
``_get_styles_to_render_cell``); tests/tui/test_table.py compares its output with DataTable's.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import DataTable


class Table(DataTable[Any]):
    """``DataTable`` with render caches that survive focus changes and re-showing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styled: dict[Any, tuple[Style, ...]] = {}  # focus state → component styles
        self._last_size = Size(0, 0)

    def _style_print(self) -> tuple[Style, ...]:
        return tuple(
            self.get_component_rich_style(name, partial=True, default=Style())
            for name in sorted(self.COMPONENT_CLASSES)
        )

    def notify_style_update(self) -> None:
        Widget.notify_style_update(self)  # the widget's own style caches
        state = self.get_pseudo_class_state()
        styles = self._style_print()
        if self._styled.get(state, styles) != styles:
            self._styled = {}
            super().notify_style_update()  # restyled for real: drop every cache
            return
        self._styled[state] = styles
        self._styles_cache.clear()  # the widget's finished lines
        self._get_styles_to_render_cell.cache_clear()  # not keyed on the focus state
        self.refresh()

    def _on_resize(self, event: events.Resize) -> None:
        # Textual calls DataTable's own handler after this one (it drops every rendered row)
        # unless the default is prevented.
        if event.size == self._last_size:
            event.prevent_default()
        self._last_size = event.size
