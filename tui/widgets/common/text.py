"""Update a Static's markup with the least work: a builder changes some lines per keypress."""

from __future__ import annotations

from textual.content import Content
from textual.markup import MarkupError
from textual.widgets import Static


def show_markup(static: Static, markup: str) -> None:
    """Show ``markup`` in ``static``; lay the screen out again only when its height changes.

    ``Static.update`` lays out the whole screen by default, which is most of a builder step's
    cost; an unchanged text costs nothing, and a text of the same height only repaints.
    """
    if getattr(static, "_shown_markup", None) == markup:
        return
    static._shown_markup = markup  # type: ignore[attr-defined]  # our mark on Textual's Static
    size = static.content_size
    width = static.styles.width  # None: the default, the container's width
    # Lay out when not laid out yet, or when its width follows the text.
    layout = not size.width or (width is not None and width.is_auto)
    try:
        static.update(markup, layout=layout)
    except MarkupError:  # text the GM typed that reads as a tag: show it all as typed
        static.update(Content(markup), layout=layout)
    if layout:
        return
    # Textual hands a widget's RenderStyles to get_height the same way (a RulesMap in use)
    if static.visual.get_height(static.styles, size.width) != size.height:  # type: ignore[arg-type]  # see above
        static.refresh(layout=True)
