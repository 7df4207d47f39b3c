"""Screens styled once as they open, not twice."""

from __future__ import annotations

from textual import events


class StyledOnce:
    """Mixed into a screen (before ``Screen``/``ModalScreen``): its first resume does not apply
    the whole stylesheet again.

    Textual styles every widget as it mounts, then on the ``ScreenResume`` that follows a
    push styles the whole screen a second time (``Screen._on_screen_resume``, with
    ``refresh_styles``): for a dialog of many fields a third of its opening CPU. The second
    pass finds nothing new: every widget's CSS is scoped to itself and its children
    (``SCOPED_CSS``, no widget of kubik's unscopes it), and those were styled after it was
    read. A later resume (a dialog above it closed) still refreshes as Textual does.
    Leans on Textual 8 calling each class's ``_on_screen_resume`` in MRO order (this one
    before ``Screen``'s) and on ``ScreenResume.refresh_styles``: tests/tui/test_styled_once.py.
    """

    _styled_once = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._styled_once:
            self._styled_once = True
            event.refresh_styles = False
