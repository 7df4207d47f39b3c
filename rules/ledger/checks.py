"""The luck of one Журнал entry, computed from the result it records (a plain JSON dict).

Every system's result already keeps its inputs (trait, modifiers, difficulty, pool, energy…),
so the exact distribution of the roll is rebuilt from them with that system's own odds
functions, and the roll is placed in it (``rules.ledger.percentile``).

What counts as luck: the dice of each fresh roll, once. What a player chose to spend after
seeing the dice — a Судьба shift, energy after the roll, a reroll, Риск — is recorded beside
the luck (``spent``), not mixed into it: the entry that records such a move has no new
percentile. A roll made with Судьба declared before it (no dice) has none either.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.ledger.percentile import Luck, outcome_luck, total_luck

#: The keys of ``spent``: Судьба points, energy points, rerolls (Риск included).
SPENT_KINDS = ("fate", "energy", "rerolls")

Data = Mapping[str, Any]


@dataclass(frozen=True)
class RollLuck:
    """One fresh roll of an entry: who rolled it and where it landed."""

    who: str | None
    luck: Luck

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {"who": self.who, **self.luck.to_dict()}


@dataclass(frozen=True)
class EntryLuck:
    """The luck of one entry: its fresh rolls, and what was spent (who → kind → amount)."""

    rolls: tuple[RollLuck, ...] = ()
    spent: dict[str | None, dict[str, int]] = field(default_factory=dict)

    @property
    def percentile(self) -> float | None:
        """The first roll's percentile (the actor's), or ``None`` without a fresh roll."""
        return round(float(self.rolls[0].luck.percentile), 6) if self.rolls else None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (stored as the entry's ``data["luck"]``)."""
        return {
            "rolls": [r.to_dict() for r in self.rolls],
            "spent": [{"who": who, **kinds} for who, kinds in self.spent.items() if kinds],
        }


class _Tally:
    """The rolls and spending of one entry, while they are read from its data."""

    def __init__(self) -> None:
        self.rolls: list[RollLuck] = []
        self.spent: dict[str | None, dict[str, int]] = {}

    def roll(self, who: str | None, luck: Luck) -> None:
        self.rolls.append(RollLuck(who, luck))

    def spend(self, who: str | None, kind: str, n: int) -> None:
        if n:
            kinds = self.spent.setdefault(who, {})
            kinds[kind] = kinds.get(kind, 0) + n


def _name(side: Data) -> str | None:
    return side.get("name") or None


# -- Древо ------------------------------------------------------------------------------------


def _drevo_bonus(side: Data) -> int:
    return int(side["trait"]) + int(side.get("modifier_total", 0))


def _drevo_one_sided(data: Data) -> Luck:
    from rules.drevo.check import OUTCOMES, one_sided_outcome
    from rules.drevo.odds import ROLLS, one_sided_counts

    bonus, difficulty, dice_sum = _drevo_bonus(data["side"]), data["difficulty"], data["dice_sum"]
    # The dice's outcome, before any Судьба shift: the shift is spent, not luck.
    outcome = one_sided_outcome(dice_sum, dice_sum + bonus, difficulty)
    counts = one_sided_counts(bonus, difficulty)
    odds = {key: _frac(n, ROLLS) for key, n in zip(OUTCOMES, counts, strict=True)}
    return outcome_luck(odds, OUTCOMES, outcome)


def _four_df(dice_sum: int) -> Luck:
    from rules.drevo.odds import FOUR_DF, ROLLS

    return total_luck({s: _frac(n, ROLLS) for s, n in FOUR_DF.items()}, dice_sum)


def _same_roll(a: Data, b: Data) -> bool:
    """Whether two Древо result dicts record the same roll (a Судьба shift moves one)."""
    try:
        same_sides = [w for w, _ in _shifts(a)] == [w for w, _ in _shifts(b)]
        return same_sides and _system_of(a) == _system_of(b) and _dice_of(a) == _dice_of(b)
    except (KeyError, TypeError):
        return False


def _dice_of(data: Data) -> list[Any]:
    if "plan" in data:
        opposed = data.get("opposed")
        if opposed:
            return [opposed["a"]["dice"], opposed["b"]["dice"]]
        return [r["dice"] for r in data.get("one_sided") or []]
    if data.get("kind") == "opposed":
        return [data["a"]["dice"], data["b"]["dice"]]
    return [data.get("dice")]


