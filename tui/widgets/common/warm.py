"""Warming a hidden tab: lay it out and draw its lines once, unseen, so its first visit only
composites.

A tab built ahead in idle time (``KubikApp.prebuild``) still cost its first visit ~45 ms of CPU:
Textual laid the never-shown pane out and rendered every line of it (a third of that the Бой
tab's table). :func:`warm` does that work in idle time. It lays the screen out in a private
:class:`~textual._compositor.Compositor` as it would be with ``pane`` shown instead of the
tab that is, gives each of the pane's widgets its size as a real layout would (a widget that
changed size gets its ``Resize`` now), and renders the pane's lines into the widgets' own
caches (``Widget._styles_cache``, ``_render_cache``, DataTable's row caches). The screen's
compositor, the shown tab and the focus are untouched, and nothing is written to the terminal:
the warmed lines wait in the caches until the tab is shown. A table that will take the focus
is styled as focused first (see :mod:`tui.widgets.common.table`), so the focus arriving with
the visit restyles nothing.

A warmed line is the widget's own cached line: every change to the widget's content or size
drops it as it drops a line drawn on screen (``Widget.refresh``, ``_size_updated``), so a tab
whose data changed after the warm shows the new data (tests/tui/test_warm.py).

This leans on Textual internals (the ``_compositor`` of a screen, the node list's update
counter, the inline styles' rules, ``_size_updated``); tests/tui/test_warm.py compares a
warmed first visit with one drawn cold.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual._compositor import Compositor
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from tui.widgets.common.table import Table


def _set_display(widget: Widget, shown: bool | None) -> bool | None:
    """Show or hide ``widget`` for the private layout only (``None``: no rule of its own): its
    inline ``display`` rule is set without the refresh and layout a real change would ask
    for. Return what the rule was."""
    rules = widget.styles._inline_styles._rules
    before = rules.get("display")
    if shown is None:
        rules.pop("display", None)
    else:
        rules["display"] = "block" if shown else "none"
    return None if before is None else before != "none"


def _render(compositor: Compositor, pane: Widget) -> None:
    """Render the lines of the pane's visible widgets as the compositor would (each cropped
    to what its container shows), into the widgets' caches."""
    inside = {pane, *pane.walk_children(with_self=False)}
    for widget, (region, clip) in compositor.visible_widgets.items():
        if widget not in inside:
            continue
        x, y, width, height = region.intersection(clip)
        if width and height:
            widget.render_lines(Region(x - region.x, y - region.y, width, height))


def _pane_widgets(compositor: Compositor, pane: Widget) -> list[tuple[Widget, Any]]:
    """The pane's widgets in the private layout, with their geometry."""
    inside = {pane, *pane.walk_children(with_self=False)}
    return [(widget, geometry) for widget, geometry in compositor.layers if widget in inside]


def warm(screen: Screen[Any], pane: Widget, *, settled: bool = False) -> str:
    """Lay ``pane`` (a hidden child of a ``ContentSwitcher`` on ``screen``) out at the
    screen's size and, once its widgets have their sizes, render its lines, unseen.

    Return ``"resized"`` when some of the pane's widgets got a new size (their ``Resize`` is
    posted: call again once they have handled it), ``"warmed"`` when the lines were rendered,
    ``"skipped"`` when the pane is shown or the screen is not (nothing done). ``settled``:
    render even if sizes changed (a pane whose sizes never settle is warmed all the same).
    """
    switcher = pane.parent
    if switcher is None or pane.display or not screen.is_current or not screen.size:
        return "skipped"
    shown = [child for child in switcher.children if child is not pane and child.display]
    real = screen._compositor
    private = Compositor()
    # The tables are drawn as focused (a visit focuses one; another, shown unfocused, is
    # restyled as it is drawn: tui/widgets/common/table.py).
    tables = [table for table in pane.query(Table) if not table.has_focus]
    pane_was = _set_display(pane, True)
    children_were = [_set_display(child, False) for child in shown]
    switcher._nodes.updated()  # the private arrangement is not kept for the real one
    try:
        screen._compositor = private  # a widget's region (and size) now comes from it
        for table in tables:
            table.set_reactive(Widget.has_focus, True)
            if table._styled_focus is not True:
                table._styled_focus = True
                table.update_node_styles(animate=False)
        private.reflow(screen, screen.size)
        resized = False
        for widget, (region, _o, _c, virtual, container, *_r) in _pane_widgets(private, pane):
            if widget._size_updated(region.size, virtual, container):
                resized = True
                widget.post_message(events.Resize(region.size, virtual, container))
        if resized and not settled:
            return "resized"
        _render(private, pane)
        return "warmed"
    finally:
        for table in tables:
            table.set_reactive(Widget.has_focus, False)
        screen._compositor = real
        _set_display(pane, pane_was)
        for child, was in zip(shown, children_were, strict=True):
            _set_display(child, was)
        switcher._nodes.updated()
