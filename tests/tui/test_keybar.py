"""The key bar: it follows the focus as Textual's Footer did, and builds no widgets per key."""

from __future__ import annotations

import gc

from textual.widget import Widget

from tui.widgets.keybar import KeyBar


def live_widgets() -> int:
    gc.unfreeze()  # the app freezes its objects a second after the start; count them too
    gc.collect()
    return sum(isinstance(o, Widget) for o in gc.get_objects())


def descriptions(app) -> list[str]:
    return [description for _key, description, _enabled in app.query_one(KeyBar)._keys]


async def test_bar_follows_the_focused_tab(make_test_app) -> None:
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        party = descriptions(app)
        assert "Рана" in party and "Выход" in party
        await pilot.press("3")
        await pilot.pause()
        check = descriptions(app)
        assert "Рана" not in check and "Бросить" in check
        await pilot.press("1")
        await pilot.pause()
        assert descriptions(app) == party


async def test_dialog_hides_main_screen_keys(make_test_app) -> None:
    """Under a dialog, keys that act on the main screen (/, ?) leave the bar."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Клавиши" in descriptions(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Клавиши" not in descriptions(app)


async def test_keys_add_no_widgets(make_test_app) -> None:
    """Footer built a widget per key on each focus change and kept them (Textual #6666)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "2341":  # every tab once: each builds its panes on its first visit
            await pilot.press(key)
            await pilot.pause()
        before = live_widgets()
        for key in "1313131313":
            await pilot.press(key)
            await pilot.pause()
        assert live_widgets() == before
        assert not app.query_one(KeyBar).children
