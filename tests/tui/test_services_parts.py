"""The services that left the app's mixins (issue 29), tested without an app: undo and redo
(History), what the players are shown (Sharing), the clipboard (Clipboard). Each is handed a
real store and stand-ins for the app's worker, UI thread and toasts that run at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import pytest

from tui.clipboard import SENT
from tui.services import Journal, Writer
from tui.services.clipboard import Clipboard
from tui.services.history import UNDO_HINT, History
from tui.services.redraw import Redraw
from tui.services.sharing import Sharing
from tui.services.startup import IDLE_BEFORE_BUILD, PREBUILT_TABS, WARM_ROUNDS, Startup
from tui.store import Store

NOW = datetime(2026, 1, 2, 19, 30, tzinfo=timezone.utc)


class Toasts:
    """The app's ``notify``: what was said, in order."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.kwargs: list[dict[str, Any]] = []

    def __call__(self, message: str, **kwargs: Any) -> None:
        self.said.append(message)
        self.kwargs.append(kwargs)


def run_now(work: Any, **_kwargs: Any) -> None:
    """The app's ``run_worker``, run at once on this thread."""
    work()


def on_ui(callback: Any) -> None:
    callback()


def call_now(callback: Any, *args: Any, **kwargs: Any) -> Any:
    return callback(*args, **kwargs)


@dataclass
class Parts:
    store: Store
    toasts: Toasts
    copied: list[str]
    history: History
    clipboard: Clipboard
    sharing: Sharing
    journal: Journal


@pytest.fixture
def parts(tmp_path) -> Parts:
    store = Store.open(tmp_path / "c.json")
    toasts = Toasts()
    copied: list[str] = []
    writer = Writer(run_now, on_ui, toasts)
    journal = Journal(lambda: store, lambda: NOW, writer, run_now, call_now)
    clipboard = Clipboard(copied.append, lambda: store, toasts, run_now, call_now)
    return Parts(
        store,
        toasts,
        copied,
        History(lambda: store, writer, toasts),
        clipboard,
        Sharing(lambda: store, journal, writer, clipboard, toasts),
        journal,
    )


def _npc(store: Store) -> Any:
    return next(c for c in store.characters() if c.kind == "npc")


class Binding:
    def __init__(self, action: str) -> None:
        self.action = action


def test_history_names_undoes_and_redoes_this_windows_last_change(parts: Parts) -> None:
    """The key bar's Ctrl+Z names the step; undo says what it undid, redo what it redid, and
    with nothing to undo each says so and the bar drops the key."""
    assert parts.history.key_bar_text(Binding("undo")) == ("", "")  # nothing yet
    assert parts.history.key_bar_text(Binding("quit")) is None  # not the history's key
    parts.sharing.toggle_hidden(_npc(parts.store))
    label = parts.store.undo_labels(1)[0]
    hint = parts.history.hint()
    assert hint and label.startswith(hint.rstrip("…"))
    assert len(hint) <= UNDO_HINT
    assert parts.history.key_bar_text(Binding("undo")) == ("^Z", f"«{hint}»")
    assert _npc(parts.store).hidden
    parts.history.undo()
    assert parts.toasts.said[-1] == f"Отменено: {label}"
    assert not _npc(parts.store).hidden
    parts.history.undo()
    assert parts.toasts.said[-1] == "Нечего отменять."
    parts.history.redo()
    assert parts.toasts.said[-1] == f"Возвращено: {label}"
    assert _npc(parts.store).hidden
    parts.history.redo()
    assert parts.toasts.said[-1] == "Нечего возвращать."


def test_history_says_when_the_bars_undo_name_changed(parts: Parts) -> None:
    """The key bar is refreshed once for each new step to undo, not on every redraw; and
    once when another window builds on that step (Ctrl+Z is dimmed: it would be refused)."""
    from dataclasses import replace

    assert parts.history.bar_changed()  # the first look
    assert not parts.history.bar_changed()
    parts.sharing.toggle_hidden(_npc(parts.store))
    assert parts.history.bar_changed()
    assert not parts.history.bar_changed()
    hint = parts.history.hint()
    other = Store.open(parts.store.path)  # another window shows the NPC again
    other.upsert_character(replace(_npc(other), hidden=False))
    other.close()
    parts.store.refresh()
    assert parts.history.bar_changed()
    assert not parts.history.bar_changed()
    assert parts.history.key_bar_text(Binding("undo")) == ("^Z", f"«{hint}»", False)


