"""What a Древо fight shows, derived from the state and the current sheets (never copied).

:func:`exchange_view` is the one reading of the exchange in progress: the pairing on turn, the
plan the rules make of it (with the wounds and effects its fighters had at the roll, once
rolled), the rules' refusal, the result with every Судьба shift, the stage it stands at and
the choices the rules give now. The Бой tab, the seats and ``kubik fight`` all read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any, cast

from rules import drevo
from rules.encounter import ATTACKS, Combatant, Declaration, Encounter, Pairing
from rules.errors import RulesError
from tui import words
from tui.store import Character, LogEntry
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.exchange import ROLES, Exchange
from tui.table.core import World, undone_roll

#: Every 4dF roll, each as likely as the others.
_FACES = tuple(product((-1, 0, 1), repeat=4))
#: How many Журнал entries are searched for an exchange's earlier dice.
EARLIER_DICE_LIMIT = 500
BEFORE_ROLL_ONLY = "Кости этой схватки уже брошены: «+4 без броска» — только до броска."


@dataclass(frozen=True)
class Offer:
    """A choice the rules give now: its label, its value, why it is refused ("" if not)."""

    label: str
    value: object
    refused: str = ""


@dataclass(frozen=True)
class ExchangeView:
    """The exchange on turn, as the state and the sheets give it now."""

    pairing: Pairing
    number: int
    total: int
    exchange: Exchange
    ids: Mapping[str, str]
    plan: drevo.ExchangePlan | None
    refusal: str
    result: drevo.ExchangeResult | None
    #: The dice of this attempt already fell (they are in the Журнал, an undo left them).
    earlier: Mapping[str, object] | None
    round_no: int
    characters: Mapping[str, Character] = field(repr=False)
    #: Each fighter's one roll of this round so far (id → dice, None: Судьба «+4 без
    #: броска»), from the state or, after an undo, the Журнал.
    round_dice: Mapping[str, object] = field(default_factory=dict)
    #: Lines saying how the campaign's fight settings change this exchange.
    setting_notes: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """The label prefix of this exchange's undo steps (undone and redone together)."""
        return f"Раунд {self.round_no}, схватка {self.number}"

    @property
    def stage(self) -> str:
        """``refused``, ``plan``, ``rolled``, ``damage`` or ``done``."""
        if self.refusal:
            return "refused"
        if self.result is None:
            return "plan"
        if not self.exchange.accepted:
            return "rolled"
        if len(self.exchange.damage) < len(self.result.hits):
            return "damage"
        return "done"

    def character(self, role: str) -> Character | None:
        """Return the character playing ``role`` in this exchange."""
        return self.characters.get(self.ids.get(role, ""))

    def role_of(self, character_id: str) -> str | None:
        """Return the role ``character_id`` plays in this exchange, or None."""
        return next((r for r, cid in self.ids.items() if cid == character_id), None)

    @property
    def hit(self) -> drevo.Hit | None:
        """The hit whose damage is to be written now (stage ``damage``)."""
        if self.stage != "damage":
            return None
        assert self.result is not None
        return self.result.hits[len(self.exchange.damage)]

    #: Судьба moved on a fighter's one roll of the round in an earlier exchange (it moves
    #: that roll wherever it is compared): per role, ``(points, who)``.
    carried_shifts: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)

    def shift_names(self) -> dict[str, list[tuple[int, str]]]:
        names = {cid: c.name for cid, c in self.characters.items()}
        found = {r: list(moved) for r, moved in self.carried_shifts.items()}
        for role, moved in self.exchange.shift_names(names).items():
            found.setdefault(role, []).extend(moved)
        return found

    # -- the odds before the roll ----------------------------------------------------------------

    def known_dice(self) -> dict[str, tuple[int, ...] | None]:
        """Per role, the dice this exchange will take before it is rolled: a fighter who rolled
        earlier this round meets this opponent with that roll (None: his «+4 без броска»)."""
        plan = self.plan
        if plan is None or self.result is not None or self.exchange.attempt != 1:
            return {}
        found: dict[str, tuple[int, ...] | None] = {}
        for role, cid in self.ids.items():
            if role in ROLES and plan.side(role).rolls and cid in self.round_dice:
                kept = self.round_dice[cid]
                found[role] = kept_dice(kept) if kept is not None else None
        return found

    def odds(self) -> dict[str, Fraction]:
        """The exact odds of the outcomes before the roll (empty after it): of the dice still
        to fall, against a roll already made this round (seed: «каждый участник делает один
        бросок 4dF. Потом сравниваются результаты»), with Судьба already moved on it."""
        plan = self.plan
        if plan is None or self.result is not None:
            return {}
        fate = frozenset(self.exchange.fate_before)
        known = self.known_dice()
        if not known:
            return dict(drevo.exchange_odds(plan, fate))
        fate |= {role for role, dice in known.items() if dice is None}
        rolling = [r for r in ROLES if plan.side(r).rolls and r not in known and r not in fate]
        counts: dict[str, int] = {}
        for combo in product(_FACES, repeat=len(rolling)):
            dice = {**known, **dict(zip(rolling, combo, strict=True))}
            result = drevo.resolve_exchange_with_dice(
                plan, dice.get("attacker"), dice.get("defender"), fate=fate
            )
            for role, moved in self.carried_shifts.items():
                result = drevo.shift_exchange(result, role, sum(p for p, _ in moved))
            counts[result.outcome] = counts.get(result.outcome, 0) + 1
        whole = len(_FACES) ** len(rolling)
        return {k: Fraction(counts.get(k, 0), whole) for k in drevo.EXCHANGE_OUTCOMES[plan.kind]}

    # -- the choices the rules give now ----------------------------------------------------------

    def fate_before_offers(self) -> list[Offer]:
        """Судьба «+4 без броска» (uses 1 and 3), per rolling side with points: before the
        roll only. Empty when no side may spend it now (a refused offer is listed only
        beside one that may be taken)."""
        plan = self.plan
        if plan is None or self.result is not None or self.earlier:
            return []
        use = plan.fate_use_before_roll
        rules = drevo.fate_rules()
        offers = []
        for role in ROLES:
            c = self.character(role)
            if c is None or not plan.side(role).rolls or role in self.exchange.fate_before:
                continue
            refused = ""
            try:
                drevo.spend_fate(use, c.drevo.fate, rules=rules)
            except RulesError as err:
                refused = str(err)
            if c.id in self.round_dice:
                refused = (
                    f"{c.name}: бросок этого раунда уже сделан — один бросок на раунд "
                    "сравнивается с каждым противником."
                )
            if c.drevo.fate > 0 or refused:
                label = f"{c.name}: Судьба — «+4 без броска» (1 очко из {c.drevo.fate})"
                offers.append(Offer(label, role, refused))
        return [o for o in offers if not o.refused] and offers

    def shift_offers(self) -> list[Offer]:
        """Судьба after the roll (use 2): ±1 a point, per rolling side with points."""
        plan, result = self.plan, self.result
        if result is None or plan is None or not drevo.fate_rules().allows("shift"):
            return []
        if self.exchange.accepted:
            return []
        offers = []
        for role in ROLES:
            c = self.character(role)
            if c is None or not plan.side(role).rolls or c.drevo.fate <= 0:
                continue
            for points in range(1, c.drevo.fate + 1):  # «два — на две и т.д.»: all he has
                for sign in (1, -1):
                    label = (
                        f"{c.name}: {words.signed(sign * points)} Судьбой ({words.points(points)})"
                    )
                    offers.append(Offer(label, (role, sign * points)))
        return offers

    # -- which moves apply now (the Бой tab's key bar and ``kubik fight show`` ask these) -------

    def may_fate_before(self) -> bool:
        """Whether someone may spend Судьба «+4 без броска» now."""
        return self.stage == "plan" and any(not o.refused for o in self.fate_before_offers())

    def may_shift(self) -> bool:
        """Whether someone may move the rolled result with Судьба now."""
        return self.stage == "rolled" and bool(self.shift_offers())

    def may_reroll(self) -> bool:
        """Whether the result is a tie that may be rolled again (not accepted yet)."""
        return self.stage == "rolled" and self.result is not None and self.result.tie

    def may_reduce(self) -> bool:
        """Whether Судьба may lower the hit to be written now."""
        return self.stage == "damage" and bool(self.reduce_options())

    def unspent_fate_warning(self) -> str:
        """Why accepting the hit as it is deserves a question: it kills or takes the
        character out while he still has Судьба that could lower it ("" otherwise)."""
        hit = self.hit
        c = self.character(hit.target) if hit is not None else None
        options = self.reduce_options()
        if hit is None or c is None or not options:
            return ""
        track = bridge.track_of(c)
        after = track.take(hit.level)
        if after.dead:
            what = "смерть"
        elif not after.can_act:
            what = "тяжёлая рана: из боя выбывает"
        else:
            return ""
        saved = [track.take(level) for level, _cost in options]
        if not any((s.dead, s.can_act) != (after.dead, after.can_act) for s in saved):
            return ""  # no point of his changes it (a heavily wounded man dies of any wound)
        return (
            f"{c.name}: этот урон — {what}, а Судьбы ещё {words.points(c.drevo.fate)}: "
            f"каждое очко снимает уровень урона."
        )

    def reduce_options(self) -> tuple[tuple[str, int], ...]:
        """What Судьба can lower the current hit to: ``(level, cost)`` (use 4)."""
        hit = self.hit
        if hit is None:
            return ()
        c = self.character(hit.target)
        return drevo.reduce_options(hit.level, c.drevo.fate) if c else ()


