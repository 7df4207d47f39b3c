"""``kubik --view``: the players' window on the GM's campaign, read-only, following it live.

It opens the campaign with ``Store.open(read_only=True)`` and watches its folder
(:mod:`tui.store.watch`: inotify through ``watchfiles``, else polling), so a second tmux pane or a
shared screen shows the GM's change within tens of milliseconds; a timer still calls
:meth:`Store.refresh` twice a second (two ``stat`` calls) should the watch miss one. What it
shows passes through :mod:`tui.bridge.public`: the PCs, the fight's order and who acts now, the last
rolls, with secret rolls and hidden NPCs masked. Its keys quit and open the luck stats as the
players may see them (``s``: no unrevealed secret roll, hidden NPCs «???», no file written).

The fight panel is the fight kind's: the round tracker's, or a fight of exchanges
(``rules.encounter``), whose Древо parts — who may act, a declaration's words — it asks of the
system's ``fight_readers`` (``tui.registry.fight_readers``).
"""

from __future__ import annotations

import textwrap
import threading
from pathlib import Path

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from rules.encounter import Encounter
from rules.errors import RulesError
from rules.systems import exchanges
from tui import registry, words
from tui.bridge.effects import current_round
from tui.bridge.public import (
    Masker,
    combat_names,
    public_effects,
    public_log,
    public_party,
    public_rounds,
)
from tui.crash import CrashReporting
from tui.handover import UiHandOver
from tui.registry import fight_readers
from tui.sanitize import cell, plain
from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.store import Character, Store, StoreError
from tui.store.errors import os_reason
from tui.store.watch import CampaignWatch
from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.motion import quiet_animations
from tui.widgets.common.table import Table
from tui.widgets.common.toosmall import guard_size, is_too_small
from tui.widgets.log.pane import LOG_COLUMNS, UNDONE_MARK, UNDONE_STYLE, clock_text

REFRESH_SECONDS = 0.5
LOG_LINES = 10


#: The most players the view's table lists (it shows about ten at a time); the rest are
#: counted in a last row.
VIEW_ROWS = 100


def party_columns(system: str) -> tuple[str, ...]:
    """Return the view's party columns: what players track at the table, no stats."""
    return ("Персонаж", *registry.get(system).public_columns())


def party_row(system: str, c: Character) -> tuple[str, ...]:
    """Return one PC's row in the view (a very long name cut, the other columns kept)."""
    return (cell(c.name), *registry.get(system).public_row(c))


def fit_last_column(
    labels: tuple[str, ...], rows: list[tuple[str, tuple[str, ...]]], width: int
) -> list[tuple[str, tuple[str, ...]]]:
    """Wrap each row's last cell in what the other columns leave of ``width``, so that a row
    such as «Тяжёлая×1 — тяжело ранен» is never cut at 80 columns behind a scrollbar."""
    if len(labels) < 2:
        return rows
    widths = [
        max([len(labels[i]), *(len(cells[i]) for _id, cells in rows)])
        for i in range(len(labels) - 1)
    ]
    room = max(8, width - sum(widths) - 2 * len(labels))  # each cell's padding
    return [
        (cid, (*cells[:-1], "\n".join(textwrap.wrap(cells[-1], room)) or cells[-1]))
        for cid, cells in rows
    ]