def test_sharing_hides_only_npcs_and_says_which(parts: Parts) -> None:
    """`t` hides an NPC from the players («???») and shows it again; a PC or no one is not
    hideable."""
    npc = _npc(parts.store)
    pc = next(c for c in parts.store.characters() if c.kind == "pc")
    assert parts.sharing.hideable(pc.id) is None
    assert parts.sharing.hideable(None) is None
    assert parts.sharing.hideable("no such id") is None
    assert parts.sharing.hideable(npc.id) == npc
    parts.sharing.toggle_hidden(npc)
    assert parts.toasts.said[-1] == f"НИП «{npc.name}» скрыт от игроков"
    parts.sharing.toggle_hidden(_npc(parts.store))
    assert parts.toasts.said[-1] == f"НИП «{npc.name}» показан игрокам"
    assert not _npc(parts.store).hidden


def test_secret_rolls_hide_the_next_entries_and_name_the_window(parts: Parts) -> None:
    """Ctrl+S: while on, every new Журнал entry is hidden and the subtitle says «скрытно»;
    turning it off says the rolls are seen again."""
    name = parts.store.campaign.name
    assert parts.sharing.set_secret(True) == f"{name} · скрытно"
    assert parts.sharing.secret and parts.toasts.said == []
    assert parts.journal.entry("roll", None, "2d6", {}).data == {"hidden": True}
    assert parts.sharing.set_secret(False) == name
    assert not parts.sharing.secret
    assert parts.toasts.said == ["Броски снова видны игрокам."]
    assert parts.journal.entry("roll", None, "2d6", {}).data == {}


def test_the_view_command_is_copied_and_told(parts: Parts) -> None:
    """`v` copies the players' view command of this campaign and shows it."""
    parts.sharing.give_view_command()
    (command,) = parts.copied
    assert "--view" in command and str(parts.store.path) in command
    assert command in parts.toasts.said[-1] and SENT in parts.toasts.said[-1]
    assert parts.toasts.kwargs[-1]["title"] == "Вид для игроков"


def test_copy_last_copies_the_newest_entry_or_says_the_log_is_empty(parts: Parts) -> None:
    """`y` copies the newest Журнал entry with its actor; an empty Журнал is said so (the demo
    campaign starts with none)."""
    parts.clipboard.copy_last()
    assert parts.copied == [] and parts.toasts.said == ["Журнал пуст — копировать нечего."]
    parts.store.append_log(parts.journal.entry("roll", "Горан", "3d6: 11", {}))
    parts.clipboard.copy_last()
    assert parts.copied == ["Горан: 3d6: 11"]
    assert parts.toasts.said[-1].startswith(f"{SENT}: Горан: 3d6: 11")


def test_redraw_gives_each_pane_only_what_changed(parts: Parts) -> None:
    """After a change only the panes whose inputs changed are redrawn: a Журнал entry redraws
    the Журнал alone, a character every pane that shows the party; forgetting redraws all."""
    redraw = Redraw(lambda: parts.store, parts.toasts, lambda tables: (tables, {}))
    built = ["party", "combat", "check", "log"]
    first = redraw.changes(built)
    assert first.tabs == built and first.characters == parts.store.characters()
    assert redraw.changes(built).tabs == []  # nothing changed
    parts.store.append_log(parts.journal.entry("roll", None, "2d6: 7", {}))
    logged = redraw.changes(built)
    assert logged.tabs == ["log"] and [e.text for e in logged.entries] == ["2d6: 7"]
    assert redraw.changes(["party"]).tabs == []  # the Журнал unbuilt: its rows not read
    parts.sharing.toggle_hidden(_npc(parts.store))
    assert redraw.changes(built).tabs == ["party", "combat", "check"]
    redraw.forget()
    assert redraw.changes(built).tabs == built


