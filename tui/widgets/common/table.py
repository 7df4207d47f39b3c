"""A DataTable that keeps its rendered rows when only its focus or visibility changes.

Textual's DataTable drops every rendered row when its styles are re-applied (each focus change)
and when it is resized (each time its tab is shown again), then renders every cell anew: on a
tab switch that was most of the frame (~11 ms of ~15 ms for a party of eight, measured
headless). Its row and cell caches are already keyed on the focus state and base style, so
they stay valid through a focus change; only the cell-style cache is not keyed on it and is
cleared. New CSS or another theme (new rules or variables in the app's stylesheet) drops every
cache, as DataTable does. A resize drops the rows only when the size really changed.

A tab switch moves the focus from one tab's table to the other's. A table that loses the focus
because its tab was left keeps its focused styles and finished lines (it is hidden); when the
focus comes back with the tab, nothing is restyled or drawn anew (restyling a DataTable is
~1 ms, mostly its ten component classes). A table shown again without the focus is restyled
just before it is drawn. And ``rich_style``, which DataTable asks once per line and Textual
computes from every ancestor each time, is computed once per draw.

This leans on Textual internals (DataTable's ``_on_resize``, ``_styles_cache``,
``_get_styles_to_render_cell``, the stylesheet's ``_variables``, Widget's ``_on_focus`` and
``_on_blur``); tests/tui/test_table.py compares its output with a DataTable styled and drawn
anew.

``wrap_last=True`` gives the last column the width the others leave and wraps its text onto
more lines (the Журнал, the players' view): a long entry was cut at 80 columns behind a
horizontal scrollbar.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import DataTable

from tui.sanitize import clean


class Table(DataTable[Any]):
    """``DataTable`` with render caches that survive focus changes and re-showing, whose text
    cells are plain text: DataTable reads a ``str`` cell as Rich markup, so a character named
    «Бо[/b]дан» stopped the app."""

    def __init__(self, *args: Any, wrap_last: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Whether the last column fills the width left and wraps (rows as tall as needed).
        self.wrap_last = wrap_last
        self._css: tuple[object, object] | None = None  # the stylesheet the caches were drawn in
        self._last_size = Size(0, 0)
        self._line_style: Style | None = None  # rich_style while render_lines runs
        #: The focus state the styles (and the finished lines) were made for; None: not yet.
        self._styled_focus: bool | None = None

    # -- focus: a table loses the focus when its tab is left and gets it back on return ------

    def _hidden(self) -> bool:
        return any(node.styles.display == "none" for node in self.ancestors_with_self)

    def _on_blur(self, event: events.Blur) -> None:
        if self._hidden():
            # Its tab was just left. Keep the focused styles and lines (nobody sees them): the
            # table gets the focus back when its tab is shown again, and then nothing needs
            # restyling or drawing anew. Shown without the focus, it is restyled as it is drawn.
            event.prevent_default()  # Widget._on_blur, without its repaint
            self.has_focus = False
            if self.parent is not None:
                self.parent.post_message(events.DescendantBlur(self))

    def _on_focus(self, event: events.Focus) -> None:
        if self._styled_focus:  # styled and drawn as focused already (see _on_blur)
            event.prevent_default()  # Widget._on_focus, without its repaint
            self.has_focus = True
            if self.parent is not None:
                self.parent.post_message(events.DescendantFocus(self))

    def watch_has_focus(self, has_focus: bool) -> None:
        if has_focus == self._styled_focus or (not has_focus and self._hidden()):
            return  # see _on_blur
        if not has_focus and not self.app.is_running:
            return  # the app is closing (its screens give up the focus): nothing is drawn again
        self._styled_focus = has_focus
        super().watch_has_focus(has_focus)  # restyle: Stylesheet.apply and notify_style_update

    @property
    def rich_style(self) -> Style:
        return self._line_style or super().rich_style

    def render_lines(self, crop: Any) -> Any:
        if self._styled_focus is not None and self._styled_focus != self.has_focus:
            self._styled_focus = self.has_focus  # shown again without the focus
            self.update_node_styles(animate=False)
        # DataTable.render_line asks for rich_style on every line, and DOMNode computes it
        # anew from every ancestor each time: ~60 µs a line, half of a re-rendered line.
        self._line_style = super().rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def add_row(self, *cells: Any, **kwargs: Any) -> Any:
        texts = [Text(clean(c)) if isinstance(c, str) else c for c in cells]
        key = super().add_row(*texts, **kwargs)
        if self.wrap_last and texts and isinstance(texts[-1], Text):
            self._unwrapped[key] = texts[-1]
        return key

    def clear(self, columns: bool = False) -> Any:
        """Clear the rows (and ``columns``). A column kept is as wide as its label again, as a
        fresh table's: Textual's only grows, and a round tracker's «№» stayed as wide as
        «▶ 1» after Ctrl+Z took the initiative back."""
        self._unwrapped.clear()
        done = super().clear(columns)
        for column in self.columns.values():
            column.content_width = column.label.cell_len
        return done

    def remove_row(self, row_key: Any) -> None:
        super().remove_row(row_key)
        self._unwrapped.pop(row_key, None)

    # -- wrapping the last column ------------------------------------------------------------

    @property
    def _unwrapped(self) -> dict[Any, Text]:
        """Each row's last cell as it was added (before it was wrapped)."""
        if "_raw_cells" not in self.__dict__:
            self.__dict__["_raw_cells"] = {}
        return self.__dict__["_raw_cells"]

    def _wrap_width(self, new_rows: Any) -> int:
        """Return the width the other columns leave to the last (after ``new_rows``)."""
        *others, _last = self.ordered_columns
        taken = 0
        for column in others:
            widest = max((self._cell_width(row, column.key) for row in new_rows), default=0)
            taken += 2 * self.cell_padding + max(column.content_width, widest, column.width)
        gutter = self.styles.scrollbar_size_vertical  # kept free: a scrollbar may appear
        return max(8, self._laid_out_width - taken - 2 * self.cell_padding - gutter)

    @property
    def _laid_out_width(self) -> int:
        """The width the table has, or was last given while hidden: a tab warmed unseen
        (tui/widgets/common/warm.py) wraps its rows at the width its visit will have."""
        return self.size.width or self._last_size.width

    def _cell_width(self, row_key: Any, column_key: Any) -> int:
        cell = self._data.get(row_key, {}).get(column_key)
        if isinstance(cell, Text):  # a cell of several lines is as wide as its widest line
            return max(cell_len(line) for line in cell.plain.split("\n"))
        return len(str(cell or ""))

    def _wrap_rows(self, new_rows: Any) -> set[Any]:
        """Wrap the last cell of ``new_rows`` (of every row if the width changed) with
        textwrap, which is ~50× cheaper than measuring each row by rendering it; return the
        rows wrapped."""
        if not self.columns or not self._laid_out_width:
            return set()
        width = self._wrap_width(new_rows)
        last = self.ordered_columns[-1]
        rows = set(new_rows)
        if last.width != width or last.auto_width:
            last.auto_width, last.width = False, width
            rows = set(self.rows)
        for key in rows:
            raw = self._unwrapped.get(key)
            row = self.rows.get(key)
            if raw is None or row is None:
                continue
            lines = textwrap.wrap(raw.plain, width, break_on_hyphens=False) or [""]
            self._data[key][last.key] = Text("\n".join(lines), style=raw.style)
            # as tall as its tallest cell: another column may hold lines of its own
            tallest = max(
                (
                    c.plain.count("\n") + 1
                    for k, c in self._data[key].items()
                    if isinstance(c, Text)
                ),
                default=1,
            )
            row.height = max(len(lines), tallest)
        if rows:
            self._update_count += 1  # the cached cells and row offsets are stale
        return rows

    def _update_dimensions(self, new_rows: Any) -> None:
        if self.wrap_last:
            new_rows = set(new_rows) | self._wrap_rows(new_rows)
        self._own_size_only = self._size_is_its_own()
        try:
            super()._update_dimensions(new_rows)
        finally:
            self._own_size_only = False

    # -- new rows without laying the screen out ---------------------------------------------

    #: Set while DataTable works out its new scrollable size (``_update_dimensions``).
    _own_size_only = False

    def _size_is_its_own(self) -> bool:
        """Whether the table is laid out and as big as its CSS says, whatever its rows: then
        rows added or dropped change nothing around it."""
        styles = self.styles
        height, width = styles.height, styles.width
        fixed = height is not None and not height.is_auto
        fixed = fixed and (width is None or not width.is_auto)
        return fixed and bool(self.size)

    def refresh(
        self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Any:
        # DataTable sets its new scrollable size after rows change (``virtual_size``, which
        # lays the whole screen out: ~3 ms, one layout in eight of the suite's). A table whose
        # size is its own only needs its scrollbars to follow, as a layout would do for it
        # (ScrollView._size_updated); a scrollbar shown or hidden still lays the screen out.
        if layout and self._own_size_only:
            self._own_size_only = False
            self._scrollbar_changes.clear()
            self._scroll_update(self.virtual_size)
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._styled_focus = self.has_focus
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
        elif self.wrap_last and self.rows:  # another width: the rows wrap anew
            self._new_rows.update(self.rows)
            self._require_update_dimensions = True
        self._last_size = event.size
