"""The bestiary played in any order through the engine alone: NPCs added from templates (into
the fight or not), encounters loaded and taken out, characters saved as templates, undo and
redo — against the store. Invariants: every undo gives back exactly the campaign before its
step and every redo the one after; names stay unique; every NPC an encounter brought stands
in the fight being set up; a refused step writes nothing."""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from rules.encounter import Encounter
from rules.rounds import Tracker
from tests.hypo import examples
from tui.store import Store
from tui.table.bestiary import steps
from tui.table.bestiary.session import BestiarySession
from tui.table.core import Dice


class BestiaryMachine(RuleBasedStateMachine):
    SYSTEM = ""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix=f"kubik-bestiary-{self.SYSTEM}-"))
        self.store = Store.open(self.folder / "c.json", system=self.SYSTEM)
        self.session = BestiarySession(self.store, Dice(random.Random(5)))
        shelf = self.session.read().shelf
        self.templates = [t.name for t in shelf.bestiary.templates]
        self.encounters = [e.name for e in shelf.bestiary.encounters]
        #: (campaign before, campaign after) of each step written and not undone; and undone.
        self.done: list[tuple[str, str]] = []
        self.undone: list[tuple[str, str]] = []

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def campaign(self) -> str:
        docs = {n: self.store.get_doc(n) for n in ("encounter", "rounds", "bestiary", "encounters")}
        people = sorted(
            json.dumps({**c.__dict__, "origin": None}, sort_keys=True, default=str)
            for c in self.store.characters()
        )
        return json.dumps([people, docs], sort_keys=True)

    def _step(self, step, *args, **kwargs) -> None:
        before = self.campaign()
        outcome = self.session.run(step, *args, **kwargs)
        after = self.campaign()
        if outcome.ok:
            if after != before:  # a template saved again unchanged: no undo step
                self.done.append((before, after))
                self.undone.clear()
        else:
            assert outcome.refused.strip(), "a refusal without a reason"
            assert after == before, f"a refused {step.__name__} wrote something"

    @rule(data=st.data(), count=st.integers(1, 6), side=st.sampled_from([None, "Засада"]))
    def add(self, data: st.DataObject, count: int, side: str | None) -> None:
        self._step(
            steps.add_from_template, data.draw(st.sampled_from(self.templates)), count, side=side
        )

    @rule(data=st.data())
    def load(self, data: st.DataObject) -> None:
        self._step(steps.load_encounter, data.draw(st.sampled_from(self.encounters)))

    @rule(data=st.data())
    def unload(self, data: st.DataObject) -> None:
        self._step(steps.remove_brought, data.draw(st.sampled_from(self.encounters)))

    @rule(data=st.data())
    def save(self, data: st.DataObject) -> None:
        npcs = [c for c in self.store.characters() if c.kind == "npc"]
        c = data.draw(st.sampled_from(npcs))
        self._step(steps.save_character, c.id)
        self.templates = [t.name for t in self.session.read().shelf.bestiary.templates]

    @precondition(lambda self: bool(self.done))
    @rule()
    def undo(self) -> None:
        before, after = self.done.pop()
        assert self.campaign() == after
        assert self.store.undo() is not None
        assert self.campaign() == before
        self.undone.append((before, after))

    @precondition(lambda self: bool(self.undone))
    @rule()
    def redo(self) -> None:
        before, after = self.undone.pop()
        assert self.store.redo() is not None
        assert self.campaign() == after
        self.done.append((before, after))

    @invariant()
    def names_are_unique(self) -> None:
        names = [c.name.casefold() for c in self.store.characters()]
        assert len(names) == len(set(names))

    @invariant()
    def every_npc_an_encounter_brought_is_in_the_fight(self) -> None:
        brought = {c.id for c in self.store.characters() if c.from_encounter}
        if not brought:
            return
        doc = self.store.get_doc(steps.fight_doc(self.SYSTEM))
        assert doc is not None
        if self.SYSTEM == "drevo":
            ids = {c.character_id for c in Encounter.from_dict(doc).combatants}
        else:
            ids = {e.id for e in Tracker.from_dict(doc).entrants}
        assert brought <= ids


SETTINGS = settings(
    max_examples=examples(8),
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


class DrevoBestiary(BestiaryMachine):
    SYSTEM = "drevo"


class WodBestiary(BestiaryMachine):
    SYSTEM = "wod"


TestDrevoBestiary = SETTINGS(DrevoBestiary).TestCase
TestWodBestiary = SETTINGS(WodBestiary).TestCase
