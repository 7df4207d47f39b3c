"""``kubik odds wod`` and ``kubik check wod``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tui.cli.common import Parser, bar_row, emit, fail, odds_payload, outcome_rows, signed_int

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules.wod import Pool, PoolResult


def again_text(text: str) -> str:
    """Accept ``10``, ``9``, ``8`` or ``none`` (argparse type; the rules parse it later)."""
    from rules.errors import RulesError
    from rules.wod import parse_again

    try:
        parse_again(text)
    except RulesError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def wod_parser(command: str) -> Parser:
    parser = Parser(
        prog=f"kubik {command} wod",
        description=(
            "Запас Мира Тьмы: d10, успех на 8+, «10-снова»; запас 0 и меньше — бросок на удачу."
        ),
    )
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--pool", type=signed_int, help="запас кубов (0 и меньше — на удачу)")
    size.add_argument("--attribute", type=int, help="точки атрибута (вместе с --skill)")
    parser.add_argument("--skill", type=int, default=0, help="точки навыка (с --attribute)")
    parser.add_argument(
        "--mod", type=signed_int, action="append", default=[], help="модификатор запаса"
    )
    parser.add_argument(
        "--again",
        type=again_text,
        help="правило «снова»: 10, 9, 8 или none (по умолчанию — настройка кампании, 10)",
    )
    parser.add_argument("--rote", action="store_true", help="отработанное действие")
    parser.add_argument("--json", action="store_true", help="вывод в JSON")
    if command == "check":
        parser.add_argument("--seed", type=int, help="зерно генератора (повторяемый бросок)")
        parser.add_argument("--withdraw", action="store_true", help="отказаться от броска на удачу")
        parser.add_argument(
            "--no-withdrawal",
            action="store_true",
            help="Рассказчик запрещает отказ (персонаж не предвидел опасности)",
        )
    return parser


def build_pool(args: argparse.Namespace) -> Pool:
    from rules import wod

    mods = [wod.Modifier(m, "модификатор") for m in args.mod]
    if args.pool is not None:
        if args.skill:
            fail("--skill нужен только с --attribute; с --pool укажите весь запас")
        attribute, skill = max(args.pool, 0), 0
        if args.pool < 0:
            mods.insert(0, wod.Modifier(args.pool, "штрафы сверх запаса"))
    else:
        attribute, skill = args.attribute, args.skill
    extra: dict[str, Any] = {}
    if args.again is not None:
        extra["again"] = wod.parse_again(args.again)
    if getattr(args, "no_withdrawal", False):
        extra["withdrawal_allowed"] = False
    return wod.Pool(attribute, skill, tuple(mods), rote=args.rote, **extra)


def pool_title(pool: Pool) -> str:
    from tui.present.rolls import signed

    if pool.chance:
        return f"Бросок на удачу (запас {signed(pool.size)}): нужна 10, десятки перебрасываются"
    again = "без взрывов" if pool.again is None else f"{pool.again}-снова"
    rote = ", отработанное" if pool.rote else ""
    return f"Запас {pool.size}d10, успех на {pool.success_threshold}+, {again}{rote}"


def odds(argv: Sequence[str]) -> int:
    """``kubik odds wod``: exact outcome chances and the distribution of successes."""
    from rules import wod

    args = wod_parser("odds").parse_args(argv)
    pool = build_pool(args)
    result = wod.pool_odds(pool)
    data: dict[str, Any] = {
        "system": "wod",
        **odds_payload(result.outcomes),
        "successes": {str(k): float(p) for k, p in result.successes.items()},
        "truncated": float(result.truncated),
        "pool": pool.size,
        "chance": pool.chance,
        "again": pool.again,
        "rote": pool.rote,
    }
    lines = [pool_title(pool), *outcome_rows(wod.OUTCOME_NAMES, result.outcomes)]
    shown = {k: p for k, p in result.successes.items() if p >= 0.0005}
    top = max(shown.values())
    lines.append("Успехов:")
    lines += [bar_row(str(k), p, top, 30) for k, p in shown.items()]
    if result.truncated:  # «--again none» explodes nothing: nothing was cut
        cut = f"{float(result.truncated):.1e}".replace(".", ",").replace("e-", "e−")
        lines.append(f"Хвост взрывов обрезан: отброшено {cut} вероятности.")
    emit(data, "\n".join(lines), args.json)
    return 0


def dice_text(result: PoolResult) -> str:
    """Return the dice as ``10! 5 (6)→9``: ``!`` exploded, ``(x)→y`` rote reroll."""
    parts: list[str] = []
    for die in result.dice:
        text = f"{die.value}{'!' if die.exploded else ''}"
        if not die.kept:
            text = f"({text})"
        if die.rerolled:
            parts[-1] = f"{parts[-1]}→{text}"
            continue
        parts.append(f"+{text}" if die.added else text)
    return " ".join(parts)


def check(argv: Sequence[str]) -> int:
    """``kubik check wod``: roll a pool or a chance die (or withdraw from it)."""
    from rules import wod
    from rules.dice import make_rng

    args = wod_parser("check").parse_args(argv)
    pool = build_pool(args)
    lines = [pool_title(pool)]
    if pool.chance:
        lines.append(wod.withdrawal(pool).reason)
    if args.withdraw:
        withdrawn = wod.withdraw(pool)
        lines.append("Игрок отказался от действия: кубы не бросались.")
        emit(withdrawn.to_dict(), "\n".join(lines), args.json)
        return 0
    result = wod.roll_pool(pool, make_rng(args.seed))
    lines.append(f"Кубы: {dice_text(result)}")
    lines.append(f"Успехов: {result.successes} — {wod.OUTCOME_NAMES[result.outcome]}")
    emit(result.to_dict(), "\n".join(lines), args.json)
    return 0
