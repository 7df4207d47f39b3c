"""Campaign settings below the screen: the app's services with a table the rules refuse.

These tests build the app as ``kubik`` does (``tui.app.make_app``) without running it: what
they check is the services' work (which tables the rules get, what the GM is told), not a
screen; the screens' own tests stay pilot tests in ``tests/tui/test_settings*.py``.
"""

from __future__ import annotations

import copy

import pytest

from rules import data, drevo
from tests.conftest import frozen_clock
from tui.store import Store


@pytest.fixture(autouse=True)
def packaged_defaults():
    """Leave the rules on the packaged tables whatever a test did."""
    yield
    data.set_overrides(None)


def test_a_settings_table_the_rules_refuse_falls_back_to_the_default(tmp_path) -> None:
    """A hand-edited ladder rung without a value stopped the Древо app (RulesError); the app
    now names the table and plays with kubik's own ladder, and the file keeps its table.

    Replaces the pilot test
    `tests/store/test_broken_files.py::test_a_settings_table_the_rules_refuse_falls_back_to_the_default`:
    the same file, opened by ``make_app``; the services the app built apply the campaign's
    tables as they do before every pane is drawn (``Redraw.changes``, the app's first step
    at mount and after each store change), so every tab that reads the ladder reads kubik's.
    """
    from tui.app import make_app

    path = tmp_path / "c.json"
    ladder = copy.deepcopy(data.packaged_table("drevo/ladder.toml"))
    ladder["rung"][0]["value"] = "x"
    with Store.open(path) as store:
        store.put_doc("settings", {"drevo/ladder.toml": ladder, "theme": "dark"}, label="x")
    with Store.open(path) as store:
        settings_before = store.get_doc("settings")
    app = make_app(path, clock=frozen_clock, seed=1)
    said: list[str] = []
    app.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]
    try:
        changes = app.services.redraw.changes(["party", "check", "combat"])
        assert changes.tabs == ["party", "check", "combat"], "every pane drawn once"
        assert [m for m in said if "drevo/ladder.toml не принята" in m and "rung[1].value" in m], (
            said
        )
        assert data.overrides() == {}, "the refused ladder is not handed to the rules"
        assert [r.value for r in drevo.ladder()] == [
            r["value"] for r in data.packaged_table("drevo/ladder.toml")["rung"]
        ], "kubik's own ladder is in place"
        assert drevo.rung_for(-3) is not None
        app.services.redraw.changes(["party", "check", "combat"])  # a second redraw …
        assert len([m for m in said if "не принята" in m]) == 1, "… names it once, not again"
    finally:
        app.store.close()
    with Store.open(path) as store:  # the table is not written over
        assert store.get_doc("settings") == settings_before