def test_redraw_names_each_refused_table_once(parts: Parts) -> None:
    """A campaign table the rules refuse is named once (not at every redraw), and kubik's
    default stays for it; an accepted table is put in place."""
    refused = {"drevo/ladder.toml": "нет значения у ступени."}
    asked: list[dict[str, Any]] = []

    def check(tables: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        asked.append(tables)
        return {k: v for k, v in tables.items() if k not in refused}, refused

    redraw = Redraw(lambda: parts.store, parts.toasts, check)
    assert redraw.usable_settings(None) == {} and asked == []  # no tables: nothing to check
    settings = {"drevo/ladder.toml": {"x": 1}, "drevo/other.toml": {"y": 2}, "note": "x"}
    assert redraw.usable_settings(settings) == {"drevo/other.toml": {"y": 2}}
    assert redraw.usable_settings(settings) == {"drevo/other.toml": {"y": 2}}
    assert len(asked) == 1
    (said,) = parts.toasts.said
    assert "drevo/ladder.toml" in said and "нет значения у ступени." in said


class Clock:
    """``time.monotonic`` that the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_startup_waits_for_a_pause_in_the_gms_keys() -> None:
    """A hidden tab is built ahead only after IDLE_BEFORE_BUILD without a key, never while a
    dialog is open or a key is waiting; the wait is what is left of the pause."""
    clock = Clock()
    startup = Startup(clock)
    startup.key_pressed()
    clock.now += IDLE_BEFORE_BUILD / 4
    assert startup.wait(busy=False) == pytest.approx(IDLE_BEFORE_BUILD * 3 / 4)
    clock.now += IDLE_BEFORE_BUILD
    assert startup.wait(busy=False) is None
    assert startup.wait(busy=True) == 0.05  # a dialog, or a key typed ahead: look again soon


def test_startup_builds_then_warms_each_hidden_tab_and_again_after_a_change() -> None:
    """The next tab is the first one unbuilt or not warm at this size since the last change;
    a tab gets WARM_ROUNDS layouts at most before its lines are drawn."""
    startup = Startup(Clock())
    size = (80, 24)
    assert startup.next_tab(set(), size) == PREBUILT_TABS[0]
    built = set(PREBUILT_TABS)
    first = PREBUILT_TABS[0]
    assert startup.next_tab(built, size) == first  # built, not warm
    for _ in range(WARM_ROUNDS - 1):
        assert not startup.settled(first)
        startup.warmed_step(first, "resized", size, startup.store_changes)
    assert startup.settled(first)
    startup.warmed_step(first, "warmed", size, startup.store_changes)
    assert startup.is_warm(first, size) and not startup.is_warm(first, (100, 30))
    assert startup.next_tab(built, size) == PREBUILT_TABS[1]
    for tab in PREBUILT_TABS[1:]:
        startup.warmed_step(tab, "warmed", size, startup.store_changes)
    assert startup.next_tab(built, size) is None
    startup.campaign_changed()  # the hidden panes redrew: warm them again
    assert startup.next_tab(built, size) == first
    assert startup.next_tab(built, (100, 30)) == first  # a resize too
    startup.give_up()
    assert startup.next_tab(built, (100, 30)) is None  # given up: nothing left to warm


def test_services_are_the_kubik_apps_and_another_app_is_told_it_lends_none(campaign_path) -> None:
    """A node's services are its app's; an app that lends none (Textual's own ``App``, or one
    whose ``services`` is something else) is refused with what kubik's widgets need."""
    from textual.app import App

    from tui.app import make_app
    from tui.services import services

    app = make_app(campaign_path, seed=7)
    assert services(app) is app.services

    class Other(App[None]):
        services = "not kubik's"

    for other in (App(), Other()):
        with pytest.raises(TypeError, match=f"{type(other).__name__} lends no services"):
            services(other)
