"""Rolling one pool, modifier by modifier, in rpg-dice-roller's order.

The first rolls (``min``/``max`` clamping them), then ``!``/``!!``/``!p`` chains, then ``r``/``ro``
rerolls, then keep and drop, then success counting; each on the mutable entries the roller
freezes into :class:`~rules.dice.results.Die` at the end (:mod:`rules.dice.roller`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.dice.model import Dice, Limits, Select, Target
from rules.errors import DiceLimitError


@dataclass
class _Entry:
    value: int
    history: list[tuple[str, int]]
    exploded: bool = False
    added: bool = False
    penetrated: bool = False
    kept: bool = True
    outcome: int | None = None


@dataclass
class _Pool:
    node: Dice
    entries: list[_Entry]


class PoolRoller:
    """The random source, the dice drawn so far, and one pool's roll (mixed into the roller)."""

    def __init__(self, rng: random.Random, limits: Limits) -> None:
        self.rng = rng
        self.limits = limits
        self.rolled = 0

    def draw(self, dice: Dice) -> int:
        self.rolled += 1
        if self.rolled > self.limits.max_dice_total:
            raise DiceLimitError(
                f"взрывы и перебросы довели число кубиков до {self.rolled}, больше "
                f"{self.limits.max_dice_total} за бросок — бросок остановлен; уменьшите число "
                "кубиков или ослабьте «!» и «r»"
            )
        if dice.faces is None:
            return self.rng.randint(-1, 1)
        return self.rng.randint(1, dice.faces)

    def chain_error(self, dice: Dice, what: str) -> DiceLimitError:
        return DiceLimitError(
            f"у {dice}: {what} больше {self.limits.max_chain} раз подряд — бросок остановлен; "
            "проверьте источник случайности или ослабьте условие"
        )

    def pool(self, dice: Dice) -> _Pool:
        entries = []
        for _ in range(dice.count):
            raw = self.draw(dice)
            entry = _Entry(raw, [("rolled", raw)])
            if dice.minimum is not None and entry.value < dice.minimum:
                entry.value = dice.minimum
                entry.history.append(("min", dice.minimum))
            if dice.maximum is not None and entry.value > dice.maximum:
                entry.value = dice.maximum
                entry.history.append(("max", dice.maximum))
            entries.append(entry)
        if dice.explode is not None:
            entries = self.explode(dice, entries)
        if dice.reroll is not None:
            point, once = dice.reroll_point, dice.reroll.once
            for entry in entries:
                times = 0
                while point.match(entry.value):
                    times += 1
                    if times > self.limits.max_chain:
                        raise self.chain_error(dice, "переброс")
                    entry.value = self.draw(dice)
                    entry.history.append(("rerolled", entry.value))
                    if once:
                        break
        _select(entries, dice.keep, dice.drop)
        if dice.target is not None:
            _count(entries, dice.target)
        return _Pool(dice, entries)

    def explode(self, dice: Dice, entries: list[_Entry]) -> list[_Entry]:
        assert dice.explode is not None
        point, compound, penetrate = (
            dice.explode_point,
            dice.explode.compound,
            dice.explode.penetrate,
        )
        out: list[_Entry] = []
        for entry in entries:
            chain = [entry]
            compare = entry.value
            while point.match(compare):
                if len(chain) > self.limits.max_chain:
                    raise self.chain_error(dice, "взрыв")
                raw = self.draw(dice)
                compare = raw
                chain[-1].exploded = True
                chain.append(
                    _Entry(
                        raw - 1 if penetrate else raw,
                        [("rolled", raw)],
                        added=True,
                        penetrated=penetrate,
                    )
                )
            if compound and len(chain) > 1:
                entry.value = sum(e.value for e in chain)
                entry.history += [("exploded", e.history[0][1]) for e in chain[1:]]
                entry.penetrated = penetrate
                out.append(entry)
            else:
                out += chain
        return out


def _select(entries: list[_Entry], keep: Select | None, drop: Select | None) -> None:
    """Mark entries dropped by keep, then by drop among the rest (ties: the earlier die first)."""
    for select in (keep, drop):
        if select is None:
            continue
        live = [i for i, e in enumerate(entries) if e.kept]
        ranked = sorted(live, key=lambda i: entries[i].value)  # stable: ascending, ties in order
        n, count = len(ranked), min(select.count, len(ranked))
        if select.keep:
            gone = ranked[: n - count] if select.high else ranked[count:]
        else:
            gone = ranked[n - count :] if select.high else ranked[:count]
        for i in gone:
            entries[i].kept = False


def _count(entries: list[_Entry], target: Target) -> None:
    for entry in entries:
        entry.outcome = target.outcome(entry.value) if entry.kept else 0
