"""``kubik odds drevo`` and ``kubik check drevo``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from tui.cli.common import Parser, emit, fail, odds_payload, outcome_rows, signed_int
from tui.numbers import read_typed_whole


def difficulty_value(text: str) -> int:
    """Accept a difficulty as a number (``-1``, ``+2``, ``−1``) or a ladder name (``Средне``)."""
    from rules import drevo

    value = read_typed_whole(text)  # the digits 0–9 only: «٣» or «1_0» is no difficulty
    if value is not None:
        return value
    cleaned = text.strip()
    for rung in drevo.ladder():
        if rung.name.casefold() == cleaned.casefold():
            return rung.value
    names = ", ".join(f"{r.name} ({r.value:+d})" for r in drevo.ladder())
    raise argparse.ArgumentTypeError(f"«{text}» — не сложность; числом или словом: {names}")


def drevo_parser(command: str) -> Parser:
    parser = Parser(
        prog=f"kubik {command} drevo",
        description="Проверка Древо: черта + 4dF + модификаторы против сложности или соперника.",
    )
    parser.add_argument("--trait", type=signed_int, required=True, help="навык или качество")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--difficulty", type=difficulty_value, help="сложность: число или имя")
    target.add_argument("--vs", type=signed_int, help="черта соперника (встречная проверка)")
    parser.add_argument(
        "--mod", type=signed_int, action="append", default=[], help="модификатор (повторяемый)"
    )
    parser.add_argument(
        "--vs-mod", type=signed_int, action="append", default=[], help="модификатор соперника"
    )
    parser.add_argument("--json", action="store_true", help="вывод в JSON")
    if command == "check":
        parser.add_argument("--seed", type=int, help="зерно генератора (повторяемый бросок)")
    return parser


def drevo_check(args: argparse.Namespace) -> Any:
    from rules import drevo

    side = drevo.Side(
        trait=args.trait,
        modifiers=tuple(drevo.Modifier(m, "модификатор") for m in args.mod),
        name="A",
        trait_name="черта",
    )
    if args.vs is None:
        if args.vs_mod:
            fail("--vs-mod нужен только со встречной проверкой (--vs)")
        return drevo.OneSidedCheck(side, args.difficulty)
    other = drevo.Side(
        trait=args.vs,
        modifiers=tuple(drevo.Modifier(m, "модификатор") for m in args.vs_mod),
        name="Б",
        trait_name="черта",
    )
    return drevo.OpposedCheck(side, other)


def odds(argv: Sequence[str]) -> int:
    """``kubik odds drevo``: exact odds of a one-sided or opposed check."""
    from rules import drevo

    args = drevo_parser("odds").parse_args(argv)
    check = drevo_check(args)
    if isinstance(check, drevo.OneSidedCheck):
        outcomes = drevo.one_sided_odds(check)
        names = drevo.OUTCOME_NAMES
        title = (
            f"4dF {check.side.bonus:+d} против сложности {check.difficulty:+d} "
            f"({drevo.difficulty_name(check.difficulty)})"
        )
    else:
        outcomes = drevo.opposed_odds(check)
        names = drevo.OPPOSED_NAMES
        title = f"4dF {check.a.bonus:+d} против 4dF {check.b.bonus:+d} (глазами первого)"
    data = {"system": "drevo", **odds_payload(outcomes)}
    emit(data, "\n".join([title, *outcome_rows(names, outcomes)]), args.json)
    return 0


def check(argv: Sequence[str]) -> int:
    """``kubik check drevo``: roll one check."""
    from rules import drevo
    from rules.dice import make_rng
    from tui.systems.drevo.check.lines import one_sided_lines, opposed_summary

    args = drevo_parser("check").parse_args(argv)
    check = drevo_check(args)
    rng = make_rng(args.seed)
    if isinstance(check, drevo.OneSidedCheck):
        result = drevo.roll_one_sided(check, rng)
        text = "\n".join(one_sided_lines(result, markup=False))
        moves = fate_moves(result)
        data = {**result.to_dict(), "moves": moves}
        if moves:
            said, seen = [], set()
            for m in moves:  # the fewest points that reach each outcome
                key = (m["points"] > 0, m["outcome"])
                if (m["odds"]["better"] or m["odds"]["worse"]) and key not in seen:
                    seen.add(key)
                    said.append(f"{m['points']:+d} → {drevo.OUTCOME_NAMES[m['outcome']]}")
            text += "\nСудьба после броска (очко за ±1): " + (
                "; ".join(said).replace("-", "−") or "исход не изменит"
            )
        emit(data, text, args.json)
        return 0
    opposed = drevo.roll_opposed(check, rng)
    emit(opposed.to_dict(), opposed_summary(opposed), args.json)
    return 0


def fate_moves(result: Any) -> list[dict[str, Any]]:
    """Each point of Судьба after the roll (±1 … ±4) and the outcome it gives — certain, so
    its chance to improve or to worsen is 1 or 0."""
    from rules import drevo

    if not drevo.fate_rules().allows("shift") or result.fate_auto:  # no dice: nothing to move
        return []
    order = list(reversed(drevo.OUTCOMES))  # worst first
    moves = []
    for points in (1, 2, 3, 4, -1, -2, -3, -4):
        after = drevo.shift_one_sided(result, points)
        up = order.index(after.outcome) - order.index(result.outcome)
        odds = {"better": float(up > 0), "worse": float(up < 0), "same": float(up == 0)}
        moves.append({"kind": "fate", "points": points, "outcome": after.outcome, "odds": odds})
    return moves
