"""Whole numbers typed by a person (a form field, a command-line option).

A GM may type 20 digits or 10,000: such a number is too large for any field, and Python's
``int()`` refuses to read more than 4,300 digits (a ValueError, a traceback), so the digits
are counted before they are read.
"""

from __future__ import annotations

import re

#: The largest whole number a field or an option takes either way.
MAX_NUMBER = 9999


def read_whole(text: str) -> int:
    """Return the value of ``text``, a whole number (``+5``, ``-0``, ``0012``) as checked by
    the caller; one of more digits than :data:`MAX_NUMBER` has is ``±(MAX_NUMBER + 1)``."""
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) <= len(str(MAX_NUMBER)):
        return int(text)
    return -(MAX_NUMBER + 1) if text.startswith("-") else MAX_NUMBER + 1


def read_typed_whole(text: str) -> int | None:
    """Return the whole number a person typed in ``text`` — ASCII digits with a sign, «−» for
    minus, spaces around — or None. Python's ``int()`` would also read other scripts' digits
    («٢» is 2) and underscores («1_0» is 10): no GM means those as numbers."""
    cleaned = text.strip().replace("−", "-")
    if not re.fullmatch(r"[+-]?[0-9]+", cleaned):
        return None
    return read_whole(cleaned)
