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
#: the order they run (min, max, explode, reroll, keep, drop, success), groups, the whole line.
NOTATION: tuple[Form, ...] = (
    Form(("NdM", "dM"), "3d6", "N dice of M sides (one without N)"),
    Form(("d%",), "d%", "a percentile die, 1–100"),
    Form(("dF",), "4dF+2", "Fudge dice, each −1, 0 or +1 (Древо rolls 4dF)"),
    Form(("+ - * /", "( )"), "(2d6+1)*3/2-1", "arithmetic; `/` rounds down"),
    Form(("-",), "-d6+7", "a minus in front"),
    Form(("min",), "4d6min2", "a roll below 2 counts as 2"),
    Form(("max",), "4d6max5", "a roll above 5 counts as 5"),
    Form(("!",), "3d6!", "a die showing its maximum adds a new die, which may explode again"),
    Form(("!", "compare point"), "d10!>=9", "explode on 9 or 10 (9-again)"),
    Form(("!!",), "3d6!!", "compounding: the explosion rolls add up into one die"),
    Form(("!p",), "2d6!p", "penetrating: each added die counts 1 less"),
    Form(("r",), "2d6r", "reroll while the die shows its minimum (`r1` here)"),
    Form(("r", "compare point"), "4d6r<=2", "reroll while the die shows 2 or less"),
    Form(("ro",), "4d6ro<3", "reroll once"),
    Form(("k", "kh"), "2d20kh1", "keep the highest (advantage)"),
    Form(("kl",), "2d20kl1", "keep the lowest (disadvantage)"),
    Form(("d", "dl"), "4d6dl1", "drop the lowest"),
    Form(("dh",), "3d6dh1", "drop the highest"),
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
    Form(("{…, …}k",), "{4d6+2, 3d8}k1", "a group keeps whole sub-totals"),
    Form(("{…, …}d",), "{2d6, 2d6, 2d6}dl1", "a group drops whole sub-totals"),
    Form(
        ("{…, …}", "compare point"),
        "{3d6, 3d6, 3d6}>12",
        "counts the sub-totals that succeed (here: above 12)",
    ),
    Form(("{…}k",), "{2d6+d8}k2", "one sub-expression: keep/drop look at all its dice"),
    Form(("# label",), "2d6+3 # топор", "a label, kept in the log"),
    Form(("Nx",), "6x 4d6dl1", "roll N times, each result listed (odds: one roll)"),
    Form(("vs N",), "d20+5 vs 15", "success when the total (or the success count) is at least N"),
    Form(("к", "д", "ф"), "2к6+1", "Russian letters: `к`, `д` for `d`, `ф` for `F`"),
)
