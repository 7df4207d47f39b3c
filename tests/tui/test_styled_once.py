"""StyledOnce: a pushed screen is styled as its widgets mount, not once more on its first
resume (tui/widgets/common/styled.py); a later resume still restyles it, as Textual does."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, Static

from tui.widgets.common.styled import StyledOnce

CSS = """
Label.-warn { color: red; text-style: bold; }
Horizontal > Static { width: 1fr; background: blue; }
Input:focus { border: heavy green; }
"""


def _widgets() -> ComposeResult:
    with Horizontal():
        yield Label("a", classes="-warn", id="w-label")
        yield Static("b", id="w-static")
        yield Input("c", id="w-input")


class Counting:
    restyled = 0

    def update_node_styles(self, animate: bool = True) -> None:
        type(self).restyled += 1
        super().update_node_styles(animate=animate)  # type: ignore[misc]


class Plain(Counting, ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield from _widgets()


class Styled(Counting, StyledOnce, ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield from _widgets()


class Host(App[None]):
    CSS = CSS


def _looks(screen: Screen) -> list[object]:  # type: ignore[type-arg]
    shown = []
    for node in screen.query("#w-label, #w-static, #w-input"):
        styles = node.styles
        shown += [styles.color, styles.background, styles.width, styles.text_style]
        shown += [styles.border_top, node.has_focus]
    return shown


async def test_first_resume_does_not_restyle_and_looks_the_same_and_a_later_one_restyles() -> None:
    """Pushed, a StyledOnce screen is styled once and looks as a plain one does; resumed
    again later, it is restyled, as Textual does.

    Replaces the pilot tests (one ``Host`` app each)
    ``tests/tui/test_styled_once.py::test_first_resume_does_not_restyle_and_looks_the_same``
    and ``tests/tui/test_styled_once.py::test_a_later_resume_restyles``."""
    app = Host()
    async with app.run_test() as pilot:
        await app.push_screen(Plain())
        await pilot.pause()
        plain = _looks(app.screen)
        assert Plain.restyled == 1, "Textual's second pass over the pushed screen"
        app.pop_screen()
        await pilot.pause()
        screen = Styled()
        await app.push_screen(screen)
        await pilot.pause()
        assert Styled.restyled == 0, "StyledOnce: no second pass on the first resume"
        assert _looks(app.screen) == plain, "and it looks as the plain screen does"
        label, static = app.screen.query_one("#w-label"), app.screen.query_one("#w-static")
        assert label.styles.color != static.styles.color, "the CSS did reach them"
        before = Styled.restyled
        screen.post_message(events.ScreenResume())
        await pilot.pause()
        assert Styled.restyled == before + 1, "a later resume restyles"
