"""A screen compositor that repaints what a widget leaves when it goes between two layouts.

Textual's compositor diffs its map of the screen's widgets at each layout and repaints the
cells whose widget came, went or moved. It also rebuilds that map lazily, from the DOM as it
is, when a widget outside it is looked up (a refreshed widget of a hidden tab marks the map
stale; kubik's warm-up of the hidden tabs refreshes many). A rebuild that runs after a widget
was removed but before the next layout (Textual's own clean-up after a notice times out asks
the notice's rack for its size) drops the removed widget from the old map, so the layout finds
nothing changed and the notice's cells stay on the terminal for good. :class:`KeptCompositor`
marks the cells of what such a rebuild dropped or moved dirty, as the layout would have.

This leans on Textual internals (``Compositor.full_map``, ``_full_map_invalidated``,
``_dirty_regions``); tests/tui/test_warm.py (the undo notice of
``test_a_tab_changed_or_resized_after_its_warm_up_is_warmed_again_after_a_typed_key``) fails
without it.
"""

from __future__ import annotations

from textual._compositor import Compositor, CompositorMap

_full_map = Compositor.full_map.fget  # type: ignore[attr-defined]  # a property, typed as its getter
assert _full_map is not None


class KeptCompositor(Compositor):
    """A compositor whose lazy rebuild of its map repaints what the rebuild dropped."""

    @property
    def full_map(self) -> CompositorMap:
        """The map of every widget; a rebuild marks what changed in it dirty."""
        if self.root is None or not self._full_map_invalidated:
            return _full_map(self)
        before = self._full_map
        after = _full_map(self)
        if after is not before:
            self._dirty_regions.update(
                region
                for region in (
                    geometry.clip.intersection(geometry.region)
                    for _widget, geometry in before.items() ^ after.items()
                )
                if region
            )
        return after
