"""The campaign keys' work below the screen: ``tui.screens.actions`` with a stand-in app.

``actions`` takes the app as a :class:`tui.host.CampaignHost`; these tests hand it a small
stand-in that records what the GM is told and which campaign it is asked to open. The store's
part (the export's marks, the note) is tested in ``tests/store/test_transfer.py``; the picker's
and the dialogs' keys stay pilot tests in ``tests/tui/test_campaigns.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rules.drevo.sheet import DrevoSheet
from tests.conftest import FROZEN_AT
from tui.screens import actions
from tui.store import LogEntry, Store, new_id


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Keep the default campaign folder inside the test's temporary folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "kubik"


class Host:
    """The app as ``actions.import_campaign`` sees it: its toasts, and the campaign it is
    asked to open (``actions.open_path``, replaced by the test, records it)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.opened: list[Path] = []
        self.services = SimpleNamespace(notify=lambda message, **_: self.said.append(message))


def grant_fate_undone(path: Path) -> None:
    """The demo campaign with one logged change undone: the GM gave Горан Рябой a point of
    Судьба (the party tab's g) and took it back (Ctrl+Z)."""
    with Store.open(path) as store:
        goran = next(c for c in store.characters() if c.name == "Горан Рябой")
        fate = goran.drevo.fate + 1
        store.apply(
            f"{goran.name}: +1 Судьба",
            upsert=[goran.edit_sheet(DrevoSheet, fate=fate)],
            log=[
                LogEntry(
                    new_id(),
                    FROZEN_AT.isoformat(timespec="seconds"),
                    "note",
                    goran.name,
                    f"Ведущий даёт очко Судьбы: теперь {fate}",
                )
            ],
        )
        store.undo()


async def test_an_old_export_opens_with_a_note_and_a_new_one_with_its_marks(
    tmp_path, data_home, monkeypatch
) -> None:
    """An export with the Журнал's «отменено» marks is imported and opened with them, nothing
    said about marks; one written before the marks (no ``log_marks``, no ``undone``) is
    opened with the GM told that its undone entries are not marked.

    Replaces the pilot test
    `tests/tui/test_campaigns.py::TestImportInTheApp::test_an_old_export_opens_with_a_note_and_a_new_one_with_its_marks`:
    the same two files (the demo campaign, one «+1 Судьба» undone) go through the same
    ``actions.import_campaign``; that the app then shows the copy is
    ``tests/tui/test_campaigns.py::TestTransfer::test_import_opens_the_copy``.
    """
    source = tmp_path / "source.json"
    grant_fate_undone(source)
    new = tmp_path / "new.json"
    with Store.open(source) as store:
        store.export_json(new)
    data = json.loads(new.read_text(encoding="utf-8"))
    del data["log_marks"]
    for doc in data["log"]:
        doc.pop("undone", None)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    host = Host()

    async def open_path(app: Any, path: Path) -> None:
        app.opened.append(path)

    monkeypatch.setattr(actions, "open_path", open_path)

    await actions.import_campaign(host, new)
    (opened,) = host.opened
    assert opened.parent == data_home, "imported into the data folder"
    with Store.open(opened) as copy:
        assert [e.undone for e in copy.log()] == [True], "the new export keeps its mark"
        assert copy.log()[0].text.startswith("Ведущий даёт")
    assert host.said and host.said[0].startswith("Импортирована кампания"), host.said
    assert not any("нет отметок" in m for m in host.said), host.said

    await actions.import_campaign(host, old)
    opened = host.opened[-1]
    assert len(host.opened) == 2 and opened.parent == data_home
    with Store.open(opened) as copy:
        assert [e.undone for e in copy.log()] == [False], "an old export has no marks"
        assert copy.log()[0].text.startswith("Ведущий даёт")
    assert any("нет отметок «отменено»" in m for m in host.said), host.said
