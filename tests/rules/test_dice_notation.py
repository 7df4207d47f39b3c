"""rpg-dice-roller's notation, modifier by modifier, on its documentation's own examples.

Each example of dice-roller.github.io (guide/notation: dice, modifiers, group rolls, maths,
roll descriptions) is rolled with the dice it shows, drawn in the roller's order: the pool's
first rolls, then each explosion chain, then rerolls and unique rolls.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import (
    Call,
    Compare,
    Dice,
    Group,
    GroupRoll,
    Mark,
    OpRoll,
    PoolRoll,
    Select,
    Unique,
    parse,
    roll,
)
from rules.errors import DiceBoundsError, DiceSyntaxError, RulesError
from tests.every_case import assert_every_case
from tests.rules.test_dice_roll import Scripted


def pools(part: object) -> list[PoolRoll]:
    if isinstance(part, PoolRoll):
        return [part]
    if isinstance(part, (OpRoll, GroupRoll)):
        return [p for sub in part.parts for p in pools(sub)]
    return []


def rolled(text: str, draws: list[int]) -> tuple[list[list[int]], object]:
    result = roll(text, Scripted(draws))
    tree = result.outcomes[0].tree
    return [[d.value for d in p.dice] for p in pools(tree)], result.total


# -- the modifiers page: each example with the dice it shows ----------------------------------


MODIFIER_EXAMPLES = [
    # «4d6min3: [3^, 4, 3, 3^] = 13»
    ("4d6min3", [1, 4, 3, 2], [3, 4, 3, 3], None, 13),
    # «4d6max3: [3v, 3v, 3, 2] = 11»
    ("4d6max3", [5, 4, 3, 2], [3, 3, 3, 2], None, 11),
    # «2d6!: [4, 6!, 6!, 2] = 18»
    ("2d6!", [4, 6, 6, 2], [4, 6, 6, 2], None, 18),
    # «2d6!!: [4, 14!!] = 18»
    ("2d6!!", [4, 6, 6, 2], [4, 14], None, 18),
    # «Actual rolls are [6, 6, 6, 4, 1]: 2d6!p: [6!p, 5!p, 5!p, 3, 1] = 20»
    ("2d6!p", [6, 1, 6, 6, 4], [6, 5, 5, 3, 1], None, 20),
    # «6d8k3: [3d, 6, 7, 2d, 5, 4d] = 18»
    ("6d8k3", [3, 6, 7, 2, 5, 4], None, [False, True, True, False, True, False], 18),
    # «3d10k1dh1: [7d, 1d, 2d] = 0»
    ("3d10k1dh1", [7, 1, 2], None, [False, False, False], 0),
    # «3d10k1d1: [6d, 1d, 9] = 9»
    ("3d10k1d1", [6, 1, 9], None, [False, False, True], 9),
    # «6d8dh3: [3, 6d, 7d, 2, 5d, 4] = 9»
    ("6d8dh3", [3, 6, 7, 2, 5, 4], None, [True, False, False, True, False, True], 9),
    # «4d10dh1dl2: [5, 3d, 7, 8d] = 12» shows what ``dh1dl1`` does; ``dl2`` drops the 5 too
    ("4d10dh1dl1", [5, 3, 7, 8], None, [True, False, True, False], 12),
    ("4d10dh1dl2", [5, 3, 7, 8], None, [False, False, True, False], 7),
    # «2d6=6: [4, 6*] = 1», «4d3>1: [1, 3*, 2*, 1] = 2», «4d3<2: [1*, 3, 2, 1*] = 2»
    ("2d6=6", [4, 6], None, None, 1),
    ("4d3>1", [1, 3, 2, 1], None, None, 2),
    ("4d3<2", [1, 3, 2, 1], None, None, 2),
    # «5d8>=5: [2, 4, 6*, 3, 8*] = 2», «6d10<=4: [7, 2*, 10, 3*, 3*, 4*] = 4»
    ("5d8>=5", [2, 4, 6, 3, 8], None, None, 2),
    ("6d10<=4", [7, 2, 10, 3, 3, 4], None, None, 4),
    # «4d6>4f<3: [2_, 5*, 4, 5*] = 1»
    ("4d6>4f<3", [2, 5, 4, 5], None, None, 1),
    # «2d20cs: [4, 20**] = 24», «2d20cf: [4, 1__] = 5»
    ("2d20cs", [4, 20], [4, 20], None, 24),
    ("2d20cf", [4, 1], [4, 1], None, 5),
    # «4d6s: [1, 3, 4, 5]», «4d6sa: [1, 3, 4, 5]», «4d6sd: [5, 4, 3, 1]» (of 4, 3, 5, 1)
    ("4d6s", [4, 3, 5, 1], [1, 3, 4, 5], None, 13),
    ("4d6sa", [4, 3, 5, 1], [1, 3, 4, 5], None, 13),
    ("4d6sd", [4, 3, 5, 1], [5, 4, 3, 1], None, 13),
]


def test_modifier_examples() -> None:
    """rpg-dice-roller's modifiers page, example by example (issue 31: «rpg-dice-roller's
    notation as its documentation describes it, every modifier … with the same results on its
    examples»)."""

    def check(text: str, draws: list[int], values, kept, total) -> None:
        result = roll(text, Scripted(draws))
        tree = result.outcomes[0].tree
        assert isinstance(tree, PoolRoll)
        if values is not None:
            assert [d.value for d in tree.dice] == values
        if kept is not None:
            assert [d.kept for d in tree.dice] == kept
        assert result.total == total

    assert_every_case(MODIFIER_EXAMPLES, check)


def test_criticals_are_marked_not_counted() -> None:
    """rpg-dice-roller: «This is purely aesthetic and makes no functional difference to the
    rolls or their values»; «rolls greater than 7 are a critical success: 4d10cs>7»; «rolls
    less than 3 is a critical failure: 4d10cf<3»."""
    part = roll("4d10cs>7cf<3", Scripted([8, 2, 5, 10])).outcomes[0].tree
    assert isinstance(part, PoolRoll)
    assert [d.critical_success for d in part.dice] == [True, False, False, True]
    assert [d.critical_failure for d in part.dice] == [False, True, False, False]
    assert part.value == 25
    plain = roll("2d20", Scripted([4, 20])).outcomes[0].tree
    assert isinstance(plain, PoolRoll)
    assert not any(d.critical_success for d in plain.dice)
    data = roll("2d20cs", Scripted([4, 20])).to_dict()["rolls"][0]["tree"]["dice"]
    assert [d["critical_success"] for d in data] == [False, True]
    assert parse("5d3cs=2").root == Dice(5, 3, crit_success=Mark(Compare("=", 2)))


def test_unique_rolls_again_until_new() -> None:
    """rpg-dice-roller: «The unique modifier wil re-roll any dice where the value is not unique.
    It will keep rolling until a unique value is rolled»; «2d10uo: re-roll any duplicates but
    only once, even if the re-roll is not unique»."""
    # u: the duplicate 3 is drawn again among the nine faces still free (the 5th of them: 6)
    values, total = rolled("2d10u", [3, 3, 5])
    assert values == [[3, 6]] and total == 9
    # uo: one more roll of the die, a duplicate again stays
    values, _ = rolled("2d10uo", [3, 3, 3])
    assert values == [[3, 3]]
    # «4d6u=5: Only re-roll duplicates that roll a 5»
    values, _ = rolled("4d6u=5", [2, 2, 5, 5, 1])
    assert values == [[2, 2, 5, 1]]
    die = roll("2d10u", Scripted([3, 3, 5])).outcomes[0].tree.dice[1]  # type: ignore[union-attr]
    assert die.made_unique and die.history == (("rolled", 3), ("unique", 6))
    # no face left to be new (5 dice, 4 faces): the last die keeps its value
    values, _ = rolled("5d4u", [1, 2, 3, 4, 2])
    assert values == [[1, 2, 3, 4, 2]]


FUDGE_DICE = [
    # «dF / dF.2 … one third of each»: rolled -1..1
    ("4dF", [-1, 0, 1, 1], [-1, 0, 1, 1]),
    ("4dF.2", [-1, 0, 1, 1], [-1, 0, 1, 1]),
    # «dF.1 which has 4 blanks, 1 plus, and 1 minus»: on a d6, 1 is minus and 6 plus
    ("4dF.1", [1, 2, 5, 6], [-1, 0, 0, 1]),
]


def test_fudge_dice() -> None:
    """rpg-dice-roller's dice page: «Notation: dF / dF.2 / dF.1»."""

    def check(text: str, draws: list[int], values: list[int]) -> None:
        assert rolled(text, draws)[0] == [values]

    assert_every_case(FUDGE_DICE, check)