def exchange_id(enc: Encounter, key: str, attempt: int) -> str:
    """The name of an exchange attempt: the fight, the round, the pairing, the attempt."""
    return f"{enc.id}:{enc.round}:{key}:{attempt}"


def earlier_dice(world: World, exchange: str) -> dict[str, object] | None:
    """The dice already rolled for this exchange attempt, from the Журнал (never undone)."""
    for entry in world.journal(EARLIER_DICE_LIMIT):
        data = entry.data or {}
        dice = data.get("dice")
        if data.get("exchange") == exchange and isinstance(dice, dict):
            if any(d is not None for d in dice.values()):
                return dict(dice)
    return None


def earlier_initiative(
    sides: Iterable[str], world: World, *, ambush: bool = False
) -> Mapping[str, Any] | None:
    """The initiative these ``sides`` rolled before an undo took it back, from the Журнал
    (never undone): its line's data (``initiative``: each side's dice, best first; ``fight``:
    the fight's id), else None. ``ambush``: the order the GM set for them instead (its line's
    ``fight`` is the id the same fight takes again, and its exchanges their dice).

    Only a roll no fight stood on since: the newest Древо fight lines are searched back to the
    first that was not undone (a fight fought, or started by an ambush, ends its reach; a fight
    undone back to its setup does not). An undone roll of other sides is passed over.
    """
    wanted = set(sides)

    def ours(entry: LogEntry) -> bool:  # a line of a Древо fight
        return entry.kind == "combat" and "round" in (entry.data or {})

    def same_sides(data: Mapping[str, Any]) -> bool:
        how = data.get("initiative")
        return (
            isinstance(how, list)
            and bool(data.get("ambush")) == ambush
            and all(isinstance(i, Mapping) and (ambush or i.get("rolls")) for i in how)
            and {i.get("side") for i in how} == wanted
            and len(how) == len(wanted)
        )

    return undone_roll(world, ours, same_sides, EARLIER_DICE_LIMIT)


