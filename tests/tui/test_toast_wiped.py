"""A notice that times out is wiped from the terminal, not only from the app's screen.

Played in tmux (s6 playbook): after Ctrl+Z the «Отменено: …» notice stayed on the terminal for
good, over the fight's lines, once kubik had warmed its hidden tabs (``prebuild``): the app had
removed it, but no frame repainted the cells under it.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.widgets._toast import Toast

from tests.conftest import frozen_clock
from tests.tui.test_warm import _until_warm
from tui.app import make_app

#: What reaches the terminal is the point: every frame is composed, as in a terminal.
pytestmark = pytest.mark.usefixtures("every_frame")


class Terminal:
    """The cells a terminal shows: each frame the app sends is written into them."""

    def __init__(self, width: int, height: int) -> None:
        self.rows = [[" "] * width for _ in range(height)]

    def _put(self, x: int, y: int, text: str, x1: int = 0, x2: int | None = None) -> None:
        row = self.rows[y]
        end = len(row) if x2 is None else x2
        for offset, char in enumerate(text):
            if x1 <= x + offset < end:
                row[x + offset] = char

    def write(self, update: Any) -> None:
        if isinstance(update, LayoutUpdate):
            for y, line in enumerate(update.strips, update.region.y):
                x = update.region.x
                for strip in line:
                    self._put(x, y, strip.text)
                    x += strip.cell_length
        elif isinstance(update, ChopsUpdate):
            for y, x1, x2 in update.spans:
                for x, strip in update.chops[y].items():
                    if strip is not None:
                        self._put(x, y, strip.text, x1, x2 + 1)

    @property
    def text(self) -> str:
        return "\n".join("".join(row) for row in self.rows)


@pytest.mark.slow
async def test_an_undo_notice_that_timed_out_leaves_no_trace_on_the_terminal(
    campaign_path,
) -> None:
    """The notice's cells are repainted when it goes, while the hidden tabs are warmed. Its
    timeout is run at once rather than waited for (~4 s of the test's wall time before)."""
    app = make_app(campaign_path, seed=7, clock=frozen_clock, prebuild=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        terminal = Terminal(80, 24)
        shown = app._display

        def display(screen: Any, update: Any) -> None:
            terminal.write(update)
            shown(screen, update)

        app._display = display  # type: ignore[method-assign]
        await _until_warm(app)
        app.screen.refresh()  # one whole frame: the terminal model starts from the screen
        await pilot.pause()
        # Long enough to outlast the warm-up below, however slow the machine: the notice's
        # timer is then run at once (its callback, Toast._expire), not waited for.
        app.NOTIFICATION_TIMEOUT = 60
        await pilot.press("g")  # +1 Судьба: a change to undo
        await app.services.writes_done()
        await pilot.press("ctrl+z")
        await app.services.writes_done()
        await pilot.pause()
        assert "Отменено" in terminal.text
        await _until_warm(app)  # the change warms the hidden tabs again, the notice still up
        toasts = list(app.screen.query(Toast))
        assert toasts, "the notice went before the warm-up: nothing is tested"
        for toast in toasts:
            toast._expire()  # what the notice's timer does when its time is up
        await pilot.pause(0.2)
        assert not app.screen.query(Toast)
        assert "Отменено" not in terminal.text