def test_fudge_variants_parse() -> None:
    """rpg-dice-roller: «dF.2 — roll a standard Fudge dice. Equivalent to `dF`»."""
    assert parse("dF.2").root == parse("dF").root
    assert str(parse("4dF.1")) == "4dF.1"
    assert parse("4dF.1").root.face_weights() == {-1: 1, 0: 4, 1: 1}  # type: ignore[union-attr]


# -- the maths page ------------------------------------------------------------------------------


MATHS_EXAMPLES = [
    ("d6*5", [3], 15),
    ("2d10/d20", [3, 4, 2], Fraction(7, 2)),
    ("3d20^4", [1, 1, 1], 81),
    ("3d20**4", [1, 1, 2], 256),
    ("d15%2", [7], 1),
    ("(4-2)d10", [3, 4], 7),
    ("3d(2*6)", [12, 12, 1], 25),
    # «1d6+2*3: [4]+2*3 = 10», «(1d6+2)*3: ([4]+2)*3 = 18»
    ("1d6+2*3", [4], 10),
    ("(1d6+2)*3", [4], 18),
    # the functions, with the page's dice [3, 6, 1, 1] (sum 11): 11/3 = 3.67
    ("round(4d10/3)", [3, 6, 1, 1], 4),
    ("floor(4d10/3)", [3, 6, 1, 1], 3),
    ("ceil(4d10/3)", [3, 6, 1, 1], 4),
    ("abs(4d10-25)", [3, 6, 1, 1], 14),  # «abs([3, 6, 1, 1]-25) = 14»
    ("sqrt(4d10/3)", [3, 6, 1, 1], Fraction(191, 100)),  # «= 1.91»
    ("min(4d6, 2d10)", [3, 4, 1, 5, 10, 6], 13),  # «min([3, 4, 1, 5], [10, 6]) = 13»
    ("max(4d6, 2d10)", [3, 4, 1, 5, 10, 6], 16),
    ("pow(d6, 2)", [5], 25),
    ("sign(d6-4)", [1], -1),
    ("exp(d2-1)", [1], 1),
    ("log(d2)", [1], 0),
    ("sin(d6-1)", [1], 0),
    ("cos(d6-1)", [1], 1),
    ("tan(d6-1)", [1], 0),
    # «round() always rounds half away from zero»: round(-1.5) = -2
    ("round((d2-4)/2)", [1], -2),
    ("round(d2*3/2)", [1], 2),
]


