"""A Древо fight played as a table plays it: any action at any distance, Судьба, undo, redo,
a reopened store, the next round, the end — against the encounter and the store.

The exchange logic is the Бой tab's own (``ExchangeMixin``); a small driver stands in for the
widget: it writes through the same Store API, declares through the same legality check
(``combat_bridge.declaration_problem``) and undoes whole exchanges as the app does.
"""

from __future__ import annotations

import random
import tempfile
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from rules import drevo
from rules.encounter import ACTION_KINDS, Combatant, Declaration, Encounter
from rules.errors import RulesError
from rules.initiative import declaration_order
from tests.hypo import examples
from tui.bridge import combat as bridge
from tui.store import LogEntry, Store
from tui.widgets.combat.drevo_resolve import ExchangeMixin

DOC = "encounter"
SIDES = ("Отряд", "Противники", "Третья сторона")


class _App:
    """What the mixin asks of the app: dice, notices and the Судьба chooser."""

    def __init__(self, rng: random.Random, pick: Any) -> None:
        self.rng = rng
        self.notices: list[str] = []
        self._pick = pick

    def notify(self, text: str, **_: Any) -> None:
        self.notices.append(text)

    def push_screen(self, screen: Any, callback: Any) -> None:
        choices = [c for c in screen.choices if not c.refused]
        callback(self._pick(choices).value if choices else None)


class Driver(ExchangeMixin):
    """The Бой tab without a screen: state from the store, writes to the store."""

    def __init__(self, store: Store, app: _App) -> None:
        self.store = store
        self.app = app
        self.reload()

    def reload(self) -> None:
        self.characters = {c.id: c for c in self.store.characters()}
        saved = self.store.get_doc(DOC)
        self.encounter = Encounter.from_dict(saved) if saved else Encounter()

    def _save(self, enc: Encounter, label: str, upsert: tuple = (), then=None, failed=None) -> bool:
        """The pane's write, at once: saved, shown, then what follows it (its Журнал lines)."""
        self.store.apply(label, upsert=upsert, docs={DOC: enc.to_dict()})
        self.reload()
        if then is not None:
            then(self.store.take_last_step() or "")
        return True

    def _log(self, actor: str | None, text: str, data: dict | None = None, step: str = "") -> None:
        payload = {"round": self.encounter.round, **(data or {})}
        entry = LogEntry(uuid.uuid4().hex, "2026-01-01T00:00:00", "combat", actor, text, payload)
        self.store.append_log(entry)  # unlinked, as before: ``step`` only marks «отменено»

    def can_act(self, cid: str) -> bool:
        return bridge.can_act(self.characters.get(cid))