def combat_text(
    doc: dict | None, characters: dict[str, Character], system: str | None = None
) -> str:
    """Return the markup of the fight panel: round, side order, who acts now (``system``: the
    campaign's, whose marks of a combatant's state the names carry)."""
    if not doc:
        return "[b]Бой[/b]\nБоя сейчас нет."
    try:
        enc = Encounter.from_dict(doc)
    except (RulesError, TypeError, KeyError, ValueError):
        return "[b]Бой[/b]\nВедущий готовит бой."
    if enc.phase == "setup":
        return "[b]Бой[/b]\nВедущий готовит бой."
    names = combat_names(enc, characters, system)
    mask = Masker(characters.values())
    phase = "заявки" if enc.phase == "declare" else "броски"
    lines = [
        f"[b]Раунд {enc.round}[/b] · {phase}",
        f"Порядок: {escape(' → '.join(enc.side_order()))}",
    ]
    if enc.phase == "declare":
        current = enc.next_declarer(lambda cid: fight_readers().can_act(characters.get(cid)))
        if current is None:
            lines.append("Все заявили — ждём бросков.")
        else:
            who = f"{names.get(current.character_id, '?')} ({current.side})"
            lines.append(f"[b]Заявляет:[/b] {escape(mask(who))}")
        for d in enc.all_declarations():
            lines.append(
                f"• {escape(mask(names.get(d.actor, '?')))}: "
                f"{escape(mask(fight_readers().declaration_text(d, names)))}"
            )
    else:
        pending = enc.pending()
        if not pending:
            lines.append("Раунд разрешён — ждём следующего.")
        else:
            total = len(enc.pairings())
            pairing = pending[0]
            attack = fight_readers().declaration_text(pairing.attack, names)
            lines.append(f"[b]Схватка {total - len(pending) + 1} из {total}:[/b]")
            lines.append(escape(mask(f"{names.get(pairing.attack.actor, '?')}: {attack}")))
            if pairing.answer is not None:
                answer = fight_readers().declaration_text(pairing.answer, names)
                lines.append(
                    escape(mask(f"ответ: {names.get(pairing.answer.actor, '?')}: {answer}"))
                )
    return "\n".join(lines)