def test_maths_examples() -> None:
    """rpg-dice-roller's maths page: operators ``* / ^ ** %``, «You can even use them to determine
    the number of dice to roll, or how many sides a die should have», the functions «abs, ceil,
    cos, exp, floor, log, max, min, pow, round, sign, sin, sqrt, tan», and «round() always
    rounds half away from zero». (The page's own round/floor/ceil lines print 3.7 and 3.6 —
    values of ``4d10/3`` without the function; the library returns 4, 3 and 4.)"""

    def check(text: str, draws: list[int], total: object) -> None:
        assert roll(text, Scripted(draws)).total == total

    assert_every_case(MATHS_EXAMPLES, check)


def test_fractions_are_kept_and_the_total_has_two_decimals() -> None:
    """Issue 31: «`1d100/2` rounds down; rpg-dice-roller keeps the fraction unless asked to
    round — follow it, and say how a non-integer total is shown»; rpg-dice-roller's group page:
    «{3d8*2, 20/2d10, 2d10-d4}: {[3, 1 6]*2, 20/[7, 4], [8, 5]-[1]} = 33.82»."""
    assert roll("1d100/2", Scripted([37])).total == Fraction(37, 2)
    result = roll("{3d8*2, 20/2d10, 2d10-d4}", Scripted([3, 1, 6, 7, 4, 8, 5, 1]))
    assert result.total == Fraction(3382, 100)
    assert result.outcomes[0].value == 20 + Fraction(20, 11) + 12  # the exact value behind it
    data = result.to_dict()
    assert data["total"] == 33.82 and data["rolls"][0]["value_exact"] == "372/11"
    assert roll("d10/3", Scripted([1])).total == Fraction(33, 100)  # 0.333… shows 0.33
    assert roll("d10/3", Scripted([2])).total == Fraction(67, 100)
    assert roll("-d8/8", Scripted([1])).total == Fraction(-13, 100)  # half away from zero
    assert roll("d6 vs 2.5", Scripted([3])).success is True


