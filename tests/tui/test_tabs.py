"""Tabs built on their first visit, and panes that follow the store whenever they were built."""

from __future__ import annotations

from tui.store import Store


async def test_tabs_are_built_on_their_first_visit_and_switch_without_repainting_all(
    make_test_app, campaign_path
) -> None:
    """The first screen builds only the party tab; a wound (here a new name) written while the
    Бой tab was never opened is on it when it opens; a tab switch does not repaint the
    container behind the panes (it only draws a background: repainting it on each switch drew
    ~25 blank lines anew), while the panes and the tab bar still change (the check can fail);
    each tab is built once and kept.

    Replaces the pilot tests (one app each, the same demo Древо campaign):
    ``tests/tui/test_tabs.py::test_first_screen_builds_only_the_party_tab``,
    ``tests/tui/test_tabs.py::test_a_pane_built_late_shows_what_changed_before`` and
    ``tests/tui/test_tabs.py::test_a_tab_switch_does_not_repaint_the_tabs_container``."""
    from textual.widgets import TabbedContent
    from textual.widgets._tabbed_content import ContentTabs

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert set(app._panes) == {"party"}, "the first screen builds the party tab only"
        assert not app.query("#combat-pane") and not app.query("#check-pane"), "nothing more"
        other = Store.open(campaign_path)  # another kubik (or the CLI) writes the campaign
        first = other.characters()[0]
        other.upsert_character(first.__class__(**{**first.__dict__, "name": "Новое Имя"}))
        other.close()
        app.store.refresh()
        await pilot.press("2")
        await pilot.pause()
        assert app.query_one("#combat-pane").has_focus_within, "2 opens Бой, focused"
        names = [c.name for c in app.query_one("#combat-pane").characters.values()]
        assert "Новое Имя" in names, "a pane built late shows what changed before"
        await pilot.press("1")
        await pilot.pause()
        repainted: list[str] = []
        for widget in (app.query_one(TabbedContent), app.query_one(ContentTabs)):
            set_dirty = widget._set_dirty

            def counting(*regions: object, name: str = type(widget).__name__, f=set_dirty) -> None:
                repainted.append(name)
                f(*regions)

            widget._set_dirty = counting  # type: ignore[method-assign]
        await pilot.press("2")
        await pilot.pause()
        assert "ContentTabs" in repainted, "the tab bar is repainted (the counting works)"
        assert "TabbedPanes" not in repainted, "the container behind the panes is not"
        await pilot.press("4", "3", "1")
        await pilot.pause()
        assert set(app._panes) == {"party", "combat", "check", "log"}, "every tab built"
        assert len(app.query("#combat-pane")) == 1, "Бой built once, kept"
