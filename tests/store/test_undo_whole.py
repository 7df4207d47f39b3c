"""Per-window undo on the fight's document and on a fight exchange's steps (found by the
fight's stateful test after issue 30's per-window undo met the engine)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.drevo.sheet import DrevoSheet
from tui.store import Store
from tui.store.errors import UndoRefused
from tui.systems.drevo.undo import exchange_group


def test_a_later_change_to_the_fight_from_elsewhere_refuses_the_undo(tmp_path) -> None:
    """The fight is one state machine: window B's roll was made on A's last declaration (it
    moved the fight to the dice). A's Ctrl+Z may not put the phase back under B's dice."""
    path = tmp_path / "c.json"
    a, b = Store.open(path), Store.open(path)
    a.put_doc("encounter", {"phase": "declare", "round": 1}, label="Бой: раунд 1")
    a.apply("Бой: заявка Волк", docs={"encounter": {"phase": "resolve", "round": 1}})
    b.refresh()
    now = b.get_doc("encounter")
    b.apply("Раунд 1, схватка 1: бросок", docs={"encounter": {**now, "id": "f1"}})
    a.refresh()
    with pytest.raises(UndoRefused, match="Раунд 1, схватка 1: бросок"):
        a.undo()
    a.refresh()
    assert a.get_doc("encounter")["id"] == "f1"
    assert a.get_doc("encounter")["phase"] == "resolve"


def test_an_exchange_is_undone_whole_or_not_at_all(tmp_path) -> None:
    """Two steps of one exchange (the roll, then Судьба): when another window built on the
    older one, undoing the exchange is refused and the newer step stays too."""
    path = tmp_path / "c.json"
    a, b = Store.open(path), Store.open(path)
    c = a.characters()[0]
    a.upsert_character(c.edit_sheet(DrevoSheet, fate=5), label="Раунд 1, схватка 1: бросок")
    a.upsert_character(replace(a.character(c.id), notes="x"), label="Раунд 1, схватка 1: Судьба +1")
    b.refresh()
    b.upsert_character(
        b.character(c.id).edit_sheet(DrevoSheet, fate=7), label="Судьба в другом окне"
    )
    a.refresh()
    before = (a.character(c.id), a.depth)
    with pytest.raises(UndoRefused):
        a.undo(together=exchange_group)
    a.refresh()
    assert (a.character(c.id), a.depth) == before  # the Судьба step was not undone alone


def test_a_command_that_built_on_the_step_is_named_as_a_command(tmp_path) -> None:
    """Issue 30: «a change that depends on a later one from elsewhere is refused with the
    reason». When the later change is a ``kubik`` command (no window to undo it in), the
    reason says so and what the GM can do, not «отмените … в том окне»."""
    path = tmp_path / "c.json"
    a = Store.open(path)
    a.put_doc("encounter", {"phase": "resolve", "round": 1}, label="Раунд 1, схватка 1: бросок")
    shell = Store.open(path, window="cli")
    shell.put_doc(
        "encounter", {"phase": "resolve", "round": 1, "x": 1}, label="Раунд 1, схватка 1: Судьба"
    )
    shell.close()
    a.refresh()
    with pytest.raises(UndoRefused) as refused:
        a.undo()
    said = str(refused.value)
    assert "командой kubik" in said and "в том окне" not in said, said
