"""The players' view (``kubik --view``) and the GM's side of secrets: state first, then looks.

Every leak test looks for the secret's own text, so a renderer that forgot the filter fails.
"""

from __future__ import annotations

import shlex
import sys
import time
import types
from dataclasses import replace

import pytest
from textual.widgets import DataTable, Static

from rules.encounter import Combatant, Declaration, Encounter
from tests.conftest import FROZEN_AT
from tui.bridge.public import SECRET_NAME, SECRET_ROLL, public_log
from tui.store import LogEntry, Store
from tui.view import make_view
from tui.widgets.common.toosmall import TooSmallScreen

AT = FROZEN_AT.isoformat(timespec="seconds")
SECRET_TEXT = "3d6: 6 6 6 = 18"  # what a hidden roll says; the view must never show it


def entry(text: str, *, actor: str | None = None, **data) -> LogEntry:
    return LogEntry(
        id=f"e-{len(text)}-{text[:6]}", at=AT, kind="roll", actor=actor, text=text, data=data
    )


def by_name(store: Store) -> dict:
    return {c.name: c for c in store.characters()}


def shared_table(path) -> Store:
    """A demo campaign mid-fight: a hidden NPC, a public, a secret and a revealed roll."""
    store = Store.open(path, system="drevo")
    chars = by_name(store)
    ataman, lyko = chars["Атаман Шкуро"], chars["Лыко"]
    store.upsert_character(replace(ataman, hidden=True))
    yar, goran = chars["Ярослав Кречет"], chars["Горан Рябой"]
    enc = Encounter()
    for c, side in ((yar, "Отряд"), (goran, "Отряд"), (ataman, "Противники"), (lyko, "Противники")):
        enc = enc.with_combatant(Combatant(c.id, c.name, side))
    enc = enc.with_initiative(["Отряд", "Противники"])
    enc = enc.declare(Declaration(yar.id, "melee", target=ataman.id, weapon="Меч"), lambda _: True)
    store.put_doc("encounter", enc.to_dict(), label="Бой")
    store.append_log(entry("2d6: 3 4 = 7", actor="Милава"))
    store.append_log(
        LogEntry("secret-1", AT, "roll", "Атаман Шкуро", SECRET_TEXT, {"hidden": True})
    )
    store.append_log(LogEntry("secret-2", AT, "roll", None, "d100: 42 = 42", {"hidden": True}))
    store.append_log(
        LogEntry("reveal-2", AT, "note", None, "Раскрыто: d100: 42 = 42", {"reveals": "secret-2"})
    )
    store.append_log(entry("1d6: 5 = 5", actor="Лыко"))  # a visible NPC keeps its name
    store.append_log(entry("Атаман Шкуро ранил Горана", actor="Атаман Шкуро"))
    return store


def view_text(app) -> str:
    """Return every word the view shows: its tables' cells and its panels."""
    parts = [str(w.render()) for w in app.query(Static)]
    for table in app.query(DataTable):
        parts += [str(c) for r in range(table.row_count) for c in table.get_row_at(r)]
        parts += [str(col.label) for col in table.columns.values()]
    return "\n".join(parts)


# -- the filter ----------------------------------------------------------------------------------


class TestPublicLog:
    def test_secret_roll_reads_as_secret_until_revealed(self):
        secret = LogEntry("s", AT, "roll", "Лыко", SECRET_TEXT, {"hidden": True})
        lines = public_log([secret], [], 10)
        assert (lines[0].text, lines[0].actor, lines[0].secret) == (SECRET_ROLL, "—", True)
        reveal = LogEntry("r", AT, "note", "Лыко", f"Раскрыто: {SECRET_TEXT}", {"reveals": "s"})
        lines = public_log([reveal, secret], [], 10)
        assert [line.text for line in lines] == [f"Раскрыто: {SECRET_TEXT}", SECRET_TEXT]

    def test_hidden_npc_names_are_masked_in_text_and_actor(self, campaign_path):
        store = shared_table(campaign_path)
        lines = public_log(store.log(), store.characters(), 10)
        assert lines[0].actor == SECRET_NAME and lines[0].text == f"{SECRET_NAME} ранил Горана"
        assert all("Атаман" not in line.text + line.actor for line in lines)


