"""The keys that open the app's own screens: campaigns (Ctrl+O: open, create, switch, rename,
delete), the campaign's settings (Ctrl+T), export and import (Ctrl+E), the list of every key
(``?``) and the players' requests from their seats (Ctrl+P). Each screen loads on first use:
the first paint stays fast."""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingType

from tui.appparts import AppPart
from tui.appparts.panes import combat_class
from tui.widgets.builders.base import builder_class
from tui.widgets.common.quickroll import QuickRoll
from tui.widgets.party.pane import party_pane

_STEPPER_HELP = [
    Binding("left,right", "", "Сменить значение строки"),
    Binding("up,down", "", "Перейти к другой строке"),
]


class DialogsMixin(AppPart):
    """``KubikApp``'s keys that open a screen (mixed into ``KubikApp``)."""

    def action_campaigns(self) -> None:
        """Pick, create, rename or delete a campaign."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_campaigns(self)

    def action_settings(self) -> None:
        """Edit the campaign's settings (every [default] table)."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_settings(self)

    def action_transfer(self) -> None:
        """Export or import the campaign as JSON, or save the log as Markdown."""
        from tui.screens import actions as screens  # lazy: ~10 ms of first paint

        screens.open_transfer(self)

    def action_keys(self) -> None:
        """List every key of the app."""
        from tui.screens.keys import KeysScreen

        self.push_screen(KeysScreen(key_groups(self.BINDINGS, self.store.campaign.system)))

    def action_bestiary(self) -> None:
        """Open the bestiary: the templates, their sheets, N of one into the party."""
        from tui.screens.bestiary import BestiaryScreen  # lazy: not for the first paint

        self.push_screen(BestiaryScreen(self.services))

    def action_seat_requests(self) -> None:
        """Open the players' requests (tui/seats)."""
        from tui.seats.gm import open_requests

        open_requests(self)


def _bindings(found: Iterable[BindingType]) -> list[Binding]:
    """Return ``found`` as :class:`Binding` objects (Textual also takes tuples)."""
    return [b if isinstance(b, Binding) else Binding(*b) for b in found]


def key_groups(app_bindings: Iterable[BindingType], system: str) -> list[tuple[str, list[Binding]]]:
    """Return every key of the app in a campaign of ``system``, grouped by where it works.

    What ``?`` lists; the guide's keys page (``python -m scripts.gendocs``) is made from it too.
    """
    from tui.screens.keys import FOCUS_HELP
    from tui.widgets.log.pane import LogPane

    bindings = _bindings(app_bindings)
    party_only = [b for b in bindings if b.id == "hide-npc"]  # `t`: the Партия tab's
    everywhere = [b for b in bindings if b.id != "hide-npc"]
    party = _bindings(party_pane(system).BINDINGS)  # with the system's own keys (Древо's)
    return [
        ("Везде", [*everywhere, *FOCUS_HELP]),
        ("Партия", [*party, *party_only]),
        ("Бой", _bindings(combat_class(system).BINDINGS)),
        ("Проверка", [*_bindings(builder_class(system).BINDINGS), *_STEPPER_HELP]),
        ("Быстрый бросок", [Binding("enter", "", "Бросить"), *_bindings(QuickRoll.BINDINGS)]),
        ("Журнал", _bindings(LogPane.BINDINGS)),
    ]
