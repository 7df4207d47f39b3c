"""A Древо fight played as a table plays it, through the engine alone: any action at any
distance, Судьба, undo, redo, a reopened store, a second kubik changing or removing a fighter,
the next round, the end — against the store. No Textual: every rule is an engine step
(:mod:`tui.systems.drevo.fight.steps`) written by the same session the seats and ``kubik fight``
use.

Issue 30: one against three (a lone fighter's dice are the same in each of his exchanges of a
round), and a second window open beside this one that makes its own steps — fight steps too —
and undoes them: no window ever undoes the other's change; an undo that the other window's
later change built on is refused with the reason and changes nothing.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from rules.encounter import ACTION_KINDS, Declaration
from rules.errors import RulesError
from rules.initiative import declaration_order
from tests.hypo import examples
from tests.table.helpers import Table
from tui.store import StaleWrite, Store, UndoRefused
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight import steps

DOC = steps.DOC
SIDES = ("Отряд", "Противники", "Третья сторона")


class FightMachine(RuleBasedStateMachine):
    """Rules are what a GM may do in any order; invariants are what must never happen."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="kubik-fight-"))
        self.path = self.dir / "c.json"
        self.store = Store.open(self.path, system="drevo")
        self.table = Table(self.store, seed=1)
        self.picks = random.Random(0)
        self.removed: set[str] = set()
        #: The second window, open all along: its own steps, its own undo.
        self.other = Store.open(self.path)
        self.other_table = Table(self.other, seed=2)

    def teardown(self) -> None:
        self.store.close()
        self.other.close()

    @property
    def enc(self) -> Any:
        return self.table.enc

    def _can_act(self, cid: str) -> bool:
        return bridge.can_act(self.store.character(cid) if cid not in self.removed else None)

    def _step(self, step: Any, *args: Any, **kwargs: Any) -> bool:
        """Make a step; a refused one writes nothing at all. A step made on a fight the other
        window changed meanwhile is refused by the store (StaleWrite): nothing is written,
        and this window reads the fight anew. Returns whether the step was written."""
        before = (self.store.get_doc(DOC), self.store.depth, len(self.store.log()))
        try:
            outcome = self.table.run(step, *args, **kwargs)
        except StaleWrite as err:
            event(f"{step.__name__}: stale (the other window stepped)")
            assert "другом окне" in str(err), str(err)
            self.other.refresh()  # what is stored is the other window's step, not this one's
            assert self.store.get_doc(DOC) == self.other.get_doc(DOC)
            return False
        event(f"{step.__name__}: {'ok' if outcome.ok else 'refused'}")
        if not outcome.ok:
            assert outcome.refused.strip(), "a refusal without a reason"
            after = (self.store.get_doc(DOC), self.store.depth, len(self.store.log()))
            assert after == before, f"a refused {step.__name__} wrote something"
        return outcome.ok

    # -- setting up a fight ------------------------------------------------------------------

    @precondition(lambda self: self.enc.phase == "setup")
    @rule(sides=st.integers(2, 3), data=st.data())
    def start(self, sides: int, data: st.DataObject) -> None:
        """Put 2–4 of the party on 2 or 3 sides and roll initiative (or set an ambush)."""
        everyone = [c for c in self.store.characters() if bridge.can_act(c)]
        if len(everyone) < 2:
            return
        count = data.draw(st.integers(2, min(4, len(everyone))))
        people = data.draw(st.permutations(everyone))[:count]
        for c in self.store.characters():
            self._step(steps.set_side, c.id, None)
        for i, c in enumerate(people):
            self._step(steps.set_side, c.id, SIDES[i % sides])
        if data.draw(st.booleans()):
            self._step(steps.roll_initiative)
        else:
            self._step(steps.ambush, data.draw(st.permutations(list(self.enc.sides))))

    @precondition(lambda self: self.enc.phase == "setup")
    @rule(data=st.data())
    def start_one_against_three(self, data: st.DataObject) -> None:
        """Сид: «один персонаж убегает от троих»: one NPC against three of the party."""
        pcs = [c for c in self.store.characters() if c.kind == "pc" and bridge.can_act(c)]
        npcs = [c for c in self.store.characters() if c.kind == "npc" and bridge.can_act(c)]
        if len(pcs) < 3 or not npcs:
            return
        lone = data.draw(st.sampled_from(npcs))
        three = data.draw(st.permutations(pcs))[:3]
        for c in self.store.characters():
            self._step(steps.set_side, c.id, None)
        self._step(steps.set_side, lone.id, "Противники")
        for c in three:
            self._step(steps.set_side, c.id, "Отряд")
        self._step(steps.roll_initiative)

    @precondition(lambda self: self.enc.phase == "setup" and len(self.enc.sides) >= 2)
    @rule()
    def roll_initiative(self) -> None:
        """`i` on the fight as it is set up (again after an undo: the same dice)."""
        self._step(steps.roll_initiative)

    # -- declaring ----------------------------------------------------------------------------

    def _declarer(self) -> Any:
        enc = self.enc
        return enc.next_declarer(self._can_act) if enc.phase == "declare" else None

    def _targets(self, current: Any) -> list[str]:
        return [
            c.character_id
            for c in self.enc.combatants
            if c.side != current.side
            and c.character_id not in self.removed
            and not bridge.is_dead(self.store.character(c.character_id))
        ]

    @precondition(lambda self: self.enc.phase == "declare")
    @rule(
        action=st.sampled_from(ACTION_KINDS),
        distance=st.sampled_from(drevo.DISTANCES),
        allow=st.booleans(),
        data=st.data(),
    )
    def declare(self, action: str, distance: str, allow: bool, data: st.DataObject) -> None:
        """Declare any action at any distance; an illegal one needs the GM's «!»."""
        current = self._declarer()
        if current is None:
            self._step(steps.start_resolution)
            return
        actor = self.store.character(current.character_id)
        assert bridge.can_act(actor), "a fighter who cannot act was asked to declare"
        weapon = data.draw(st.sampled_from(bridge.weapon_names(actor)))
        targets = self._targets(current)
        target = data.draw(st.sampled_from(targets)) if targets else None
        try:
            d = Declaration(
                actor=actor.id,
                action=action,
                target=target if action in ("melee", "throw", "shoot") else None,
                weapon=None if weapon == bridge.NO_WEAPON else weapon,
                distance=distance,
            )
        except RulesError:
            return  # the form refuses (no target): nothing is written
        self._step(steps.declare, d, allow=allow)

    @precondition(lambda self: self.enc.phase == "declare")
    @rule(data=st.data())
    def declare_a_blow(self, data: st.DataObject) -> None:
        """The common case: strike, shoot or dodge as the sheet allows."""
        current = self._declarer()
        if current is None:
            self._step(steps.start_resolution)
            return
        actor = self.store.character(current.character_id)
        targets = self._targets(current)
        kinds = {drevo.weapon(w).kind: w for w in actor.weapons if w in drevo.weapons()}
        choices = [("dodge", None, "close")]
        if targets:
            choices.append(("melee", kinds.get("melee"), "close"))
            if "bow" in kinds or "firearm" in kinds:
                choices.append(("shoot", kinds.get("bow") or kinds.get("firearm"), "medium"))
        action, weapon, distance = data.draw(st.sampled_from(choices))
        d = Declaration(
            actor=actor.id,
            action=action,
            target=data.draw(st.sampled_from(targets)) if action != "dodge" else None,
            weapon=weapon,
            distance=distance,
        )
        assert bridge.declaration_problem(d, actor)[0] == "", d
        before = len(self.enc.declarations)
        if self._step(steps.declare, d):
            enc = self.enc
            assert enc.phase == "resolve" or len(enc.declarations) == before + 1, "a blow lost"

    # -- the dice -----------------------------------------------------------------------------

    def _stage(self) -> str:
        return self.table.stage()

    @precondition(lambda self: self._stage() == "plan")
    @rule()
    def roll(self) -> None:
        if self._step(steps.roll):
            assert self._stage() in ("rolled", "refused"), "a roll left no dice in the store"

    @precondition(lambda self: self._stage() == "plan")
    @rule()
    def fate_before(self) -> None:
        offers = [o for o in self.table.view().fate_before_offers() if not o.refused]
        if offers:
            self._step(steps.fate_before, self.picks.choice(offers).value)

    @precondition(lambda self: self._stage() == "rolled")
    @rule()
    def fate_shift(self) -> None:
        offers = self.table.view().shift_offers()
        if offers:
            self._step(steps.fate_shift, *self.picks.choice(offers).value)

    @precondition(lambda self: self._stage() == "rolled")
    @rule()
    def reroll_tie(self) -> None:
        self._step(steps.reroll_tie)

    @precondition(lambda self: self._stage() in ("rolled", "damage", "done"))
    @rule(reduce=st.integers(0, 3))
    def accept(self, reduce: int) -> None:
        if self._stage() == "damage" and reduce:
            self._step(steps.damage, reduce)
        else:
            self._step(steps.accept)

    @precondition(lambda self: self._stage() in ("plan", "refused"))
    @rule()
    def skip(self) -> None:
        self._step(steps.skip)

    @precondition(lambda self: self.enc.phase != "setup")
    @rule()
    def remove_fallen(self) -> None:
        fallen = [c for c in self.enc.combatants if not self._can_act(c.character_id)]
        if fallen:
            self._step(steps.remove_fallen, self.picks.choice(fallen).character_id)

    # -- the round, the fight -----------------------------------------------------------------

    @precondition(lambda self: self.enc.phase == "resolve" and not self.enc.pending())
    @rule()
    def next_round(self) -> None:
        self._step(steps.next_round)

    @precondition(lambda self: self.enc.phase != "setup")
    @rule()
    def end(self) -> None:
        if self._step(steps.end):
            assert self.store.get_doc(DOC) is None

    # -- undo, redo, reopen, a second kubik -----------------------------------------------------

    def _docs(self) -> tuple[Any, Any]:
        self.store.refresh()  # the other window may have written meanwhile
        return self.store.get_doc(DOC), sorted(
            (c.id, c.drevo.fate, tuple(sorted(c.drevo.wounds.items())), c.drevo.dead)
            for c in self.store.characters()
        )

    def _others_steps(self) -> tuple[list[str], list[str]]:
        self.other.refresh()
        return self.other.undo_labels(200), self.other.redo_labels(200)

    def _undo(self, table: Table, store: Store) -> str | None:
        """Ctrl+Z in a window: its own step, or a refusal that names the other's change and
        writes nothing."""
        self.store.refresh()
        store.refresh()
        before = (self._docs(), store.depth)
        theirs = self._others_steps() if store is self.store else None
        try:
            label = table.undo()
        except UndoRefused as err:
            event("undo refused: another window built on it")
            assert "другого окна" in str(err) or "другом окне" in str(err), str(err)
            self.store.refresh()
            store.refresh()
            assert (self._docs(), store.depth) == before, "a refused undo wrote something"
            return None
        if theirs is not None:
            assert self._others_steps() == theirs, "this window undid the other's change"
        return label

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo_then_redo(self) -> None:
        """Undo followed by redo gives the same documents (unless the undo is refused)."""
        before = self._docs()
        if self._undo(self.table, self.store) is None:
            return
        try:
            assert self.table.redo() is not None
        except UndoRefused:  # the other window changed it in between: never here
            raise AssertionError("a redo right after its undo was refused") from None
        assert self._docs() == before

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo(self) -> None:
        self._undo(self.table, self.store)
        self.removed = {cid for cid in self.removed if self.store.character(cid) is None}

    @precondition(lambda self: self.store.can_redo)
    @rule()
    def redo(self) -> None:
        try:
            assert self.table.redo() is not None
        except UndoRefused as err:
            assert "другого окна" in str(err) or "другом окне" in str(err), str(err)
        self.removed = {cid for cid in self.removed if self.store.character(cid) is None}

    # -- the second window, open all along ------------------------------------------------------

    @rule(data=st.data())
    def other_window_grants_fate(self, data: st.DataObject) -> None:
        """The other window gives a point of Судьба (its own undo step)."""
        self.other.refresh()
        c = data.draw(st.sampled_from(self.other.characters()))
        self.other.upsert_character(
            c.edit_sheet(DrevoSheet, fate=c.drevo.fate + 1), label=f"Судьба {c.name}"
        )
        assert self.other.undo_labels(1) == [f"Судьба {c.name}"]

    @rule()
    def other_window_steps_the_fight(self) -> None:
        """The other window (a GM's second screen, ``kubik fight``) takes the fight's next
        step; refused ones write nothing."""
        self.other.refresh()
        view = self.other_table.view()
        if view is None:
            return
        step = {"plan": steps.roll, "rolled": steps.accept, "damage": steps.accept}.get(
            view.stage, steps.finish
        )
        self.other_table.run(step)

    @precondition(lambda self: self.other.can_undo)
    @rule()
    def other_window_undoes(self) -> None:
        """Ctrl+Z in the other window: only its own steps; this window's stay."""
        mine = (self.store.undo_labels(200), self.store.redo_labels(200))
        self._undo(self.other_table, self.other)
        self.store.refresh()
        assert (self.store.undo_labels(200), self.store.redo_labels(200)) == mine

    @rule()
    def reopen(self) -> None:
        """Quit and start again (or a crash): the same state comes back from the file."""
        before = self._docs()
        self.store.close()
        self.store = Store.open(self.path)
        self.table = Table(self.store, seed=self.picks.randrange(1000))
        assert self._docs() == before

    @rule(data=st.data())
    def second_kubik(self, data: st.DataObject) -> None:
        """Another kubik on the same file gives a character a point of Судьба."""
        other = Store.open(self.path)
        try:
            c = data.draw(st.sampled_from(other.characters()))
            other.upsert_character(c.edit_sheet(DrevoSheet, fate=c.drevo.fate + 1))
        finally:
            other.close()
        self.store.refresh()
        assert self.store.character(c.id).drevo.fate == c.drevo.fate + 1

    @precondition(lambda self: len(self.store.characters()) > 2)
    @rule(data=st.data())
    def second_kubik_removes_a_fighter(self, data: st.DataObject) -> None:
        """Another kubik deletes a character (maybe one in the fight): the fight goes on."""
        other = Store.open(self.path)
        try:
            c = data.draw(st.sampled_from(other.characters()))
            other.delete_character(c.id)
        finally:
            other.close()
        self.store.refresh()
        self.removed.add(c.id)

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def one_roll_per_fighter_a_round(self) -> None:
        """Сид: «каждый участник делает один бросок 4dF. Потом сравниваются результаты»: a
        fighter's dice are the same in each of his exchanges of a round (a tie rolled again
        is a new check of those two)."""
        seen: dict[Any, Any] = {}
        for entry in self.store.log():
            data = entry.data or {}
            xid, ids = data.get("exchange"), data.get("ids")
            if not entry.text.startswith("Схватка") or not isinstance(ids, dict):
                continue
            fight, round_no, _key, attempt = str(xid).rsplit(":", 3)
            if attempt != "1":
                continue
            for role, dice in (data.get("dice") or {}).items():
                if dice is not None and ids.get(role):
                    key = (fight, round_no, ids[role])
                    assert seen.setdefault(key, dice) == dice, f"{ids[role]} rolled twice"

    @invariant()
    def no_exchange_is_rolled_twice(self) -> None:
        """The same exchange attempt always shows the same dice (after undo, restart too)."""
        seen: dict[Any, Any] = {}
        for entry in self.store.log():
            data = entry.data or {}
            if entry.text.startswith("Схватка") and "exchange" in data and "dice" in data:
                xid = data["exchange"]
                shown = {k: v for k, v in data["dice"].items() if v is not None}
                for role, dice in shown.items():
                    assert seen.setdefault((xid, role), dice) == dice, f"{xid} rolled twice"

    @invariant()
    def no_initiative_is_rolled_twice(self) -> None:
        """Initiative rolled again right after its undo (the fight's line before it is that
        undone roll, of the same sides) shows the same dice: after an undo, a restart, or
        from another window."""
        fight = [e for e in self.store.log() if e.kind == "combat" and "round" in e.data]
        if len(fight) < 2:
            return
        now, before = fight[0], fight[1]
        rolled = [e.data.get("initiative") for e in (now, before)]
        if now.undone or not before.undone or not all(isinstance(r, list) for r in rolled):
            return
        if {i["side"] for i in rolled[0]} != {i["side"] for i in rolled[1]}:
            return
        ambush = [bool(e.data.get("ambush")) for e in (now, before)]
        if ambush == [True, True]:  # the GM's order set again: the same fight, its dice too
            event("ambush set again after its undo")
            assert now.data.get("fight") == before.data.get("fight"), "a new fight on an undo"
        elif ambush == [False, False]:
            event("initiative rolled again after its undo")
            assert rolled[0] == rolled[1], "initiative rolled twice"

    @invariant()
    def every_attack_is_resolved_or_skipped_on_the_record(self) -> None:
        """A resolved round accounts for every exchange; a skip is a GM choice in the log."""
        enc = self.enc
        if enc.phase != "resolve":
            return
        keys = [p.key for p in enc.pairings()]
        done = [o["key"] for o in enc.outcomes]
        # An exchange of a fighter taken out of the fight since stays in the round's record.
        assert [k for k in done if k in keys] == [k for k in keys if k in enc.resolved]
        assert sorted(done) == sorted(enc.resolved)
        skipped = [o for o in enc.outcomes if o.get("skipped")]
        logged = [e for e in self.store.log() if e.text.startswith("Схватка пропущена")]
        assert len(logged) >= len(skipped)

    @invariant()
    def the_dead_never_act(self) -> None:
        enc = self.enc
        if enc.phase != "declare":
            return
        current = self._declarer()
        if current is not None:
            assert self._can_act(current.character_id)
        assert not enc.exchange, "an exchange in progress outside the dice phase"

    @invariant()
    def rolled_attackers_could_act(self) -> None:
        view = self.table.view()
        event(f"stage: {self.enc.phase} {view.stage if view else ''}")
        if view is not None and view.result is not None and view.plan is not None:
            assert view.plan.attacker.fighter.wounds.can_act, "a fallen fighter rolled an attack"

    @invariant()
    def the_odds_before_a_roll_are_whole(self) -> None:
        """The odds of the exchange on turn (against the round's rolls already made, with
        the Судьба moved on them) sum to exactly 1; a result already rolled has none."""
        view = self.table.view()
        if view is None or view.plan is None:
            return
        odds = view.odds()
        if view.result is not None:
            assert odds == {}
        else:
            assert sum(odds.values()) == 1, odds

    @invariant()
    def every_written_hit_is_on_its_target(self) -> None:
        """A hit written in the exchange is on the character's track (until undone)."""
        view = self.table.view()
        if view is None:
            return
        for d in view.exchange.damage:
            c = self.store.character(d.cid)
            assert c is None or bridge.track_of(c).counts != {} or d.final == "death"

    @invariant()
    def declaring_order_follows_the_seed(self) -> None:
        """Сид: «В следующем раунде первой ходит сторона, проигравшая бросок на инициативу»;
        «Если сторон … больше двух … В следующем раунде — обратная последовательность»."""
        enc = self.enc
        if enc.phase == "setup" or not enc.sides:
            return
        expected = list(enc.sides) if enc.round % 2 == 1 else list(reversed(enc.sides))
        assert enc.side_order() == expected == declaration_order(enc.sides, enc.round)
        done = {d.actor for d in enc.declarations}
        order = enc.declaring_order(self._can_act)
        sides = [c.side for c in order]
        assert sides == sorted(sides, key=expected.index)
        current = self._declarer()
        if current is not None:
            first_open = next(c for c in order if c.character_id not in done)
            assert current == first_open


FightMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("FIGHT_EXAMPLES", examples(6))),
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_a_fight_at_the_table = FightMachine.TestCase