def test_group_examples() -> None:
    """rpg-dice-roller's group rolls page, example by example."""
    # «{4d6, 2d10, d4}: {[2, 6, 4, 2], [7, 4], [1]} = 26»
    assert rolled("{4d6, 2d10, d4}", [2, 6, 4, 2, 7, 4, 1])[1] == 26
    # «{4d10*(2+5d6)}k2: {[8, 1d, 4d, 1d]*(2+[1d, 6, 1d, 5d, 3d])} = 64»
    values, total = rolled("{4d10*(2+5d6)}k2", [8, 1, 4, 1, 1, 6, 1, 5, 3])
    assert total == 64
    tree = roll("{4d10*(2+5d6)}k2", Scripted([8, 1, 4, 1, 1, 6, 1, 5, 3])).outcomes[0].tree
    kept = [[d.kept for d in p.dice] for p in pools(tree)]
    assert kept == [[True, False, False, False], [False, True, False, False, False]]
    # «{4d6+2d8-3d30}d3: {[3d, 5, 3, 2d]+[7, 4]-[2d, 14, 7]} = −2»
    assert rolled("{4d6+2d8-3d30}d3", [3, 5, 3, 2, 7, 4, 2, 14, 7])[1] == -2
    # «{4d10, 5d6, 2d10}k2: {[8, 1, 4, 1], [1, 5, 1, 5, 3], ([6, 3])d} = 29»
    draws = [8, 1, 4, 1, 1, 5, 1, 5, 3, 6, 3]
    assert rolled("{4d10, 5d6, 2d10}k2", draws)[1] == 29
    # «{4d10, 5d6, 2d10}d2: {([8, 1, 4, 1])d, [1, 5, 1, 5, 3], ([6, 3])d} = 15»
    assert rolled("{4d10, 5d6, 2d10}d2", draws)[1] == 15
    # «{5+d10, 3d4*2}k1: {(5+[8])d, [3, 2, 2]*2} = 14», and the same with d1
    assert rolled("{5+d10, 3d4*2}k1", [8, 3, 2, 2])[1] == 14
    assert rolled("{5+d10, 3d4*2}d1", [8, 3, 2, 2])[1] == 14
    # «{3d20+5}>40: {([11, 7, 19]+5)*} = 1»: one sub-roll compares its total
    assert rolled("{3d20+5}>40", [11, 7, 19])[1] == 1
    # «{4d6+2d8, 3d20+3, 5d10+1}>40 … = 2», and with «f<30» «= 1»
    draws = [4, 3, 3, 2, 2, 6, 17, 5, 20, 7, 9, 6, 10, 8]
    assert rolled("{4d6+2d8, 3d20+3, 5d10+1}>40", draws)[1] == 2
    assert rolled("{4d6+2d8, 3d20+3, 5d10+1}>40f<30", draws)[1] == 1
    # «{3d10+5}>30f<15: {[5, 3, 1]+5} = -1»
    assert rolled("{3d10+5}>30f<15", [5, 3, 1])[1] == -1