def pairing_now(enc: Encounter) -> Pairing | None:
    """The exchange on turn (the first not resolved), in the dice phase."""
    pending = enc.pending() if enc.phase == "resolve" else []
    return pending[0] if pending else None


def stored_exchange(enc: Encounter, pairing: Pairing) -> Exchange:
    """The stored exchange of ``pairing`` (a fresh one before anything happened)."""
    raw = enc.exchange or {}
    if raw.get("key") != pairing.key:
        return Exchange(pairing.key)
    try:
        return Exchange.from_dict(raw)
    except (TypeError, ValueError, KeyError):
        return Exchange(pairing.key)


def round_key(enc: Encounter) -> str:
    """The name of a round's rolls: the fight and the round."""
    return f"{enc.id}:{enc.round}"


def kept_dice(kept: object) -> tuple[int, ...]:
    """A fighter's kept roll as :func:`round_dice` found it (a list of faces, from the state
    or the Журнал's JSON) as a tuple of ints."""
    return tuple(int(x) for x in cast("Iterable[Any]", kept))


def round_dice(enc: Encounter, world: World) -> dict[str, object]:
    """Each fighter's one roll of this round: from the state, else (an undo took it off the
    state) from the Журнал, which is never undone — a fighter never rolls twice a round."""
    found: dict[str, object] = {}
    if enc.id and enc.phase == "resolve":
        key = round_key(enc)
        for entry in world.journal(EARLIER_DICE_LIMIT):
            data = entry.data or {}
            if data.get("round_roll") == key and isinstance(data.get("round_dice"), dict):
                for cid, dice in data["round_dice"].items():
                    found.setdefault(str(cid), dice)
    found.update(enc.rolled)
    return found