def _shifts(data: Data) -> list[tuple[str | None, int]]:
    """Each rolling side's name and the Судьба shift its total carries."""
    if "plan" in data:
        opposed = data.get("opposed")
        if opposed:
            return [(_name(opposed[s]["side"]), opposed[s]["fate_shift"]) for s in ("a", "b")]
        return [(_name(r["side"]), r["fate_shift"]) for r in data.get("one_sided") or []]
    if data.get("kind") == "opposed":
        return [(_name(data[s]["side"]), data[s]["fate_shift"]) for s in ("a", "b")]
    return [(_name(data["side"]), data.get("fate_shift", 0))]


def _drevo(data: Data, previous: Sequence[Data], luck: _Tally) -> None:
    shifts = _shifts(data)
    # A shift back to zero (+1 then −1) looks like a fresh roll but repeats the newest entry's
    # dice, which carried a shift.
    back = (
        bool(previous) and _same_roll(previous[0], data) and any(s for _, s in _shifts(previous[0]))
    )
    if back or any(shift for _, shift in shifts):
        # A Судьба shift of a roll already recorded: the points moved since that entry.
        before = next((p for p in previous if _same_roll(p, data)), None)
        old = _shifts(before) if before is not None else [(w, 0) for w, _ in shifts]
        for (who, now), (_, then) in zip(shifts, old, strict=False):
            luck.spend(who, "fate", abs(now - then))
        return
    if "plan" in data:
        _drevo_exchange(data, luck)
        return
    if data.get("kind") == "opposed":
        _drevo_opposed(data, luck)
        return
    who = _name(data["side"])
    if data.get("fate_auto"):
        luck.spend(who, "fate", 1)  # no dice: Судьба before the roll
        return
    luck.roll(who, _drevo_one_sided(data))


def _drevo_opposed(data: Data, luck: _Tally, *, priced: bool = True) -> None:
    """Place each side's 4dF sum; ``priced``: a side's Судьба before the roll is spent here
    (the Бой tab writes its own «Судьба до броска» entry instead)."""
    for key in ("a", "b"):
        side = data[key]
        who = _name(side["side"])
        if side.get("fate_auto"):
            if priced:
                luck.spend(who, "fate", 1)
            continue
        luck.roll(who, _four_df(side["dice_sum"]))


def _drevo_exchange(data: Data, luck: _Tally) -> None:
    # Судьба declared before an exchange's roll has its own entry ({"fate": "before"}).
    opposed = data.get("opposed")
    if opposed:
        _drevo_opposed(opposed, luck, priced=False)
        return
    for result in data.get("one_sided") or []:
        who = _name(result["side"])
        if result.get("fate_auto"):
            continue
        luck.roll(who, _drevo_one_sided(result))


def _drevo_initiative(sides: Sequence[Data], luck: _Tally) -> None:
    """Place each side's initiative 4dF roll (a tie's rerolls are fresh rolls too)."""
    for side in sides:
        for dice in side["rolls"]:
            if len(dice) != 4 or any(d not in (-1, 0, 1) for d in dice):
                raise ValueError("not a 4dF roll")
            luck.roll(str(side["side"]), _four_df(sum(dice)))


def _rounds_initiative(data: Data, luck: _Tally) -> None:
    """Старатели (2d6 + DM) and Мир Тьмы (d10 + initiative): each fighter's (or side's) dice
    are its total less its fixed part, placed among the dice's own totals. IDE4's initiative
    is a quick check: its outcome placed among the outcomes of its difficulty (entries from
    before the check was kept are not placed). Tie-breaks only order."""
    system = data.get("system")
    names = data.get("names")
    if system == "ide4":
        from rules.ide4.model import OUTCOMES
        from rules.ide4.odds import outcome_odds

        for key, roll in data["initiative"].items():
            check = roll.get("check")
            if not isinstance(check, Mapping):
                continue
            odds = outcome_odds(int(check["final"]), 0, 4, hidden_risk=bool(check["hidden_risk"]))
            who = names.get(key) if isinstance(names, Mapping) else None
            luck.roll(str(who) if who else None, outcome_luck(odds, OUTCOMES, check["outcome"]))
        return
    if system not in _INITIATIVE_DICE:
        return
    dist = _INITIATIVE_DICE[system]()
    for key, roll in data["initiative"].items():
        natural = int(roll["key"][0]) - int(roll["bonus"])
        if natural not in dist:
            raise ValueError("not a roll of these dice")
        who = names.get(key) if isinstance(names, Mapping) else None
        luck.roll(str(who) if who else None, total_luck(dist, natural))


