"""Exact odds of rpg-dice-roller's notation against brute force written in the tests.

Every new modifier of issue 31 is generated on small pools and its exact distribution compared
with :mod:`tests.rules.brute`, which enumerates every sequence of faces through its own reading
of rpg-dice-roller's semantics (no code of the roller, its arithmetic or the odds). Where the
brute force had to cut paths (rerolls and explosions go on forever), every total's chance must
lie between what it enumerated and that plus the mass it cut.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import Dice, parse
from rules.dice.model import walk
from rules.errors import DiceLimitError, RulesError
from rules.odds import odds
from tests.hypo import examples
from tests.rules.brute import distribution

#: Paths the brute force may walk for one expression (its draws are capped to stay below).
PATHS = 40_000


def _cap(expression: object) -> int:
    """Draws per path: as many as fit in :data:`PATHS` for the widest die, at least one more
    than the dice rolled (rerolls and explosions get the rest)."""
    dice = [n for n in walk(expression.root) if isinstance(n, Dice)]  # type: ignore[attr-defined]
    sides = max([6 if d.faces is None and d.fudge == 1 else d.faces or 3 for d in dice] or [2])
    cap = int(math.log(PATHS) / math.log(sides))
    return max(cap, sum(d.count for d in dice) + 1)


def agrees(text: str, cap: int | None = None, may_refuse: bool = False) -> None:
    """The exact odds of ``text`` are the brute force's (within its cut mass); ``may_refuse``:
    the counted bound may refuse it (dice followed one by one through long chains)."""
    try:
        expression = parse(text)
    except RulesError:
        return
    try:
        dist = odds(expression)
    except DiceLimitError:
        if may_refuse:
            return
        raise AssertionError(f"{text}: small pools must not be refused") from None
    cap = min(cap or 99, _cap(expression))
    brute, cut = distribution(expression, cap=cap, paths=10 * PATHS)
    if cut == 0:
        assert dist.probs == brute, text
        assert dist.truncated == 0
        return
    for total in set(brute) | set(dist.probs):
        low = brute.get(total, Fraction(0))
        assert low <= dist.probs.get(total, Fraction(0)) <= low + cut, (text, total)


POINT = st.sampled_from(["", "=1", "=2", ">2", "<3", "<=2", ">=3", "<>2", "!=1"])
SELECT = st.lists(
    st.sampled_from(["kh", "kl", "dh", "dl"]), unique=True, min_size=1, max_size=3
).flatmap(lambda kinds: st.tuples(*(st.sampled_from([f"{k}1", f"{k}2"]) for k in kinds)))


@settings(deadline=None, max_examples=examples(40))
@given(st.integers(2, 4), st.sampled_from([3, 4, 6, "F", "F.1"]), SELECT)
@example(3, 10, ("kh1", "dl1"))  # rpg-dice-roller: «3d10k1d1: [6d, 1d, 9] = 9»
@example(4, 4, ("dh1", "dl2"))
def test_keep_and_drop_together(count: int, faces: object, selects: tuple[str, ...]) -> None:
    """rpg-dice-roller: «They both look at the entire dice pool. So if a roll has been dropped,
    it will be still be included in the list of possible rolls to drop»; kh, kl, dh and dl in
    any combination, counts at most the dice rolled."""
    if any(int(s[2:]) > count for s in selects) or (faces == 10 and count > 3):
        return
    agrees(f"{count}d{faces}{''.join(selects)}")


@settings(deadline=None, max_examples=examples(40))
@given(
    st.integers(1, 3),
    st.sampled_from([2, 3, 4, "F"]),
    st.sampled_from(["!", "!!", "!p", "!!p"]),
    st.sampled_from(["", ">=3", "<2", "=2"]),
    st.sampled_from(["", "kh1", "kl1", "dl1", "dh1", "kh2", "kh1dh1", "kl2dl1"]),
    st.sampled_from(["", "min2", "r1", ">=3"]),
)
@example(2, 4, "!", "", "kh1", "")
@example(2, 3, "!p", "", "kl1", "")
@example(2, 4, "!", "<2", "dl1", "")
def test_exploding_keep_and_drop(
    count: int, faces: object, bang: str, point: str, selects: str, extra: str
) -> None:
    """Issue 31: «keep/drop of exploding and large pools by an algorithm that scales with faces ×
    kept dice»: exploding pools kept or dropped (every added die a die of its own), with
    compounding, penetration, a clamp, a reroll or a success point beside them."""
    if any(int(c) > count for c in selects[2::3] if c.isdigit()):
        return
    text = f"{count}d{faces}{extra if extra.startswith(('min', 'r')) else ''}{bang}{point}"
    text += selects + (extra if extra.startswith(">") else "")
    # a clamp or a penetration beside the explosion has no closed form: the dice are followed
    # one by one, and a die exploding half the time may take more than the budget
    agrees(text, cap=8, may_refuse=bool(extra.startswith(("min", "r")) or "p" in bang))


@settings(deadline=None, max_examples=examples(40))
@given(
    st.integers(2, 4),
    st.sampled_from([3, 4, "F", "F.1"]),
    st.sampled_from(["u", "uo"]),
    POINT,
    st.sampled_from(["", "kh1", "kl2", "dl1", ">=3", "min2", "r1", "!", "sd"]),
)
@example(3, 3, "u", "", "")  # three faces, three dice: a random order of all three
@example(4, 3, "u", "", "")  # «5d3u will produce more results than possible unique values»
@example(3, 4, "uo", ">2", "kh1")
def test_unique(count: int, faces: object, u: str, point: str, extra: str) -> None:
    """rpg-dice-roller: «The unique modifier wil re-roll any dice where the value is not unique.
    It will keep rolling until a unique value is rolled»; «If you only want to roll a duplicate
    die once, the use uo»; «If you only want to re-roll duplicates if they match certain
    criteria … you can use a Compare Point»."""
    if extra == "!" and (count > 2 or faces != 3 or (u == "uo" and count > 1)):
        return  # unique dice that explode: the states multiply fast; d3 keeps them few
    if extra == "kl2" and count < 2:
        return
    agrees(f"{count}d{faces}{u}{point}{extra}", cap=8)


@settings(deadline=None, max_examples=examples(30))
@given(
    st.integers(1, 4),
    st.sampled_from([2, 4, 6, "F", "F.1", "F.2"]),
    st.sampled_from(["", "cs", "cf", "cs>1cf<2", "s", "sd", "sa", "cs=1sd"]),
    st.sampled_from(["", "kh1", ">=1", "!", "r1"]),
)
def test_marks_and_sorting_change_no_odds(
    count: int, faces: object, marks: str, extra: str
) -> None:
    """rpg-dice-roller: critical success/failure «is purely aesthetic and makes no functional
    difference to the rolls or their values»; sorting only orders the dice shown; ``dF.1`` «has
    4 blanks, 1 plus, and 1 minus»."""
    if extra == "!" and count > 2:
        return
    if extra == "r1" and faces in ("F", "F.1", "F.2"):
        extra = "r=-1"
    text = f"{count}d{faces}{extra}{marks}"
    plain = f"{count}d{faces}{extra}"
    agrees(text, cap=8)
    try:
        assert odds(text).probs == odds(plain).probs
    except RulesError:
        pass


ATOM = st.sampled_from(["d4", "d6", "2d3", "d2", "3", "2", "dF", "(d4-2)", "1.5"])


@settings(deadline=None, max_examples=examples(60))
@given(
    ATOM,
    st.sampled_from(["+", "-", "*", "/", "%", "^", "**", "++"]),
    ATOM,
    st.sampled_from(
        ["", "abs", "ceil", "floor", "round", "sign", "sqrt", "exp", "log", "sin", "cos", "tan"]
    ),
)
@example("d6", "/", "d4", "")
@example("2d3", "/", "3", "round")
@example("d4", "^", "2", "")
def test_maths(a: str, op: str, b: str, function: str) -> None:
    """rpg-dice-roller's maths page: «d6*5», «2d10/d20», «3d20^4», «3d20**4», «d15%2», and the
    functions «abs, ceil, cos, exp, floor, log, max, min, pow, round, sign, sin, sqrt, tan»,
    with fractions kept to the end and the total shown to two decimals."""
    body = f"{a}{op}{b}"
    agrees(f"{function}({body})" if function else body)


@settings(deadline=None, max_examples=examples(30))
@given(ATOM, ATOM, st.sampled_from(["max", "min", "pow"]))
def test_two_argument_functions(a: str, b: str, function: str) -> None:
    """rpg-dice-roller's maths page: «min(4d6, 2d10)»; ``max`` and ``pow`` likewise."""
    agrees(f"{function}({a}, {b})")


