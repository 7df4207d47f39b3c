"""The direct path for the odds of the tiniest shapes gives what parsing and the general odds
give, and takes the shapes it is for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import parse
from rules.errors import RulesError
from rules.odds import _compute, odds
from rules.odds.direct import _direct
from rules.odds.tree import _node
from rules.odds.weights import _Dist, _trim, _Work
from tests.every_case import assert_every_case


def general(text: str) -> _Dist | None:
    try:
        expression = parse(text)
    except RulesError:
        return None
    return _trim(_node(expression.root, 100, _Work()))


NEAR = st.builds(
    lambda *parts: "".join(parts),
    st.sampled_from(["", " ", "  "]),
    st.sampled_from(["", "0", "1", "2", "3", "007", "100", "101", "1000"]),
    st.sampled_from(["d", "D", "к", "Д", "x"]),
    st.sampled_from(["1", "2", "6", "20", "100", "101", "%", "F", ""]),
    st.sampled_from(["", "k", "kh", "kl", "k1", "kh1", "kl1", "kh2", "k0", "kl01", " kh1", "d1"]),
    st.sampled_from(["", "+5", " + 5", " - 3", " \u2212 2", " +", "+1234567890", "*2", "+d4"]),
    st.sampled_from(["", " ", " # топор", " vs 5"]),
)


@settings(deadline=None, max_examples=300)
@given(NEAR)
def test_direct_odds_are_the_general_odds(text: str) -> None:
    """RULES §0: «`NdM`, `dM` … `NdMkhK` / `NdMklK` (keep highest / lowest K), `+`, `−` with
    integers»: the direct path's distribution, where it gives one, is the general one."""
    direct = _direct(text)
    if direct is None:
        return
    expected = general(text)
    assert expected is not None, f"the direct path accepted {text!r}, the parser refuses it"
    assert _trim(direct) == expected


TINY_SHAPES_TAKE_THE_DIRECT_PATH = [
    "3d6",
    "d20",
    "2d20kh1",
    "2d20kl1 + 5",
    "2d20k",
    "d20kl1",
    "d20 - 2",
    "4d6 −1",
]


def test_tiny_shapes_take_the_direct_path() -> None:
    """Issue 18: tiny expressions ≥ 5× faster than icepool: the advantage roll and its kin skip
    the parsed tree, with the same result."""

    def check(text: str) -> None:
        direct = _direct(text)
        assert direct is not None
        assert _trim(direct) == general(text)
        _compute.cache_clear()  # type: ignore[attr-defined]
        dist = odds(text)
        offset, weights, denominator = general(text)  # type: ignore[misc]
        totals = [offset + i for i, w in enumerate(weights) if w]
        assert (list(dist.totals), list(dist.weights), dist.denominator) == (
            totals,
            [w for w in weights if w],
            denominator,
        )

    assert_every_case(TINY_SHAPES_TAKE_THE_DIRECT_PATH, check, star=False)


OTHER_SHAPES_TAKE_THE_GENERAL_WAY = ["0d6", "d1", "101d6", "d101", "2d20kh2", "4d6kh3", "2d6 # x"]


def test_other_shapes_take_the_general_way() -> None:
    """RULES §0: «`1d1!`, `0d6` and a keep of 0 or of more dice than rolled» are refused by the
    parser, and shapes beyond the tiny ones go through it."""

    def check(text: str) -> None:
        assert _direct(text) is None

    assert_every_case(OTHER_SHAPES_TAKE_THE_GENERAL_WAY, check, star=False)
