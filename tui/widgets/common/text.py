"""Update a Static's markup with the least work: a builder changes some lines per keypress.

A text whose terms must not split across lines («Кинжал МУ 0») ties their words with
:data:`TIE` (a no-break space); Textual breaks at any space, so such a text is shown with
``whole=True``: its lines are broken at ordinary spaces only, to the Static's width.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.content import Content
from textual.markup import MarkupError
from textual.widgets import Static

from tui.sanitize import cut_long_words

#: Ties the words of one term («Кинжал МУ 0») so that ``whole`` never splits it.
TIE = "\u00a0"
_WORD = re.compile(r"[^ \n]+ *")  # a word (its tied words in it) and the ordinary spaces after


def keep_whole(content: Content, width: int) -> Content:
    """Return ``content`` with each line longer than ``width`` broken at ordinary spaces only
    (a no-break space :data:`TIE` holds its words together); a term longer than the whole
    width is left on a line of its own (Textual then folds it)."""
    lines: list[Content] = []
    for line in content.split("\n"):
        text = line.plain
        if cell_len(text) <= width:
            lines.append(line)
            continue
        breaks: list[int] = []
        used = 0
        for word in _WORD.finditer(text):
            if used and used + cell_len(word.group().rstrip(" ")) > width:
                breaks.append(word.start())
                used = 0
            used += cell_len(word.group())
        lines += [part.rstrip() for part in line.divide(breaks)]
    return Content("\n").join(lines)


def show_markup(static: Static, markup: str, *, whole: bool = False) -> None:
    """Show ``markup`` in ``static``; lay the screen out again only when its height changes.

    ``Static.update`` lays out the whole screen by default, which is most of a builder step's
    cost; an unchanged text costs nothing, and a text of the same height only repaints.
    ``whole``: the terms tied with :data:`TIE` never split across lines (call it again on a
    resize: the lines are broken for the Static's width).
    """
    markup = cut_long_words(markup)
    size = static.content_size
    key = (markup, size.width) if whole else markup
    if getattr(static, "_shown_markup", None) == key:
        return
    static._shown_markup = key  # type: ignore[attr-defined]  # our mark on Textual's Static
    width = static.styles.width  # None: the default, the container's width
    # Lay out when not laid out yet, or when its width follows the text.
    layout = not size.width or (width is not None and width.is_auto)
    try:
        if whole and size.width:
            static.update(keep_whole(Content.from_markup(markup), size.width), layout=layout)
        else:
            static.update(markup, layout=layout)
    except MarkupError:  # text the GM typed that reads as a tag: show it all as typed
        shown = Content(markup)
        static.update(keep_whole(shown, size.width) if whole else shown, layout=layout)
    if layout:
        return
    # Textual hands a widget's RenderStyles to get_height the same way (a RulesMap in use)
    if static.visual.get_height(static.styles, size.width) != size.height:  # type: ignore[arg-type]  # see above
        static.refresh(layout=True)
