"""Renderers: turn rules results into Russian text for the screen, the log and the CLI.

The rules never format anything; every wording lives here (d20's stringifier habit).
Markup uses Textual's theme variables ($success, $error …) so themes own the colours.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING

from tui.sanitize import plain  # the renderers' callers import it from here too
from tui.words import signed  # the one signed number, «+2» / «−1»; callers import it here too

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules.dice import Die, Expression, Node, Part, RollResult, Value
    from rules.odds import Distribution

FUDGE_FACE = {1: "+", 0: "0", -1: "−"}


OUTCOME_STYLE = {
    "crit_success": "$success",
    "success": "$success",
    "failure": "$error",
    "crit_failure": "$error",
    "win": "$success",
    "tie": "$warning",
    "lose": "$error",
    "attacker_wins": "$success",
    "defender_wins": "$error",
    "hit": "$success",
    "miss": "$error",
    "attacker_hits": "$success",
    "both_hit": "$warning",
    "neither": "$warning",
    "defender_hits": "$error",
}


def term(value: int) -> str:
    """Return `` +2`` / `` −1`` to follow a sum, or nothing for 0 (``= 8 0 → 8`` read as a
    number in the sum)."""
    return f" {signed(value)}" if value else ""


def percent(p: Fraction | float) -> str:
    """Return a probability as a short Russian percentage (comma decimal)."""
    value = float(p) * 100
    if 0 < value < 0.1:
        text = "<0,1"
    elif value > 99.9 and value < 100:
        text = ">99,9"
    else:
        text = f"{value:.1f}".replace(".", ",")
    return f"{text}%"


def fudge_dice(dice: tuple[int, ...], *, markup: bool = False) -> str:
    """Return 4dF dice as ``[+][0][−][+]`` (brackets escaped for Textual markup)."""
    open_ = "\\[" if markup else "["
    return "".join(f"{open_}{FUDGE_FACE[d]}]" for d in dice)


def bar(p: Fraction | float, width: int) -> str:
    """Return a horizontal bar of eighth-blocks for probability ``p``."""
    eighths = round(float(p) * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + ("" if rest == 0 else " ▏▎▍▌▋▊▉"[rest])


def _num(value: Value) -> str:
    """A number as a GM reads it: «−3», and a fraction as rpg-dice-roller shows a total, to two
    decimals with a Russian comma («18,5», «0,33»)."""
    if isinstance(value, int):
        return f"−{-value}" if value < 0 else str(value)
    from rules.dice import total_of

    shown = total_of(value)
    if isinstance(shown, int):
        return _num(shown)
    cents = abs(shown) * 100
    whole, rest = divmod(int(cents), 100)
    digits = f"{rest:02d}".rstrip("0")
    return f"{'−' if shown < 0 else ''}{whole},{digits}"


def number(value: Value) -> str:
    """A total or a value as it is shown (:func:`_num`), for other renderers."""
    return _num(value)


def readings_text(expression: Expression) -> str:
    """What was read differently from how it was typed, as one sentence (or "")."""
    notes = []
    for reading in expression.readings:
        if reading.note:
            notes.append(reading.note)
        elif reading.read:
            notes.append(f"«{reading.typed}» — это «{reading.read}»")
        else:
            notes.append(f"«{reading.typed}» пропущен: прибавлять его не к чему")
    if not notes:
        return ""
    return f"Прочитано как «{expression}»: " + "; ".join(notes) + "."


def die_text(die: Die, fudge: bool) -> str:
    """Return one die of a quick roll with its history.

    ``1↻4`` rerolled 1 into 4; ``3↻5u`` rolled again to be unique; ``1↑2`` raised by
    ``min``, ``6↓5`` lowered by ``max``; ``6!`` set off an explosion; ``6+6+2=14`` compounded
    (``!!``); ``✓``/``✗`` a counted success or failure; ``20**``/``1__`` a critical success or
    failure (``cs``/``cf``, rpg-dice-roller's marks); ``(3)`` dropped by keep or drop.
    """

    def face(value: int) -> str:
        return FUDGE_FACE[value] if fudge and value in FUDGE_FACE else _num(value)

    history = die.history
    text = face(history[0][1]) if history else face(die.value)
    compounded = False
    for event, value in history[1:]:
        if event == "min":
            text += f"↑{face(value)}"
        elif event == "max":
            text += f"↓{face(value)}"
        elif event == "exploded":
            text += f"+{face(value)}"
            compounded = True
        elif event == "rerolled":
            text += f"↻{face(value)}"
        elif event == "unique":
            text += f"↻{face(value)}u"
    if compounded or (die.penetrated and history and history[-1][1] != die.value):
        text += f"={face(die.value)}"
    if die.exploded:
        text += "!"
    if die.outcome == 1:
        text += "✓"
    elif die.outcome == -1:
        text += "✗"
    if die.critical_success:
        text += "**"
    if die.critical_failure:
        text += "__"
    return text if die.kept else f"({text})"


_OPS = {"+": "+", "-": "−", "*": "×", "/": "÷", "%": "%", "^": "^"}


def _bare(node: Node) -> tuple[str, str]:
    """A pool's or group's notation without its description, and the description's text."""
    description = getattr(node, "description", None)
    if description is None:
        return str(node), ""
    return str(replace(node, description=None)), f" «{plain(description)}»"  # type: ignore[arg-type]  # only Dice and Group have one


def part_text(part: Part) -> str:
    """Return one rolled node: each pool's dice in brackets, operators between."""
    from rules.dice import Binary, Call, GroupRoll, OpRoll, PoolRoll

    if isinstance(part, PoolRoll):
        fudge = part.node.faces is None
        dice = " ".join(die_text(d, fudge) for d in part.dice)
        notation, described = _bare(part.node)
        return f"{notation}[{dice}]{described}"
    if isinstance(part, OpRoll):
        texts = [part_text(p) for p in part.parts]
        node = part.node
        if isinstance(node, Call):
            return f"{node.name}({', '.join(texts)})"
        if not isinstance(node, Binary):
            inner = texts[0]
            return f"−({inner})" if isinstance(part.parts[0], OpRoll) else f"−{inner}"
        level = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "^": 4}
        for i, sub in enumerate(part.parts):
            if not (isinstance(sub, OpRoll) and isinstance(sub.node, Binary)):
                continue
            below, here = level[sub.node.op], level[node.op]
            if (
                below < here
                or (i == 1 and below == here and node.op != "^")
                or (i == 0 and node.op == "^")
            ):
                texts[i] = f"({texts[i]})"
        return f"{texts[0]} {_OPS[node.op]} {texts[1]}"
    if isinstance(part, GroupRoll):
        items: list[str] = []
        several = len(part.parts) > 1
        for sub, kept, outcome in zip(part.parts, part.kept, part.outcomes, strict=True):
            text = part_text(sub)
            if several:
                text += f"={_num(sub.value)}"
                text += "✓" if outcome == 1 else ("✗" if outcome == -1 else "")
            items.append(text if kept else f"({text})")
        group = part.node
        if len(part.parts) == 1 and part.outcomes[0] is not None:  # one sub-roll's success
            items[0] += "✓" if part.outcomes[0] == 1 else ("✗" if part.outcomes[0] == -1 else "")
        mods = "".join(str(s) for s in group.selects) + str(group.target or "")
        mods += f"s{group.sort}" if group.sort else ""
        _, described = _bare(group)
        return "{" + ", ".join(items) + "}" + mods + described
    return _num(part.value)