def test_group_sorting() -> None:
    """rpg-dice-roller: «{4d6+4}s: {[1, 3, 4, 5]+4} = 17», «{4d6+4}sd: {[5, 4, 3, 1]+4}»; «For
    multiple sub-rolls, it sorts both the individual rolls, and then the sub-rolls, by their
    total value»."""
    values, total = rolled("{4d6+4}s", [4, 3, 5, 1])
    assert values == [[1, 3, 4, 5]] and total == 17
    assert rolled("{4d6+4}sd", [4, 3, 5, 1])[0] == [[5, 4, 3, 1]]
    result = roll("{4d6/2, 3d4+5, 2d10}s", Scripted([4, 3, 5, 1, 3, 2, 4, 8, 4]))
    tree = result.outcomes[0].tree
    assert isinstance(tree, GroupRoll)
    assert [p.value for p in tree.parts] == [Fraction(13, 2), 12, 14]
    assert [[d.value for d in p.dice] for p in pools(tree)] == [[1, 3, 4, 5], [4, 8], [2, 3, 4]]
    assert result.total == Fraction(65, 2)  # «= 32.5»


DESCRIPTIONS = [
    ("4d6 # Fire damage", "Fire damage", []),
    ("4d6 // Fire damage", "Fire damage", []),
    ("{4d6, 2d10, d4} // Fire damage, Frost damage", "Fire damage, Frost damage", []),
    ("4d6dl2 // Drop the lowest two", "Drop the lowest two", []),
    ("2d10 // Ice damage 2d10! / 3", "Ice damage 2d10! / 3", []),
    ("4d6 /* Ice damage */", None, ["Ice damage"]),
    ("2d10 [ Fire damage ]", None, ["Fire damage"]),
    ("{5d6 + 5} [ Fire damage ]", None, ["Fire damage"]),
    ("4d6 /* Ice damage 5d10 + 7 */", None, ["Ice damage 5d10 + 7"]),
    ("2d6 [огонь] + 1d4 [холод] # удар", "удар", ["огонь", "холод"]),
]


def test_descriptions() -> None:
    """rpg-dice-roller's descriptions page: «Inline descriptions are marked with # or //»;
    «Block descriptions are enclosed between either [ ... ] or /* ... */»; «Any notation inside
    a description will not be parsed»."""

    def check(text: str, label: str | None, descriptions: list[str]) -> None:
        expression = parse(text)
        assert expression.label == label
        found = [
            n.description
            for n in _nodes(expression.root)
            if isinstance(n, (Dice, Group)) and n.description is not None
        ]
        assert found == descriptions
        assert parse(str(expression)) == parse(str(expression))  # the canonical text re-parses
        assert str(parse(str(expression))) == str(expression)

    assert_every_case(DESCRIPTIONS, check)


def _nodes(node: object) -> list[object]:
    from rules.dice.model import walk

    return list(walk(node))  # type: ignore[arg-type]


# -- parsing --------------------------------------------------------------------------------------


