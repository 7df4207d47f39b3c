"""The IDE4™ opposed check's full tie, once concluded, keeps the GM's choice in its state: the
view derived from it afterwards (what a screen or `kubik` shows of the concluded check) names
the same choice and price the Журнал line did. Found while merging pilot tests (speed, round 3):
dropping the price from the concluded state failed no test."""

from __future__ import annotations

from dataclasses import replace

from tests.table.check_helpers import ok, table
from tests.table.test_check_ide4_opposed import negotiation
from tui.store import Store
from tui.systems.ide4.check import opposed as opp


def test_a_concluded_tie_keeps_the_gms_choice_and_its_price(tmp_path) -> None:
    """«если равенство сохраняется, мастер оставляет положение без изменения либо назначает
    цену обеим сторонам»: the choice and the price are part of the concluded check, not only
    of its Журнал line."""
    store = Store.open(tmp_path / "c.json", system="ide4")
    t = negotiation(table(store))
    ok(t, opp.roll_opposed)
    state = t.state
    o = state.opposed
    tied = replace(o, a=replace(o.a, natural=70), b=replace(o.b, natural=70))  # both Успех
    store.put_doc("check", replace(state, opposed=tied).to_doc(), label="тест: d100")
    t.follow()
    assert opp.opposed_view(t.state, t.world()).result.winner is None, "a full tie"
    ok(t, opp.conclude_opposed, "price", " оба теряют время ")
    concluded = t.state.opposed
    assert (concluded.resolution, concluded.price) == ("price", "оба теряют время")
    result = opp.opposed_view(t.state, t.world()).result
    assert (result.resolution, result.price) == ("price", "оба теряют время")
    assert "оба теряют время" in store.log()[0].text, "the line says the same price"