# -- the GM's keys ---------------------------------------------------------------------------------


class TestGmSecrets:
    async def test_the_gms_secret_keys(self, make_test_app):
        """The GM's keys for secrets, in one app run, each in turn:

        - Ctrl+S turns secret mode on (the next rolls are hidden) and off; on the Журнал a
          hidden roll reads «(скрыто)», and r reveals it (then r has nothing to reveal);
        - t hides the highlighted NPC and shows it again (not a PC);
        - v copies the players' view command, y the newest Журнал entry.

        Replaces the pilot tests
        `tests/tui/test_view.py::TestGmSecrets::test_secret_mode_marks_rolls_hidden_and_r_reveals`,
        `tests/tui/test_view.py::TestGmSecrets::test_t_hides_the_highlighted_npc` and
        `tests/tui/test_view.py::TestGmSecrets::test_v_and_y_copy_the_view_command_and_the_newest_entry`
        (each opened its own app on the same demo campaign), with each of their asserts; what
        the services do behind the keys is tested in ``tests/tui/test_services_parts.py``.
        """
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+s")  # secret mode on: the banner says СКРЫТНО
            assert app.services.journal.secret, "Ctrl+S: secret mode on"
            await pilot.press("slash", *"2d6", "enter", "escape")
            await pilot.press("ctrl+s")  # off again
            await pilot.press("slash", *"1d6", "enter", "escape")
            newest, secret = app.store.log()[:2]
            assert secret.data["hidden"] is True and "hidden" not in newest.data, "hidden, then not"
            await pilot.press("4", "down")  # the Журнал, on the secret roll
            table = app.query_one("#log-table", DataTable)
            assert str(table.get_row_at(1)[2]).startswith("(скрыто)"), "the Журнал marks it"
            await pilot.press("r")  # reveal it
            reveal = app.store.log()[0]
            assert reveal.data == {"reveals": secret.id, "hidden": False}, "r reveals it"
            assert reveal.text == f"Раскрыто: {secret.text}", "the reveal says the roll"
            assert not app.query_one("#log-pane").check_action("reveal", ()), "nothing left"

            await pilot.press("1")  # the party tab
            party = app.query_one("#party-table", DataTable)
            assert not app.check_action("toggle_hidden", ()), "a PC is highlighted: no t"
            npc = next(c for c in app.store.characters() if c.kind == "npc")
            party.move_cursor(row=party.get_row_index(npc.id))
            await pilot.press("t")
            assert app.store.character(npc.id).hidden is True, "t hides the NPC"
            await pilot.press("t")
            assert app.store.character(npc.id).hidden is False, "t shows it again"

            await pilot.press("v")
            assert app.clipboard.endswith(f" --view --campaign {app.store.path}"), "v copies"
            await pilot.press("slash", *"2d6", "enter", "escape", "y")
            newest = app.store.log()[0]
            assert newest.text.startswith("2d6") and app.clipboard == newest.text, "y copies"

    async def test_too_small_terminal_shows_a_notice_and_recovers(self, make_test_app):
        app = make_test_app()
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
            assert "сейчас 60×20" in str(app.screen.query_one("#too-small", Static).render())
            assert not app.check_action("quick_roll", ())
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not isinstance(app.screen, TooSmallScreen)
            await pilot.press("slash", *"2d6", "enter")  # the app works again
            assert app.store.log()[0].text.startswith("2d6")


# -- the view --------------------------------------------------------------------------------------


