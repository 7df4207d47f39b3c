"""Tabs built on their first visit, and panes that follow the store whenever they were built."""

from __future__ import annotations

from textual.widgets import Static

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


async def test_a_first_visit_lays_out_once_built_and_draws_the_ide4_odds_at_most_twice(
    make_test_app, monkeypatch
) -> None:
    """The screen is not laid out while a tab's pane is half built (mounted, composing,
    filling): each such layout of the whole screen was CPU the GM waited for. And a tab's first
    build draws its content once or twice, not at every step: the IDE4 check, mounted (after
    its first refresh) and given the party, sets the form's defaults (the difficulty, the
    level, the new difficulty) quietly, not as three more changes; a change the GM makes
    still redraws.

    Replaces the pilot tests (one app each, the same IDE4 demo campaign):
    ``tests/tui/test_tabs.py::test_a_first_visit_lays_the_screen_out_once_built`` and
    ``tests/tui/test_first_builds.py::test_the_ide4_check_draws_its_odds_at_most_twice``."""
    from textual.screen import Screen
    from textual.widgets import Static

    from tui.systems.ide4.builder.builder import Ide4Builder

    drawn: list[str] = []
    recompute = Ide4Builder.redraw

    def counted(self) -> None:  # type: ignore[no-untyped-def]
        drawn.append(self.phase)
        recompute(self)

    monkeypatch.setattr(Ide4Builder, "redraw", counted)
    app = make_test_app(system="ide4")
    half_built: list[str] = []
    layout = Screen._refresh_layout

    def watched(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        half_built.extend(t for t in app._building if t not in app._panes)
        return layout(self, *args, **kwargs)

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(Screen, "_refresh_layout", watched)
        for key in ("2", "4", "3"):
            await pilot.press(key)
        await pilot.pause()
        assert set(app._panes) == {"party", "check", "combat", "log"}, "every tab built"
        assert half_built == [], "no layout of the screen while a pane was half built"
        assert app.query_one("#check-pane").region.height > 0, "laid out after all"
        assert 1 <= len(drawn) <= 2, f"the IDE4 check drawn {len(drawn)} times on its build"
        form = app.query_one("#check-pane", Ide4Builder).form
        defaults = (form.value("base"), form.level, form.value("open"))
        assert defaults == (3, "standard", 5), "the form's defaults"
        status = str(app.query_one("#ide4-status", Static).render())
        assert "[3]" in status, "the difficulty line is drawn, for the default difficulty"
        before = len(drawn)
        await pilot.press("right")  # a change the GM makes still redraws
        assert len(drawn) == before + 1, "a change the GM makes redraws once"
