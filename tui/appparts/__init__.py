"""The parts of ``tui.app.KubikApp`` beside compose, bindings and routing, one concept a module.

What has state of its own and no key is a service (``tui/services.py``: the ordered writer, the
Журнал, the held keys, the toasts, the campaign file's watch); what is left here are the app's
own actions and its redraw, each a mixin of ``KubikApp``: the redraw from the store
(``redraw``), the tab panes built on their first visit and the keys that switch to them
(``panes``), the work after the first paint (``startup``), the focus contract's screen and moves
(``focus``), undo and redo (``history``), sharing the table with the players (``sharing``),
copying (``copying``) and the keys that open the app's own screens (``dialogs``). They never
import ``tui.app``; the app imports them. Each derives from :data:`AppPart`, which mypy reads
as the app's shape (``shape.pyi``) and which is ``object`` at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.appparts.shape import AppShape as AppPart
else:
    AppPart = object

__all__ = ["AppPart"]
