"""What a Древо fight shows, derived from the state and the current sheets (never copied).

:func:`exchange_view` is the one reading of the exchange in progress: the pairing on turn, the
plan the rules make of it (with the wounds and effects its fighters had at the roll, once
rolled), the rules' refusal, the result with every Судьба shift, the stage it stands at and
the choices the rules give now. The Бой tab, the seats and ``kubik fight`` all read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rules import drevo
from rules.encounter import Combatant, Encounter, Pairing
from rules.errors import RulesError
from tui import words
from tui.bridge import combat as bridge
from tui.store import Character
from tui.table.core import World
from tui.table.fight.exchange import ROLES, Exchange

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

    def shift_names(self) -> dict[str, list[tuple[int, str]]]:
        names = {cid: c.name for cid, c in self.characters.items()}
        return self.exchange.shift_names(names)

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
                drevo.spend_fate(use, c.fate, rules=rules)
            except RulesError as err:
                refused = str(err)
            if c.fate > 0 or refused:
                label = f"{c.name}: Судьба — «+4 без броска» (1 очко из {c.fate})"
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
            if c is None or not plan.side(role).rolls or c.fate <= 0:
                continue
            for points in (1, 2, 3):
                if points > c.fate:
                    break
                for sign in (1, -1):
                    label = (
                        f"{c.name}: {words.signed(sign * points)} Судьбой ({words.points(points)})"
                    )
                    offers.append(Offer(label, (role, sign * points)))
        return offers

    def reduce_options(self) -> tuple[tuple[str, int], ...]:
        """What Судьба can lower the current hit to: ``(level, cost)`` (use 4)."""
        hit = self.hit
        if hit is None:
            return ()
        c = self.character(hit.target)
        return drevo.reduce_options(hit.level, c.fate) if c else ()


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


def exchange_view(enc: Encounter, world: World) -> ExchangeView | None:
    """Derive the exchange on turn from the fight and the sheets; None when there is none."""
    pairing = pairing_now(enc)
    if pairing is None:
        return None
    characters = world.characters
    ex = stored_exchange(enc, pairing)
    total = len(enc.pairings())
    number = total - len(enc.pending()) + 1
    ids: Mapping[str, str] = ex.ids or bridge.roles(pairing, dict(characters))
    plan: drevo.ExchangePlan | None = None
    refusal, result = "", None
    try:
        effects = ex.effects if ex.rolled and ex.effects is not None else None
        if effects is None:
            effects = world.effect_modifiers(bridge.roles(pairing, dict(characters)).values())
        wounds = {k: dict(v) for k, v in (ex.wounds or {}).items()} if ex.rolled else None
        plan = bridge.plan_for(pairing, dict(characters), wounds, dict(effects))
    except RulesError as err:
        refusal = str(err)
    if plan is not None and ex.dice is not None:
        try:
            result = drevo.resolve_exchange_with_dice(
                plan, ex.dice.get("attacker"), ex.dice.get("defender"), fate=ex.fate_before
            )
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
