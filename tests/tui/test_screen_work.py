"""Screens that make Textual do no needless work: what each opening styles, in one app run.

A widget that takes the focus is restyled with everything in it (Textual's
``watch_has_focus``), so a dialog that first focuses its scrolling box and then its field
restyles the whole dialog twice for a focus nobody sees."""

from __future__ import annotations

from textual.widget import Widget

from tui.widgets.party.form import CharacterForm


async def test_the_character_form_opens_with_only_its_name_field_focused(
    make_test_app, monkeypatch
):
    """«a» and «e» open the character form with the focus on «Имя» and on nothing before it:
    ~30 ms of the opening's CPU went to focusing the form's scrolling box, restyling its ~40
    widgets, and restyling them again as «Имя» took the focus from it."""
    focused: list[str] = []
    watch = Widget.watch_has_focus

    def noted(self: Widget, has_focus: bool) -> None:
        if has_focus:
            focused.append(self.id or type(self).__name__)
        watch(self, has_focus)

    monkeypatch.setattr(Widget, "watch_has_focus", noted)
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("a", "e"):
            focused.clear()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, CharacterForm), f"«{key}» opened no form"
            assert app.screen.focused is not None and app.screen.focused.id == "f-name", key
            assert focused == ["f-name"], f"«{key}»: focused on the way: {focused}"
            await pilot.press("escape")
            await pilot.pause()
