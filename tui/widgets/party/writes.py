"""How the Партия tab writes: an edit made on the character as the store has it now, handed to
the app's writer, and the dialogs about one character that follow the store while they are open
(kept open but refusing to write when the character is removed elsewhere, reopened or warned
when it changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.services import lent
from tui.store import Character
from tui.store.history import removed_words
from tui.widgets.common.part import WidgetPart

if TYPE_CHECKING:
    from tui.table.core import Outcome


class PartyWrites(WidgetPart):
    """The party pane's writes and store-following dialogs (mixed into ``PartyPane``)."""

    #: The open dialog about one character that follows the store (see :meth:`_open_dialog`).
    _dialog: _Dialog | None = None

    if TYPE_CHECKING:  # the pane's, typed for mypy (tui/widgets/common/part.py)

        def _highlighted(self) -> Character | None: ...

    # The services it uses (tui/services/lent.py).
    store = lent.store
    journal = lent.journal
    writer = lent.writer

    _characters: dict[str, Character]
    # Provided by the pane (and Textual): call_after_refresh().

    def _step(self, c: Character, step: Callable[..., Outcome[Any]], *args: Any, what: str) -> None:
        """Make the engine's ``step(character, *args)`` on ``c`` as the store has it when the
        write runs and write its outcome as one undo step (:func:`tui.table.commit.commit_edit`,
        in the app's writer); a refusal is told and writes nothing. ``what``: what is not
        written when the store refuses («рана не записана»)."""
        from tui.table.commit import commit_edit  # the engine loads with the first key

        store, make, notify = self.store, self.journal.entry, self.app.notify

        def write() -> Outcome[Any]:
            return commit_edit(store, c.id, step, *args, name=c.name, what=what, make=make)

        def told(outcome: Outcome[Any]) -> None:
            if not outcome.ok:  # as the writer tells a refusal raised in the write
                notify(outcome.refused, severity="error", timeout=10)

        self.writer.write(write, told)

    def _open_dialog(
        self,
        c: Character,
        screen: Any,
        done: Callable[[Any], None],
        what: str,
        reopen: Callable[[], None] | None = None,
        *,
        changed: str = "сохранится только то, что меняете вы",
    ) -> None:
        """Push a dialog about ``c`` that follows the store while it is open.

        Removed in another window (or by an undo): the dialog stays open, says so, and refuses
        its Enter with what was not written; Esc closes it. Changed: ``reopen`` builds it anew
        from the current character (the heal dialog's options depend on the wounds), else the
        GM is told that only what is changed here will be saved.
        """
        self._dialog = _Dialog(screen, c, what, reopen, changed)
        screen.follows_undo = True  # it follows the store: Ctrl+Z may undo under it

        def closed(result: Any) -> None:
            if self._dialog is not None and self._dialog.screen is screen:
                self._dialog = None
            done(result)

        self.app.push_screen(screen, closed)

    def _follow_dialog(self) -> None:
        """React to a change of the open dialog's character (see :meth:`_open_dialog`)."""
        dialog = self._dialog
        if dialog is None:
            return
        if dialog.screen not in self.app.screen_stack:
            self._dialog = None
            return
        current = self._characters.get(dialog.character.id)
        name = dialog.character.name
        if current is None:
            # Kept open: the keys the GM is typing for it (↓, Enter, text) stay in it and
            # never reach the table behind (Enter there opens whoever took the removed row).
            if not dialog.screen.withdrawn:
                gone = removed_words(name, self.store.removed_where(dialog.character.id))
                dialog.screen.withdraw(
                    f"{gone}: Enter ничего не запишет, Esc — закрыть.",
                    f"{gone} — {dialog.what}. Esc — закрыть.",
                )
            return
        if dialog.screen.withdrawn:  # back (an undo in the other window): writes again
            dialog.screen.withdraw(None)
            self.app.notify(f"Персонаж {name} снова в партии: окно снова записывает.")
        if current == dialog.character:
            return
        if dialog.reopen is not None:
            self._dialog = None
            if dialog.screen.is_current:
                dialog.screen.dismiss(None)
            self.app.notify(f"Персонаж {name} изменён в другом окне: окно обновлено.")
            self.call_after_refresh(dialog.reopen)
            return
        dialog.character = current
        self.app.notify(f"Персонаж {name} изменён в другом окне: {dialog.changed}.", timeout=8)

    def _store_write(
        self, write: Callable[[], object], done: Callable[[], object] | None = None
    ) -> None:
        """Hand the write to the app's writer (a worker: the UI never waits for the lock);
        ``done`` runs once it is saved. A refused write is explained and changes nothing."""
        self.writer.write(write, None if done is None else lambda _: done())


@dataclass
class _Dialog:
    """The open dialog about one character, and what it was opened on."""

    screen: Any
    character: Character
    what: str
    reopen: Callable[[], None] | None
    #: What saving does now that the character changed under the dialog.
    changed: str
