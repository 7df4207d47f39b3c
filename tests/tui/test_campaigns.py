"""Campaigns from the app: pick, create, rename, delete, export; read-only and live changes."""

from __future__ import annotations

import json
import random

import pytest

from tests.conftest import frozen_clock
from tui.app import KubikApp
from tui.screens.campaigns import CampaignsScreen
from tui.store import Store


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Keep the default campaign folder inside the test's temporary folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "kubik"


async def wait_for(pilot, condition, tries: int = 40) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.05)
    assert condition()


async def answer(pilot, text: str) -> None:
    """Type ``text`` into the open TextPrompt at once and press Enter."""
    pilot.app.screen.query_one("#prompt-input").value = text
    await pilot.press("enter")
    await pilot.pause()


class TestPicker:
    async def test_create_rename_and_switch(self, make_test_app, data_home):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            old = app.store.path
            await pilot.press("ctrl+o")
            assert isinstance(app.screen, CampaignsScreen)
            assert [c.name for c in app.screen.campaigns] == ["Древо: Пограничная застава"]
            await pilot.press("n")  # new: demo or empty, per system
            await pilot.press("down", "down", "down", "down", "down", "enter")  # Пустая: IDE4
            await answer(pilot, "Литейная")  # the name at once: the typing is not the subject
            await wait_for(pilot, lambda: app.store.path != old)
            assert app.store.campaign.system == "ide4"
            assert app.store.campaign.name == "Литейная"
            assert app.store.characters() == []
            assert app.store.path.parent == data_home
            assert type(await app.ensure_pane("check")).__name__.lower().find("ide4") >= 0
            await pilot.press("ctrl+o", "r")
            await answer(pilot, "Литейная, 1987")
            assert app.store.campaign.name == "Литейная, 1987"
            assert app.sub_title == "Литейная, 1987"
            await pilot.press("ctrl+o")  # back to the first campaign
            names = [c.name for c in app.screen.campaigns]
            table = app.screen.query_one("#campaigns-table")
            table.move_cursor(row=names.index("Древо: Пограничная застава"))
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.store.path == old)
            assert app.store.campaign.system == "drevo"
            assert app.query_one("#party-table").row_count == 7

    async def test_a_name_of_thousands_of_characters_is_refused_with_its_length(
        self, make_test_app, data_home
    ):
        """Play-test: Ctrl+O, r took a 3,000-character name; its toast then covered half the
        screen for seconds. A name longer than the limit is refused in the prompt (which
        stays open with the text), the old name kept."""
        from textual.widgets import Input, Static

        from tui.screens.campaigns import MAX_CAMPAIGN_NAME
        from tui.widgets.common.prompt import TextPrompt

        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            before = app.store.campaign.name
            await pilot.press("ctrl+o", "r")
            await pilot.pause()
            app.screen.query_one(Input).value = "Б" * 3000
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TextPrompt)
            said = str(app.screen.query_one("#prompt-error", Static).render())
            assert f"не больше {MAX_CAMPAIGN_NAME}" in said and "3000 символов" in said
            await app.services.writes_done()
            assert app.store.campaign.name == before
            app.screen.query_one(Input).value = "Б" * MAX_CAMPAIGN_NAME
            await pilot.press("enter")
            await pilot.pause()
            await app.services.writes_done()
            assert app.store.campaign.name == "Б" * MAX_CAMPAIGN_NAME

    async def test_delete_needs_the_name(self, make_test_app, data_home):
        other = data_home / "other.json"
        data_home.mkdir(parents=True)
        Store.open(other, system="wod").close()
        Store.open(other).rename("Другая")  # a second write: a backup appears
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+o")
            names = [c.name for c in app.screen.campaigns]
            app.screen.query_one("#campaigns-table").move_cursor(row=names.index("Другая"))
            await pilot.press("x")
            await answer(pilot, "другая")  # wrong case: refused
            assert other.exists()
            await pilot.press("ctrl+o")
            names = [c.name for c in app.screen.campaigns]
            app.screen.query_one("#campaigns-table").move_cursor(row=names.index("Другая"))
            await pilot.press("delete")
            await answer(pilot, "Другая")
            assert not other.exists()
            assert not (data_home / "other.backups").exists()
            assert app.store.campaign.name == "Древо: Пограничная застава"  # still open


class TestSharing:
    async def test_read_only_banner(self, campaign_path):
        Store.open(campaign_path).close()
        store = Store.open(campaign_path, read_only=True)
        app = KubikApp(store, rng=random.Random(1), clock=frozen_clock)
        async with app.run_test(size=(80, 24)) as pilot:
            banner = app.query_one("#read-only-banner")
            assert banner.display and "Только чтение" in str(banner.render())
            await pilot.press("a", *"Ждан", "enter")  # the form saves … the store refuses
            await pilot.pause()
            assert [n.message for n in app._notifications][-1].startswith("Кампания")
            assert "Ждан" not in [c.name for c in store.characters()]

    async def test_other_instance_changes_show_live(self, make_test_app, campaign_path):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            assert not app.query_one("#read-only-banner").display
            other = Store.open(campaign_path)
            first = other.characters()[0]
            other.delete_character(first.id)
            await wait_for(pilot, lambda: app.query_one("#party-table").row_count == 6)


class TestTransfer:
    async def test_export_json_and_markdown(self, make_test_app, tmp_path):
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("slash", *"2d6", "enter", "escape")  # one log entry
            await pilot.press("ctrl+e", "enter")  # Экспорт кампании в JSON
            await answer(pilot, str(tmp_path / "out.json"))
            await pilot.press("ctrl+e", "down", "enter")  # Журнал в Markdown
            await answer(pilot, str(tmp_path / "log.md"))
        exported = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
        assert exported["campaign"] == {"name": "Древо: Пограничная застава", "system": "drevo"}
        assert len(exported["characters"]) == 7 and len(exported["log"]) == 1
        markdown = (tmp_path / "log.md").read_text(encoding="utf-8")
        assert markdown.startswith("#") and "2d6" in markdown

    async def test_import_opens_the_copy(self, make_test_app, tmp_path, data_home):
        source = Store.open(tmp_path / "src.json", system="starately")
        source.export_json(tmp_path / "export.json")
        source.close()
        app = make_test_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+e", "down", "down", "enter")  # Импорт
            await answer(pilot, str(tmp_path / "export.json"))
            await wait_for(pilot, lambda: app.store.campaign.system == "starately")
            assert app.store.path.parent == data_home
            assert len(app.store.characters()) == 6  # the demo party of Старатели
