"""The one sanitiser for text that came from a person or a file.

Names, notes, campaign names, file names and messages that quote them may hold control
characters: ``ESC ] 52 ; c ; … BEL`` written to a terminal puts text into the GM's clipboard,
``ESC ] 2 ; …`` retitles the window, CSI and DCS sequences move the cursor or talk to tmux.
Every such text passes :func:`clean` where it enters kubik (forms, the CLI, import, load)
and again where it leaves (every render, the CLI's output, export, the OSC 52 copy): C0 and
C1 control characters other than newline and tab, and DEL, become visible pictures (ESC is
shown as «␛»), so nothing a person typed can reach the terminal as a command; the invisible
marks that reorder text or make two names that look alike differ are dropped.

Rich markup is the other half: text a person typed is never parsed as markup. :func:`plain`
makes it literal inside a markup string; :func:`safe_text` wraps it in a ``rich.text.Text``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text
    from textual.app import App

    _AppBase = App[None]  # mypy reads the mixin as a part of the app
else:
    _AppBase = object  # at run time a plain class

#: C0 controls except tab and newline, DEL, and the C1 controls (U+0080–U+009F).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

#: The same in JSON bytes: C1 or an invisible mark (below) in UTF-8, a ``\\u`` or ``\\b``
#: escape. Each pattern starts with a literal, which the regex engine scans for fast (one
#: alternation of them all, or a character class, cost 10 ms on a 200 KiB file). A hit only
#: means "look closer" (``\\\\b`` is an escaped backslash and a «b»).
_CONTROL_JSON = (
    re.compile(rb"\xc2[\x80-\x9f]"),
    re.compile(rb"\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0-\xa4\xa6-\xa9]"),
    re.compile(rb"\\u00[0-1][0-9a-fA-F]|\\u00[89][0-9a-fA-F]|\\u007[fF]|\\[bfr]"),
    re.compile(rb"\\u(?:20(?:0[b-fB-F]|2[a-eA-E]|6[0-4]|6[6-9])|[fF][eE][fF][fF]|061[cC]|180[eE])"),
)
#: The invisible marks outside U+2000–U+206F in UTF-8, found with ``bytes.find`` (memchr).
_INVISIBLE_BYTES = (b"\xef\xbb\xbf", b"\xd8\x9c", b"\xe1\xa0\x8e")
#: Raw C0 controls but tab and newline, and DEL (``bytes.translate`` deletes them fast).
_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])

#: What reorders or hides text with no control code: bidirectional embeddings, overrides,
#: isolates and marks (U+202A–E, U+2066–9, U+200E/F, U+061C) make «Милава» read backwards;
#: zero-width spaces and joiners, the word joiner and invisible operators, the byte-order mark
#: and the Mongolian vowel separator (U+200B–D, U+2060–4, U+FEFF, U+180E) make two names that
#: look the same differ. Names, notes and every text a seat sends lose them.
_INVISIBLE = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟: ESC is «␛»
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1 has no pictures; «�» is what a terminal shows for one anyway


def clean(text: str) -> str:
    """Return ``text`` with every control character but newline and tab made visible.

    Also drops the invisible marks that reorder or hide text (:data:`_INVISIBLE`).
    Idempotent; text without controls is returned as is.
    """
    if not isinstance(text, str):
        text = str(text)
    if _CONTROL.search(text):
        text = _CONTROL.sub(_picture, text)
    if _INVISIBLE.search(text):
        text = _INVISIBLE.sub("", text)
    return text


def clean_line(text: str) -> str:
    """Return :func:`clean` ``text`` on one line: newlines and tabs become spaces."""
    return clean(text).replace("\r", " ").replace("\n", " ").replace("\t", " ")


def clean_json(value: Any) -> Any:
    """Return a JSON value with :func:`clean` applied to every string in it (keys too).

    Unchanged values are returned as the very same objects, so a clean document costs a
    walk and no copy.
    """
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, dict):
        items = [(clean_json(k), clean_json(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list):
        items_l = [clean_json(v) for v in value]
        if all(a is b for a, b in zip(items_l, value, strict=True)):
            return value
        return items_l
    return value


def json_may_hold_controls(raw: bytes) -> bool:
    """Return whether JSON bytes may hold a control character in a string (cheap pre-check)."""
    if len(raw.translate(None, _CONTROL_BYTES)) != len(raw):
        return True
    if any(mark in raw for mark in _INVISIBLE_BYTES):
        return True
    return any(pattern.search(raw) for pattern in _CONTROL_JSON)


#: The longest unbroken run of letters a text shows: a longer one (a 10,000-letter name from
#: a campaign file) is cut with «…» instead of folded over every line of the screen. No word
#: of the rules or the UI comes near; a path or a dice expression is broken by its signs.
LONGEST_WORD = 60
_LONG_WORD = re.compile(rf"\w{{{LONGEST_WORD + 1},}}")


def cut_long_words(text: str) -> str:
    """Return ``text`` (markup too: a tag is no run of letters) with every run of letters
    longer than :data:`LONGEST_WORD` cut to it, its last character «…»."""
    return _LONG_WORD.sub(lambda m: m.group()[: LONGEST_WORD - 1] + "…", text)


def plain(text: str) -> str:
    """Return text a person or a file wrote, cleaned and ready to sit inside markup.

    Every «[» becomes literal, so «+1 [/b]» or «[$error]» is shown as typed instead of being
    read as a tag (an unmatched closing tag stopped the app); a run of letters past
    :data:`LONGEST_WORD` is cut (a 10,000-letter name filled a dialog's whole box).
    """
    text = cut_long_words(clean(text)).replace("[", "\\[")  # Textual drops one «\\» before «[»
    # A backslash at the end would make the «[» of a tag that follows literal: a zero-width
    # space keeps the two apart.
    return text + "\u200b" if text.endswith("\\") else text


#: The widest a name stands in a table cell (the party, the players' view): a longer one is
#: cut there with «…» (the sheet below shows it whole), so the other columns stay on screen.
NAME_CELL = 20


def cell(text: str, width: int = NAME_CELL) -> str:
    """Return ``text`` for a table cell: as it is, or cut to ``width`` characters with «…»."""
    return text if len(text) <= width else text[: width - 1] + "…"


def safe_text(text: str, style: str = "") -> Text:
    """Return a ``rich.text.Text`` of cleaned ``text``: never markup, never a control code."""
    from rich.text import Text

    return Text(clean(text), style=style)


class CleanPaste(_AppBase):
    """Mixin for a Textual app: pasted text is cleaned before any widget sees it.

    Textual's ``Input`` inserts a bracketed paste as it came, control codes included, and
    then draws it; a name copied from a chat could carry ``ESC ] 52`` into the form.
    """

    async def on_event(self, event: Any) -> None:
        from textual import events

        if isinstance(event, events.Paste):
            event.text = clean(event.text)
        await super().on_event(event)
