"""Update a Static's markup with the least work: a builder changes some lines per keypress."""

from __future__ import annotations

from textual.widgets import Static


def show_markup(static: Static, markup: str) -> None:
    """Show ``markup`` in ``static``; lay the screen out again only when its height changes.

    ``Static.update`` lays out the whole screen by default, which is most of a builder step's
    cost; an unchanged text costs nothing, and a text of the same height only repaints.
    """
    if getattr(static, "_shown_markup", None) == markup:
        return
    static._shown_markup = markup  # type: ignore[attr-defined]
    size = static.content_size
    width = static.styles.width  # None: the default, the container's width
    if not size.width or (width is not None and width.is_auto):
        static.update(markup)  # not laid out yet, or its width follows the text
        return
    static.update(markup, layout=False)
    if static.visual.get_height(static.styles, size.width) != size.height:
        static.refresh(layout=True)
