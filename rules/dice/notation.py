"""The notation's list of modifiers: every form the grammar reads, with an example and its meaning.

This list is what the guide's notation table is made of (``python -m scripts.gendocs`` renders
each row with the example's exact odds, as ``kubik odds`` prints them). A modifier added to the
grammar gets its row here: ``tests/rules/test_dice_notation_list.py`` fails while some part of
the parsed model (a node kind, a field, a compare operator) is not reached by any example, and
``tests/test_docs.py`` while the rendered page is older than this list.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NOTATION", "Form"]


@dataclass(frozen=True)
class Form:
    """One form of the notation.

    Attributes:
        syntax: how it is written, each spelling separately (``("k", "kh")``).
        example: an expression that uses it (parsed and its odds computed by the docs).
        meaning: what it does, in a line.
    """

    syntax: tuple[str, ...]
    example: str
    meaning: str


#: Every form, in the order the guide lists them: dice, arithmetic, then a pool's modifiers in
#: the order they run (min, max, explode, reroll, unique, keep, drop, success, criticals,
#: sorting), groups, the whole line.
NOTATION: tuple[Form, ...] = (
    Form(("NdM", "dM"), "3d6", "N dice of M sides (one without N)"),
    Form(("d%",), "d%", "a percentile die, 1–100"),
    Form(("dF", "dF.2"), "4dF+2", "Fudge dice, each −1, 0 or +1 (Древо rolls 4dF)"),
    Form(("dF.1",), "4dF.1", "Fudge dice with one plus, one minus and four blanks"),
    Form(
        ("+ - * /", "( )"),
        "(2d6+1)*3/2-1",
        "arithmetic; `/` keeps the fraction, a total shows two decimals at most (`18,5`)",
    ),
    Form(("-",), "-d6+7", "a minus in front"),
    Form(("^", "**"), "3d20^2", "a power"),
    Form(("%",), "d15%2", "the remainder of a division"),
    Form(("2.5",), "1.5*d6", "a number with decimals"),
    Form(
        ("abs", "ceil", "cos", "exp", "floor", "log", "round", "sign", "sin", "sqrt", "tan"),
        "floor(4d10/3)",
        "rpg-dice-roller's maths functions; `round` goes half away from zero",
    ),
    Form(("max", "min", "pow"), "max(4d6, 2d10)", "the functions of two values"),
    Form(("(…)d", "d(…)"), "(4-2)d10", "a computed number of dice or sides (`3d(2*6)`)"),
    Form(("min",), "4d6min2", "a roll below 2 counts as 2"),
    Form(("max",), "4d6max5", "a roll above 5 counts as 5"),
    Form(("!",), "3d6!", "a die showing its maximum adds a new die, which may explode again"),
    Form(("!", "compare point"), "d10!>=9", "explode on 9 or 10 (9-again)"),
    Form(("!!",), "3d6!!", "compounding: the explosion rolls add up into one die"),
    Form(("!p",), "2d6!p", "penetrating: each added die counts 1 less"),
    Form(("r",), "2d6r", "reroll while the die shows its minimum (`r1` here)"),
    Form(("r", "compare point"), "4d6r<=2", "reroll while the die shows 2 or less"),
    Form(("ro",), "4d6ro<3", "reroll once"),
    Form(("u",), "2d10u", "roll again a value an earlier die shows, until it is new"),
    Form(("uo",), "4d6uo", "roll a repeated value again once"),
    Form(("u", "compare point"), "4d6u=5", "only a repeated 5 is rolled again"),
    Form(("k", "kh"), "2d20kh1", "keep the highest (advantage)"),
    Form(("kl",), "2d20kl1", "keep the lowest (disadvantage)"),
    Form(("d", "dl"), "4d6dl1", "drop the lowest"),
    Form(("dh",), "3d6dh1", "drop the highest"),
    Form(
        ("k", "d", "together"),
        "3d10k1d1",
        "each looks at the whole pool: the dice every one of them keeps stay",
    ),
    Form(("kh", "kl", "together"), "2d6kh1kl1", "no die is kept by both: always 0 (kubik says so)"),
    Form(
        (">=", ">", "<=", "<", "="),
        "10d10>=8",
        "count successes instead of adding (Мир Тьмы as dice)",
    ),
    Form(("=",), "5d6=6", "count sixes"),
    Form(
        ("<>",),
        "5d6<>1",
        "count the dice that are not 1 (right after a pool `!=` is an explosion: "
        "`5d6!=1` explodes on 1)",
    ),
    Form(("f", "compare point"), "10d10>=8f1", "failures subtract from the successes"),
    Form(("!", "counting"), "10d10!=10>=8", "10-again: a 10 succeeds and adds a die"),
    Form(
        ("cs",), "2d20cs", "mark a critical success (`20**`): the die's maximum; no value changes"
    ),
    Form(
        ("cs", "cf", "compare point"),
        "4d10cs>7cf<3",
        "mark critical successes above 7, critical failures below 3 (`1__`)",
    ),
    Form(("s", "sa", "sd"), "4d6sd", "show the dice sorted (descending here)"),
    Form(("{…, …}k",), "{4d6+2, 3d8}k1", "a group keeps whole sub-totals"),
    Form(("{…, …}d",), "{2d6, 2d6, 2d6}dl1", "a group drops whole sub-totals"),
    Form(
        ("{…, …}", "compare point"),
        "{3d6, 3d6, 3d6}>12",
        "counts the sub-totals that succeed (here: above 12)",
    ),
    Form(("{…, …}s",), "{4d6/2, 3d4+5, 2d10}s", "sorts the sub-totals and the dice in them"),
    Form(
        ("{…}k",),
        "{4d10*(2+5d6)}k2",
        "one sub-expression: keep/drop look at all its dice, then it is worked out",
    ),
    Form(("{…}", "compare point"), "{3d20+5}>40", "one sub-expression: 1 when its total succeeds"),
    Form(("# label", "// label"), "2d6+3 // топор", "a label, kept in the log"),
    Form(
        ("[ … ]", "/* … */"),
        "2d6 [огонь] + {d4} /* холод */",
        "a description of the pool or group it follows",
    ),
    Form(("++",), "3d6++2", "a sign typed twice is read as one, and kubik says so"),
    Form(("Nx",), "6x 4d6dl1", "roll N times, each result listed (odds: one roll)"),
    Form(("vs N",), "d20+5 vs 15", "success when the total (or the success count) is at least N"),
    Form(("к", "д", "ф"), "2к6+1", "Russian letters: `к`, `д` for `d`, `ф` for `F`"),
)
