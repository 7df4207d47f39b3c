"""Markup → plain text without Textual: the Журнал, the command line and the engine write the
plain text of the lines the screens show with markup (``[b]…[/b]``, ``[$error]…[/]``, ``\\[``).

The renderers in this package escape every «[» a person or a file wrote (``plain``), so a
«[» that is not escaped always opens a tag; a test holds this equal to Textual's own reading.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\\\[|\[[^\[\]]*\]")


def plain_text(markup: str) -> str:
    """Return the text of ``markup`` as the screen shows it, without its tags."""
    return _TOKEN.sub(lambda m: "[" if m.group() == "\\[" else "", markup)
