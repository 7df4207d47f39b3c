"""Issue 32, the shared table: the players' view and the seats show an encounter's newcomers as
the party tab shows NPCs — a hidden one as «???» — and nothing of a template (its notes, its
tags, the encounter's name, a weapon only the hidden carry) reaches what the players read."""

from __future__ import annotations

import json
import random

import pytest

from tui.bridge.public import public_log
from tui.seats.state import seat_state
from tui.store import Store
from tui.table.bestiary import steps
from tui.table.bestiary.session import BestiarySession
from tui.table.core import Dice
from tui.view import combat_text


def players_read(store: Store) -> str:
    """Everything a seat is sent and the view draws (fight, log), as one text."""
    seat = seat_state(store, "Милава")
    characters = store.characters()
    by_id = {c.id: c for c in characters}
    log = public_log(store.log(50), characters, 50)
    view = [combat_text(store.get_doc("encounter"), by_id), *(e.text for e in log)]
    return json.dumps(seat, ensure_ascii=False) + "\n".join(view)


def start_fight(store: Store, seed: int) -> None:
    """Initiative: the fight leaves its setup, so the players' panels show the order."""
    if store.campaign.system == "drevo":
        from tui.systems.drevo.fight import steps as fight
        from tui.systems.drevo.fight.session import FightSession

        out = FightSession(store, Dice(random.Random(seed))).run(fight.roll_initiative)
    else:
        from tui.table.rounds import steps as rounds
        from tui.table.rounds.session import RoundsSession

        out = RoundsSession(store, Dice(random.Random(seed))).run(rounds.roll_initiative)
    assert out.ok, out.refused


@pytest.mark.parametrize(
    ("system", "encounter"),
    [("drevo", "Засада у брода"), ("wod", "Подвал культа"), ("ide4", "Логово врага")],
)
def test_a_hidden_encounter_leaks_nothing(tmp_path, system, encounter):
    store = Store.open(tmp_path / "c.json", system=system)
    session = BestiarySession(store, Dice(random.Random(3)))
    b = session.read().shelf.bestiary
    e = b.encounter(encounter)
    assert e.hidden
    assert session.run(steps.load_encounter, encounter).ok
    start_fight(store, 2)
    text = players_read(store)
    newcomers = [c for c in store.characters() if c.from_encounter]
    assert len(newcomers) == e.size
    assert "???" in text  # they are in the fight, as hidden NPCs are
    secrets = {e.name, *(c.name for c in newcomers)}
    for g in e.groups:
        t = b.template(g.template)
        secrets |= {t.name, t.notes, *t.tags}
    seen = {w for c in store.characters() if not c.hidden for w in c.weapons}
    secrets |= {w for c in newcomers for w in c.weapons} - seen
    for c in store.characters():  # «Охранник Гриша» of the demo is seen: not a leak
        if not c.hidden:
            text = text.replace(c.name, "")
    leaked = sorted(s for s in secrets if s and s in text)
    assert not leaked, leaked
    store.close()


def test_open_newcomers_show_by_name_and_nothing_else(tmp_path):
    """«Волчья стая» is not hidden: the wolves are named in the fight as any NPC is; the
    encounter's name, the template's notes and tags are still the GM's."""
    store = Store.open(tmp_path / "c.json", system="drevo")
    session = BestiarySession(store, Dice(random.Random(3)))
    wolf = session.read().shelf.bestiary.template("Волк")
    assert session.run(steps.load_encounter, "Волчья стая").ok
    start_fight(store, 1)
    text = players_read(store)
    assert "Противники" in text and "Волк" not in json.dumps(seat_state(store, "Милава")["party"])
    for secret in ("Волчья стая", wolf.notes, *wolf.tags):
        assert secret not in text, secret
    store.close()
