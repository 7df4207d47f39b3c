"""A DataTable that keeps its rendered rows when only its focus or visibility changes.

Textual's DataTable drops every rendered row when its styles are re-applied (each focus change)
and when it is resized (each time its tab is shown again), then renders every cell anew: on a
tab switch that was most of the frame (~11 ms of ~15 ms for a party of eight, measured
headless). Its row and cell caches are already keyed on the focus state and base style, so
they stay valid through a focus change; only the cell-style cache is not keyed on it and is
cleared. New CSS or another theme (new rules or variables in the app's stylesheet) drops every
cache, as DataTable does. A resize drops the rows only when the size really changed.

This leans on Textual internals (DataTable's ``_on_resize``, ``_styles_cache``,
``_get_styles_to_render_cell``, the stylesheet's ``_variables``); tests/tui/test_table.py
compares its output with DataTable's.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import DataTable


class Table(DataTable[Any]):
    """``DataTable`` with render caches that survive focus changes and re-showing, whose text
    cells are plain text: DataTable reads a ``str`` cell as Rich markup, so a character named
    «Бо[/b]дан» stopped the app."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._css: tuple[object, object] | None = None  # the stylesheet the caches were drawn in
        self._last_size = Size(0, 0)

    def add_row(self, *cells: Any, **kwargs: Any) -> Any:
        return super().add_row(*(Text(c) if isinstance(c, str) else c for c in cells), **kwargs)

    def notify_style_update(self) -> None:
        sheet = self.app.stylesheet
        css = (sheet.rules, sheet._variables)  # new objects after new CSS or another theme
        if self._css is None or any(a is not b for a, b in zip(css, self._css, strict=True)):
            self._css = css
            super().notify_style_update()  # restyled for real: drop every cache
            return
        Widget.notify_style_update(self)  # the widget's own style caches
        self._styles_cache.clear()  # the widget's finished lines
        self._get_styles_to_render_cell.cache_clear()  # not keyed on the focus state
        self.refresh()

    def _on_resize(self, event: events.Resize) -> None:
        # Textual calls DataTable's own handler after this one (it drops every rendered row)
        # unless the default is prevented.
        if event.size == self._last_size:
            event.prevent_default()
        self._last_size = event.size
