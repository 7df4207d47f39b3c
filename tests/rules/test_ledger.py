"""The luck ledger (issue 19) against brute-force enumeration of every roll.

Each test builds real results with the systems' own resolvers for every possible roll, reads
them back through ``entry_luck`` (as the Журнал stores them) and compares the percentile with
the definition counted here independently: ``P(worse) + P(same) / 2`` over all the rolls.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rules import drevo, ide4
from rules.data import set_overrides
from rules.errors import RulesError
from rules.ledger import (
    Sample,
    entry_luck,
    exact_tail,
    normal_tail,
    outcome_luck,
    session_numbers,
    settings,
    summarise,
    total_luck,
    verdict,
)
from rules.ledger.checks import SPENT_KINDS
from rules.odds import odds
from rules.starately import Check as StCheck
from rules.starately import Side as StSide
from rules.starately import resolve as st_resolve
from rules.wod import Pool, resolve_pool
from rules.wod.contested import resolve_contested
from tests.every_case import assert_every_case
from tests.hypo import examples


def brute(rolls: Sequence[tuple[Hashable, int]], rank: Callable[[Hashable], int]) -> dict:
    """Map each rolled value to ``P(worse) + P(same)/2`` over equally weighted ``rolls``."""
    weights: Counter = Counter()
    for value, ways in rolls:
        weights[value] += ways
    whole = sum(weights.values())
    out = {}
    for value in weights:
        worse = sum(w for v, w in weights.items() if rank(v) < rank(value))
        out[value] = Fraction(worse, whole) + Fraction(weights[value], 2 * whole)
    return out


def only_roll(kind: str, actor: str | None, data: dict) -> Fraction:
    luck = entry_luck(kind, actor, data)
    assert luck is not None and len(luck.rolls) == 1
    return luck.rolls[0].luck.percentile


# -- each system's outcomes ------------------------------------------------------------------


DREVO_ONE_SIDED_PERCENTILE_IS_BRUTE_FORCE = [(0, 0), (2, 1), (-1, 3), (3, -2), (5, 0)]


def test_drevo_one_sided_percentile_is_brute_force() -> None:
    """«Если при броске 4dF выпадает «+4» — это критический успех. … вне зависимости от
    Сложности задачи»: four ordered outcomes, every one of the 81 rolls counted."""

    def check_case(bonus: int, difficulty: int) -> None:
        check = drevo.OneSidedCheck(drevo.Side(bonus, name="Ярослав"), difficulty)
        results = [drevo.resolve_one_sided(check, d) for d in product((-1, 0, 1), repeat=4)]
        order = list(reversed(drevo.OUTCOMES))
        expected = brute([(r.outcome, 1) for r in results], order.index)
        for result in results:
            data = {"system": "drevo", **result.to_dict()}
            assert only_roll("check", "Ярослав", data) == expected[result.outcome]

    assert_every_case(DREVO_ONE_SIDED_PERCENTILE_IS_BRUTE_FORCE, check_case)


def test_drevo_at_least_is_this_outcome_or_better() -> None:
    """The issue: «plus the chance of that outcome or better» — a success at 0 vs 0 means a
    success or a critical success, 1/81 of it critical."""
    check = drevo.OneSidedCheck(drevo.Side(0), 0)
    result = drevo.resolve_one_sided(check, (1, 0, 0, -1))
    luck = entry_luck("check", None, {"system": "drevo", **result.to_dict()})
    rolls = [sum(d) for d in product((-1, 0, 1), repeat=4)]
    assert luck.rolls[0].luck.at_least == Fraction(sum(s >= 0 for s in rolls), 81)


IDE4_PERCENTILE_IS_BRUTE_FORCE = [(3, 0, 4), (5, 1, 4), (1, 2, 4), (6, 1, 6)]


def test_ide4_percentile_is_brute_force() -> None:
    """«Триумф > Успех > Средне > Провал > Трагедия»: every d100 and energy roll, listed."""

    def check_case(base: int, energy: int, die: int) -> None:
        inp = ide4.CheckInput(
            attribute="Мелкая моторика",
            attribute_level=3 if die == 4 else 5,
            base=base,
            energy_dice=energy,
            energy_die=die if energy else 0,
            energy_pool=100,
            actor="Ника",
        )
        started = ide4.start(inp)
        rolled = [
            ide4.roll(started, natural=n, energy=e)
            for n in range(1, 101)
            for e in product(range(1, die + 1), repeat=energy)
        ]
        order = list(reversed(ide4.OUTCOMES))
        expected = brute([(c.outcome, 1) for c in rolled], order.index)
        for check in rolled[:: 7 if energy else 1]:
            data = {**check.to_dict(), "event": "roll"}
            assert only_roll("check", "Ника", data) == expected[check.outcome]

    assert_every_case(IDE4_PERCENTILE_IS_BRUTE_FORCE, check_case)


@pytest.mark.parametrize(("boons", "banes", "dm", "difficulty"), [(0, 0, 1, 8), (1, 0, 0, 10)])
def test_starately_percentile_is_brute_force(
    boons: int, banes: int, dm: int, difficulty: int
) -> None:
    """«Если на кубах выпадает натуральное 12 - это автоматический успех. Натуральное 2 - это
    автоматический провал.» Two outcomes over every roll of 2d6 (3d6 with a boon)."""
    side = StSide(dm, skill=1, boons=boons, banes=banes, name="Рыжий")
    check = StCheck(side, difficulty)
    count = 2 + boons + banes
    results = [st_resolve(check, d) for d in product(range(1, 7), repeat=count)]
    expected = brute([(r.outcome, 1) for r in results], ["failure", "success"].index)
    for result in results:
        data = {"system": "starately", **result.to_dict()}
        assert only_roll("check", "Рыжий", data) == expected[result.outcome]


def test_wod_percentile_is_brute_force() -> None:
    """Three dice without n-again (1000 rolls) and a chance die: «Полный провал может
    произойти только тогда, когда персонаж делает бросок на удачу и получает результат 1»."""
    pool = Pool(2, 1, again=None, exceptional=2, name="Лея")
    results = [resolve_pool(pool, d) for d in product(range(1, 11), repeat=3)]
    order = list(reversed(("exceptional_success", "success", "failure", "dramatic_failure")))
    expected = brute([(r.outcome, 1) for r in results], order.index)
    for result in results[::13]:
        data = {"system": "wod", **result.to_dict()}
        assert only_roll("check", "Лея", data) == expected[result.outcome]
    chance = Pool(0, 0, name="Лея")
    first = resolve_pool(chance, [1])
    luck = entry_luck("check", "Лея", {"system": "wod", **first.to_dict()})
    assert first.outcome == "dramatic_failure"
    assert luck.rolls[0].luck.percentile == Fraction(1, 20)  # the worst tenth, halved


GENERIC_TOTAL_PERCENTILE_IS_BRUTE_FORCE = ["2d6+1", "4d6kh3", "3dF", "d4-d4", "2d10kl1+3"]


def test_generic_total_percentile_is_brute_force() -> None:
    """The issue: «For a total: the mid-rank percentile P(X < x) + P(X = x) / 2 of its own
    exact distribution (same inputs, same modifiers)»."""

    def check(expression: str) -> None:
        faces = {
            "2d6+1": (lambda: product(range(1, 7), repeat=2), lambda d: sum(d) + 1),
            "4d6kh3": (lambda: product(range(1, 7), repeat=4), lambda d: sum(d) - min(d)),
            "3dF": (lambda: product((-1, 0, 1), repeat=3), sum),
            "d4-d4": (lambda: product(range(1, 5), repeat=2), lambda d: d[0] - d[1]),
            "2d10kl1+3": (lambda: product(range(1, 11), repeat=2), lambda d: min(d) + 3),
        }[expression]
        totals = [faces[1](d) for d in faces[0]()]
        expected = brute([(t, 1) for t in totals], lambda t: t)
        dist = odds(expression).probs
        for total, p in expected.items():
            assert total_luck(dist, total).percentile == p
            data = {"expression": expression, "total": total, "parts": []}
            assert only_roll("roll", None, data) == p

    assert_every_case(GENERIC_TOTAL_PERCENTILE_IS_BRUTE_FORCE, check, star=False)


def test_percentile_refuses_what_the_distribution_cannot_give() -> None:
    """A rolled outcome outside the check, a total that cannot fall, a zero-chance outcome."""
    with pytest.raises(RulesError, match="не из этой проверки"):
        outcome_luck({"success": Fraction(1)}, ("success", "failure"), "triumph")
    with pytest.raises(RulesError, match="не выпадает"):
        total_luck(odds("2d6").probs, 13)
    with pytest.raises(RulesError, match="невозможен"):
        outcome_luck({"success": Fraction(1)}, ("success", "failure"), "failure")


# -- what is spent is not luck ---------------------------------------------------------------


def test_fate_shift_is_spent_not_a_new_roll() -> None:
    """«После броска кубиков игрок может потратить одно очко Судьбы, чтобы поднять или
    опустить результат этого броска на одну единицу (два — на две и т.д.)»."""
    check = drevo.OneSidedCheck(drevo.Side(1, name="Ярослав"), 2)
    first = drevo.resolve_one_sided(check, (0, 0, 0, 0))
    once = drevo.shift_one_sided(first, 1)
    twice = drevo.shift_one_sided(once, 1)
    datas = [{"system": "drevo", **r.to_dict()} for r in (first, once, twice)]
    roll = entry_luck("check", "Ярослав", datas[0])
    assert len(roll.rolls) == 1 and roll.spent == {}
    shifted = entry_luck("check", "Ярослав", datas[2], previous=[datas[1], datas[0]])
    assert shifted.rolls == () and shifted.spent == {"Ярослав": {"fate": 1}}
    back = {"system": "drevo", **drevo.shift_one_sided(twice, -2).to_dict()}
    returned = entry_luck("check", "Ярослав", back, previous=[datas[2], datas[1], datas[0]])
    assert returned.rolls == () and returned.spent == {"Ярослав": {"fate": 2}}
    auto = drevo.roll_one_sided(drevo.OneSidedCheck(drevo.Side(1, fate_auto=True), 2), None)
    declared = entry_luck("check", None, {"system": "drevo", **auto.to_dict()})
    assert declared.rolls == () and declared.spent == {None: {"fate": 1}}
    assert set(SPENT_KINDS) >= {"fate", "energy", "rerolls"}


def test_a_new_roll_after_a_shifted_one_is_a_roll_not_a_spend() -> None:
    """«После броска кубиков игрок может потратить одно очко Судьбы, чтобы поднять или
    опустить результат этого броска» — of that roll only: the next check, with other dice and
    no shift, is a roll of its own (its luck tallied, nothing spent), though the entry before
    it carried a shift."""
    check = drevo.OneSidedCheck(drevo.Side(1, name="Ярослав"), 2)
    first = drevo.resolve_one_sided(check, (0, 0, 0, 0))
    shifted = {"system": "drevo", **drevo.shift_one_sided(first, 1).to_dict()}
    for dice in [(1, 1, 0, -1), (-1, -1, -1, -1), (1, 0, 0, 0)]:
        fresh = {"system": "drevo", **drevo.resolve_one_sided(check, dice).to_dict()}
        luck = entry_luck("check", "Ярослав", fresh, previous=[shifted])
        assert len(luck.rolls) == 1 and luck.spent == {}, dice
    other = drevo.OneSidedCheck(drevo.Side(1, name="Мирон"), 2)
    fresh = {"system": "drevo", **drevo.resolve_one_sided(other, (0, 0, 0, 0)).to_dict()}
    luck = entry_luck("check", "Мирон", fresh, previous=[shifted])
    assert len(luck.rolls) == 1 and luck.spent == {}  # the same dice, another character


def test_ide4_energy_and_rerolls_are_spent() -> None:
    """Energy before the roll is part of its odds and spent; a reroll adds no percentile."""
    inp = ide4.CheckInput(
        attribute="Сила", attribute_level=3, base=3, energy_dice=2, energy_pool=50, actor="Ника"
    )
    rolled = ide4.roll(ide4.start(inp), natural=20, energy=(2, 3))
    luck = entry_luck("check", "Ника", {**rolled.to_dict(), "event": "roll"})
    cost = 2 * inp.before_die  # «energy_dice × before_die» points, whatever the dice show
    assert luck.spent == {"Ника": {"energy": cost}} and len(luck.rolls) == 1
    again = ide4.reroll(rolled, "arbitrium", natural=60)
    reroll = entry_luck("check", "Ника", {**again.to_dict(), "event": "reroll"})
    assert reroll.rolls == () and reroll.spent == {"Ника": {"rerolls": 1}}


def test_an_opposed_check_counts_each_side_once() -> None:
    """IDE4: «Если два персонажа непосредственно действуют друг против друга, каждый выполняет
    подходящую проверку»: the roll's entry places both d100s; the outcome recorded after a
    tie («мастер оставляет положение без изменения либо назначает цену обеим сторонам») rolls
    nothing new. Мир Тьмы's состязание: each pool placed by its own dice."""
    a = ide4.CheckInput(attribute="Сила", attribute_level=3, base=3, actor="Ника")
    b = ide4.CheckInput(attribute="Сила", attribute_level=2, base=3, actor="Гриша")
    checks = [ide4.roll(ide4.start(i), natural=70) for i in (a, b)]
    result = ide4.opposed(*checks)
    rolled = entry_luck("check", "Ника", {**result.to_dict(), "event": "roll"})
    assert [r.who for r in rolled.rolls] == ["Ника", "Гриша"]
    final = result.resolve_tie("status_quo", "")
    assert entry_luck("check", "Ника", {**final.to_dict(), "event": "conclude"}) is None
    lea, bo = Pool(2, 1, name="Лея"), Pool(1, 1, name="Бо")
    contest = resolve_contested(resolve_pool(lea, [8, 3, 9]), resolve_pool(bo, [9, 2]))
    luck = entry_luck("check", "Лея", contest.to_dict())
    one = [
        only_roll("check", p.name, {"system": "wod", **r.to_dict()})
        for p, r in ((lea, contest.a), (bo, contest.b))
    ]
    assert [(r.who, r.luck.percentile) for r in luck.rolls] == list(
        zip(["Лея", "Бо"], one, strict=True)
    )


