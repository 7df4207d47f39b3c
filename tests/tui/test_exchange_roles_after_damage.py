"""A rolled Древо exchange keeps its attacker and defender after its own damage is written."""

from __future__ import annotations

import dataclasses

from rules import drevo
from rules.encounter import Combatant, Declaration, Encounter
from tui.store import Store
from tui.systems.drevo import combat as bridge


def test_the_damage_of_this_exchange_does_not_swap_its_roles(tmp_path) -> None:
    """Play-test at 80×24: Богдан attacked the ataman, who struck back and won (Тяжёлая рана
    for Богдан). After Enter accepted the damage the exchange read «Атаман Шкуро: [−][−][0][−]
    → 0 / Богдан Сыч: [+][0][0][−] → 0 / Ничья» — each side shown with the other's dice: the
    plan was derived again with Богдан heavily wounded, which swaps the roles of a mutual
    attack («the attacker fell earlier this round»), though he fell in this very exchange."""
    with Store.open(tmp_path / "c.json") as store:
        chars = {c.id: c for c in store.characters()}
    bogdan = next(c for c in chars.values() if c.name == "Богдан Сыч")
    ataman = next(c for c in chars.values() if c.name == "Атаман Шкуро")
    enc = Encounter()
    for c in (bogdan, ataman):
        enc = enc.with_combatant(
            Combatant(c.id, c.name, "Отряд" if c.kind == "pc" else "Противники")
        )
    enc = enc.with_initiative(["Отряд", "Противники"], [])
    can_act = lambda cid: bridge.can_act(chars.get(cid))  # noqa: E731
    enc = enc.declare(Declaration(bogdan.id, "melee", target=ataman.id), can_act)
    enc = enc.declare(Declaration(ataman.id, "melee", target=bogdan.id), can_act)
    pairing = enc.start_resolution(can_act).pending()[0]
    at_roll = {cid: bridge.wounds_now(chars[cid]) for cid in (bogdan.id, ataman.id)}
    before = bridge.plan_for(pairing, chars, at_roll)
    assert before.side("attacker").fighter.name == "Богдан Сыч"

    hurt = bridge.with_track(bogdan, drevo.WoundTrack().take("heavy"))
    after = bridge.plan_for(pairing, {**chars, bogdan.id: hurt}, at_roll)
    assert not bridge.can_act(hurt)
    assert after.side("attacker").fighter.name == "Богдан Сыч"
    assert dataclasses.asdict(after) == dataclasses.asdict(before)
