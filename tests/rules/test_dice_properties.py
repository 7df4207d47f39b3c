"""Property tests: any text gives a result within its bounds or a handled error, never a hang;
small odds sum to one and agree with brute force."""

from __future__ import annotations

import time
from fractions import Fraction
from functools import cache

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import (
    DEFAULT_LIMITS,
    Die,
    Expression,
    GroupRoll,
    OpRoll,
    PoolRoll,
    bounds,
    make_rng,
    parse,
    roll,
)
from rules.dice.bounds import static_dice
from rules.errors import DiceLimitError, RulesError
from rules.odds import odds
from tests.hypo import examples
from tests.rules.dice_oracle import enumerate_totals

#: Seconds that mean "hung": a bound on catastrophic behaviour, not a speed goal (speed lives
#: in tests/benchmarks, which times generated expressions against 50 ms). A 50 ms budget here
#: failed once when the machine was busy.
HANG = 5.0

TOKENS = [
    "d", "D", "к", "К", "д", "F", "ф", "%", "!", "!!", "!p", "k", "kh", "kl", "d", "dh", "dl",
    "r", "ro", "min", "max", "=", "!=", "<>", "<", ">", "<=", ">=", "f", "{", "}", ",", "(",
    ")", "*", "/", "x", "х", "#", "vs", "VS", "+", "-", "\u2212", " ", "\t", "0", "1", "2",
    "3", "6", "10", "20", "100", "1000", "1001", "999999999", ".", "é", "İ", "٣", "²",
    "cs", "cf", "s", "sa", "sd", "u", "uo", "F.1", "F.2", "^", "**", "%", "//", "[", "]",
    "/*", "*/", "floor(", "round(", "max(", "sqrt(", "log(", "tan(", "pow(", "2.5",
]  # fmt: skip


def check_parse(text: str) -> Expression | None:
    """Parse within the hang bound; return the expression or None for a handled error."""
    start = time.perf_counter()
    try:
        result: Expression | None = parse(text)
    except RulesError as error:
        assert str(error)
        result = None
    assert time.perf_counter() - start < HANG
    return result


@settings(deadline=None, max_examples=examples(100))
@given(st.text(max_size=300))
def test_any_text_parses_or_raises_rules_error(text: str) -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    expression = check_parse(text)
    assert expression is None or expression.text == text


def dice_of(part: object) -> list[Die]:
    if isinstance(part, PoolRoll):
        return list(part.dice)
    if isinstance(part, (OpRoll, GroupRoll)):
        return [d for sub in part.parts for d in dice_of(sub)]
    return []


def check_roll(text: str) -> None:
    """Parse ``text``; if valid, re-parse its canonical form and roll it within its bounds."""
    expression = check_parse(text)
    if expression is None:
        return
    assert str(parse(str(expression))) == str(expression)
    start = time.perf_counter()
    try:
        result = roll(expression, make_rng(0))
    except DiceLimitError:
        return
    assert time.perf_counter() - start < HANG
    low, high = bounds(expression.root)
    assert all(low <= o.value <= high for o in result.outcomes)  # bounds of the exact value
    dice = [d for o in result.outcomes for d in dice_of(o.tree)]
    draws = sum(len(d.rolls) for d in dice)
    assert draws <= DEFAULT_LIMITS.max_dice_total
    if expression.target is not None:
        assert result.success == (result.total >= expression.target)


@settings(deadline=None, max_examples=examples(100))
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_near_valid_text_parses_rolls_within_limits(text: str) -> None:
    """RULES §0: «dice rolled per expression ≤ 1000, explosions included; explosion chain
    ≤ 100 per die» and «A parse error names the position and what was expected»."""
    check_roll(text)


POINT = st.builds(
    lambda op, v: f"{op}{v}",
    st.sampled_from(["", "=", "!=", "<>", "<", ">", "<=", ">="]),
    st.integers(-2, 12),
)


# The strategies the composites below draw from are built once (functools.cache), not on every
# draw: a strategy built anew is validated and its recursion unrolled again each time (most of
# these tests' CPU). They are the same strategies, so the same examples.


@cache
def _faces(small: bool) -> st.SearchStrategy[str]:
    if small:
        return st.sampled_from(["2", "3", "4", "6", "F"])
    return st.sampled_from(["2", "4", "6", "10", "20", "%", "F", "F.1", "1", "1001", "(1+2)"])


@cache
def _counts(small: bool) -> st.SearchStrategy[int]:
    return st.integers(1, 3) if small else st.one_of(st.integers(1, 12), st.integers(0, 1100))


@cache
def _counts_text(small: bool) -> st.SearchStrategy[str]:
    plain = _counts(small).map(str)
    return plain if small else st.one_of(plain, st.sampled_from(["(4-2)", "(1/2)", "(2*2)"]))


