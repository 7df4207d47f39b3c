"""Tabs built on their first visit, and panes that follow the store whenever they were built."""

from __future__ import annotations

from textual.widgets import Static

from tui.store import Store


async def test_first_screen_builds_only_the_party_tab(make_test_app) -> None:
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert set(app._panes) == {"party"}
        assert not app.query("#combat-pane") and not app.query("#check-pane")
        await pilot.press("2")
        await pilot.pause()
        assert app.query_one("#combat-pane").has_focus_within
        await pilot.press("4", "3", "1")
        await pilot.pause()
        assert set(app._panes) == {"party", "combat", "check", "log"}
        assert len(app.query("#combat-pane")) == 1  # built once, kept


async def test_a_pane_built_late_shows_what_changed_before(make_test_app, campaign_path) -> None:
    """A wound dealt while the Бой tab was never opened is on it when it opens."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        other = Store.open(campaign_path)  # another kubik (or the CLI) writes the campaign
        first = other.characters()[0]
        other.upsert_character(first.__class__(**{**first.__dict__, "name": "Новое Имя"}))
        other.close()
        app.store.refresh()
        await pilot.press("2")
        await pilot.pause()
        names = [c.name for c in app.query_one("#combat-pane").characters.values()]
        assert "Новое Имя" in names


async def test_a_settings_change_redraws_the_builder(make_test_app, campaign_path) -> None:
    """The exceptional threshold is campaign data: changing it changes the open builder."""
    app = make_test_app(system="wod")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        notes = app.query_one("#wod-notes", Static)
        assert "от 5 успехов" in str(notes.render())
        table = {
            "pool": {"success_threshold": 8, "again": 10, "exceptional": 3},
            "chance": {"withdrawal_allowed": True},
        }
        app.store.put_doc("settings", {"wod/pool.toml": table}, label="Настройки")
        await pilot.pause()
        assert "от 3 успехов" in str(notes.render())


async def test_a_tab_switch_does_not_repaint_the_tabs_container(make_test_app) -> None:
    """The container behind the panes only draws a background; repainting it on each switch
    drew ~25 blank lines anew. The panes and the tab bar still change (the check can fail)."""
    from textual.widgets import TabbedContent
    from textual.widgets._tabbed_content import ContentTabs

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "1")
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
        assert "ContentTabs" in repainted
        assert "TabbedPanes" not in repainted
