"""``kubik roll`` and ``kubik odds`` for dice notation, and saved rolls by name.

``kubik roll 4d6dl1``, ``kubik roll 6x 4d6dl1 --seed 3``, ``kubik roll "Атака топором"
--character Лыко`` (a saved roll of the character, from the campaign), ``kubik odds
10d10>=8 vs 3``. Only the rules and the store are imported, never Textual.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from tui.cli.common import (
    EXIT_REFUSED,
    Parser,
    bar_row,
    campaign_arg,
    emit,
    fail,
    fold_rare,
    fraction_text,
    some_of,
)

#: Totals rarer than this are folded into one line at either end (``--full`` shows them).
RARE = Fraction(1, 1000)
#: More lines than this (after folding) are shown as ranges of totals.
MAX_LINES = 40

NOTATION = (
    "Бросок по нотации rpg-dice-roller: 2d6+3, 4d6dl1, 10d10>=8f1, d10!>=9, 3d6!!, 2d6r1, "
    "4d6ro<3, 2d10u, 2d20cs, 4d6sd, 4dF.1, {4d6+2, 3d8}k1, floor(4d10/3), 3d20^2, d15%%2, "
    "(4-2)d10, 6x 4d6dl1, 2к6+1 vs 8, 2d6+3 # топор. Дроби сохраняются (1d100/2 = 18,5), "
    "итог — до сотых, как у rpg-dice-roller."
)


#: The synopsis of each: the expression is not an argparse argument (it may hold spaces and
#: start with «-»), so argparse's own would leave it out.
USAGE = {
    "roll": "%(prog)s ВЫРАЖЕНИЕ [--seed ЗЕРНО] [--json]\n"
    "       %(prog)s НАЗВАНИЕ --character ИМЯ [--campaign ФАЙЛ] [--seed ЗЕРНО] [--json]",
    "odds": "%(prog)s ВЫРАЖЕНИЕ [--full] [--json]",
}


def expression_parser(command: str) -> Parser:
    parser = Parser(prog=f"kubik {command}", description=NOTATION, usage=USAGE[command])
    parser.add_argument("--json", action="store_true", help="вывод в JSON")
    if command == "odds":
        parser.add_argument(
            "--full", action="store_true", help="каждая сумма (без свёртки редких, < 0,1 %%)"
        )
    if command == "roll":
        parser.add_argument("--seed", type=int, help="зерно генератора (повторяемый бросок)")
        parser.add_argument(
            "--character", help="персонаж кампании: бросить его сохранённый бросок НАЗВАНИЕ"
        )
        parser.add_argument(
            "--campaign",
            type=campaign_arg,
            help="файл кампании (по умолчанию — кампания пользователя; имя — в папке данных)",
        )
    return parser


def split_expression(parser: Parser, argv: Sequence[str]) -> tuple[argparse.Namespace, str]:
    """Parse the flags and join everything else into the dice expression."""
    args, rest = parser.parse_known_args(argv)
    rest = [token for token in rest if token != "--"]  # "--" lets an expression start with "-"
    unknown = [token for token in rest if token.startswith("--")]
    if unknown:
        parser.error(f"неизвестные аргументы: {' '.join(unknown)}")
    expression = " ".join(rest).strip()
    if not expression:
        parser.error("укажите выражение, например: 3d6! или 4dF+2")
    return args, expression


def saved_roll(campaign: Path | None, character: str, name: str) -> tuple[str, str]:
    """Return (character name, notation) of a saved roll; a clear error if there is none."""
    from tui.cli.campaign import existing_campaign
    from tui.store import Store, StoreError

    path = existing_campaign(campaign)
    try:
        with Store.open(path, read_only=True) as store:
            characters = store.characters()
    except StoreError as err:
        fail(str(err), code=EXIT_REFUSED)
    wanted = character.strip().casefold()
    found = [c for c in characters if c.name.casefold() == wanted]
    if not found:  # «Горан» for «Горан Рябой»: a first word or a start that names one only
        found = [
            c
            for c in characters
            if c.name.casefold().startswith(wanted) or wanted in c.name.casefold().split()
        ]
        if len(found) > 1:
            names = some_of([c.name for c in found])
            fail(
                f"«{character}» — это несколько персонажей: {names}; напишите имя полностью",
                code=EXIT_REFUSED,
            )
    if not found:
        names = some_of([c.name for c in characters])
        fail(
            f"персонажа «{character}» нет; "
            + (f"есть: {names}" if names else "в кампании никого нет"),
            code=EXIT_REFUSED,
        )
    person = found[0]
    notation = person.saved_roll(name)
    if notation is None:
        saved = some_of([n for n, _ in person.rolls])
        fail(
            f"у персонажа «{person.name}» нет броска «{name}»; "
            + (f"есть: {saved}" if saved else "сохранённых бросков нет (в Партии их сохраняет b)"),
            code=EXIT_REFUSED,
        )
    return person.name, notation


def cmd_roll(argv: Sequence[str]) -> int:
    from rules.dice import make_rng, roll
    from tui.present.rolls import number, readings_text, roll_summary

    args, expression = split_expression(expression_parser("roll"), argv)
    actor = None
    if args.character:
        name = expression
        actor, expression = saved_roll(args.campaign, args.character, name)
    result = roll(expression, make_rng(args.seed))
    data = result.to_dict()
    if actor:
        data["character"] = actor
    totals = " ".join(number(t) for t in result.totals)
    summary = roll_summary(result)
    who = f"{actor}, {name} — " if actor else ""
    read = readings_text(result.expression)
    emit(data, f"{totals}\n{who}{summary}" + (f"\n{read}" if read else ""), args.json)
    return 0


def cmd_odds(argv: Sequence[str]) -> int:
    from rules.dice import parse
    from rules.dice.model import number_text
    from rules.dice.results import json_number
    from rules.odds import odds
    from tui.present.rolls import number, odds_summary, odds_table, percent, readings_text
    from tui.words import values

    args, expression = split_expression(expression_parser("odds"), argv)
    parsed = parse(expression)
    dist = odds(parsed)
    data: dict[str, Any] = {
        "expression": str(parsed),
        "distribution": {number_text(k): v for k, v in dist.floats().items()},
        "exact": {number_text(k): fraction_text(v) for k, v in dist.probs.items()},
        "truncated": float(dist.truncated),
        "truncated_exact": fraction_text(dist.truncated),
        "mean": float(dist.mean()),
        "mean_exact": fraction_text(dist.mean()),
        "min": json_number(dist.minimum),
        "max": json_number(dist.maximum),
        "readings": [
            {"position": r.position, "typed": r.typed, "read": r.read, "note": r.note}
            for r in parsed.readings
        ],
    }
    read = readings_text(parsed)
    lines = [f"{parsed}", *([read] if read else []), odds_summary(parsed, dist)]
    rows = [(number(total), p) for total, p in dist.probs.items()]
    folded = [(label, p, 1) for label, p in rows] if args.full else fold_rare(rows, RARE)
    if args.full or len(folded) <= MAX_LINES:
        top = max(p for _label, p, _held in folded)
        for label, p, held in folded:
            line = bar_row(label, p, top, 40).rstrip()
            lines.append(line + (f" ({values(held)}, каждое реже 0,1 %)" if held > 1 else ""))
        if len(folded) < len(rows):
            lines.append("Редкие суммы свёрнуты; --full — показать все.")
    else:
        lines += [*odds_table(dist), "Суммы собраны в диапазоны; --full — показать все."]
    if parsed.target is not None:
        p_success = dist.p_at_least(parsed.target)
        data["target"] = json_number(parsed.target)
        data["success"] = float(p_success)
        data["success_exact"] = fraction_text(p_success)
        lines.append(f"Успех (≥ {number(parsed.target)}): {percent(p_success)}")
    emit(data, "\n".join(lines), args.json)
    return 0
