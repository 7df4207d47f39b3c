"""A seat reads its characters with its campaign's system's sheet (no pilot: the state in,
the characters out)."""

from __future__ import annotations

import pytest

from tui.seats.seat import SeatApp
from tui.seats.state import seat_state
from tui.store import Store
from tui.store.models import SHEETS

SYSTEMS = ["drevo", "ide4", "starately", "wod"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_seat_reads_its_characters_with_the_campaigns_sheet(tmp_path, system):
    """The characters the GM's app sends a seat are read with the campaign's system's sheet,
    as the GM's store reads them — not a Древо sheet with the rest kept beside it."""
    with Store.open(tmp_path / "c.json", system=system) as store:
        pc = next(c for c in store.characters() if c.kind == "pc")
        state = seat_state(store, pc.name)
    seat = SeatApp(pc.name, None, "t" * 32, connect=False)
    seat.state = state
    (mine,) = seat.mine()
    assert type(mine.sheet) is SHEETS[system] and mine.sheet == pc.sheet
    assert mine.sheet_values() == pc.sheet_values() and mine.extra == pc.extra


def test_a_seat_of_an_unknown_system_reads_the_default_sheet():
    """A state naming no system kubik knows (a newer GM's app) still reads: Древо's sheet."""
    seat = SeatApp("Вера", None, "t" * 32, connect=False)
    doc = {"id": "v", "name": "Вера", "kind": "pc", "fate": 2, "wounds": {}}
    seat.state = {"system": "пятая", "mine": [doc]}
    (mine,) = seat.mine()
    assert mine.drevo.fate == 2 and type(mine.sheet) is SHEETS["drevo"]