class TestView:
    async def test_shows_pcs_fight_and_log_without_secrets(self, campaign_path):
        shared_table(campaign_path)
        app = make_view(campaign_path)
        async with app.run_test(size=(80, 24)):
            text = view_text(app)
        for shown in ("Милава", "Горан Рябой", "Раунд 1", "Заявляет:", SECRET_ROLL, "d100: 42"):
            assert shown in text
        for secret in (SECRET_TEXT, "Атаман", "Сотник Вышата", "Сила"):  # no NPCs, no sheets
            assert secret not in text
        assert f"→ {SECRET_NAME}" in text and "Лыко" in text

    async def test_the_journal_is_headed_as_the_gms_journal_tab(self, make_test_app):
        """Playtest: the players' view and the seat headed the Журнал column «Бросок», a note
        too; the GM's Журнал tab says «Запись». One word for one column."""
        from tui.seats.seat import SeatApp

        def heads(app, table: str) -> list[str]:
            return [str(c.label) for c in app.query_one(table, DataTable).columns.values()]

        gm = make_test_app()
        async with gm.run_test(size=(80, 24)):
            await gm.ensure_pane("log")
            gms = heads(gm, "#log-table")
        view = make_view(gm.store.path)
        async with view.run_test(size=(80, 24)):
            views = heads(view, "#view-log")
        seat = SeatApp("Милава", None, "", connect=False)
        async with seat.run_test(size=(80, 24)):
            seats = heads(seat, "#seat-log")
        assert views == seats == gms

    async def test_follows_the_gm_within_a_second(self, campaign_path):
        shared_table(campaign_path)
        writer = Store.open(campaign_path)
        app = make_view(campaign_path, refresh_seconds=0.1)
        async with app.run_test(size=(80, 24)) as pilot:
            writer.append_log(entry("4dF: + + 0 - = 1", actor="Богдан Сыч"))
            writer.append_log(LogEntry("s9", AT, "roll", None, "1d20: 20 = 20", {"hidden": True}))
            end = time.monotonic() + 1.0  # «within a second»
            while "4dF: + + 0 - = 1" not in view_text(app) and time.monotonic() < end:
                await pilot.pause(0.02)
            text = view_text(app)
            assert "4dF: + + 0 - = 1" in text and "1d20: 20" not in text

    async def test_no_key_changes_state(self, campaign_path):
        shared_table(campaign_path)
        before = campaign_path.read_bytes(), campaign_path.with_suffix(".log.jsonl").read_bytes()
        app = make_view(campaign_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(
                *"/2d6", "enter", "ctrl+s", "t", "r", "y", "n", "i", "space", "ctrl+z"
            )
            assert app.is_running
        after = campaign_path.read_bytes(), campaign_path.with_suffix(".log.jsonl").read_bytes()
        assert before == after

    async def test_missing_campaign_is_a_russian_error(self, tmp_path):
        from tui.store import StoreError

        with pytest.raises(StoreError, match="не найден"):
            make_view(tmp_path / "nope.json")


class TestViewSnapshots:
    """The view mid-fight: PCs, Раунд 1 with a hidden NPC, secret and revealed rolls."""

    def test_view_80x24(self, snap_compare, campaign_path):
        shared_table(campaign_path)
        assert snap_compare(make_view(campaign_path), terminal_size=(80, 24))

    def test_view_no_color(self, snap_compare, campaign_path, monkeypatch):
        monkeypatch.setenv("NO_COLOR", "1")  # Textual reads it when the app is built
        shared_table(campaign_path)
        assert snap_compare(make_view(campaign_path), terminal_size=(80, 24))

    def test_view_too_small(self, snap_compare, campaign_path):
        shared_table(campaign_path)
        # The notice is pushed once the app has its size: the pause the screenshot makes
        # before it looks is enough.
        assert snap_compare(make_view(campaign_path), terminal_size=(60, 20))


# -- the commands ----------------------------------------------------------------------------------


class TestCommands:
    def test_view_of_a_missing_campaign_exits_with_a_russian_message(self, tmp_path, capsys):
        from tui.cli.kubik import main

        with pytest.raises(SystemExit) as exit_:
            main(["--view", "--campaign", str(tmp_path / "nope.json")])
        assert exit_.value.code == 2 and "нет такой кампании" in capsys.readouterr().err

    def test_serve_without_textual_serve_names_the_pip_command(self, monkeypatch, capsys):
        from tui.cli.kubik import main

        monkeypatch.setitem(sys.modules, "textual_serve", None)  # import fails, as uninstalled
        monkeypatch.setitem(sys.modules, "textual_serve.server", None)
        with pytest.raises(SystemExit) as exit_:
            main(["serve"])
        err = capsys.readouterr().err
        # kubik is not on PyPI: «pip install 'kubik[serve]'» found nothing; the running
        # kubik's own pip installs the package where it is needed
        assert exit_.value.code == 1 and "kubik[serve]" not in err
        assert f"{sys.executable} -m pip install textual-serve" in err
        assert "pip install '.[serve]'" in err

    @pytest.mark.parametrize(
        ("argv", "host", "warned"),
        [([], "127.0.0.1", False), (["--host", "0.0.0.0"], "0.0.0.0", True)],
    )
    def test_serve_is_loopback_unless_asked(
        self, monkeypatch, capsys, campaign_path, tmp_path, argv, host, warned
    ):
        from tui.cli.kubik import main

        started = {}

        from tui.cli import serve_web

        class Server:
            def __init__(self, command, **kwargs):
                started.update(kwargs, command=command, templates_path=kwargs["templates"])
                self.ending = serve_web.Ending()

            def serve(self):  # the page is read while it serves: its folder goes after
                started["served"] = True
                started["page"] = (started["templates_path"] / "app_index.html").read_text()

        monkeypatch.setattr(serve_web, "guarded_server", Server)

        fake = types.ModuleType("textual_serve.server")
        fake.Server = Server
        package = types.ModuleType("textual_serve")
        package.__file__ = str(tmp_path / "textual_serve" / "__init__.py")
        (tmp_path / "textual_serve" / "templates").mkdir(parents=True)
        page = '<html><link rel="stylesheet" href="https://fonts.googleapis.com/css?x" /></html>'
        (tmp_path / "textual_serve" / "templates" / "app_index.html").write_text(page)
        service = types.ModuleType("textual_serve.app_service")
        service.AppService = type("AppService", (), {})
        monkeypatch.setitem(sys.modules, "textual_serve", package)
        monkeypatch.setitem(sys.modules, "textual_serve.server", fake)
        monkeypatch.setitem(sys.modules, "textual_serve.app_service", service)
        assert main(["serve", "--campaign", str(campaign_path), *argv]) == 0
        assert started["served"] and (started["host"], started["port"]) == (host, 8000)
        served_page = started["page"]
        assert "googleapis" not in served_page and "fonts/RobotoMono" in served_page
        assert not started["templates_path"].exists()
        assert shlex.split(started["command"])[0] == "exec"  # the shell becomes kubik
        assert shlex.split(started["command"])[2:] == [
            "-m",
            "tui",
            "--campaign",
            str(campaign_path),
        ]
        assert ("получит полное приложение ведущего" in capsys.readouterr().err) == warned


class TestGmSecretSnapshot:
    def test_secret_banner_and_marked_log(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("ctrl+s")  # secret rolls on: the banner says so
            await pilot.press("slash")  # a secret quick roll, its text set at once
            pilot.app.query_one("#quick-input").value = "3d6"
            await pilot.pause()
            await pilot.press("enter", "escape")
            await pilot.press("4")  # the Журнал marks it «(скрыто)»; r is in the footer

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)


async def test_a_heavily_wounded_pcs_row_is_not_cut_at_80_columns(campaign_path):
    """Play-test, the view at 80×24 during a fight: «Тяжёлая×1 — без» — the party table is half
    the width, and «— без сил» ran past it behind a horizontal scrollbar."""
    from rules import drevo
    from tui.systems.drevo import combat as bridge

    with Store.open(campaign_path) as store:
        bogdan = next(c for c in store.characters() if c.name == "Богдан Сыч")
        hurt = bridge.with_track(bogdan, drevo.WoundTrack().take("heavy"))
        store.upsert_character(hurt)
    app = make_view(campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        party = app.query_one("#view-party", DataTable)
        assert party.virtual_size.width <= party.size.width, party.virtual_size
        lines = [s.text for s in party.render_lines(party.region.reset_offset)]
        shown = " ".join(" ".join(line.split()) for line in lines)
        assert "тяжело ранен" in shown, lines