def wounds_for_plan(enc: Encounter, world: World) -> dict[str, dict[str, int]] | None:
    """The wounds an exchange not rolled yet is planned with: the round's start with
    simultaneous rounds (seed: «действия совершаются одновременно»), else None (as now)."""
    if not drevo.fight_settings().simultaneous:
        return None
    start = dict(enc.round_wounds)
    for c in enc.combatants:  # before the round's first roll: as they are now
        if c.character_id not in start and c.character_id in world.characters:
            start[c.character_id] = bridge.wounds_now(world.characters[c.character_id])
    return start


def _setting_notes(enc: Encounter, world: World, ids: Mapping[str, str]) -> tuple[str, ...]:
    """Say where the campaign's «раны в раунде» setting changes this exchange."""
    notes = []
    simultaneous = drevo.fight_settings().simultaneous
    for cid in dict.fromkeys(ids.values()):
        c = world.characters.get(cid)
        start = enc.round_wounds.get(cid)
        if c is None or start is None:
            continue
        now = bridge.wounds_now(c)
        if now == dict(start):
            continue
        taken = bridge.track_of(c)
        state = words.wound_state(taken) or words.wound(taken.worst or "scratch").lower()
        if simultaneous:
            notes.append(
                f"{c.name}: раны этого раунда ({state}) — со следующего раунда "
                "(настройка кампании «раны в раунде»: одновременный раунд)."
            )
        else:
            notes.append(
                f"{c.name}: рана этого раунда уже действует ({state}) "
                "(настройка кампании «раны в раунде»: сразу — порядок схваток важен)."
            )
    return tuple(notes)


def engaged_elsewhere(enc: Encounter, pairing: Pairing, defender: str) -> Declaration | None:
    """The defender's attack on someone else this round, when it does not answer this one."""
    if pairing.answer is not None:
        return None
    for d in enc.all_declarations():
        if d.actor == defender and d.action in ATTACKS and d.target != pairing.attack.actor:
            return d
    return None


def carried_shifts(
    enc: Encounter, ex: Exchange, ids: Mapping[str, str], characters: Mapping[str, Character]
) -> dict[str, tuple[tuple[int, str], ...]]:
    """Судьба spent after the roll on a fighter's one roll of the round in the exchanges
    resolved before this one, per role of this exchange (seed: «каждый участник делает один
    бросок 4dF» and «поднять или опустить результат этого броска»: the roll moved is the one
    met here). A tie rerolled is a new roll: nothing carried into it."""
    if ex.attempt != 1:
        return {}
    found: dict[str, tuple[tuple[int, str], ...]] = {}
    for role, cid in ids.items():
        if cid not in enc.rolled or enc.rolled[cid] is None:
            continue
        moved = tuple(
            (int(points), f"{characters[cid].name if cid in characters else '?'}, раньше в раунде")
            for o in enc.outcomes
            for who, points in o.get("round_shifts", ())
            if who == cid
        )
        if moved:
            found[role] = moved
    return found


def weapon_gone(pairing: Pairing, characters: Mapping[str, Character]) -> str:
    """Why an exchange not rolled yet cannot be planned: a declared weapon is no longer on
    its fighter's sheet (taken off in Партия or by ``kubik`` since the declaration), else ""."""
    for d in (pairing.attack, pairing.answer):
        c = characters.get(d.actor) if d is not None else None
        if d is None or c is None or not d.weapon or d.weapon == bridge.NO_WEAPON:
            continue
        if d.weapon not in c.weapons:
            return (
                f"у {c.name} больше нет оружия «{d.weapon}» (лист изменён после заявки): "
                "пропустите схватку (s) или верните оружие на лист."
            )
    return ""


