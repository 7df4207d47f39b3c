"""A Древо fight driven through the table engine alone: no Textual, the real store."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.drevo.sheet import DrevoSheet
from rules.encounter import Combatant, Declaration, Encounter
from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.session import FightSession
from tui.systems.drevo.fight.view import ExchangeView, exchange_view
from tui.systems.drevo.undo import exchange_group
from tui.table.core import Dice, Outcome


class Table:
    """The campaign's fight as a GM plays it from the engine: each step one undo step."""

    def __init__(self, store: Store, seed: int = 3) -> None:
        self.store = store
        self.session = FightSession(store, Dice(random.Random(seed)))

    @property
    def enc(self) -> Encounter:
        return self.session.read()[1]

    def view(self) -> ExchangeView | None:
        _, enc, world = self.session.read()
        return exchange_view(enc, world)

    def stage(self) -> str:
        view = self.view()
        return view.stage if view is not None else ""

    def run(self, step: Any, *args: Any, **kwargs: Any) -> Outcome[Any]:
        return self.session.run(step, *args, **kwargs)

    def ok(self, step: Any, *args: Any, **kwargs: Any) -> Outcome[Any]:
        outcome = self.run(step, *args, **kwargs)
        assert outcome.ok, outcome.refused
        return outcome

    def undo(self) -> str | None:
        return self.store.undo(together=exchange_group)

    def redo(self) -> str | None:
        return self.store.redo(together=exchange_group)


def duel(tmp_path: Path, wounds_of_target: dict[str, int] | None = None, fate: int = 3):
    """Шкуро strikes Горан with a sabre, Горан dodges: the fight at its first exchange."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    people = {c.name: c for c in store.characters()}
    attacker, target = people["Атаман Шкуро"], people["Горан Рябой"]
    target = target.edit_sheet(
        DrevoSheet, fate=fate, wounds={**target.drevo.wounds, **(wounds_of_target or {})}
    )
    store.upsert_character(target)
    enc = Encounter()
    enc = enc.with_combatant(Combatant(attacker.id, attacker.name, "Противники"))
    enc = enc.with_combatant(Combatant(target.id, target.name, "Отряд"))
    enc = replace(enc.with_initiative(["Противники", "Отряд"]), id="fight")
    enc = enc.declare(Declaration(attacker.id, "melee", target.id, "Сабля"), lambda cid: True)
    enc = enc.declare(Declaration(target.id, "dodge"), lambda cid: True)
    enc = enc.start_resolution(lambda cid: True)
    store.put_doc(steps.DOC, enc.to_dict(), label="Бой")
    return Table(store), store, target


def skirmish(
    tmp_path: Path, sides: dict[str, str], blows: list[tuple], *, seed: int = 3
) -> tuple[Table, Store, dict[str, Any]]:
    """A fight of the demo party at its first exchange.

    ``sides``: name → side (the first side declares first); ``blows``: in declaration order,
    ``(name, action, target name or None, weapon or None)`` or with a fifth item, the
    declaration's ``others`` («meet» / «helpless»).
    """
    store = Store.open(tmp_path / "c.json", system="drevo")
    people = {c.name: c for c in store.characters()}
    enc = Encounter()
    for name, side in sides.items():
        enc = enc.with_combatant(Combatant(people[name].id, name, side))
    order = list(dict.fromkeys(sides.values()))
    enc = replace(enc.with_initiative(order), id="fight")
    table = Table(store, seed=seed)
    store.put_doc(steps.DOC, enc.to_dict(), label="Бой")
    for blow in blows:
        name, action, target, weapon, *others = blow
        how = {"others": others[0]} if others else {}
        aim = people[target].id if target else None
        d = Declaration(people[name].id, action, aim, weapon, **how)
        table.ok(steps.declare, d)
    return table, store, people
