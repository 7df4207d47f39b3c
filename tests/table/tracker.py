"""The round tracker and effects driven through the table engine alone: no Textual, the real
store, each step written as one undo step by the same session code the Бой tab uses."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from rules.effects import EffectSet, EffectSpec
from rules.rounds import Tracker
from tui.store import Character, Store
from tui.table.core import Dice, Outcome
from tui.table.effects import steps as effect_steps
from tui.table.effects.session import EffectsSession
from tui.table.rounds.session import RoundsSession
from tui.table.rounds.view import RoundsView, rounds_view


class Table:
    """The campaign's round tracker and effects as a GM plays them from the engine."""

    def __init__(self, store: Store, seed: int = 3) -> None:
        self.store = store
        dice = Dice(random.Random(seed))
        self.rounds = RoundsSession(store, dice)
        self.effects_session = EffectsSession(store, dice)

    @property
    def tracker(self) -> Tracker:
        return self.rounds.read().tracker

    @property
    def effects(self) -> EffectSet:
        return self.rounds.read().world.effects

    def view(self) -> RoundsView:
        read = self.rounds.read()
        world = read.world
        return rounds_view(read.tracker, world.effects, world.characters, world.system)

    def run(self, step: Any, *args: Any, **kwargs: Any) -> Outcome[Any]:
        return self.rounds.run(step, *args, **kwargs)

    def ok(self, step: Any, *args: Any, **kwargs: Any) -> Outcome[Any]:
        outcome = self.run(step, *args, **kwargs)
        assert outcome.ok, outcome.refused
        return outcome

    def effect(self, step: Any, *args: Any) -> Outcome[EffectSet]:
        return self.effects_session.run(step, *args)

    def add(self, spec: EffectSpec) -> Outcome[EffectSet]:
        return self.effects_session.add(spec)

    def added(self, spec: EffectSpec) -> Outcome[EffectSet]:
        outcome = self.add(spec)
        assert outcome.ok, outcome.refused
        return outcome

    def clock(self, minutes: int) -> Outcome[EffectSet]:
        return self.effect(effect_steps.advance_clock, minutes)

    def character(self, name: str) -> Character:
        return next(c for c in self.store.characters() if c.name == name)

    def texts(self, limit: int = 50) -> list[str]:
        """The Журнал's lines, newest first."""
        return [e.text for e in self.store.log(limit=limit)]


def table(tmp_path: Path, system: str, seed: int = 3) -> Table:
    """A demo campaign of ``system`` with its round tracker, nothing rolled yet."""
    return Table(Store.open(tmp_path / f"{system}.json", system=system), seed)