class ViewApp(CrashReporting, UiHandOver, App[None]):
    """The players' view: no key in it changes the campaign."""

    TITLE = "kubik — вид для игроков"
    ENABLE_COMMAND_PALETTE = False
    DEFAULT_CSS = """
    #view-title { height: 1; background: $panel; padding: 0 1; }
    #view-top { height: auto; max-height: 11; }
    #view-party { width: 1fr; height: auto; max-height: 11; }
    #view-combat { width: 1fr; height: auto; max-height: 11; padding: 0 1; }
    #view-log { height: 1fr; border-top: solid $primary; overflow-x: hidden; }
    """
    BINDINGS = [
        Binding("q", "quit", "Выход", id="view-quit"),
        Binding("ctrl+q", "quit", "Выход", id="view-quit-ctrl", show=False),
        Binding("s", "stats", "Удача", id="view-stats", tooltip="Удача бросков: статистика"),
    ]

    def __init__(self, store: Store, *, refresh_seconds: float = REFRESH_SECONDS) -> None:
        super().__init__()
        self.store = store
        self.refresh_seconds = refresh_seconds
        self.problem = ""
        quiet_animations(self)

    def compose(self) -> ComposeResult:
        yield Static(id="view-title")
        with Horizontal(id="view-top"):
            yield DataTable(id="view-party", cursor_type="none", show_cursor=False)
            yield Static(id="view-combat")
        yield Table(  # a long entry wraps instead of going behind a scrollbar
            id="view-log", cursor_type="none", show_cursor=False, zebra_stripes=True, wrap_last=True
        )
        yield KeyBar()

    def on_mount(self) -> None:
        system = self.store.campaign.system
        self.query_one("#view-party", DataTable).add_columns(*party_columns(system))
        self.query_one("#view-log", DataTable).add_columns(*LOG_COLUMNS)
        for table in self.query(DataTable):
            table.can_focus = False
        self._ui_thread = threading.get_ident()
        self.store.subscribe(self._notified)
        self.redraw()
        self.set_interval(self.refresh_seconds, self.poll)
        self._watch = CampaignWatch(self.store.path, self._watched).start()
        guard_size(self, self.size)

    def on_unmount(self) -> None:
        watch = getattr(self, "_watch", None)
        if watch is not None:
            watch.stop()

    def _notified(self) -> None:
        """The store changed (the watch thread read the GM's write): redraw on the UI thread."""
        self._on_ui(self.redraw)

    def _watched(self) -> None:
        """The campaign's folder changed: read it here, on the watch thread."""
        problem = self._read()
        self._on_ui(lambda: self._show_problem(problem))

    def on_resize(self, event: events.Resize) -> None:
        guard_size(self, event.size)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stats" and type(self.screen).__name__ == "StatsScreen":
            return False  # open already: not in its key bar
        return action == "quit" or not is_too_small(self)

    def action_stats(self) -> None:
        """Open the luck stats, the players' numbers only (read-only: no file, no GM toggle)."""
        from tui.widgets.log.stats import StatsScreen  # lazy: the view starts without it

        self.push_screen(StatsScreen(self.store, locked=True))

    def poll(self) -> None:
        """Pick up the GM's changes (the store notifies :meth:`redraw` when there are any)."""
        self._show_problem(self._read())

    def _read(self) -> str:
        """Refresh the store; return the problem to show ("" when the read went well)."""
        try:
            self.store.refresh()
            return ""
        except StoreError as err:  # a damaged file: keep showing the last good state
            return str(err)
        except OSError as err:
            return f"Не удалось прочитать кампанию: {os_reason(err)}"

    def _show_problem(self, problem: str) -> None:
        if problem != self.problem:
            self.problem = problem
            self._draw_title()

    def redraw(self) -> None:
        """Draw everything from the store, through the players' filter."""
        characters = self.store.characters()
        by_id = {c.id: c for c in characters}
        system = self.store.campaign.system
        party = self.query_one("#view-party", DataTable)
        party.clear()
        players = public_party(characters)
        rows = [(c.id, party_row(system, c)) for c in players[:VIEW_ROWS]]
        for cid, cells in fit_last_column(party_columns(system), rows, self._party_width()):
            party.add_row(*map(Text, cells), key=cid, height=None)
        if len(players) > VIEW_ROWS:  # thousands of rows took seconds at every change
            more = words.plural(len(players) - VIEW_ROWS, "персонаж", "персонажа", "персонажей")
            party.add_row(Text(f"… и ещё {more}"), *[""] * (len(party.columns) - 1))
        if party.row_count == 0:
            party.add_row("В партии пока никого нет.", *[""] * (len(party.columns) - 1))
        combat = combat_text(self.store.get_doc("encounter"), by_id, system)
        if not exchanges(system):  # the round tracker (issue 17)
            rounds = public_rounds(self.store.get_doc("rounds"), characters)
            combat = "[b]Бой[/b]\n" + escape("\n".join(rounds))
        now = current_round(system, self.store.get_doc)
        effects = public_effects(self.store.get_doc("effects"), characters, now)
        if effects:
            combat += "\n[b]Эффекты[/b]\n" + escape("\n".join(f"• {line}" for line in effects))
        self.query_one("#view-combat", Static).update(combat)
        log = self.query_one("#view-log", DataTable)
        log.clear()
        # A secret roll's reveal is a later entry: the newest LOG_LINES hold every reveal of
        # theirs, so the whole Журнал (100,000 entries in a long campaign) is never read here.
        for line in public_log(self.store.log(LOG_LINES), characters, LOG_LINES):
            if line.undone:  # it never stood: struck and dimmed, never shown as it was
                cells = (clock_text(line.at), line.actor, UNDONE_MARK + line.text)
                log.add_row(*(Text(c, style=UNDONE_STYLE) for c in cells))
                continue
            text = Text(line.text, style="italic" if line.secret else "")
            log.add_row(clock_text(line.at), Text(line.actor), text)
        self._draw_title()

    def _party_width(self) -> int:
        """The party table's width (before the first layout: half the screen, beside Бой)."""
        return self.query_one("#view-party", DataTable).size.width or self.size.width // 2

    def _draw_title(self) -> None:
        title = f"[b]{escape(self.store.campaign.name)}[/b] · вид для игроков, только просмотр"
        if self.problem:
            title = f"[$error]{plain(self.problem)}[/]"
        self.query_one("#view-title", Static).update(title)


def make_view(path: Path | None, *, refresh_seconds: float = REFRESH_SECONDS) -> ViewApp:
    """Open the campaign at ``path`` read-only and build the players' view.

    Raises:
        tui.store.StoreError: no campaign there, or it cannot be read; the message is Russian.
    """
    return ViewApp(Store.open(path, read_only=True), refresh_seconds=refresh_seconds)


def view_command(path: Path) -> str:
    """Return the shell command that opens the players' view of the campaign at ``path``."""
    from tui.clipboard import view_command_line  # the running kubik by its full path

    return view_command_line(path)