CANONICAL_TEXT_OF_THE_NEW_NOTATION = [
    ("2d20cs", "2d20cs"),
    ("4d10cs>7cf<3", "4d10cs>7cf<3"),
    ("4d6s", "4d6sa"),
    ("4d6sd", "4d6sd"),
    ("2d10u", "2d10u"),
    ("3d8uo>6", "3d8uo>6"),
    ("10d4u<=2", "10d4u<=2"),
    ("4dF.1", "4dF.1"),
    ("d6*5", "d6 * 5"),
    ("3d20**4", "3d20 ^ 4"),
    ("d15%2", "d15 % 2"),
    ("2^3^2", "2 ^ 3 ^ 2"),
    ("(2^3)^2", "(2 ^ 3) ^ 2"),
    ("-2^2", "-2 ^ 2"),
    ("(-2)^2", "(-2) ^ 2"),
    ("2^-1", "2 ^ -1"),
    ("floor(4d10/3)", "floor(4d10 / 3)"),
    ("max(4d6,2d10)", "max(4d6, 2d10)"),
    ("1.5*d6", "1.5 * d6"),
    ("d20 vs 10.5", "d20 vs 10.5"),
    ("4d10dh1dl2", "4d10dh1dl2"),
    ("2d6>3!", "2d6!6>3"),  # a target after a bare «!» would become its point
    ("2d6>3r", "2d6r1>3"),
    ("2d6>3u", "2d6u>=1>3"),
]


def test_canonical_text_of_the_new_notation() -> None:
    """The canonical notation re-parses to the same tree (the odds are cached by it), and a
    success point never follows a point-less modifier that would take it (rpg-dice-roller: «The
    target modifier cannot directly follow any modifier that uses Compare Points»)."""

    def check(text: str, canonical: str) -> None:
        expression = parse(text)
        assert str(expression) == canonical
        assert parse(canonical).root.__class__ is expression.root.__class__
        assert str(parse(canonical)) == canonical

    assert_every_case(CANONICAL_TEXT_OF_THE_NEW_NOTATION, check)


def test_new_nodes() -> None:
    """Issue 31: «the math functions», «a computed number of dice or sides»."""
    assert parse("(4-2)d10").root == Dice(2, 10, position=0)
    assert parse("3d(2*6)").root == Dice(3, 12, position=0)
    assert parse("max(4d6, 2d10)").root == Call(
        "max", (Dice(4, 6, position=4), Dice(2, 10, position=9)), 0
    )
    assert parse("2d10uo<=3").root == Dice(2, 10, unique=Unique(True, Compare("<=", 3)), position=0)
    assert parse("4d10dh1dl2").root == Dice(
        4, 10, selects=(Select(False, True, 1), Select(False, False, 2)), position=0
    )


def test_doubled_signs_are_read_and_said() -> None:
    """Issue 31: «`3d6++2` and `2d6+++1` are read as `3d6 + 2` / `2d6 + 1` without a word:
    show the normalised expression and say what was read»."""
    three = parse("3d6++2")
    assert str(three) == "3d6 + 2"
    assert [(r.position, r.typed, r.read) for r in three.readings] == [(3, "++", "+")]
    two = parse("2d6+++1")
    assert str(two) == "2d6 + 1"
    assert [(r.typed, r.read) for r in two.readings] == [("+++", "+")]
    assert [(r.typed, r.read) for r in parse("+d6").readings] == [("+", "")]
    assert [(r.typed, r.read) for r in parse("2d6-+1").readings] == [("-+", "-")]
    assert parse("2d6+1").readings == ()
    assert [(r.typed, r.read) for r in parse("(4-2)d10").readings] == [("(4-2)", "2")]
    data = roll("3d6++2", Scripted([1, 2, 3])).to_dict()
    assert data["expression"] == "3d6 + 2" and data["readings"][0]["typed"] == "++"


def test_a_modifier_given_twice_names_the_first() -> None:
    """Issue 31: «`2d6kh1kl1` says «модификатор «kl1» уже задан» where `kh1` was the one
    given»: a modifier given twice is named as typed first; keep-high and keep-low together
    are rpg-dice-roller's (each looks at the whole pool), and kubik says they keep nothing."""
    with pytest.raises(DiceSyntaxError) as caught:
        parse("2d6kh1kh2")
    message = str(caught.value)
    assert caught.value.position == 6
    assert "«kh1»" in message and "уже задан" in message and "«kh2» лишний" in message
    with pytest.raises(DiceSyntaxError, match="«k1» .* уже задан .* «k2» лишний"):
        parse("4d6k1k2")
    expression = parse("2d6kh1kl1")
    assert [r.note for r in expression.readings][0].startswith("«kh1» и «kl1» вместе")
    assert roll(expression, Scripted([2, 5])).total == 0
    assert parse("4d6kh3kl3").readings == ()  # they keep the middle two: nothing to say


