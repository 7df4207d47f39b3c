"""No animations unless the user asks for them.

Textual slides the tab underline for 0.3 s on every tab switch: ~18 extra frames that go to every
SSH client and every pane of a shared tmux session, and a key pressed meanwhile waits for the next
frame of the animation's 60 Hz grid (up to 17 ms). kubik moves the underline at once.
``TEXTUAL_ANIMATIONS=full`` (or ``basic``) brings the animations back.
"""

from __future__ import annotations

import os
from typing import Any

from textual.app import App


def quiet_animations(app: App[Any]) -> None:
    """Turn ``app``'s animations off unless ``TEXTUAL_ANIMATIONS`` says otherwise."""
    if "TEXTUAL_ANIMATIONS" not in os.environ:
        app.animation_level = "none"