def _counts(node: Node) -> bool:
    """Whether a node's value is a success count (its outer pool or group counts)."""
    from rules.dice import Dice, Group

    return isinstance(node, (Dice, Group)) and node.target is not None


def successes(n: int) -> str:
    """Return «1 успех», «3 успеха», «5 успехов», «−2 успеха» (a count may go below 0)."""
    last, tens = abs(n) % 10, abs(n) % 100
    if last == 1 and tens != 11:
        word = "успех"
    elif 2 <= last <= 4 and not 12 <= tens <= 14:
        word = "успеха"
    else:
        word = "успехов"
    return f"{_num(n)} {word}"


def roll_summary(result: RollResult) -> str:
    """Return a quick roll as one line: expression, each die with its history, the total (two
    decimals at most when it is not whole, as rpg-dice-roller shows it: «18,5»)."""
    expression = result.expression
    pieces = []
    for outcome in result.outcomes:
        if _counts(expression.root):
            text = f"{part_text(outcome.tree)} = {successes(int(outcome.total))}"
        else:
            text = f"{part_text(outcome.tree)} = {_num(outcome.total)}"
        if outcome.success is not None:
            verdict = "успех" if outcome.success else "провал"
            text += f" (против {_num(expression.target or 0)}: {verdict})"
        pieces.append(text)
    body = (
        pieces[0]
        if len(pieces) == 1
        else "; ".join(f"{i}) {piece}" for i, piece in enumerate(pieces, 1))
    )
    return f"{expression}: {body}"


