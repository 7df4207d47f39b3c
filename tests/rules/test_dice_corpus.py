"""A corpus of expressions, each rolled and its exact odds checked against brute force.

The cases follow what rpg-dice-roller's test suite (dice, modifiers, groups, maths) and
avrae/d20's (keep/drop, rerolls, min/max, arithmetic) exercise, written as our own expressions
small enough to enumerate: every path of die faces is run through the roller
(:mod:`tests.rules.dice_oracle`). Without explosions or rerolls the distribution must be equal,
fraction for fraction; with them, the brute force stops at ``CAP`` draws, so every total's
exact chance must lie between the enumerated chance and that plus the mass cut off.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import bounds, make_rng, parse, roll, total_of
from rules.odds import odds
from tests.every_case import assert_every_case
from tests.rules.dice_oracle import enumerate_totals

CAP = 8  # draws per enumerated path

BASIC = [
    "d6", "1d6", "2d6", "3d6", "4d4", "d8", "d10", "d12", "d20", "2d10", "d%", "1d%",
    "dF", "2dF", "3dF", "4dF", "1d2", "3d2", "2d3", "D6", "2D8",
]  # fmt: skip
RUSSIAN = ["2к6", "3к4", "д6", "2Д6+1", "4кF", "к%"]
MATHS = [
    "2d6+3", "d6-2", "2d6*2", "d6*d4", "(d6+2)/2", "d20/4", "3d4/2", "-d6", "-2d4+1",
    "2d6-d6", "d6+d6+d6", "(2d4+1)*d3", "10-d6", "d6*-1", "(d6)", "((d4+1))", "d6+1-1",
    "d4*d4*d4", "d8/d3", "2d4-2d4", "2*d6+3", "d6/2*2", "7", "3*(2+1)", "-d6/2", "d6−2",
    "d6/-2", "2d6/-3", "d6*-2", "d4*0", "d6/(0-1)",
]  # fmt: skip
KEEP_DROP = [
    "2d20kh1", "2d20kl1", "4d6k3", "4d6kh3", "4d6kl3", "3d6k1", "3d6kl1", "4d6d1", "4d6dl1",
    "4d6dh1", "4d6dl2", "3d8d1", "3d6dh2", "5d4kh3", "5d4kl2", "4d6k3d1", "4d6kh3dh1",
    "4dFkh2", "4dFdl1", "2d10k1+5", "3d6kh2*2", "2d20kh", "4d6kl", "3d6kh3", "3d6dl1-2",
]  # fmt: skip
EXPLODE = [
    "d6!", "2d6!", "d4!", "3d4!", "d6!>=5", "d6!>4", "d6!=5", "d6!<2", "d6!<=2", "d4!=1",
    "2d6!!", "d6!!", "d4!!>=3", "d6!p", "2d6!p", "d4!!p", "d6!!p", "dF!", "2dF!", "d6!kh1",
    "2d6!kh1", "2d4!dl1", "d6!+2", "2d6!-d4", "d10!>=9", "d10!>8", "d6!5", "3d3!kl2",
]  # fmt: skip
REROLL = [
    "d6r", "d6r1", "2d6r1", "d6r<3", "d6r<=2", "d6r>4", "d6ro", "d6ro1", "2d6ro<3",
    "d6ro<=3", "d8r1", "d4r=2", "d6ro!=6", "d6ro>=5", "2d4r<2", "d10r1", "3d6r1kh2", "dFr",
    "2d6ro1kh1", "d6!r1", "d6r1!",
]  # fmt: skip
MIN_MAX = [
    "d6min2", "d6min3", "2d6min2", "d6max4", "2d6max5", "d20min10", "d6min2max5", "3d4max3",
    "4dFmin0", "d6max1", "d6min6", "d6min3!", "d6max5!",
]  # fmt: skip
TARGETS = [
    "2d6>3", "2d6>=4", "2d6<3", "2d6<=2", "2d6=6", "3d6>=5", "3d10>=8", "3d10>=8f1",
    "3d10>=8f<=2", "4d6=6", "2d6>4f<2", "3d6<=3", "d20>=15", "3dF>=1", "3dF=1f=-1",
    "2d10!=10>=8", "d10!=10>=8", "d4!>=3>=3", "2d6r1>=4", "4d6kh3>=4", "4d6dl1>3",
    "2d6min2>=3", "2d6ro<2>=5", "2d6<>3", "2d6!=6>=5",
]  # fmt: skip
GROUPS = [
    "{2d6}", "{d6, d4}", "{d6+1, d8}", "{d6, d6}k1", "{d6, d6}kl1", "{d4, d6, d8}k2",
    "{d4, d6, d8}d1", "{d6+2, 2d4}kh1", "{d6, d8}>=5", "{d6, d6, d6}>=4", "{d6, d8}>=5f<2",
    "{d6, d4}dh1", "{2d6+1, d10}k1", "{d6, d6, d6}k2>=4", "{3d4}k2", "{2d6+d4}k2",
    "{2d6+d4}d1", "{3d4}>=3", "{2d4+d6}>=4", "{2d6+1}k1", "{2d4!}k1", "{d6!+d4}k1",
    "{d4, d4}k1*2", "-{d6, d6}k1", "{2d4-d4}>=3", "{-2d4}>=2", "{-2d4}kh1",
]  # fmt: skip
WHOLE = ["3x d6", "2d6 # топор", "2d6 vs 7", "d20+5 vs 15 # атака", "2x 2d6kh1 vs 4"]

CORPUS = BASIC + RUSSIAN + MATHS + KEEP_DROP + EXPLODE + REROLL + MIN_MAX + TARGETS + GROUPS + WHOLE


def test_corpus_is_big_enough() -> None:
    """Issue 18: «a corpus of at least 150 expressions»."""
    assert len(CORPUS) >= 150
    assert len(set(CORPUS)) == len(CORPUS)


#: The corpus by kind: one test item a kind (xdist still spreads the slower kinds), each
#: naming every expression of its kind that fails.
KINDS = {
    "basic": BASIC,
    "russian": RUSSIAN,
    "maths": MATHS,
    "keep_drop": KEEP_DROP,
    "explode": EXPLODE,
    "reroll": REROLL,
    "min_max": MIN_MAX,
    "targets": TARGETS,
    "groups": GROUPS,
    "whole": WHOLE,
}


def test_the_kinds_are_the_corpus() -> None:
    """Every expression of the corpus is checked under its kind, none twice."""
    assert [t for kind in KINDS.values() for t in kind] == CORPUS


@pytest.mark.parametrize("kind", list(KINDS))
def test_corpus_odds_and_rolls(kind: str) -> None:
    """RULES §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling) computed from the same inputs as the roll»; explosions «truncated where the
    remaining probability is below 1e-12 and the truncation is reported»."""

    def check(text: str) -> None:
        dist = odds(text)
        oracle, cut = enumerate_totals(text, cap=CAP)
        if cut == 0:
            assert dist.probs == oracle
            assert dist.truncated == 0
            assert dist.mean() == sum((v * p for v, p in oracle.items()), Fraction(0))
        else:
            for total in set(oracle) | set(dist.probs):
                low = oracle.get(total, Fraction(0))
                assert low <= dist.probs.get(total, Fraction(0)) <= low + cut, total
            assert dist.truncated < Fraction(1, 10**11)
        assert dist.minimum == min(oracle)
        assert dist.maximum >= max(oracle)
        low, high = map(total_of, bounds(parse(text).root))  # bounds of the value, then shown
        assert low <= dist.minimum and dist.maximum <= high
        for seed in range(10):
            result = roll(text, make_rng(seed))
            for total in result.totals:
                assert low <= total <= high
                assert dist.probs.get(total, 0) > 0 or total > dist.maximum

    assert_every_case(KINDS[kind], check, star=False)