# -- many rolls ------------------------------------------------------------------------------


def brute_tail(samples: list[tuple[tuple[Fraction, ...], int]]) -> Fraction:
    """P(sum of percentiles at least as far from n/2, on the observed side), enumerated."""
    spreads = []
    observed = Fraction(0)
    for probs, index in samples:
        below, spread = Fraction(0), []
        for i, p in enumerate(probs):
            if p:
                spread.append((below + p / 2, p))
                if i == index:
                    observed += below + p / 2
            below += p
        spreads.append(spread)
    half = Fraction(len(samples), 2)
    tail = Fraction(0)
    for combo in product(*spreads):
        total = sum(v for v, _ in combo)
        weight = Fraction(1)
        for _, p in combo:
            weight *= p
        if (observed >= half and total >= observed) or (observed < half and total <= observed):
            tail += weight
    return tail


def sample(probs: tuple[Fraction, ...], index: int) -> Sample:
    below = sum(probs[:index], Fraction(0))
    variance = (1 - sum(p**3 for p in probs)) / 12
    return Sample(float(below + probs[index] / 2), tuple(map(float, probs)), float(variance))


VERDICT_PROBABILITY_IS_THE_EXACT_ONE = [
    [((Fraction(1, 2), Fraction(1, 2)), 1)] * 3,
    [((Fraction(1, 81), Fraction(40, 81), Fraction(39, 81), Fraction(1, 81)), 3)]
    + [((Fraction(1, 6),) * 6, 0), ((Fraction(1, 4), Fraction(3, 4)), 1)],
    [((Fraction(1, 36), Fraction(2, 36), Fraction(3, 36), Fraction(30, 36)), 0)] * 4,
    [((Fraction(1, 10), Fraction(9, 10)), 0), ((Fraction(1, 3),) * 3, 2)],
]


