"""A system's part of the round tracker (IDE4, Старатели, Мир Тьмы): :class:`RoundsHook`.

The round tracker (``tui/table/rounds/``, the Бой tab's ``RoundsPane``) runs the fights of
every system whose :attr:`~tui.registry.System.rounds` names its hook
(``"tui.systems.<name>.rounds:ROUNDS"``); what differs between them is harm: a free note on
the sheet (IDE4, Старатели: :class:`NoteHarm`) or boxes marked by the kind of damage, healed
one at a time, with a dice penalty (Мир Тьмы's health track). The hook says which, writes it,
shows it, and hands the tracker the fighter's numbers from its sheet (the penalty as a
modifier, IDE4's energy). The steps (:mod:`tui.table.rounds.steps`) make each write one undo
step with its Журнал line; the pane asks the hook which dialog to open.

Headless like the engine (import contract): no Textual, no Rich, no widget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rules.errors import RulesError
from rules.rounds.initiative import Fighter

if TYPE_CHECKING:
    from rules.modifiers import Modifier
    from tui.store import Character

#: A fighter's energy when its system keeps none (the initiative rules' default).
NO_ENERGY: int = Fighter("", "").energy


@dataclass(frozen=True)
class Harmed:
    """A harm step's result: the character as it is now, the step's label after its name
    («вред», «урон: Летальный»), and its Журнал line («Вред: сломана рука»)."""

    character: Character
    label: str
    text: str


class RoundsHook(Protocol):
    """What the round tracker asks of one system."""

    @property
    def column(self) -> str:
        """The title of the harm column («Вред», «Здоровье»)."""
        ...

    @property
    def marked(self) -> bool:
        """Whether harm is marked box by box by the kind of damage (:meth:`damage`,
        :meth:`heal`); ``False``: it is a free note (:meth:`note`)."""
        ...

    @property
    def wrong_step(self) -> str:
        """The refusal of a harm step this system does not take (a note where harm is
        marked, a box where it is a note)."""
        ...

    def text(self, c: Character) -> str:
        """Return ``c``'s harm as its row shows it (a refusal's text if the rules refuse)."""
        ...

    def penalty(self, c: Character) -> Modifier | None:
        """Return the dice penalty ``c``'s harm gives, as a modifier of its checks and its
        initiative (``None``: none)."""
        ...

    def energy(self, c: Character) -> int:
        """Return ``c``'s energy for the initiative rules (:data:`NO_ENERGY`: it keeps none)."""
        ...

    def kinds(self) -> tuple[tuple[str, str], ...]:
        """Return the kinds of damage to choose from, ``(label, kind)`` (``()``: harm is a note).

        Raises:
            RulesError: the campaign's table cannot be read.
        """
        ...

    def note(self, c: Character, note: str) -> Harmed:
        """Write ``note`` as ``c``'s harm (empty: clear it).

        Raises:
            RulesError: harm is not a note here.
        """
        ...

    def damage(self, c: Character, kind: str) -> Harmed:
        """Mark a box of ``kind`` damage on ``c``.

        Raises:
            RulesError: an unknown kind, no box left, harm is not marked here.
        """
        ...

    def heal(self, c: Character) -> Harmed:
        """Clear the mildest box of ``c``'s harm.

        Raises:
            RulesError: nothing to heal, harm is not marked here.
        """
        ...


class NoteHarm:
    """Harm as a free note on the sheet (IDE4, Старатели): a system's hook fills in
    :meth:`harm` and :meth:`with_harm` for its own sheet."""

    column = "Вред"
    marked = False
    wrong_step = "Клетки здоровья — в Мире Тьмы; здесь вред — заметка."

    def harm(self, c: Character) -> str:
        """Return the note on ``c``'s sheet ("" for none)."""
        raise NotImplementedError

    def with_harm(self, c: Character, note: str) -> Character:
        """Return ``c`` with ``note`` on its sheet."""
        raise NotImplementedError

    def text(self, c: Character) -> str:
        return self.harm(c)

    def penalty(self, c: Character) -> Modifier | None:
        return None

    def energy(self, c: Character) -> int:
        return NO_ENERGY

    def kinds(self) -> tuple[tuple[str, str], ...]:
        return ()

    def note(self, c: Character, note: str) -> Harmed:
        note = note.strip()
        text = f"Вред: {note}" if note else "Вред снят"
        return Harmed(self.with_harm(c, note), "вред", text)

    def damage(self, c: Character, kind: str) -> Harmed:
        raise RulesError(self.wrong_step)

    def heal(self, c: Character) -> Harmed:
        raise RulesError(self.wrong_step)
