"""Undo and redo: each window's own steps taken back and made again.

The stacks live in the campaign file (:mod:`tui.store.history`); a step is undone or redone
as one write of :class:`~tui.store.writes.WritePath`, and the Журнал entries it wrote are
marked «отменено» while it is undone.

Each window undoes only its own changes (as collaborative editors do): a store is one window
(:attr:`Undo.origin`, fresh each time it opens), and its undo takes its newest step, never
another window's — a change that a later one from elsewhere built on is refused with the
reason. A window that opens the campaign again takes back the steps of the windows that
were open before and are gone now (its own earlier run: undo survives a restart); the steps
of a window still open elsewhere, and of the command line (``kubik …``), stay theirs.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any

from . import history
from .errors import UndoRefused
from .models import new_id
from .writes import WritePath, scratch_db

#: The origins of the stores open in this process (a window that is open is alive).
_OPEN: set[str] = set()
#: Kinds of window whose steps a window opened later may take back once they are gone.
ADOPTABLE = ("app",)


def _alive(window: dict[str, Any]) -> bool:
    """Whether the window that wrote steps may still be open (unknown: yes)."""
    if window.get("host") != socket.gethostname():
        return True
    pid = window.get("pid")
    if not isinstance(pid, int):
        return True
    if pid == os.getpid():
        return str(window.get("origin", "")) in _OPEN
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


class Undo(WritePath):
    """Undo, redo and what they would take next, for this window."""

    origin: str = ""
    #: The origins whose steps this window took back when it opened (gone windows').
    _adopted: frozenset[str] = frozenset()

    def _start_window(self, kind: str = "app") -> None:
        """Become a window: a fresh origin, and the steps of the gone windows taken back."""
        self.origin = new_id()[:12]
        self.window_kind = kind
        _OPEN.add(self.origin)
        known = history.windows(self._tables)
        adopted = {""}  # steps of an older kubik, made before windows were told apart
        if kind in ADOPTABLE:
            for origin, window in known.items():
                gone = not _alive({**window, "origin": origin})
                if window.get("kind", "app") in ADOPTABLE and gone:
                    adopted.add(origin)
        self._adopted = frozenset(adopted)

    def _end_window(self) -> None:
        _OPEN.discard(self.origin)

    def _window(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "host": socket.gethostname(), "kind": self.window_kind}

    def mine(self, origin: str) -> bool:
        """Whether a step made by ``origin`` is this window's to undo."""
        return origin == self.origin or origin in self._adopted

    # -- undo -----------------------------------------------------------------------------

    def undo(self, *, together: Callable[[str], str | None] | None = None) -> str | None:
        """Undo this window's newest step; return its label, None if it has none.

        ``together`` names the group a label belongs to (a fight exchange's «Раунд 2,
        схватка 1»): the window's next steps of the same group are undone with it, in the same
        write — all of them or, when one is refused, none. The group is returned then.

        Raises:
            UndoRefused: a later change from elsewhere built on it (the message names it).
        """
        return self._step("undo", together)

    def redo(self, *, together: Callable[[str], str | None] | None = None) -> str | None:
        """Redo this window's newest undone step (with its group, as :meth:`undo`)."""
        return self._step("redo", together)

    def _own(self, source: str) -> list[dict[str, Any]]:
        return [s for s in self._stacks[source] if self.mine(str(s.get("by", "")))]

    @property
    def can_undo(self) -> bool:
        return bool(self._own("undo"))

    @property
    def can_redo(self) -> bool:
        return bool(self._own("redo"))

    def undo_refused(self, together: Callable[[str], str | None] | None = None) -> bool:
        """Whether :meth:`undo` (with ``together``) would be refused now, as far as this store
        has read the file: a change from elsewhere built on a step it would take back. The
        key bar dims Ctrl+Z then. A dry run of the same undo on a copy of the tables read
        (nothing is written), asked again only when they changed."""
        tables = self._tables
        memo = self._refused_memo
        if memo is not None and memo[0] is tables and memo[1] is together:
            return memo[2]
        try:
            self._take("undo", together, scratch_db(tables))
        except UndoRefused:
            found = True
        else:
            found = False
        self._refused_memo = (tables, together, found)
        return found

    _refused_memo: tuple[Any, Any, bool] | None = None

    def last_undone_changed(self, kind: str, key: str) -> bool:
        """Whether this window's newest undone step (the one Ctrl+Y would redo) changed
        ``kind``/``key`` (the open check tells its own Ctrl+Z from another window's write)."""
        own = self._own("redo")
        return bool(own) and any(
            c.get("kind") == kind and c.get("key") == key for c in own[-1]["changes"]
        )

    def removed_where(self, character_id: str) -> str:
        """Where the character was removed: «командой kubik», «в другом окне», or "" for this
        window (:func:`tui.store.history.removed_where`, as far as this store has read)."""
        return history.removed_where(self._tables, character_id, self.mine)

    @property
    def depth(self) -> tuple[int, int]:
        """How many steps undo and redo hold, of every window: it changes with every step,
        undo and redo (a screen whose state follows undo marks alone redraws on it)."""
        return len(self._stacks["undo"]), len(self._stacks["redo"])

    @property
    def own_depth(self) -> tuple[int, int]:
        """How many steps undo and redo hold of this window's own (a screen tells its own
        Ctrl+Z from a change made elsewhere: its redo grows)."""
        return len(self._own("undo")), len(self._own("redo"))

    def undo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`undo` would take, newest first."""
        return [s["label"] for s in reversed(self._own("undo")[-n:])] if n > 0 else []

    def redo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the next ``n`` steps :meth:`redo` would take, newest first."""
        return [s["label"] for s in reversed(self._own("redo")[-n:])] if n > 0 else []

    def all_undo_labels(self, n: int = 10) -> list[str]:
        """Return the labels of the newest ``n`` steps of every window, newest first."""
        return [s["label"] for s in reversed(self._stacks["undo"][-n:])] if n > 0 else []

    def _step(self, source: str, together: Callable[[str], str | None] | None = None) -> str | None:
        def logged() -> set[str]:  # under the lock: every entry written so far
            with self._mutex:
                self._journal.refresh()
                entries = self._journal.entries()
            return {e.data["step"] for e in entries if isinstance(e.data.get("step"), str)}

        def change(db: Any, _step_id: str) -> tuple[str | None, bool]:
            label = self._take(source, together, db, logged)
            return label, label is not None

        label = self._transact(change)[0]
        self._local.step = None
        return label

    def _take(
        self,
        source: str,
        together: Callable[[str], str | None] | None,
        db: Any,
        logged: Callable[[], set[str]] | None = None,
    ) -> str | None:
        """Take this window's newest step of ``source`` back in ``db``, with the next ones of
        its group (``together``); return its label (the group's), None if it has none.

        Raises:
            UndoRefused: one of them was built on from elsewhere (``db`` is then half done:
                the write path throws it away)."""

        def take() -> str | None:
            return history.step(
                db, source, logged, mine=self.mine, origin=self.origin, window=self._window()
            )

        label = take()
        group = together(label) if label is not None and together is not None else None
        if group is not None and together is not None:
            while (after := history.newest_label(db, source, self.mine)) is not None:
                if together(after) != group:
                    break
                take()
            label = group
        return label


__all__ = ["ADOPTABLE", "Undo"]