def _counts_word(expression: Expression) -> str:
    return "успехов" if _counts(expression.root) else "итог"


def odds_summary(expression: Expression, dist: Distribution) -> str:
    """Return one line of exact odds: range, mean, ``P(≥ N)`` for ``vs`` and any truncation."""
    mean = f"{float(dist.mean()):.2f}".replace(".", ",").replace("-", "−")
    word = _counts_word(expression)
    text = f"{word.capitalize()} от {_num(dist.minimum)} до {_num(dist.maximum)}, среднее {mean}"
    if not dist.whole:
        text += " (доли — до сотых, как показывает бросок)"
    if expression.target is not None:
        text += f"; ≥ {_num(expression.target)}: {percent(dist.p_at_least(expression.target))}"
    if dist.truncated:
        # two digits: 9.6e-13 rounded to one would read «1e−12», as if not below the cut
        cut = f"{float(dist.truncated):.1e}".replace(".", ",").replace("e-", "e−")
        text += f"; взрывы обрезаны на {cut}"
    return text


def odds_table(dist: Distribution, rows: int = 30, width: int = 40) -> list[str]:
    """Return the distribution as at most ``rows`` lines of «total  percent  bar».

    Long distributions are shown in equal ranges of totals («10–14»), each with its summed
    chance; totals too unlikely to show (below 0.05%) at either end are left out.
    """
    floats = dist.floats()
    totals = list(floats)
    # trim the far tails that would print as 0,0%
    mass = 0.0
    low = 0
    while low < len(totals) - 1 and mass + floats[totals[low]] < 0.0005:
        mass += floats[totals[low]]
        low += 1
    mass = 0.0
    high = len(totals) - 1
    while high > low and mass + floats[totals[high]] < 0.0005:
        mass += floats[totals[high]]
        high -= 1
    first, last = totals[low], totals[high]
    # the totals' own grid: halves for «d%/2», hundredths at most (a total has two decimals)
    scale = lcm(*(t.denominator for t in totals)) if not dist.whole else 1
    span = int((last - first) * scale) + 1
    step = max(1, -(-span // rows))
    sums = [0.0] * (-(-span // step))
    for total in totals[low : high + 1]:
        sums[int((total - first) * scale) // step] += floats[total]
    buckets: list[tuple[str, float]] = []
    for k, p in enumerate(sums):
        start = first + Fraction(k * step, scale)
        end = min(start + Fraction(step - 1, scale), last)
        label = _num(start) if start == end else f"{_num(start)}–{_num(end)}"
        buckets.append((label, p))
    top = max(p for _, p in buckets) or 1.0
    return [f"{label:>11} {percent(p):>7} {bar(p / top, width)}" for label, p in buckets]