def exchange_view(enc: Encounter, world: World) -> ExchangeView | None:
    """Derive the exchange on turn from the fight and the sheets; None when there is none."""
    pairing = pairing_now(enc)
    if pairing is None:
        return None
    characters = world.characters
    ex = stored_exchange(enc, pairing)
    total = len(enc.pairings())
    number = total - len(enc.pending()) + 1
    plan_wounds = (
        {k: dict(v) for k, v in (ex.wounds or {}).items()}
        if ex.rolled
        else wounds_for_plan(enc, world)
    )
    # The roles as the plan reads them (a mutual exchange whose attacker fell earlier this
    # round keeps its attacker in a simultaneous round).
    ids: Mapping[str, str] = ex.ids or bridge.roles(
        pairing, bridge.as_at(dict(characters), plan_wounds)
    )
    plan: drevo.ExchangePlan | None = None
    refusal, result = "", None
    try:
        effects = ex.effects if ex.rolled and ex.effects is not None else None
        if effects is None:
            effects = world.effect_modifiers(bridge.roles(pairing, dict(characters)).values())
        engaged = engaged_elsewhere(enc, pairing, ids.get("defender", ""))
        plan = bridge.plan_for(pairing, dict(characters), plan_wounds, dict(effects), engaged)
    except RulesError as err:
        refusal = str(err)
    if not ex.rolled and not refusal:
        refusal = weapon_gone(pairing, characters)
    carried = carried_shifts(enc, ex, ids, characters)
    if plan is not None and ex.dice is not None:
        try:
            result = drevo.resolve_exchange_with_dice(
                plan, ex.dice.get("attacker"), ex.dice.get("defender"), fate=ex.fate_before
            )
            for role, moved in carried.items():
                if plan.side(role).rolls:
                    result = drevo.shift_exchange(result, role, sum(p for p, _ in moved))
            for s in ex.shifts:
                result = drevo.shift_exchange(result, s.role, s.points)
        except (RulesError, TypeError, ValueError) as err:
            refusal, result = f"сохранённый бросок не подходит к схватке ({err})", None
    earlier = None
    if result is None and plan is not None and enc.id:
        earlier = earlier_dice(world, exchange_id(enc, pairing.key, ex.attempt))
    return ExchangeView(
        pairing=pairing,
        number=number,
        total=total,
        exchange=ex,
        ids=ids,
        plan=plan,
        refusal=refusal,
        result=result,
        earlier=earlier,
        round_no=enc.round,
        characters=characters,
        round_dice=round_dice(enc, world),
        setting_notes=_setting_notes(enc, world, ids),
        carried_shifts=carried,
    )


def can_act(world: World) -> Callable[[str], bool]:
    """Whether a fighter may declare (not heavily wounded, not dead), by character id."""
    return lambda cid: bridge.can_act(world.characters.get(cid))


def fallen(enc: Encounter, world: World) -> list[Combatant]:
    """The fighters who can no longer act (heavily wounded or dead, or gone)."""
    return [c for c in enc.combatants if not bridge.can_act(world.characters.get(c.character_id))]


def settled(enc: Encounter, world: World) -> Encounter:
    """The fight as it stands: everyone left has declared (a fighter was removed, here or in
    another window) → the dice phase, as the last declaration would have made it. Derived,
    not written: the fight's next step saves the phase with it."""
    act = can_act(world)
    if enc.phase != "declare" or enc.next_declarer(act) is not None:
        return enc
    try:
        return enc.start_resolution(act)
    except RulesError:
        return enc


def pruned(enc: Encounter, world: World) -> Encounter:
    """Drop fighters whose characters were deleted from the party (setup only)."""
    if enc.phase != "setup":
        return enc
    for c in enc.combatants:
        if c.character_id not in world.characters:
            enc = enc.without(c.character_id)
    return enc


def default_encounter(characters: Mapping[str, Character]) -> Encounter:
    """A fight to set up: every character who can act, PCs in «Отряд», NPCs «Противники»."""
    side = {"pc": "Отряд", "npc": "Противники"}
    fighters = [
        Combatant(c.id, c.name, side[c.kind]) for c in characters.values() if bridge.can_act(c)
    ]
    return Encounter().with_combatants(fighters)  # one step (5,000 one by one: seconds)
