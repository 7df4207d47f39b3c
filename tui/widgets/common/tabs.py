"""The tabs' container: ``TabbedContent`` whose tab switch repaints only what changes.

Textual's switch repaints the container itself (its ``active`` reactive), the
``ContentSwitcher`` (its ``current`` reactive) and both swapped ``TabPane``s (a ``display``
change refreshes with a repaint): ~65 lines of plain background drawn anew per tab key,
although none of them changed (the panes keep their size; a warmed pane's lines are cached,
tui/widgets/common/warm.py). :class:`TabbedPanes` swaps the two panes' ``display`` with a
layout but no repaint; the layout draws the newly shown pane from its widgets' caches, and a
widget whose content or size changed meanwhile dropped its cached lines itself
(``Widget.refresh``, ``_size_updated``).

This leans on Textual internals: ``ContentSwitcher.current`` is set with ``set_reactive``
(its watcher, which toggles ``display`` with a repaint, is not run), the ``display`` rule is
set on the inline styles as ``DOMNode.display`` sets it (``set_rule``, without its refresh),
and the node lists' update counters are bumped as ``StringEnumProperty.__set__`` bumps them.
tests/tui/test_warm.py compares every tab's screen after a quiet switch with Textual's own.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher, TabbedContent, Tabs
from textual.widgets._tabbed_content import ContentTab, ContentTabs


class TabbedPanes(TabbedContent):
    """``TabbedContent`` whose tab switch repaints neither itself, nor its switcher, nor the
    two panes it swaps (they only draw a background behind their content)."""

    active: reactive[str] = reactive("", init=False, repaint=False)
    #: Whether a switch swaps the panes quietly (False: Textual's own switch, for comparison).
    quiet = True

    def on_mount(self) -> None:
        # The tab bar's tabs restyle from a cache of their two looks (see _restyle_tab).
        self._tab_styles: dict[Any, Any] = {}
        for tab in self.query(ContentTab):
            if not tab.children:
                tab.update_node_styles = partial(_restyle_tab, tab, self._tab_styles)  # type: ignore[method-assign]  # styles found ahead

    def prime_tab_styles(self) -> None:
        """Find each tab's two looks ahead (in idle time), so that no tab key matches CSS."""
        for tab in self.query(ContentTab):
            if tab.children:
                continue
            for _ in range(2):
                tab.set_class(not tab.has_class("-active"), "-active", update=False)
                _restyle_tab(tab, self._tab_styles)

    def _watch_active(self, active: str) -> None:
        switcher = self.get_child_by_type(ContentSwitcher)
        old = switcher.current
        if not (self.quiet and active and old and active != old):
            super()._watch_active(active)
            return
        try:
            hidden, shown = switcher.get_child_by_id(old), switcher.get_child_by_id(active)
        except Exception:  # noqa: BLE001 - a pane not there: Textual's switch says so
            super()._watch_active(active)
            return
        tabs = self.get_child_by_type(ContentTabs)
        with self.prevent(Tabs.TabActivated, Tabs.Cleared):
            tabs.active = ContentTab.add_prefix(active)
        switcher.set_reactive(ContentSwitcher.current, active)
        _swap_display(hidden, False)
        _swap_display(shown, True)
        switcher._nodes.updated()
        self.post_message(
            TabbedContent.TabActivated(tabbed_content=self, tab=tabs.get_content_tab(active))
        )


def _restyle_tab(tab: ContentTab, cache: dict[Any, Any], animate: bool = True) -> None:
    """Restyle a tab of the tab bar after a class change (``-active``) as
    ``DOMNode.update_node_styles`` does, from the rules it had before in the same state.

    Textual restyles a node from scratch: it matches every rule of the stylesheet and, as it
    may animate, compares every render rule, ~1.5 ms a tab and two tabs a key. A tab has no
    children and two looks (shown, not shown), so the rules ``Stylesheet.apply`` chose for
    each are kept (keyed by the tab, its classes and pseudo-classes, and the stylesheet's
    rules: a theme or CSS change starts anew) and set again with ``replace_rules``, as
    ``apply`` sets them from its own one-update cache. The tab is not animated (kubik
    animates nothing: tui/widgets/common/motion.py)."""
    stylesheet = tab.app.stylesheet
    rules = stylesheet.rules_map
    if cache.get("rules") is not rules:
        cache.clear()
        cache["rules"] = rules
    key = (tab, frozenset(tab.classes), tab._pseudo_classes_cache_key)
    found = cache.get(key)
    if found is not None:
        node_rules, hover, focus_within = found
        tab._has_hover_style, tab._has_focus_within = hover, focus_within
        stylesheet.replace_rules(tab, node_rules, animate=False)
        return
    chosen: dict[Any, Any] = {}
    stylesheet.apply(tab, animate=False, cache=chosen)
    if len(chosen) == 1 and not tab._get_component_classes():
        cache[key] = (next(iter(chosen.values())), tab._has_hover_style, tab._has_focus_within)


def _swap_display(widget: Widget, shown: bool) -> None:
    """Show or hide ``widget`` as ``widget.display = shown`` does, with a layout but without
    repainting the widget (its lines and its size are what they were)."""
    if widget.display == shown:
        return
    widget.styles.set_rule("display", "block" if shown else "none")  # the inline rule
    widget._nodes.updated()
    widget.refresh(layout=True, repaint=False)