def test_verdict_probability_is_the_exact_one() -> None:
    """The issue: «using the exact distribution of the mean under fair dice» — equal to the
    enumeration of every combination of outcomes on small cases."""

    def check(rolls) -> None:
        samples = [sample(p, i) for p, i in rolls]
        assert exact_tail(samples) == pytest.approx(float(brute_tail(rolls)), abs=1e-12)
        assert verdict(samples).exact

    assert_every_case(VERDICT_PROBABILITY_IS_THE_EXACT_ONE, check, star=False)


def test_verdict_past_thirty_rolls_is_normal_and_close() -> None:
    """«или a normal approximation past 30 rolls, said so»: 31 rolls are approximated, and
    the approximation is near the exact tail of the same rolls."""
    rng = random.Random(7)
    d6 = (Fraction(1, 6),) * 6
    samples = [sample(d6, rng.randrange(6)) for _ in range(31)]
    judged = verdict(samples)
    assert not judged.exact and judged.tail == normal_tail(samples)
    assert abs(normal_tail(samples) - exact_tail(samples)) < 0.03


def test_ten_thousand_fair_rolls_land_in_the_expected_band() -> None:
    """A seeded run of 10,000 fair rolls of mixed checks: the mean percentile is within
    four standard deviations of 1/2, and the verdict does not call the dice unfair."""
    rng = random.Random(20261201)
    dists = {e: odds(e).probs for e in ("3d6", "d20", "4dF", "2d6+3", "d100")}
    # The same 10,000 seeded draws; each distinct (expression, total) is computed once.
    choices = {e: (list(probs), [float(p) for p in probs.values()]) for e, probs in dists.items()}
    lucks: dict[tuple[str, int], tuple[float, float]] = {}
    samples = []
    for _ in range(10_000):
        expression = rng.choice(list(dists))
        totals, weights = choices[expression]
        total = rng.choices(totals, weights)[0]
        if (expression, total) not in lucks:
            luck = total_luck(dists[expression], total)
            lucks[expression, total] = (float(luck.percentile), float(luck.variance))
        percentile, variance = lucks[expression, total]
        samples.append(Sample(percentile, None, variance))
    mean = sum(s.percentile for s in samples) / len(samples)
    sd = sum(s.variance for s in samples) ** 0.5 / len(samples)
    assert abs(mean - 0.5) < 4 * sd
    assert verdict(samples).tail > 1e-4
    summary = summarise(samples)
    assert summary.rolls == 10_000 and sum(summary.histogram) == 10_000
    assert 0.05 < summary.top < 0.15 and 0.05 < summary.bottom < 0.15


