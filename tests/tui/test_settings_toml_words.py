"""Ctrl+T → Ctrl+G: the table's TOML as a Russian GM sees it (issue 16: «Ctrl+T shows raw TOML
with English developer comments»)."""

from __future__ import annotations

import tomllib

import pytest

from rules import data
from tui import registry
from tui.screens.settings_tables import current_text


@pytest.mark.parametrize("system", sorted(registry.names()))
def test_the_toml_view_has_no_developer_comments(system) -> None:
    """Play-test: Ctrl+G on «Лестница сложности» opened with «# Древо difficulty ladder …,
    lowest first. # A GM may edit this file per campaign …» — the packaged file's English
    notes for developers. The view shows the same values, without them."""
    for table in registry.get(system).tables:
        shown = current_text(table.relpath, {}, {})
        assert not [line for line in shown.splitlines() if line.lstrip().startswith("#")]
        assert tomllib.loads(shown) == tomllib.loads(data.packaged_text(table.relpath))