def _two_d6() -> dict[int, Fraction]:
    sums: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            sums[a + b] = sums.get(a + b, 0) + 1
    return {total: _frac(n, 36) for total, n in sums.items()}


def _d10() -> dict[int, Fraction]:
    return {face: _frac(1, 10) for face in range(1, 11)}


_INITIATIVE_DICE: dict[str, Callable[[], dict[int, Fraction]]] = {
    "starately": _two_d6,
    "wod": _d10,
}


# -- IDE4 -------------------------------------------------------------------------------------


def _ide4(data: Data, previous: Sequence[Data], luck: _Tally) -> None:
    from rules.ide4.model import OUTCOMES
    from rules.ide4.odds import outcome_odds

    if data.get("kind") == "opposed":  # two checks, each its own roll
        if data.get("event", "roll") != "roll":
            return  # the outcome after moves or a tie: its dice were counted at the roll
        for key in ("a", "b"):
            if isinstance(data.get(key), Mapping):
                _ide4({**data[key], "event": "roll"}, previous, luck)
        return
    inp = data.get("input") or {}
    who = inp.get("actor") or None
    event = data.get("event", "roll")
    steps = data.get("steps") or []
    if event == "roll":
        luck.spend(who, "energy", sum(s.get("energy_spent", 0) for s in steps))
        d100 = next((s for s in steps if s.get("kind") == "d100"), None)
        if d100 is None or data.get("status") in ("auto", "impossible"):
            return  # [0] is an automatic Успех, [00] has no roll: no dice, no luck
        difficulty = data["difficulty"]
        before = data.get("energy_before") or {}
        odds = outcome_odds(
            difficulty["final"],
            len(before.get("dice") or ()),
            int(before.get("die") or 4),
            hidden_risk=bool(difficulty.get("hidden_risk")),
        )
        luck.roll(who, outcome_luck(odds, OUTCOMES, d100["outcome"]))
    elif event == "reroll":
        luck.spend(who, "rerolls", 1)
    elif event == "energy_after" and steps:
        luck.spend(who, "energy", steps[-1].get("energy_spent", 0))


# -- Старатели --------------------------------------------------------------------------------


def _starately_check(result: Data) -> Luck:
    from rules.starately.check import OUTCOMES
    from rules.starately.odds import check_counts, rolls

    side = result["side"]
    net = int(side["net_dice"])
    success = check_counts(net, int(side["bonus"]), int(result["difficulty"]))[0]
    whole = rolls(net)
    odds = {"success": _frac(success, whole), "failure": _frac(whole - success, whole)}
    return outcome_luck(odds, OUTCOMES, result["outcome"])


def _starately_natural(side: Data, natural: int) -> Luck:
    from rules.starately.odds import natural_counts, rolls

    net = int(side["net_dice"])
    return total_luck({n: _frac(w, rolls(net)) for n, w in natural_counts(net)}, natural)


def _starately(data: Data, previous: Sequence[Data], luck: _Tally) -> None:
    kind = data.get("kind")
    if kind == "check":
        luck.roll(_name(data["side"]), _starately_check(data))
    elif kind == "chain":
        for key in ("helper", "main"):
            luck.roll(_name(data[key]["side"]), _starately_check(data[key]))
    elif kind == "group":
        luck.roll(_name(data["main"]["side"]), _starately_check(data["main"]))
        for helper in data.get("helpers") or []:
            luck.roll(_name(helper["side"]), _starately_check(helper))
    elif kind == "risk":
        luck.spend(_name(data["first"]["side"]), "rerolls", 1)
    elif kind == "opposed":
        for key in ("a", "b"):
            side = data[key]
            luck.roll(_name(side["side"]), _starately_natural(side["side"], side["natural"]))


# -- Мир Тьмы ---------------------------------------------------------------------------------