def test_a_rolls_percentile_takes_one_value_per_outcome() -> None:
    """The percentile of one roll can only be each outcome's mid-rank, with that outcome's
    chance: for chances 1/4, 1/2, 1/4 (worst first) it is 1/8, 1/2 or 7/8."""
    luck = outcome_luck(
        {"good": Fraction(1, 4), "fair": Fraction(1, 2), "bad": Fraction(1, 4)},
        ("good", "fair", "bad"),
        "fair",
    )
    assert luck.percentile == Fraction(1, 2)
    assert luck.spread() == (
        (Fraction(1, 8), Fraction(1, 4)),
        (Fraction(1, 2), Fraction(1, 2)),
        (Fraction(7, 8), Fraction(1, 4)),
    )
    with_impossible = total_luck({1: Fraction(1, 3), 2: Fraction(0), 3: Fraction(2, 3)}, 3)
    assert with_impossible.spread() == (
        (Fraction(1, 6), Fraction(1, 3)),
        (Fraction(2, 3), Fraction(2, 3)),
    )


def test_summary_histogram_counts_each_decile() -> None:
    """The decile histogram: a percentile of 0.05 in the first tenth, 0.95 in the last, 0.5 in
    the sixth (deciles are [0, 0.1), [0.1, 0.2), …; 1.0 itself in the last)."""
    samples = [Sample(p, None, 1 / 12) for p in (0.05, 0.5, 0.5, 0.95, 1.0, 0.0, 0.19)]
    assert summarise(samples).histogram == (2, 1, 0, 0, 0, 2, 0, 0, 0, 2)


