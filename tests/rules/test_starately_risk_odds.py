"""What Risk is worth, against brute force: every throw of the retry's dice made through the
procedure itself (``rules.starately.resolve_risk``) and its outcomes counted."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import starately
from tests.hypo import examples


@settings(max_examples=examples(25), deadline=None)
@given(
    dm=st.integers(-2, 2),
    skill=st.one_of(st.none(), st.integers(0, 4)),
    net=st.sampled_from([(0, 0), (1, 0), (0, 1)]),
    bonus=st.integers(-3, 3),
    difficulty=st.sampled_from([6, 8, 10, 12]),
    first=st.data(),
)
def test_risk_odds_against_every_throw_of_the_retry(dm, skill, net, bonus, difficulty, first):
    """Сид: «Игрок может заявить Риск и совершить проверку ещё раз» — the retry's chance of a
    success, and of a failure worse (a lower Effect) than the first, as counted."""
    mods = (starately.Modifier(bonus, "ветер"),) if bonus else ()
    side = starately.Side(dm=dm, skill=skill, boons=net[0], banes=net[1], modifiers=mods)
    check = starately.Check(side, difficulty)
    throws = list(product(range(1, 7), repeat=side.dice_count))
    failed = [starately.resolve(check, t) for t in throws]
    failed = [r for r in failed if not r.success]
    if not failed:
        return  # no failure to retry
    result = first.draw(st.sampled_from(failed))
    odds = starately.risk_odds(check, result.effect)
    retries = [starately.resolve_risk(result, "цена", t).retry for t in throws]
    better = Fraction(sum(r.success for r in retries), len(throws))
    worse = Fraction(sum(not r.success and r.effect < result.effect for r in retries), len(throws))
    assert (odds.better, odds.worse) == (better, worse)
