"""The parser's fast path (one regex for the common shapes) reads exactly what the general
recursive-descent parser reads, and leaves everything else, errors included, to it."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import DEFAULT_LIMITS, Dice, Expression, Limits, Select, parse
from rules.dice.parser import _Parser
from rules.dice.parser_fast import fast_parse
from rules.errors import DiceBoundsError, DiceSyntaxError, RulesError
from tests.every_case import assert_every_case
from tests.rules.test_dice_properties import TOKENS, expressions


def general(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression | None:
    try:
        return _Parser(text, limits).top()
    except RulesError:
        return None


def same_as_general(text: str, limits: Limits = DEFAULT_LIMITS) -> bool:
    """True when the fast path answers; fails the test if its answer differs in any way."""
    fast = fast_parse(text, limits)
    if fast is None:
        return False
    slow = general(text, limits)
    assert slow is not None, f"the fast path accepted {text!r}, the parser refuses it"
    assert fast == slow  # the tree with every position, the label, the text
    assert str(fast) == str(slow)
    return True


# The shapes the fast path reads, with the characters next to them that it must not misread.
SIMPLE = [
    "", "0", "1", "2", "3", "6", "10", "20", "100", "1000", "1001", "999999999", "1234567890",
    "d", "D", "к", "К", "д", "Д", "F", "f", "ф", "%", "6", "20", "min", "max", "r", "ro", "rO",
    "R", "k", "K", "kh", "kl", "KH", "d", "dh", "dl", "h", "l", "=", "!=", "<>", "<", ">", "<=",
    ">=", "+", "-", "\u2212", "*", "/", "(", ")", " ", "  ", "\t", "\n", "#", " # топор", "!",
    "x", "vs", "{", "}", ",", "\u212a", "٣",
]  # fmt: skip


@settings(deadline=None, max_examples=200)
@given(st.lists(st.sampled_from(SIMPLE), max_size=25).map("".join))
@example("3d6\n")
@example("2d6+1\n")
@example("d6r1r2")
@example("4d6kh3d1")
@example("((((((((1))))))))")
@example("(((((((((1)))))))))")
@example("2d6/(d6-1)")
@example("2d6+6/2")  # / binds before + (as * does)
@example("d6-4/2*3")
@example("2d6/(d6+1) # урон")
@example("4D6KH3")
@example("4d6\u212ah3")
def test_near_simple_text_reads_as_the_parser_reads_it(text: str) -> None:
    """RULES §0: «Case-insensitive; spaces allowed between terms; … Russian `к` accepted for
    `d`»: the fast path gives the general parser's expression (positions included) or leaves
    the text to it."""
    same_as_general(text)


@st.composite
def simple_pool(draw: st.DrawFn) -> str:
    """A pool in the fast path's shape (modifiers in rpg-dice-roller's order), sometimes out of
    range or with a check that fails."""
    text = draw(st.sampled_from(["", "1", "2", "3", "03", "0", "1000", "1001"]))
    text += draw(st.sampled_from(["d", "D", "к", "Д"]))
    text += draw(st.sampled_from(["2", "4", "6", "20", "%", "F", "ф", "1", "1000", "1001"]))
    number = st.sampled_from(["", "0", "1", "2", "3", "6", "7"])
    if draw(st.booleans()):
        text += "min" + draw(number)
    if draw(st.booleans()):
        text += "max" + draw(number)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["r", "ro"]))
        text += draw(st.sampled_from(["", "=", "!=", "<>", "<", ">", "<=", ">="])) + draw(number)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["k", "kh", "kl"])) + draw(number)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["d", "dh", "dl"])) + draw(number)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["", "=", "!=", "<>", "<", ">", "<=", ">="])) + draw(number)
        if draw(st.booleans()):
            text += "f" + draw(st.sampled_from(["", "=", "<>", "<", "<="])) + draw(number)
    return text


def _grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda a, s1, op, s2, b: f"{a}{s1}{op}{s2}{b}",
            inner,
            _SPACE,
            st.sampled_from(["+", "-", "\u2212", "*", "/"]),
            _SPACE,
            inner,
        ),
        st.builds(lambda s1, a, s2: f"({s1}{a}{s2})", _SPACE, inner, _SPACE),
    )


# Built once, not on every draw (rebuilding the recursive strategy per example was most of this
# file's CPU); the same strategies, so the same examples.
_SPACE = st.sampled_from(["", " ", "  "])
_BODY = st.recursive(
    st.one_of(simple_pool(), st.sampled_from(["0", "1", "5", "20"])), _grow, max_leaves=6
)


@st.composite
def simple_expressions(draw: st.DrawFn) -> str:
    body = draw(_SPACE) + draw(_BODY) + draw(_SPACE)
    return body + draw(st.sampled_from(["", "#", "# топор", " #  "]))


@settings(deadline=None, max_examples=150)
@given(simple_expressions())
@example("2d6k")
@example("2d6k1")
@example("4d6dl")
@example("d6kl")
def test_simple_shapes_read_as_the_parser_reads_them(text: str) -> None:
    """RULES §0: «`NdMkhK` / `NdMklK` (keep highest / lowest K), `+`, `−` with integers and
    other dice terms»: the fast path reads them as the parser does."""
    same_as_general(text)


@settings(deadline=None, max_examples=50)
@given(expressions())
def test_generated_expressions_read_as_the_parser_reads_them(text: str) -> None:
    """Issue 18: «an expression a GM types into rpg-dice-roller rolls the same way in kubik»,
    whichever of the two parsers reads it."""
    same_as_general(text)


@settings(deadline=None, max_examples=100)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_near_valid_text_reads_as_the_parser_reads_it(text: str) -> None:
    """RULES §0: «A parse error names the position and what was expected» — the fast path
    never accepts what the general parser refuses."""
    same_as_general(text)


COMMON_SHAPES_TAKE_THE_FAST_PATH = [
    "3d6", "d20", "2d20kh1", "2d20kl1 + 5", "4d6kh3", "5d6dl2", "4d6d1", "2d6dh", "100d6",
    "265d%", "4dF + 2", "2d6r1", "8d6r<3", "4d6ro1", "6d6min3", "3d6max4", "2d6min2max5",
    "(2d6+1)*3/2", "d20*d20", "2к6+3 # топор", "1d20 + 5 − 2", "3 * (d6 + d4) / 2",
    "10d10>=8", "100d10>=8", "10d10>=8f1", "6d6>4f<2", "5d10<>3", "4d6kh3>=4f=1", "6d6>4f<>2",
]  # fmt: skip


def test_common_shapes_take_the_fast_path() -> None:
    """Issue 18: «Parsing is about half of their time»: the shapes a GM types most are read
    by the fast path, the same as the parser reads them."""

    def check(text: str) -> None:
        assert same_as_general(text)

    assert_every_case(COMMON_SHAPES_TAKE_THE_FAST_PATH, check, star=False)


ERRORS_ARE_LEFT_TO_THE_PARSER = [
    ("0d6", DiceBoundsError, 0),
    ("d1", DiceBoundsError, 1),
    ("4d6d", DiceSyntaxError, 4),
    ("2d6r<", DiceSyntaxError, 5),
    ("d6r<=6", DiceSyntaxError, 2),
    ("d6kh2", DiceBoundsError, 2),
    ("d6k0", DiceBoundsError, 3),
    ("d6min7", DiceBoundsError, 2),
    ("d6min4max3", DiceBoundsError, 2),
    ("d6max7", DiceBoundsError, 2),
    ("dFmin-2", DiceBoundsError, 2),
    ("dFmax2", DiceBoundsError, 2),
    ("2d6/(d6-1)", DiceSyntaxError, 3),
    ("600d6 + 401d6", DiceBoundsError, 8),
    ("3 d6", DiceSyntaxError, 2),
    ("2d6+", DiceSyntaxError, 4),
    ("10d10>=", DiceSyntaxError, 7),
    ("10d10>=8f", DiceSyntaxError, 9),
]


def test_errors_are_left_to_the_parser() -> None:
    """RULES §0: «A parse error names the position and what was expected»: the fast path gives
    up on it, and the parser's error names the place."""

    def check(text: str, error: type, position: int) -> None:
        assert fast_parse(text, DEFAULT_LIMITS) is None
        with pytest.raises(error) as caught:
            parse(text)
        assert caught.value.position == position

    assert_every_case(ERRORS_ARE_LEFT_TO_THE_PARSER, check)


def test_fast_path_keeps_custom_limits() -> None:
    """RULES §0: «Bounds against abuse, each a clear error» — one limits object per evaluation,
    the fast path included."""
    tight = Limits(max_faces=20, max_dice_total=3, max_dice_per_term=2, max_depth=2)
    assert fast_parse("2d20kh1", tight) == general("2d20kh1", tight)
    assert fast_parse("2d20kh1", tight).root == Dice(2, 20, selects=(Select(True, True, 1),))  # type: ignore[union-attr]
    for text in ("d100", "2d6+2d6", "3d6", "(((1)))"):
        assert fast_parse(text, tight) is None
        assert general(text, tight) is None
    assert same_as_general("((1))", tight)
    one_face = Limits(min_faces=1)
    for text in ("d1r1", "d1r", "2d1r=1"):  # a reroll of a one-faced die never stops
        assert fast_parse(text, one_face) is None
        assert general(text, one_face) is None
    assert same_as_general("d1ro1", one_face)