ERRORS_OF_THE_NEW_NOTATION = [
    ("(d4)d6", DiceSyntaxError, 0, "без кубиков"),
    ("(5/2)d6", DiceSyntaxError, 0, "должно выйти целым"),
    ("2.5d6", DiceSyntaxError, 0, "должно быть целым"),
    ("d(1/0)", DiceSyntaxError, 1, "на ноль не делят"),
    ("d(2-1)", DiceBoundsError, 1, "от 2 до 1000, а не 1"),
    ("(0)d6", DiceBoundsError, 0, "от 1 до 1000, а не 0"),
    ("foo(d6)", DiceSyntaxError, 0, "неизвестное слово"),
    ("floor d6", DiceSyntaxError, 5, "ожидалась «(»"),
    ("max(d6)", DiceSyntaxError, 0, "два значения"),
    ("abs(d6, d4)", DiceSyntaxError, 0, "одно значение"),
    ("sqrt(d6-4)", DiceSyntaxError, 0, "корня из него нет"),
    ("log(d6-1)", DiceSyntaxError, 0, "логарифма нет"),
    ("d6 % (d4-2)", DiceSyntaxError, 3, "может оказаться нулём"),
    ("(d4-2)^-1", DiceSyntaxError, 6, "нулём в отрицательной степени"),
    ("(d4-3)^(1/2)", DiceSyntaxError, 6, "такого числа нет"),
    ("d20^d20", DiceSyntaxError, 3, "за ±10¹⁵"),
    ("dF.3", DiceSyntaxError, 2, "«dF.1» и «dF.2»"),
    ("d6min2.5", DiceSyntaxError, 5, "нужно целое число"),
    ("4d6sd1", DiceSyntaxError, 5, "«sd» — сортировка"),
    ("{d6, d4}!", DiceSyntaxError, 8, "у группы бывают только"),
    ("{d6, d4}cs", DiceSyntaxError, 8, "у группы бывают только"),
    ("2d6 [огонь", DiceSyntaxError, 4, "не закрыто"),
    ("3 [x]", DiceSyntaxError, 2, "сразу после кубиков"),
    ("2.", DiceSyntaxError, 1, "после точки ожидались цифры"),
    ("2.1234567891", DiceBoundsError, 2, "слишком много знаков после точки"),
    ("d6.5", DiceSyntaxError, 2, "число граней должно быть целым"),
    ("4d6k1.5", DiceSyntaxError, 5, "после «k» нужно целое число"),
    ("4d6 /* x", DiceSyntaxError, 4, "«/*» не закрыто"),
    ("max(d6, d4", DiceSyntaxError, 10, "не закрыта скобка «max(»"),
    ("exp(d40)", DiceSyntaxError, 0, "за ±10¹⁵"),
    ("d1000*d1000*d1000*d1000*d1000*d1000", DiceSyntaxError, 29, "за ±10¹⁵"),
]


def test_errors_of_the_new_notation() -> None:
    """RULES §0: «A parse error names the position and what was expected»; a value that could
    have no number (a divisor of zero, the root of a negative) is refused before rolling."""

    def check(text: str, error: type, position: int, fragment: str) -> None:
        with pytest.raises(error) as caught:
            parse(text)
        assert caught.value.position == position, str(caught.value)
        assert fragment in str(caught.value)

    assert_every_case(ERRORS_OF_THE_NEW_NOTATION, check)


def test_values_beyond_the_limit_stop_a_roll() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang» — a power the parser
    cannot bound (a pole of tan) still stops with a Russian error, never a crash."""
    with pytest.raises(RulesError):
        roll("tan(d4)^80", Scripted([1]))  # 1.557^80 ≈ 2.4e15