@settings(deadline=None, max_examples=examples(30))
@given(
    st.sampled_from(["(4-2)", "(1+1)", "(6/3)", "(2^1)", "2"]),
    st.sampled_from(["(2+1)", "(2*2)", "4", "(7%4)"]),
)
def test_computed_counts_and_sides(count: str, faces: str) -> None:
    """rpg-dice-roller: «(4-2)d10 — subtract 2 from 4 (2) and then roll a 10 sided dice that
    many times», «3d(2*6)»."""
    agrees(f"{count}d{faces}")


@settings(deadline=None, max_examples=examples(30))
@given(
    st.sampled_from(
        ["d4*(1+d3)", "d4+d4-d3", "2d3*2", "d4/d2+d3", "max(d4, d3)+d2", "d3^d2", "-d4+2d3"]
    ),
    st.sampled_from(["k1", "k2", "kl1", "d1", "dh1", "kh2dl1"]),
    st.sampled_from(["", ">4", "<=3f>5", "s"]),
)
@example("d4*(1+d3)", "k1", "")  # «{4d10*(2+5d6)}k2» in small
@example("d4+d4-d3", "d1", "")  # «{4d6+2d8-3d30}d3» in small
def test_one_expression_groups(body: str, select: str, more: str) -> None:
    """rpg-dice-roller: «For a single sub-roll, it will keep the specified number of individual
    die rolls from of all the rolls in the expression»; «Single sub-rolls, will only ever return
    a result of 1 or 0» (a success point compares its total)."""
    agrees("{" + body + "}" + select + more)


@settings(deadline=None, max_examples=examples(30))
@given(
    st.lists(st.sampled_from(["d4", "d3+1", "d4/2", "2d2", "d2*d3"]), min_size=2, max_size=3),
    st.sampled_from(["", "k1", "kl1", "d1", "kh2dh1", ">2", ">2f1", "k2>2", "s", "sd"]),
)
def test_groups_of_sub_rolls(items: list[str], mods: str) -> None:
    """rpg-dice-roller: «For multiple sub-rolls, it will keep the specified number of sub-rolls
    based on their total value»; success points count the sub-totals that match."""
    agrees("{" + ", ".join(items) + "}" + mods)


def test_a_sparse_keep_of_an_exploding_die() -> None:
    """Found by a random sweep: ``1d100!pdl1`` (the lowest entry dropped: 0 without an
    explosion, else the 100 and every further 99 but the last roll) has totals too far apart for
    a list of consecutive ones, and came back as the other form, which a check refused."""
    dist = odds("1d100!pdl1")
    assert list(dist.totals[:3]) == [0, 100, 199]
    assert dist.probs[0] == Fraction(99, 100)
    agrees("d4!pdl1")
