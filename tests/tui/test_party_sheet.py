"""The Партия tab's sheet is drawn when what it shows changes, not at every redraw."""

from __future__ import annotations

from textual.widgets import Static


async def test_the_sheet_is_drawn_once_per_change(make_test_app, monkeypatch) -> None:
    drawn: list[str] = []
    update = Static.update

    def counted(self, content="", *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.id == "party-sheet":
            drawn.append(str(content))
        return update(self, content, *args, **kwargs)

    monkeypatch.setattr(Static, "update", counted)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(drawn) == 1  # mount, first redraw and first highlight show the same
        first = app.store.characters()[0]
        assert first.name in drawn[0]
        app.redraw_all()  # nothing changed
        await pilot.pause()
        assert len(drawn) == 1
        await pilot.press("down")  # another character: drawn
        assert len(drawn) == 2 and drawn[1] != drawn[0]
        await pilot.press("up")
        assert len(drawn) == 3 and drawn[2] == drawn[0]
        shown = app.screen.query_one("#party-sheet", Static)
        assert first.name in str(shown.render())
