"""Sharing the table: what the players watching ``kubik --view`` (``tui/view.py``) are shown.

Secret rolls (Ctrl+S: the next Журнал entries are hidden from them, a banner says so), an NPC
hidden as «???» (``t`` on the Партия tab), and the view command to give them (``v``).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Static, TabbedContent

from tui.appparts import AppPart
from tui.widgets.party.pane import PartyPane


class SharingMixin(AppPart):
    """``KubikApp``'s keys for what the players see (mixed into ``KubikApp``)."""

    def action_secret(self, on: bool) -> None:
        """Turn secret rolls on or off: while on, the players' view shows «скрытый бросок»."""
        self.services.journal.secret = on
        self.query_one("#secret-banner", Static).display = on
        self.sub_title = f"{self.store.campaign.name} · скрытно" if on else self.store.campaign.name
        self.refresh_bindings()
        if not on:  # while on, the banner at the top says so
            self.notify("Броски снова видны игрокам.")

    def _hideable_npc(self, character_id: str | None = None) -> Any:
        """Return the NPC to hide: ``character_id``'s, or the Партия tab's highlighted one."""
        if character_id is None:
            if self.query_one(TabbedContent).active != "party":
                return None
            character_id = self.query_one(PartyPane).highlighted_id()
        c = self.store.character(character_id) if character_id else None
        return c if c is not None and c.kind == "npc" else None

    def action_toggle_hidden(self, character_id: str | None = None) -> None:
        """Hide an NPC from the players' view («???»), or show it again."""
        from dataclasses import replace

        c = self._hideable_npc(character_id)
        if c is None:
            return
        hidden = not c.hidden
        label = f"НИП «{c.name}» {'скрыт от игроков' if hidden else 'показан игрокам'}"
        changed = replace(c, extra={**c.extra, "hidden": hidden})
        what = "скрытие не записано" if hidden else "показ не записан"
        self.services.write(
            lambda: self.store.upsert_character(changed, label=label, what=what),
            lambda _: self.notify(label),
        )

    def action_view_command(self) -> None:
        """Show (and copy) the command that opens the players' view of this campaign."""
        from tui.clipboard import SENT
        from tui.view import view_command

        command = view_command(self.store.path)
        self.copy_to_clipboard(command)
        self._tell_copied(
            f"Вид для игроков — в другом окне или панели tmux:\n{command}\n{SENT}.",
            title="Вид для игроков",
            timeout=20,
        )