def test_summary_of_nothing_is_empty() -> None:
    """No rolls: no mean, no verdict, an empty histogram."""
    empty = summarise([])
    assert empty.rolls == 0 and empty.mean is None and empty.verdict is None
    assert empty.histogram == (0,) * 10


# -- sessions --------------------------------------------------------------------------------


def test_sessions_start_at_marks_and_after_six_hours() -> None:
    """The issue: «a GM key marks the start of a game session (also implied by a gap of more
    than six hours between rolls)». A mark before any roll starts no empty session."""
    t = datetime(2026, 12, 1, 19, 0)
    items = [
        (t, True),  # the GM's mark at the start
        (t + timedelta(minutes=5), False),
        (t + timedelta(hours=6, minutes=5), False),  # exactly six hours later: same evening
        (t + timedelta(hours=12, minutes=6), False),  # more than six hours: a new session
        (t + timedelta(hours=12, minutes=7), True),  # a mark: a new session
        (t + timedelta(hours=12, minutes=8), True),  # a second mark in a row: no empty one
        (None, False),  # an unreadable time stays in the current session
        (t + timedelta(hours=12, minutes=9), False),
    ]
    assert session_numbers(items) == [1, 1, 1, 2, 3, 3, 3, 3]
    assert settings().gap == timedelta(hours=6)


def test_bad_ledger_settings_are_refused() -> None:
    """A campaign's override of the ledger table with nonsense gets a clear message."""
    try:
        for key, value in (("gap_hours", 0), ("exact_max_rolls", -1), ("edge", 0.7)):
            table = {"gap_hours": 6, "exact_max_rolls": 30, "edge": 0.1, key: value}
            set_overrides({"ledger/sessions.toml": table})
            with pytest.raises(RulesError, match=key):
                settings()
    finally:
        set_overrides({})


def test_exploding_tails_are_stored_as_one_outcome() -> None:
    """3d6! has over a hundred totals, the least likely of them below 1e-12: the log keeps
    those as one outcome, so the verdict can still be exact; nothing of the mass is lost."""
    probs = odds("3d6!").probs
    luck = total_luck(probs, 10)
    stored = luck.to_dict()["probs"]
    assert len(probs) > 100 and len(probs) > len(stored)
    assert sum(stored) == pytest.approx(1.0, abs=1e-12)


TINY = Fraction(1, 10**13)  # well below the 1e-12 a tail must stay under to be merged


TAILS_BELOW_ONE_IN_A_TRILLION_ARE_STORED_AS_ONE_OUTCOME = [
    # the low tail (two outcomes, 2e-13 in all) joins the first outcome kept
    ([TINY, TINY, Fraction(1, 2) - 2 * TINY, Fraction(1, 2)], [0.5, 0.5]),
    # the high tail joins the last outcome kept
    ([Fraction(1, 2), Fraction(1, 2) - 3 * TINY, TINY, 2 * TINY], [0.5, 0.5]),
    # everything but the last outcome is below 1e-12: one outcome is left
    ([TINY, TINY, 1 - 2 * TINY], [1.0]),
    # both at once
    ([TINY, Fraction(1, 4) - TINY, Fraction(3, 4) - TINY, TINY], [0.25, 0.75]),
    # a tail of exactly 1e-12 is kept as it is: only less than 1e-12 is merged
    (
        [10 * TINY, Fraction(1, 2) - 10 * TINY, Fraction(1, 2)],
        [1e-12, float(Fraction(1, 2) - 10 * TINY), 0.5],
    ),
    # a tail just under it goes; the outcome that would bring it to 1e-12 stays
    ([5 * TINY, 4 * TINY, Fraction(1, 2) - 9 * TINY, Fraction(1, 2)], [0.5, 0.5]),
    ([9 * TINY, TINY, Fraction(1, 2) - 10 * TINY, Fraction(1, 2)], [1e-12, 0.5 - 1e-12, 0.5]),
]


def test_tails_below_one_in_a_trillion_are_stored_as_one_outcome() -> None:
    """The log keeps a roll's distribution; outcomes in either tail holding less than 1e-12
    in all are stored merged into the nearest outcome kept, so no mass is lost and the exact
    verdict still works. Checked on hand-made distributions whose merge is known."""

    def check(probs, stored) -> None:
        luck = total_luck(dict(enumerate(probs)), len(probs) - 2)
        assert luck.to_dict()["probs"] == stored

    assert_every_case(TAILS_BELOW_ONE_IN_A_TRILLION_ARE_STORED_AS_ONE_OUTCOME, check)


def test_twenty_dice_store_their_improbable_ends_merged() -> None:
    """20d6: the totals 20 and 120 each have 6**-20 ≈ 2.7e-16; the outcomes counted in the
    test (a convolution written here) below 1e-12 from either end are merged."""
    ways = Counter({0: 1})
    for _ in range(20):
        ways = _roll_one_more(ways)
    total = 6**20
    low = 0
    while sum(ways[20 + i] for i in range(low + 1)) * 10**12 < total:
        low += 1
    luck = total_luck(odds("20d6").probs, 70)
    stored = luck.to_dict()["probs"]
    assert len(stored) == 101 - 2 * low  # symmetric: as many merged at each end
    assert stored[0] == pytest.approx(sum(ways[20 + i] for i in range(low + 1)) / total)
    assert sum(stored) == pytest.approx(1.0, abs=1e-12)