def _wod(data: Data, previous: Sequence[Data], luck: _Tally) -> None:
    if isinstance(data.get("rolls"), list):  # the Бой tab: two pools against each other
        for roll in data["rolls"]:
            _wod(roll, previous, luck)
        return
    if data.get("kind") == "contested":  # the builder's состязание: each pool its own roll
        for key in ("a", "b"):
            _wod(data[key], previous, luck)
        return
    from rules.modifiers import Modifier
    from rules.wod.odds import pool_odds
    from rules.wod.pool import OUTCOMES, Pool

    spec = data["pool"]
    pool = Pool(
        attribute=0,
        modifiers=(Modifier(int(spec["size"]), "запас"),),
        again=spec.get("again"),
        rote=bool(spec.get("rote")),
        success_threshold=int(spec["success_threshold"]),
        exceptional=int(spec["exceptional"]),
    )
    odds = pool_odds(pool).outcomes
    luck.roll(_name(spec), outcome_luck(odds, OUTCOMES, data["outcome"]))


# -- generic notation -------------------------------------------------------------------------


def is_notation(data: Data) -> bool:
    """Whether the entry is a roll of dice notation (its odds may take a while: a worker)."""
    return isinstance(data.get("expression"), str) and "total" in data and "system" not in data


def _notation(data: Data, actor: str | None, luck: _Tally) -> None:
    from rules.odds import odds

    dist = odds(data["expression"])
    totals = data.get("totals") or [data["total"]]  # «6x 4d6dl1»: each repeat is a roll
    for total in totals:
        luck.roll(actor, total_luck(dist.probs, int(total)))


# -- dispatch ---------------------------------------------------------------------------------

_SYSTEMS: dict[str, Callable[[Data, Sequence[Data], _Tally], None]] = {
    "drevo": _drevo,
    "ide4": _ide4,
    "starately": _starately,
    "wod": _wod,
}


def _system_of(data: Data) -> str | None:
    system = data.get("system")
    if system is None and isinstance(data.get("plan"), Mapping):
        system = data["plan"].get("system")  # a Древо exchange from the Бой tab
    return system if isinstance(system, str) else None


def entry_luck(
    kind: str, actor: str | None, data: Data, previous: Sequence[Data] = ()
) -> EntryLuck | None:
    """Return the luck of one Журнал entry, or ``None`` if it records no dice.

    Args:
        kind: the entry's kind (``"roll"``, ``"check"``, ``"combat"``, ``"note"``…).
        actor: the entry's actor (who rolled dice notation).
        data: the entry's data: the result's JSON dict.
        previous: the data of earlier entries, newest first (a Судьба shift is priced
            against the entry of the same roll it moves).

    Returns:
        The fresh rolls with their percentiles and what was spent; ``None`` for an entry
        without dice (a note, a session mark) or one whose odds cannot be computed.
    """
    if kind == "session" or data.get("reveals"):
        return None
    luck = _Tally()
    try:
        fate_spent = data.get("fate_spent")
        if isinstance(fate_spent, int) and not isinstance(fate_spent, bool) and fate_spent > 0:
            # Судьба spent without dice (lowering damage, a circumstance): its own entry
            luck.spend(actor, "fate", fate_spent)
        elif kind == "note":
            return None
        elif is_notation(data):
            _notation(data, actor, luck)
        elif data.get("fate") == "before" and kind == "combat":
            luck.spend(actor, "fate", 1)  # Судьба declared before a combat roll
        elif data.get("fate") == "shift" and kind == "combat":
            luck.spend(actor, "fate", abs(int(data["points"])))  # ±1 per point after the roll
        elif kind == "combat" and isinstance(data.get("initiative"), list):
            _drevo_initiative(data["initiative"], luck)
        elif kind == "combat" and isinstance(data.get("initiative"), Mapping):
            _rounds_initiative(data, luck)
        else:
            system = _system_of(data)
            if system not in _SYSTEMS:
                return None
            _SYSTEMS[system](data, previous, luck)
    except (KeyError, TypeError, ValueError, RulesError):
        return None  # an entry this version cannot read: no luck rather than a wrong one
    if not luck.rolls and not luck.spent:
        return None
    return EntryLuck(tuple(luck.rolls), luck.spent)


def _frac(n: int, d: int) -> Fraction:
    return Fraction(n, d)
