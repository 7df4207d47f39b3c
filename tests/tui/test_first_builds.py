"""A tab's first build draws its content once or twice, not at every step of the build."""

from __future__ import annotations

from textual.widgets import Static

from tui.systems.ide4.builder.builder import Ide4Builder


async def test_the_ide4_check_draws_its_odds_at_most_twice(make_test_app, monkeypatch) -> None:
    """Mounted (after its first refresh) and given the party: the form's defaults (the
    difficulty, the level, the new difficulty) are set quietly, not as three more changes."""
    drawn: list[str] = []
    recompute = Ide4Builder.redraw

    def counted(self) -> None:  # type: ignore[no-untyped-def]
        drawn.append(self.phase)
        recompute(self)

    monkeypatch.setattr(Ide4Builder, "redraw", counted)
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        assert 1 <= len(drawn) <= 2
        form = app.query_one("#check-pane", Ide4Builder).form
        assert (form.value("base"), form.level, form.value("open")) == (3, "standard", 5)
        status = str(app.query_one("#ide4-status", Static).render())
        assert "[3]" in status  # the difficulty line is drawn, for the default difficulty
        before = len(drawn)
        await pilot.press("right")  # a change the GM makes still redraws
        assert len(drawn) == before + 1