def _roll_one_more(ways: Counter[int]) -> Counter[int]:
    out: Counter[int] = Counter()
    for t, n in ways.items():
        for f in range(1, 7):
            out[t + f] += n
    return out


# -- combat and helpers ----------------------------------------------------------------------


def test_drevo_exchange_each_side_is_placed_by_its_own_dice() -> None:
    """«Сравниваются суммы броска 4dF и используемого навыка либо качества»: in an opposed
    exchange each side's luck is its own 4dF sum among the 81 rolls; a Судьба shift after
    the roll is priced, not counted again."""
    from rules.drevo import Fighter, plan_exchange, resolve_exchange_with_dice
    from rules.drevo.exchange import Action
    from rules.drevo.resolve import shift_exchange

    plan = plan_exchange(
        Fighter("А", trait=2), Action("melee"), Fighter("Б", trait=1), Action("melee"), "close"
    )
    sums = [sum(d) for d in product((-1, 0, 1), repeat=4)]
    expected = brute([(s, 1) for s in sums], lambda s: s)
    result = resolve_exchange_with_dice(plan, (1, 1, 0, 0), (-1, 0, 0, 0))
    data = {"round": 1, **result.to_dict()}
    luck = entry_luck("combat", "А", data)
    assert [r.who for r in luck.rolls] == ["А", "Б"]
    assert [r.luck.percentile for r in luck.rolls] == [expected[2], expected[-1]]
    shifted = {"round": 1, **shift_exchange(result, "defender", 2).to_dict()}
    priced = entry_luck("combat", "А", shifted, previous=[data])
    assert priced.rolls == () and priced.spent == {"Б": {"fate": 2}}


def test_starately_chain_group_and_risk() -> None:
    """A task chain and a group check place every roll (helpers too) against its own odds;
    «Риск» rolls again after a failure: a reroll spent, not a second percentile."""
    from rules.starately import GroupCheck, TaskChain, resolve_chain, resolve_group, resolve_risk

    main = StCheck(StSide(0, skill=1, name="Рыжий"), 8)
    helper = StSide(1, skill=1, name="Хват")
    chain = resolve_chain(TaskChain(helper, main), (6, 5), (3, 3))
    luck = entry_luck("check", "Рыжий", {"system": "starately", **chain.to_dict()})
    assert [r.who for r in luck.rolls] == ["Хват", "Рыжий"]
    group = resolve_group(GroupCheck(main, (helper,)), [(2, 2)], (5, 4))
    luck = entry_luck("check", "Рыжий", {"system": "starately", **group.to_dict()})
    assert [r.who for r in luck.rolls] == ["Рыжий", "Хват"]
    assert luck.rolls[1].luck.outcome == "failure"
    first = st_resolve(main, (1, 2))
    risk = resolve_risk(first, "потеря снаряжения", (6, 6))
    luck = entry_luck("check", "Рыжий", {"system": "starately", **risk.to_dict()})
    assert luck.rolls == () and luck.spent == {"Рыжий": {"rerolls": 1}}


def test_entries_without_dice_have_no_luck() -> None:
    """A note, a session mark, a reveal and an unreadable result carry no percentile."""
    assert entry_luck("note", "Ярослав", {"character": "x"}) is None
    assert entry_luck("session", None, {"session": 2}) is None
    assert entry_luck("note", None, {"reveals": "abc", "hidden": False}) is None
    assert entry_luck("check", None, {"system": "drevo", "kind": "one_sided"}) is None
    assert entry_luck("check", None, {"system": "кости"}) is None


def test_fate_before_an_exchange_is_spent_once() -> None:
    """«При встречной проверке игрок может потратить одно очко Судьбы для того, чтобы сразу
    получить результат «+4» … не бросая 4dF»: the Бой tab writes that as its own entry, so
    the exchange that follows has no dice for that side and prices nothing again."""
    from rules.drevo import Fighter, plan_exchange, resolve_exchange_with_dice
    from rules.drevo.exchange import Action

    plan = plan_exchange(
        Fighter("А", trait=2), Action("melee"), Fighter("Б", trait=1), Action("melee"), "close"
    )
    before = entry_luck("combat", "А", {"round": 1, "fate": "before"})
    assert before.rolls == () and before.spent == {"А": {"fate": 1}}
    result = resolve_exchange_with_dice(plan, None, (0, 0, 1, 0), fate=["attacker"])
    luck = entry_luck("combat", "А", {"round": 1, **result.to_dict()})
    assert [r.who for r in luck.rolls] == ["Б"] and luck.spent == {}


