"""Undo and redo: the store's steps taken back and made again, of any kubik on the file.

The stacks live in the campaign file (:mod:`tui.store.history`); a step is undone or redone
as one write of :class:`~tui.store.writes.WritePath`, and the Журнал entries it wrote are
marked «отменено» while it is undone.
"""

from __future__ import annotations

from . import history
from .writes import WritePath


class Undo(WritePath):
    """Undo, redo and what they would take next."""

    # -- undo -----------------------------------------------------------------------------

    def undo(self) -> str | None:
        """Undo the newest step (of any kubik on this file); return its label, None if none."""
        return self._step("undo")

    def redo(self) -> str | None:
        """Redo the newest undone step; return its label, None if none."""
        return self._step("redo")

    @property
    def can_undo(self) -> bool:
        return bool(self._stacks["undo"])

    @property
    def can_redo(self) -> bool:
        return bool(self._stacks["redo"])

    @property
    def depth(self) -> tuple[int, int]:
        """How many steps undo and redo would take: it changes with every step, undo and redo
        (a screen whose state follows undo marks alone redraws on it)."""
        return len(self._stacks["undo"]), len(self._stacks["redo"])

    def undo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`undo` would take, newest first."""
        return [s["label"] for s in reversed(self._stacks["undo"][-n:])] if n > 0 else []

    def redo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`redo` would take, newest first."""
        return [s["label"] for s in reversed(self._stacks["redo"][-n:])] if n > 0 else []

    def _step(self, source: str) -> str | None:
        def logged() -> set[str]:  # under the lock: every entry written so far
            with self._mutex:
                self._journal.refresh()
                entries = self._journal.entries()
            return {e.data["step"] for e in entries if isinstance(e.data.get("step"), str)}

        label = self._transact(lambda db, _step_id: _with_flag(history.step(db, source, logged)))[0]
        self._local.step = None
        return label


def _with_flag(label: str | None) -> tuple[str | None, bool]:
    return label, label is not None