class FightMachine(RuleBasedStateMachine):
    """Rules are what a GM may do in any order; invariants are what must never happen."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="kubik-fight-"))
        self.path = self.dir / "c.json"
        self.store = Store.open(self.path, system="drevo")
        self.picks = random.Random(0)
        self.app = _App(random.Random(1), lambda choices: self.picks.choice(choices))
        self.fight = Driver(self.store, self.app)
        self.started = False

    def teardown(self) -> None:
        self.store.close()

    # -- setting up a fight ------------------------------------------------------------------

    @precondition(lambda self: self.fight.encounter.phase == "setup")
    @rule(sides=st.integers(2, 3), data=st.data())
    def start(self, sides: int, data: st.DataObject) -> None:
        """Put 2–4 of the party on 2 or 3 sides and roll the side order."""
        everyone = self.store.characters()
        count = data.draw(st.integers(max(sides, 2), 4))
        people = data.draw(st.permutations(everyone))[:count]
        enc = Encounter()
        for i, c in enumerate(people):
            enc = enc.with_combatant(Combatant(c.id, c.name, SIDES[i % sides]))
        order = data.draw(st.permutations(list(enc.sides)))
        enc = replace(enc.with_initiative(order), id=uuid.uuid4().hex)
        self.fight._save(enc, "Бой: инициатива")
        self.order = tuple(order)

    # -- declaring ----------------------------------------------------------------------------

    def _declarer(self) -> Combatant | None:
        return self.fight.encounter.next_declarer(self.fight.can_act)

    @precondition(lambda self: self.fight.encounter.phase == "declare")
    @rule(
        action=st.sampled_from(ACTION_KINDS),
        distance=st.sampled_from(drevo.DISTANCES),
        allow=st.booleans(),
        data=st.data(),
    )
    def declare(self, action: str, distance: str, allow: bool, data: st.DataObject) -> None:
        """Declare any action at any distance; an illegal one needs the GM's «!»."""
        fight = self.fight
        current = self._declarer()
        if current is None:
            fight._save(fight.encounter.start_resolution(fight.can_act), "Бой: к броскам")
            return
        actor = fight.characters[current.character_id]
        assert bridge.can_act(actor), "a fighter who cannot act was asked to declare"
        targets = [
            c.character_id
            for c in fight.encounter.combatants
            if c.side != current.side and not bridge.is_dead(fight.characters[c.character_id])
        ]
        weapons = bridge.weapon_names(actor)
        weapon = data.draw(st.sampled_from(weapons))
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
        problem, may_allow = bridge.declaration_problem(d, actor)
        if problem and not (allow and may_allow):
            return  # refused in the form
        if problem:
            d = replace(d, exception=problem)
        enc = fight.encounter.declare(d, fight.can_act)
        if enc.next_declarer(fight.can_act) is None:
            enc = enc.start_resolution(fight.can_act)
        fight._save(enc, f"Бой: заявка {actor.name}")
        fight._log(actor.name, "Заявка", {"declaration": vars(d)})

    @precondition(lambda self: self.fight.encounter.phase == "declare")
    @rule(data=st.data())
    def declare_a_blow(self, data: st.DataObject) -> None:
        """The common case: strike, shoot or dodge as the sheet allows."""
        fight = self.fight
        current = self._declarer()
        if current is None:
            fight._save(fight.encounter.start_resolution(fight.can_act), "Бой: к броскам")
            return
        actor = fight.characters[current.character_id]
        targets = [
            c.character_id
            for c in fight.encounter.combatants
            if c.side != current.side and not bridge.is_dead(fight.characters[c.character_id])
        ]
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
        enc = fight.encounter.declare(d, fight.can_act)
        if enc.next_declarer(fight.can_act) is None:
            enc = enc.start_resolution(fight.can_act)
        fight._save(enc, f"Бой: заявка {actor.name}")

    # -- the dice -----------------------------------------------------------------------------

    def _stage(self) -> str:
        return self.fight._exchange_stage() if self.fight._pairing() is not None else ""

    @precondition(lambda self: self._stage() == "plan")
    @rule()
    def roll(self) -> None:
        self.fight.roll_exchange()
        assert self._stage() in ("rolled", "refused"), "a roll left no dice in the store"

    @precondition(lambda self: self._stage() == "plan")
    @rule()
    def fate_before(self) -> None:
        if self.fight._fate_before_choices():
            self.fight.action_fate_before()

    @precondition(lambda self: self._stage() == "rolled")
    @rule()
    def fate_shift(self) -> None:
        if self.fight._shift_choices():
            self.fight.action_fate_shift()

    @precondition(lambda self: self._stage() == "rolled")
    @rule()
    def reroll_tie(self) -> None:
        _, _, result = self.fight._derive()
        if result is not None and result.tie:
            self.fight.roll_exchange(int(self.fight._ex().get("attempt", 1)) + 1)

    @precondition(lambda self: self._stage() in ("rolled", "damage", "done"))
    @rule(reduce=st.integers(0, 3))
    def accept(self, reduce: int) -> None:
        stage = self._stage()
        if (
            stage == "damage"
            and reduce
            and any(c == reduce for _, c in self.fight._reduce_options())
        ):
            self.fight.take_damage(reduce)
        else:
            self.fight.accept_exchange()

    @precondition(lambda self: self._stage() in ("plan", "refused"))
    @rule()
    def skip(self) -> None:
        _, refusal, _ = self.fight._derive()
        self.fight.finish_exchange(skipped=refusal or "решение ведущего")

    # -- the round, the fight -----------------------------------------------------------------

    @precondition(
        lambda self: self.fight.encounter.phase == "resolve" and not self.fight.encounter.pending()
    )
    @rule()
    def next_round(self) -> None:
        enc = self.fight.encounter.next_round()
        self.fight._save(enc, f"Бой: раунд {enc.round}")

    @precondition(
        lambda self: self.fight.encounter.phase == "resolve" and not self.fight.encounter.pending()
    )
    @rule()
    def end(self) -> None:
        self.store.put_doc(DOC, None, label="Бой завершён")
        self.fight.reload()

    # -- undo, redo, reopen ---------------------------------------------------------------------

    def _docs(self) -> tuple[Any, Any]:
        return self.store.get_doc(DOC), sorted(
            (c.id, c.fate, tuple(sorted(c.wounds.items())), bool(c.extra.get("dead")))
            for c in self.store.characters()
        )

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo_then_redo(self) -> None:
        """Undo followed by redo gives the same documents."""
        before = self._docs()
        label = self.store.undo()
        assert label is not None
        bridge.whole_exchange(self.store, self.store.undo, label)
        self.fight.reload()
        label = self.store.redo()
        assert label is not None
        bridge.whole_exchange(self.store, self.store.redo, label)
        self.fight.reload()
        assert self._docs() == before

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo(self) -> None:
        label = self.store.undo()
        assert label is not None
        bridge.whole_exchange(self.store, self.store.undo, label)
        self.fight.reload()

    @precondition(lambda self: self.store.can_redo)
    @rule()
    def redo(self) -> None:
        label = self.store.redo()
        assert label is not None
        bridge.whole_exchange(self.store, self.store.redo, label)
        self.fight.reload()

    @rule()
    def reopen(self) -> None:
        """Quit and start again (or a crash): the same state comes back from the file."""
        before = self._docs()
        self.store.close()
        self.store = Store.open(self.path)
        self.fight = Driver(self.store, self.app)
        assert self._docs() == before

    @rule(data=st.data())
    def second_kubik(self, data: st.DataObject) -> None:
        """Another kubik on the same file gives a character a point of Судьба."""
        other = Store.open(self.path)
        try:
            c = data.draw(st.sampled_from(other.characters()))
            other.upsert_character(replace(c, fate=c.fate + 1))
        finally:
            other.close()
        self.store.refresh()
        self.fight.reload()
        assert self.fight.characters[c.id].fate == c.fate + 1

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def no_exchange_is_rolled_twice(self) -> None:
        """The same exchange attempt always shows the same dice (after undo, restart too)."""
        seen: dict[str, Any] = {}
        for entry in self.store.log():
            data = entry.data or {}
            if entry.text.startswith("Схватка") and "exchange" in data and "dice" in data:
                xid = data["exchange"]
                shown = {k: v for k, v in data["dice"].items() if v is not None}
                for role, dice in shown.items():
                    assert seen.setdefault((xid, role), dice) == dice, f"{xid} rolled twice"

    @invariant()
    def every_attack_is_resolved_or_skipped_on_the_record(self) -> None:
        """A resolved round accounts for every exchange; a skip is a GM choice in the log."""
        enc = self.fight.encounter
        if enc.phase != "resolve":
            return
        keys = [p.key for p in enc.pairings()]
        done = [o["key"] for o in enc.outcomes]
        assert done == [k for k in keys if k in enc.resolved]
        assert sorted(done) == sorted(enc.resolved)
        skipped = [o for o in enc.outcomes if o.get("skipped")]
        logged = [e for e in self.store.log() if e.text.startswith("Схватка пропущена")]
        assert len(logged) >= len(skipped)

    @invariant()
    def the_dead_never_act(self) -> None:
        enc = self.fight.encounter
        if enc.phase != "declare":
            return
        current = self._declarer()
        if current is not None:
            assert bridge.can_act(self.fight.characters.get(current.character_id))
        ex = enc.exchange or {}
        assert not ex, "an exchange in progress outside the dice phase"

    @invariant()
    def rolled_attackers_could_act(self) -> None:
        event(f"stage: {self.fight.encounter.phase} {self._stage()}")
        plan, _, result = self.fight._derive()
        if result is not None and plan is not None:
            assert plan.attacker.fighter.wounds.can_act, "a fallen fighter rolled an attack"

    @invariant()
    def declaring_order_follows_the_seed(self) -> None:
        """Сид: «В следующем раунде первой ходит сторона, проигравшая бросок на инициативу»;
        «Если сторон … больше двух … В следующем раунде — обратная последовательность»."""
        enc = self.fight.encounter
        if enc.phase == "setup" or not enc.sides:
            return
        expected = list(enc.sides) if enc.round % 2 == 1 else list(reversed(enc.sides))
        assert enc.side_order() == expected == declaration_order(enc.sides, enc.round)
        done = {d.actor for d in enc.declarations}
        order = enc.declaring_order(self.fight.can_act)
        sides = [c.side for c in order]
        assert sides == sorted(sides, key=expected.index)
        current = self._declarer()
        if current is not None:
            first_open = next(c for c in order if c.character_id not in done)
            assert current == first_open


FightMachine.TestCase.settings = settings(
    max_examples=int(__import__("os").environ.get("FIGHT_EXAMPLES", examples(5))),
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_a_fight_at_the_table = FightMachine.TestCase