def test_other_systems_opposed_in_combat_place_both_sides() -> None:
    """The Бой tab of IDE4, Старатели and Мир Тьмы rolls both sides: each roll is placed in
    its own odds (IDE4 by outcome, Старатели by its natural among 2d6, Мир Тьмы by outcome)."""
    from rules.ide4 import opposed
    from rules.starately import Opposed, resolve_opposed
    from rules.wod import roll_pool

    rng = random.Random(5)
    checks = []
    for name in ("А", "Б"):
        inp = ide4.CheckInput(attribute="Сила", attribute_level=3, base=3, actor=name)
        checks.append(ide4.roll(ide4.start(inp), rng))
    luck = entry_luck("combat", "А", {"round": 1, **opposed(*checks).to_dict()})
    assert [r.who for r in luck.rolls] == ["А", "Б"]
    result = resolve_opposed(
        Opposed(StSide(0, name="А"), StSide(1, name="Б"), initiator="a"), (6, 6), (1, 1)
    )
    luck = entry_luck("combat", "А", {"round": 1, **result.to_dict()})
    naturals = [a + b for a, b in product(range(1, 7), repeat=2)]
    expected = brute([(n, 1) for n in naturals], lambda n: n)
    assert [r.luck.percentile for r in luck.rolls] == [expected[12], expected[2]]
    pools = [roll_pool(Pool(2, 1, name=n), rng) for n in ("А", "Б")]
    data = {"system": "wod", "successes": [0, 0], "rolls": [p.to_dict() for p in pools]}
    assert [r.who for r in entry_luck("combat", None, {"round": 1, **data}).rolls] == ["А", "Б"]


# -- properties ------------------------------------------------------------------------------

weights = st.lists(st.integers(0, 6), min_size=1, max_size=6).filter(any)


@given(weights)
@hsettings(max_examples=examples(60), deadline=None)
def test_percentile_is_fair_on_average_and_its_variance_is_as_stated(ways: list[int]) -> None:
    """Under fair dice the mid-rank percentile has mean exactly 1/2 and variance
    (1 − Σ pᵢ³) / 12, whatever the distribution: what makes rolls of different checks add up."""
    whole = sum(ways)
    probs = {i: Fraction(w, whole) for i, w in enumerate(ways) if w}
    lucks = {i: total_luck(probs, i) for i in probs}
    mean = sum(probs[i] * lucks[i].percentile for i in probs)
    variance = sum(probs[i] * (lucks[i].percentile - mean) ** 2 for i in probs)
    assert mean == Fraction(1, 2)
    assert all(luck.variance == variance for luck in lucks.values())
    expected = brute([(i, w) for i, w in enumerate(ways) if w], lambda i: i)
    assert all(lucks[i].percentile == expected[i] for i in probs)


@given(st.lists(st.tuples(weights, st.integers(0, 5)), min_size=1, max_size=3))
@hsettings(max_examples=examples(40), deadline=None)
@example([([2, 1], 0), ([2, 1], 0), ([2, 1], 1)])  # a mean of exactly 1/2 (found by hypothesis)
def test_exact_tail_equals_enumeration_on_random_small_cases(rolls) -> None:
    """The verdict's tail equals the enumeration of every combination of outcomes."""
    cases = []
    for ways, pick in rolls:
        whole = sum(ways)
        probs = tuple(Fraction(w, whole) for w in ways)
        rolled = [i for i, w in enumerate(ways) if w][pick % sum(1 for w in ways if w)]
        cases.append((probs, rolled))
    samples = [sample(p, i) for p, i in cases]
    assert exact_tail(samples) == pytest.approx(float(brute_tail(cases)), abs=1e-9)


def test_drevo_side_initiative_places_every_4df_roll() -> None:
    """«Какая сторона ходит первой — … определяется броском кубиков на инициативу (у кого
    результат больше, тот и выиграл)»: each side's 4dF roll is a fresh roll placed among the
    81 rolls of 4dF; a tie's reroll is one more."""
    sums = [sum(d) for d in product((-1, 0, 1), repeat=4)]
    expected = brute([(s, 1) for s in sums], lambda s: s)
    how = [
        {"side": "Отряд", "rolls": [[1, 0, 0, 0], [1, 1, 0, 0]]},
        {"side": "Противники", "rolls": [[0, 1, 0, 0], [-1, -1, -1, -1]]},
    ]
    luck = entry_luck("combat", None, {"round": 0, "initiative": how})
    assert [r.who for r in luck.rolls] == ["Отряд", "Отряд", "Противники", "Противники"]
    assert [r.luck.percentile for r in luck.rolls] == [
        expected[1],
        expected[2],
        expected[1],
        expected[-4],
    ]
    bad = [{"side": "Отряд", "rolls": [[2, 0, 0, 0]]}]
    assert entry_luck("combat", None, {"initiative": bad}) is None  # not 4dF: no wrong luck


def test_drevo_fate_without_a_new_roll_is_spent() -> None:
    """«Игрок может потратить одно очко Судьбы для того, чтобы снизить на один уровень
    полученный его персонажем урон … замена Тяжелой раны — три очка»; «после броска … ±1 к
    результату за очко»: the amount each entry records is what the ledger counts as spent."""
    reduced = {"round": 1, "exchange": "x", "damage": "scratch", "fate_spent": 3}
    assert entry_luck("combat", "Горан", reduced).spent == {"Горан": {"fate": 3}}
    note = {"character": "id", "fate_spent": 1}  # a favourable circumstance (a note)
    assert entry_luck("note", "Горан", note).spent == {"Горан": {"fate": 1}}
    shift = {"round": 1, "exchange": "x", "fate": "shift", "points": -2}
    assert entry_luck("combat", "Горан", shift).spent == {"Горан": {"fate": 2}}
    assert entry_luck("combat", "Горан", {**reduced, "fate_spent": 0}) is None