@cache
def _mods() -> tuple[st.SearchStrategy[str], ...]:
    return (
        st.builds(lambda v: f"min{v}", st.integers(-1, 7)),
        st.builds(lambda v: f"max{v}", st.integers(-1, 7)),
        st.builds(
            lambda b, p: b + p,
            st.sampled_from(["!", "!!", "!p", "!!p"]),
            POINT.filter(lambda p: not p.startswith("!")),
        ),
        st.builds(lambda r, p: r + p, st.sampled_from(["r", "ro"]), POINT),
        st.builds(
            lambda k, n: k + n,
            st.sampled_from(["k", "kh", "kl", "d", "dh", "dl"]),
            st.sampled_from(["", "1", "2", "3"]),
        ),
        st.builds(
            lambda s, f: s + f,
            POINT.filter(lambda p: p[:1] in "=<>"),
            st.sampled_from(["", "f1", "f<=1", "f<2"]),
        ),
        st.builds(lambda u, p: u + p, st.sampled_from(["u", "uo"]), POINT),
        st.builds(lambda c, p: c + p, st.sampled_from(["cs", "cf"]), POINT),
        st.sampled_from(["s", "sa", "sd"]),
    )


@st.composite
def pool(draw: st.DrawFn, small: bool = False) -> str:
    """A dice pool as a GM might type it, sometimes out of range, with modifiers in any order."""
    count = draw(_counts_text(small))
    text = draw(st.sampled_from(["", count])) + draw(st.sampled_from(["d", "D", "к", "д"]))
    text += draw(_faces(small))
    mods = _mods()
    for mod in draw(st.lists(st.sampled_from(range(len(mods))), max_size=3, unique=True)):
        text += draw(mods[mod])
    return text


@cache
def _bodies(small: bool) -> st.SearchStrategy[str]:
    atoms = st.one_of(pool(small), st.integers(0, 20).map(str))

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.builds(
                lambda a, op, b: f"{a}{op}{b}",
                inner,
                st.sampled_from(["+", "-", " − ", "*", "/", "%", "^", "++"]),
                inner,
            ),
            inner.map(lambda a: f"({a})"),
            st.builds(
                lambda f, a: f"{f}({a})",
                st.sampled_from(["abs", "ceil", "floor", "round", "sign", "sqrt", "cos"]),
                inner,
            ),
            st.builds(
                lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(["max", "min"]), inner, inner
            ),
            inner.map(lambda a: f"-{a}"),
            st.builds(
                lambda items, m: "{" + ", ".join(items) + "}" + m,
                st.lists(inner, min_size=1, max_size=3),
                st.sampled_from(["", "k1", "kl1", "d1", ">=4", ">3f1", "s", "sd", "kh1dl1"]),
            ),
        )

    return st.recursive(atoms, grow, max_leaves=2 if small else 5)


@st.composite
def expressions(draw: st.DrawFn, small: bool = False) -> str:
    body = draw(_bodies(small))
    if not small and draw(st.booleans()):
        body = f"{draw(st.integers(0, 4))}x {body}"
    if draw(st.booleans()):
        body += draw(st.sampled_from([" vs ", "VS", " vs -"])) + str(draw(st.integers(0, 30)))
    if draw(st.booleans()):
        body += " # метка"
    return body


@settings(deadline=None, max_examples=examples(50))
@given(expressions())
@example("3^-1")  # hypothesis: the bounds' float 1/3 lay below the exact 1/3 rolled
@example("12^-abs(14)")  # hypothesis: a tiny power was refused as «больше ±10¹⁵»
def test_generated_expressions_roll_within_bounds(text: str) -> None:
    """Issue 18: «any generated expression gives a result within its bounds or a handled
    error» (within the hang bound; the 50 ms goal is the benchmark's)."""
    check_roll(text)


@settings(deadline=None, max_examples=examples(40))
@given(expressions(small=True))
@example("d2!p1")  # every explosion adds 0: all its chains land on one total (found by hypothesis)
@example("d2!!0ro1")  # a compounded die's `ro` was applied twice: 1 at 1/8 (found by hypothesis)
@example("{2d2u1}k1")  # a one-expression group kept dice as if `u` were not there (hypothesis)
def test_small_odds_sum_to_one_and_match_brute_force(text: str) -> None:
    """RULES §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling)»; truncation «is reported»."""
    expression = check_parse(text)
    if expression is None or static_dice(expression.root) > 4:
        return
    try:
        distribution = odds(expression)
    except DiceLimitError:
        return
    assert sum(distribution.probs.values()) + distribution.truncated == 1
    assert all(p > 0 for p in distribution.probs.values())
    try:
        oracle, cut = enumerate_totals(text, cap=6, paths=5000)
    except AssertionError:
        return  # too many paths to enumerate quickly
    for total in set(oracle) | set(distribution.probs):
        low = oracle.get(total, Fraction(0))
        assert low <= distribution.probs.get(total, Fraction(0)) <= low + cut
    roll_total = roll(expression, make_rng(1)).total
    assert distribution.probs.get(roll_total, Fraction(0)) > 0 or distribution.truncated > 0
