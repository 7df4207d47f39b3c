"""The app's own keys beside compose and routing, a mixin of ``tui.app.KubikApp`` each: the tab
panes built on their first visit and the keys 1–4 that switch to them (``panes``), the focus
contract's screen and moves (``focus``) and the keys that open the app's own screens
(``dialogs``). They are Textual-facing through and through (``action_*`` methods, which Textual
collects only from the app's class hierarchy, widgets mounted and queried, screens pushed).

What has state of its own or logic beyond routing is a service (``tui/services/``): the
ordered writer, the Журнал, the held keys, the file watch, the redraw's choice of panes
(Redraw), the deferred start (Startup), undo and redo (History), sharing the table (Sharing)
and copying (Clipboard); the app keeps their keys and timers, one line each where it can.
The parts never import ``tui.app``; the app imports them. Each derives from :data:`AppPart`,
which mypy reads as the app's shape (``shape.pyi``) and which is ``object`` at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.appparts.shape import AppShape as AppPart
else:
    AppPart = object

__all__ = ["AppPart"]
