"""Sharing the table: what the players watching ``kubik --view`` (``tui/view.py``) are shown.

Secret rolls (Ctrl+S: the next Журнал entries are hidden from them), an NPC hidden as «???»
(``t`` on the Партия tab), and the view command to give them (``v``). The keys, the banner and
the title are the app's (``KubikApp.action_secret``, …); what they do is here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.services import Journal, Notify, Writer
    from tui.services.clipboard import Clipboard
    from tui.store import Character, Store


class Sharing:
    """Secret rolls, hidden NPCs and the players' view command."""

    def __init__(
        self,
        campaign: Callable[[], Store],
        journal: Journal,
        writer: Writer,
        clipboard: Clipboard,
        notify: Notify,
    ) -> None:
        self._campaign = campaign
        self._journal = journal
        self._writer = writer
        self._clipboard = clipboard
        self._notify = notify

    @property
    def secret(self) -> bool:
        """Whether secret rolls are on (every new Журнал entry hidden from the players)."""
        return self._journal.secret

    def set_secret(self, on: bool) -> str:
        """Turn secret rolls on or off; return the window's subtitle for it."""
        self._journal.secret = on
        name = self._campaign().campaign.name
        if not on:  # while on, the banner at the top says so
            self._notify("Броски снова видны игрокам.")
        return f"{name} · скрытно" if on else name

    def hideable(self, character_id: str | None) -> Character | None:
        """Return the NPC ``character_id`` names, the one that can be hidden, or None."""
        store = self._campaign()
        c = store.character(character_id) if character_id else None
        return c if c is not None and c.kind == "npc" else None

    def toggle_hidden(self, c: Character) -> None:
        """Hide the NPC ``c`` from the players' view («???»), or show it again."""
        store = self._campaign()
        hidden = not c.hidden
        label = f"НИП «{c.name}» {'скрыт от игроков' if hidden else 'показан игрокам'}"
        changed = replace(c, extra={**c.extra, "hidden": hidden})
        what = "скрытие не записано" if hidden else "показ не записан"
        self._writer.write(
            lambda: store.upsert_character(changed, label=label, what=what),
            lambda _: self._notify(label),
        )

    def give_view_command(self) -> None:
        """Show (and copy) the command that opens the players' view of this campaign."""
        from tui.clipboard import SENT, view_command_line

        command = view_command_line(self._campaign().path)
        self._clipboard.copy(command)
        self._clipboard.tell_copied(
            f"Вид для игроков — в другом окне или панели tmux:\n{command}\n{SENT}.",
            title="Вид для игроков",
            timeout=20,
        )
