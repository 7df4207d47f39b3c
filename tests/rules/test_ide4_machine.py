"""An IDE4™ check in progress as a state machine: any order of moves, undo included.

Invariants (what must never happen): a [00] rolled against; a mastery bonus against a [7]
(campaign default) or a [00]; an expanded-only step on a quick or standard check without a
recorded level change before it; energy spent beyond the pool; an undone state that differs
from the state it returns to.
"""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules import ide4
from rules.errors import RulesError
from tests.hypo import examples

EXPANDED_ONLY = {"reroll", "energy_after", "bonus", "subroll"}


class CheckMachine(RuleBasedStateMachine):
    """Moves a table may take on one check, in any order; refused moves change nothing."""

    @initialize(
        base=st.integers(0, 8),
        mods=st.lists(st.integers(-3, 3), max_size=2),
        level=st.sampled_from(ide4.LEVELS),
        help_kind=st.sampled_from(["", "difficulty", "reroll", "possible"]),
        pinned=st.booleans(),
        seed=st.integers(0, 10_000),
    )
    def start(self, base, mods, level, help_kind, pinned, seed) -> None:
        self.rng = random.Random(seed)
        inp = ide4.CheckInput(
            attribute="Сила",
            attribute_level=4,
            skill="Бой",
            mastery=100,
            technique="Удар",
            base=base,
            modifiers=tuple(ide4.Modifier(v, f"м{i}") for i, v in enumerate(mods)),
            pinned_seven=pinned,
            help=help_kind,
            help_difficulty=5,
            impossible_reason="нельзя",
            energy_pool=60,
            level=level,
        )
        self.history: list[ide4.Check] = []
        try:
            self.check: ide4.Check | None = ide4.start(inp)
        except RulesError:
            self.check = None

    def _move(self, move) -> None:
        if self.check is None:
            return
        try:
            after = move(self.check)
        except RulesError:
            return
        self.history.append(self.check)
        self.check = after

    @rule()
    def roll(self) -> None:
        self._move(lambda c: ide4.roll(c, self.rng))

    @rule(source=st.sampled_from(sorted(ide4.REROLL_SOURCES)))
    def reroll(self, source) -> None:
        self._move(lambda c: ide4.reroll(c, source, self.rng))

    @rule(count=st.integers(1, 3), die=st.sampled_from([4, 6, 8, 10]))
    def energy_after(self, count, die) -> None:
        self._move(lambda c: ide4.energy_after(c, count, die, self.rng))

    @rule(kind=st.sampled_from(["soften", "triumph", "technique", "reroll"]))
    def bonus(self, kind) -> None:
        self._move(lambda c: ide4.bonus(c, kind, self.rng))

    @rule()
    def subroll(self) -> None:
        self._move(lambda c: ide4.subroll(c, self.rng))

    @rule(level=st.sampled_from(ide4.LEVELS))
    def set_level(self, level) -> None:
        self._move(lambda c: ide4.set_level(c, level, "мастер"))

    @precondition(lambda self: bool(getattr(self, "history", None)))
    @rule()
    def undo(self) -> None:
        previous = self.history.pop()
        snapshot = previous.to_dict()
        self.check = previous
        assert self.check.to_dict() == snapshot

    @invariant()
    def impossible_is_never_rolled(self) -> None:
        check = getattr(self, "check", None)
        if check is not None and check.difficulty.kind == "impossible":
            assert check.natural is None and not any(s.kind == "d100" for s in check.steps)

    @invariant()
    def no_mastery_against_seven(self) -> None:
        check = getattr(self, "check", None)
        if check is not None and check.difficulty.final == 7:
            assert not check.bonuses and "skill" not in check.rerolls

    @invariant()
    def a_level_raise_is_on_record(self) -> None:
        check = getattr(self, "check", None)
        if check is None or check.input.always_expanded:
            return
        level = self.history[0].input.level if self.history else check.input.level
        for step in check.steps:
            if step.kind == "level":
                level = step.source
            elif step.kind in EXPANDED_ONLY:
                assert level == "expanded", f"{step.kind} on a {level} check without a record"

    @invariant()
    def energy_within_the_pool(self) -> None:
        check = getattr(self, "check", None)
        if check is not None:
            assert 0 <= check.pool_after <= check.input.energy_pool


TestCheckMachine = CheckMachine.TestCase
TestCheckMachine.settings = settings(
    max_examples=examples(40), stateful_step_count=12, deadline=None
)
