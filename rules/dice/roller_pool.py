"""Rolling one pool, modifier by modifier, in rpg-dice-roller's order.

The first rolls (``min``/``max`` clamping them), then ``!``/``!!``/``!p`` chains, then ``r``/``ro``
rerolls, then ``u``/``uo`` uniqueness, then keep and drop (each over the whole pool), then
success counting, then the ``cs``/``cf`` marks and the ``s`` order; each on the mutable entries
the roller freezes into :class:`~rules.dice.results.Die` at the end (:mod:`rules.dice.roller`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.dice.model import Dice, Limits, Select, Target, kept_range
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
    critical_success: bool = False
    critical_failure: bool = False


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

    def count_draw(self) -> None:
        self.rolled += 1
        if self.rolled > self.limits.max_dice_total:
            raise DiceLimitError(
                f"взрывы и перебросы довели число кубиков до {self.rolled}, больше "
                f"{self.limits.max_dice_total} за бросок — бросок остановлен; уменьшите число "
                "кубиков или ослабьте «!», «r» и «u»"
            )

    def draw(self, dice: Dice) -> int:
        self.count_draw()
        if dice.faces is None:
            if dice.fudge == 1:  # dF.1: on a d6, 1 is minus, 6 is plus, the rest blank
                face = self.rng.randint(1, 6)
                return -1 if face == 1 else (1 if face == 6 else 0)
            return self.rng.randint(-1, 1)
        return self.rng.randint(1, dice.faces)

    def draw_among(self, weights: dict[int, int]) -> int:
        """One roll of the die, given it shows none of the faces left out of ``weights``."""
        self.count_draw()
        pick = self.rng.randint(1, sum(weights.values()))
        faces = list(weights.items())
        for face, weight in faces[:-1]:
            pick -= weight
            if pick <= 0:
                return face
        return faces[-1][0]

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
        if dice.unique is not None:
            self.unique(dice, entries)
        _select(entries, dice.selects)
        if dice.target is not None:
            _count(entries, dice.target)
        if dice.crit_success is not None or dice.crit_failure is not None:
            for entry in entries:
                entry.critical_success, entry.critical_failure = dice.critical(entry.value)
        if dice.sort is not None:
            entries.sort(key=lambda e: e.value, reverse=dice.sort == "d")
        return _Pool(dice, entries)

    def unique(self, dice: Dice, entries: list[_Entry]) -> None:
        """``u``: a value an earlier entry shows (and the point matches) is rolled again until it
        is new — drawn at once among the faces it may show; ``uo``: rolled again once.

        When every face is taken (``5d4u``) no roll could help: the entry keeps its value, as
        rpg-dice-roller's after its thousand tries.
        """
        assert dice.unique is not None
        faces = dice.face_weights()
        seen: set[int] = set()
        for i, entry in enumerate(entries):
            if i and dice.unique_match(entry.value) and entry.value in seen:
                if dice.unique.once:
                    entry.value = self.draw(dice)
                    entry.history.append(("unique", entry.value))
                else:
                    allowed = {
                        f: w for f, w in faces.items() if not (f in seen and dice.unique_match(f))
                    }
                    if allowed:
                        entry.value = self.draw_among(allowed)
                        entry.history.append(("unique", entry.value))
            seen.add(entry.value)

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


def _select(entries: list[_Entry], selects: tuple[Select, ...]) -> None:
    """Mark the entries keep and drop remove: each looks at the whole pool, so an entry stays
    if every one keeps it (ranks by value ascending, ties in order, as a stable sort)."""
    if not selects:
        return
    ranked = sorted(range(len(entries)), key=lambda i: entries[i].value)
    a, b = kept_range(selects, len(entries))
    for rank, i in enumerate(ranked):
        if not a <= rank < b:
            entries[i].kept = False


def _count(entries: list[_Entry], target: Target) -> None:
    for entry in entries:
        entry.outcome = target.outcome(entry.value) if entry.kept else 0
