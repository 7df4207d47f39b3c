"""A container whose children are built the first time it is shown.

A widget's styles cost a millisecond or two to apply; a container that most starts or most
checks never show (the quick-roll bar, IDE4's rows of the expanded level) builds its children
only when :meth:`BuiltWhenShown.build` is first called, and keeps them from then on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import ComposeResult
from textual.widget import Widget


class BuiltWhenShown:
    """Mixed in before a Textual container: its children come from :meth:`children_to_build`."""

    #: Whether the children are built (from the first :meth:`build` on).
    built = False
    _composed = False
    # Provided by Textual's Widget.
    mount_all: Any

    def children_to_build(self) -> Iterable[Widget]:
        """Return the children, made afresh."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        self._composed = True
        if self.built:
            yield from self.children_to_build()

    def build(self) -> None:
        """Build the children, the first time only."""
        if not self.built:
            self.built = True
            if self._composed:  # else compose yields them
                self.mount_all(self.children_to_build())
