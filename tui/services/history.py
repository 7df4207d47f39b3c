"""Undo and redo (Ctrl+Z, Ctrl+Y): this window's last change (never another window's or a
command's: :mod:`tui.store.undo`), a fight exchange's steps together, each done in the
ordered writer and then named in a notice (the log is history and stays). The key bar names
what Ctrl+Z will undo before it is pressed; an undo that a later change from elsewhere built on
is refused with the reason. The keys themselves are the app's (``KubikApp.action_undo``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from tui.services import Notify, Writer
    from tui.store import Store

#: The longest name of a step the key bar shows for Ctrl+Z (cells).
UNDO_HINT = 18


def short_label(label: str, name: Callable[[str], str | None] | None = None) -> str:
    """Return an undo step's name as the key bar shows it («бросок 4dF, Богдан Сыч»; with
    ``name``, the system's :attr:`~tui.registry.System.undo_name`: «схватка 2», «заявка
    Горан Рябой»)."""
    named = name(label) if name is not None else None
    if named is not None:
        label = named
    elif label.startswith("Проверка (") and "): " in label:
        # What the step did first, then whose: cut short, «бросок 4dF, Бо…» still says
        who, what = label[len("Проверка (") :].split("): ", 1)
        label = f"{what}, {who}"
    return label if len(label) <= UNDO_HINT else label[: UNDO_HINT - 1] + "…"


class History:
    """The campaign's undo and redo as this window does them, and what the key bar says."""

    def __init__(self, campaign: Callable[[], Store], writer: Writer, notify: Notify) -> None:
        self._campaign = campaign
        self._writer = writer
        self._notify = notify
        #: The undo step last named on the key bar, and whether it was refused
        #: (see :meth:`bar_changed`).
        self._shown: tuple[list[str], bool] | None = None

    def hint(self) -> str:
        """What Ctrl+Z would undo now, short («схватка 2», «заявка Горан Рябой»), or ""."""
        labels = self._campaign().undo_labels(1)
        return short_label(labels[0], self._part("undo_name")) if labels else ""

    def key_bar_text(self, binding: Any) -> tuple[str, str] | tuple[str, str, bool] | None:
        """The key bar's Ctrl+Z says what it will undo («^Z «схватка 2»»), dimmed while a
        change from elsewhere built on that step (the key then says why it is refused)."""
        if binding.action != "undo":
            return None
        hint = self.hint()
        if not hint:
            return "", ""  # nothing to undo: not on the bar
        if self._campaign().undo_refused(self._part("undo_group")):
            return "^Z", f"«{hint}»", False
        return "^Z", f"«{hint}»"

    def bar_changed(self) -> bool:
        """Whether what Ctrl+Z would undo, or whether it would be refused, changed since this
        was last asked (the key bar is then refreshed)."""
        store = self._campaign()
        undo = (store.undo_labels(1), store.undo_refused(self._part("undo_group")))
        if self._shown == undo:
            return False
        self._shown = undo
        return True

    def _part(self, field: Literal["undo_group", "undo_name"]) -> Any:
        """Return the campaign's system's ``undo_group`` or ``undo_name`` function, or None."""
        from tui import registry

        target = getattr(registry.get(self._campaign().campaign.system), field)
        return registry.load(target) if target else None

    def undo(self) -> None:
        """Undo the last change of the campaign (the log is history and stays)."""
        self._step(self._campaign().undo, "Отменено", "Нечего отменять.")

    def redo(self) -> None:
        """Redo the last undone change."""
        self._step(self._campaign().redo, "Возвращено", "Нечего возвращать.")

    def _step(self, step: Callable[..., str | None], done: str, nothing: str) -> None:
        """Undo or redo in a worker (a fight exchange's steps together, in one write), then
        say what."""
        together = self._part("undo_group")

        def whole() -> str | None:
            return step(together=together)

        self._writer.write(
            whole, lambda label: self._notify(f"{done}: {label}" if label else nothing)
        )
