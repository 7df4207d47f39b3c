"""An effect's modifier in the open Древо check, through the engine alone: the check has it
among its modifiers, named with its reason, and the formula's odds line says the chance without
and with it — both figures equal a 4dF enumeration, not the rules' own odds. (The other systems:
tests/table/test_check_effects.py; what the Проверка tab draws: tests/tui/test_rounds.py.)"""

from __future__ import annotations

from rules.effects import EffectSet, EffectSpec, Now
from tests.table.check_helpers import brute_drevo, ok, percent, table
from tui.bridge.effects import EFFECTS_DOC
from tui.store import Store
from tui.systems.drevo.check import steps


def test_a_drevo_effect_enters_the_check_and_its_odds(tmp_path) -> None:
    """Replaces the logic of the pilot test `tests/tui/test_rounds.py::
    test_drevo_effect_from_the_party_tab_enters_the_check` (its screen part — the form, the
    sheet's line, the formula on screen — stays there): «Оглушён −1» until removed on the
    party's first character is among his check's modifiers, and the odds line's two figures
    equal a 4dF enumeration with and without it; removed, it leaves the check."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    first = store.characters()[0]
    t = table(store)
    ok(t, steps.set_input, "character", first.id)
    spec = EffectSpec("Оглушён", target=first.id, modifier=-1)
    effects, _ = EffectSet.from_dict(store.get_doc(EFFECTS_DOC)).add(spec, Now())
    store.put_doc(EFFECTS_DOC, effects.to_dict(), label="test effect")
    shown = t.view()
    check = shown.check
    assert ("эффект «Оглушён»", -1) in [(m.reason, m.value) for m in check.side.modifiers]
    bonus = check.side.trait + check.side.modifier_total
    before, after = brute_drevo(bonus + 1, check.difficulty), brute_drevo(bonus, check.difficulty)
    assert before != after
    assert f"с эффектом «Оглушён −1»: {percent(before)} → {percent(after)}" in shown.formula()
    store.put_doc(EFFECTS_DOC, EffectSet().to_dict(), label="test: removed")
    assert "эффект «Оглушён»" not in [m.reason for m in t.view().check.side.modifiers]
