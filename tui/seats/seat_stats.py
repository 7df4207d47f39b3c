"""The seat's «s»: the luck stats asked of the GM's app and shown on the view's own screen.

One question waits at a time, by its id; its answer (checked by :mod:`tui.seats.stats`) opens
:class:`~tui.widgets.log.stats.StatsScreen` after «s», or refreshes the open one when the
Журнал changed. A refusal or a dropped connection ends the question, with the reason.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from tui.seats import protocol as proto


class StatsMixin:
    """``SeatApp``'s luck stats (mixed into ``SeatApp``)."""

    # Set by SeatApp.__init__.
    state: dict[str, Any]
    _writer: asyncio.StreamWriter | None
    _stats_asked: str | None
    _stats_open: bool
    _stats_seen: object
    # Provided by Textual's App.
    notify: Any
    screen: Any
    push_screen: Any

    def action_stats(self) -> None:
        """Ask the GM's app for the luck stats the players' view shows; open them on answer."""
        if self._writer is None:
            self.notify(
                "Нет связи с ведущим: удача бросков откроется, когда место снова будет на связи "
                "(в заголовке — «на связи с ведущим»); тогда нажмите s ещё раз.",
                severity="error",
                timeout=8,
                markup=False,
            )
            return
        self._ask_stats(open_screen=True)

    def _ask_stats(self, *, open_screen: bool) -> None:
        if self._writer is None:
            return
        self._stats_asked = uuid.uuid4().hex
        self._stats_open = open_screen or self._stats_open
        self._stats_seen = self.state.get("log")
        self._writer.write(
            proto.encode({"v": proto.VERSION, "type": "stats", "id": self._stats_asked})
        )

    def _stats_screen(self) -> Any:
        """Return the stats screen when it is on top, else None."""
        screen = self.screen
        return screen if type(screen).__name__ == "StatsScreen" else None

    def stats_answered(self, message: dict[str, Any]) -> None:
        """Show the GM's answer: open the stats screen (after «s») or refresh the open one."""
        if self._stats_asked is None or message.get("id") != self._stats_asked:
            return  # an older question's answer
        self._stats_asked = None
        from tui.seats.stats import StatsError, sessions_from  # lazy: it loads the ledger
        from tui.widgets.log.stats import StatsScreen

        try:
            sessions = sessions_from(message)
        except StatsError as err:
            self._stats_open = False
            self.notify(f"Удача бросков не показана: {err}", severity="error", markup=False)
            return
        screen = self._stats_screen()
        if screen is not None:
            screen.feed(sessions)
        elif self._stats_open:
            self.push_screen(StatsScreen(sessions=sessions))
        self._stats_open = False
        self._refresh_stats()  # the Журнал changed while the GM counted

    def _refresh_stats(self) -> None:
        """The stats screen is open and the Журнал changed: ask again (one question at a time)."""
        if self._stats_asked is not None or self._stats_screen() is None:
            return
        if self.state.get("log") != self._stats_seen:
            self._ask_stats(open_screen=False)

    def _stats_refused(self, rid: object) -> None:
        """The GM refused a line: when it was the waiting question (an older GM's refusal names
        no id), that question is over."""
        if rid in (None, self._stats_asked):
            self._stats_asked, self._stats_open = None, False

    def _stats_dropped(self) -> None:
        """The connection dropped: a question waiting for its answer fails, with the reason."""
        asked, wanted = self._stats_asked, self._stats_open
        self._stats_asked, self._stats_open = None, False
        if asked is not None and wanted:
            self.notify(
                "Связь с ведущим прервалась: удача бросков не получена. "
                "Нажмите s, когда место снова будет на связи.",
                severity="error",
                timeout=8,
                markup=False,
            )
        elif self._stats_screen() is not None:
            self.notify(
                "Нет связи с ведущим: удача показана на момент разрыва.",
                severity="warning",
                timeout=8,
                markup=False,
            )