def test_round_tracker_initiative_places_its_dice() -> None:
    """RULES.md [default] «Старатели: 2d6 + the DM of a characteristic the campaign names;
    Мир Тьмы: d10 + the sheet's initiative»: each fighter's dice (its total less the fixed
    part) are placed among those dice's totals; an old IDE4 entry without its check: not placed."""
    two_d6 = brute([(a + b, 1) for a, b in product(range(1, 7), repeat=2)], lambda s: s)
    d10 = brute([(f, 1) for f in range(1, 11)], lambda s: s)
    rolls = {
        "x": {"key": [11], "bonus": 1, "text": "4+6 +1 = 11"},
        "y": {"key": [3], "bonus": 1, "text": "1+1 +1 = 3"},
    }
    data = {"system": "starately", "round": 1, "initiative": rolls, "names": {"x": "Хаим"}}
    luck = entry_luck("combat", None, data)
    assert [r.who for r in luck.rolls] == ["Хаим", None]
    assert [r.luck.percentile for r in luck.rolls] == [two_d6[10], two_d6[2]]
    wod_rolls = {"z": {"key": [12], "bonus": 5, "text": "7 +5 = 12"}}
    luck = entry_luck("combat", None, {"system": "wod", "initiative": wod_rolls})
    assert [r.luck.percentile for r in luck.rolls] == [d10[7]]
    bad = {"z": {"key": [30], "bonus": 5, "text": "25 +5 = 30"}}  # no d10 shows 25
    assert entry_luck("combat", None, {"system": "wod", "initiative": bad}) is None
    ide4_rolls = {"z": {"key": [3, 40], "bonus": 0, "text": "Средне · 40"}}
    assert entry_luck("combat", None, {"system": "ide4", "initiative": ide4_rolls}) is None


IDE4_INITIATIVE_PLACES_ITS_QUICK_CHECK = [1, 2, 3, 4, 5, 6]


def test_ide4_initiative_places_its_quick_check() -> None:
    """RULES.md [default] «IDE4 — a check of the action Инициатива, ordered by outcome, then
    total»: the outcome rolled is placed among the outcomes of that check's
    difficulty, enumerated over the hundred faces of the d100."""

    def check(seed) -> None:
        import random

        from rules import ide4
        from rules.ide4.initiative import ide4_attribute
        from rules.rounds.initiative import Fighter, InitiativeRoll, roll_one, setting

        fighter = Fighter("g", "Горан", qualities={"Ловкость": 2 + seed % 4, "Сила": 3})
        roll = roll_one("ide4", fighter, random.Random(seed))
        saved = InitiativeRoll.from_dict(roll.to_dict())
        assert saved == roll and roll.check is not None
        inp = ide4.CheckInput(
            actor="Горан",
            action=str(setting("ide4", "action")),
            attribute=ide4_attribute(fighter),
            attribute_level=fighter.qualities.get(ide4_attribute(fighter), 3),
            level="quick",
        )
        counts: dict[str, int] = {}
        for natural in range(1, 101):
            outcome = ide4.roll(ide4.start(inp), natural=natural).outcome
            counts[outcome] = counts.get(outcome, 0) + 1
        rank = ide4.OUTCOME_RANK
        got = roll.check["outcome"]
        below = sum(n for o, n in counts.items() if rank[o] < rank[got])
        expected = Fraction(2 * below + counts[got], 200)
        data = {"system": "ide4", "initiative": {"g": roll.to_dict()}, "names": {"g": "Горан"}}
        luck = entry_luck("combat", None, data)
        assert [r.who for r in luck.rolls] == ["Горан"]
        assert luck.rolls[0].luck.percentile == pytest.approx(float(expected), abs=1e-12)

    assert_every_case(IDE4_INITIATIVE_PLACES_ITS_QUICK_CHECK, check, star=False)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ide4_tracker_initiative_of_the_whole_order_reaches_the_ledger(seed) -> None:
    """RULES.md [default] «IDE4 — a check of the action Инициатива, ordered by outcome, then
    total»: every combatant's check of a whole order (as the Бой tab logs it) is placed —
    the ordering once dropped the checks and the ledger placed none."""
    import random

    from rules.rounds.initiative import Fighter, roll_initiative

    fighters = [
        Fighter("a", "Вера", "Отряд", True, {"Внимание": 4}),
        Fighter("b", "Тимур", "Отряд", True, {"Внимание": 4}),
        Fighter("c", "Гриша", "Противники", False, {"Внимание": 3}),
    ]
    _order, rolls = roll_initiative("ide4", fighters, random.Random(seed))
    data = {
        "system": "ide4",
        "initiative": {k: r.to_dict() for k, r in rolls.items()},
        "names": {f.id: f.name for f in fighters},
    }
    luck = entry_luck("combat", None, data)
    assert luck is not None
    assert sorted(r.who for r in luck.rolls) == ["Вера", "Гриша", "Тимур"]
