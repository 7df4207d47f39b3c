"""``kubik odds starately`` and ``kubik check starately``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tui.cli.common import (
    Parser,
    bar_row,
    emit,
    fail,
    fraction_text,
    odds_payload,
    outcome_rows,
    signed_int,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from rules.starately import Check, Result, RiskResult


def difficulty_arg(text: str) -> int:
    """Accept a difficulty as a number (``10``, ``10+``) or a name (``Тяжело``)."""
    from rules import starately
    from rules.errors import RulesError

    try:
        return starately.difficulty_value(text)
    except RulesError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def starately_parser(command: str) -> Parser:
    parser = Parser(
        prog=f"kubik {command} starately",
        description=(
            "Проверка Старателей: 2d6 + DM характеристики + навык (без навыка −3) "
            "+ модификаторы против сложности (Легко 6, Средне 8, Тяжело 10, Подвиг 12)."
        ),
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--dm", type=signed_int, help="DM характеристики")
    source.add_argument(
        "--characteristic", type=int, help="значение характеристики (DM по таблице)"
    )
    skill = parser.add_mutually_exclusive_group(required=True)
    skill.add_argument("--skill", type=int, help="уровень навыка (0 и выше)")
    skill.add_argument("--unskilled", action="store_true", help="навыка нет (штраф −3)")
    parser.add_argument(
        "--difficulty", type=difficulty_arg, help="сложность: число или название (по умолч. 8)"
    )
    parser.add_argument("--boon", action="count", default=0, help="+d6 (повторяемый)")
    parser.add_argument("--bane", action="count", default=0, help="−d6 (повторяемый)")
    parser.add_argument(
        "--mod", type=signed_int, action="append", default=[], help="модификатор (повторяемый)"
    )
    parser.add_argument("--json", action="store_true", help="вывод в JSON")
    vs = parser.add_argument_group(
        "встречный бросок",
        "соперник: сложности нет, выше итог — победа; ничья — инициатору (первой стороне); "
        "натуральные 12 и 2 отмечаются и ничего не решают (настройка кампании)",
    )
    vs.add_argument("--vs-dm", type=signed_int, help="DM характеристики соперника")
    vs.add_argument("--vs-characteristic", type=int, help="значение его характеристики")
    vs.add_argument("--vs-skill", type=int, help="уровень его навыка")
    vs.add_argument("--vs-unskilled", action="store_true", help="у соперника нет навыка (−3)")
    vs.add_argument("--vs-boon", action="count", default=0, help="+d6 сопернику (повторяемый)")
    vs.add_argument("--vs-bane", action="count", default=0, help="−d6 сопернику (повторяемый)")
    vs.add_argument(
        "--vs-mod", type=signed_int, action="append", default=[], help="его модификатор"
    )
    if command == "check":
        parser.add_argument("--seed", type=int, help="зерно генератора (повторяемый бросок)")
        parser.add_argument(
            "--risk", metavar="ЦЕНА", help="при провале заявить Риск; цену называет ведущий"
        )
    return parser


def opposed_wanted(args: argparse.Namespace) -> bool:
    """Whether the arguments describe an opposed roll; refuse a half-described one."""
    named = args.vs_dm is not None or args.vs_characteristic is not None
    rest = (
        args.vs_skill is not None or args.vs_unskilled or args.vs_boon or args.vs_bane
    ) or args.vs_mod
    if not named:
        if rest:
            fail("соперник встречного броска: укажите --vs-dm M2 (или --vs-characteristic)")
        return False
    if args.vs_dm is not None and args.vs_characteristic is not None:
        fail("--vs-dm и --vs-characteristic: укажите что-то одно")
    if (args.vs_skill is None) == (not args.vs_unskilled):
        fail("соперник: укажите --vs-skill S2 или --vs-unskilled")
    if args.difficulty is not None:
        fail("у встречного броска нет сложности: уберите --difficulty")
    return True


def build_opposed(args: argparse.Namespace) -> Any:
    """Build an ``Opposed`` with the first side as the initiator (a tie goes to it)."""
    from rules import starately

    first = build_check(args).side
    common: dict[str, Any] = {
        "skill": None if args.vs_unskilled else args.vs_skill,
        "boons": args.vs_boon,
        "banes": args.vs_bane,
        "modifiers": tuple(starately.Modifier(m, "модификатор") for m in args.vs_mod),
        "name": "соперник",
    }
    if args.vs_characteristic is not None:
        other = starately.Side.of(args.vs_characteristic, **common)
    else:
        other = starately.Side(dm=args.vs_dm, **common)
    from dataclasses import replace

    return starately.Opposed(replace(first, name="инициатор"), other, initiator="a")


def side_title(side: Any) -> str:
    from tui.present.rolls import signed

    skill = "без навыка" if side.skill is None else f"навык {side.skill}"
    dice = f"{dice_label(side.net_dice)} {signed(side.bonus)}"
    return f"{side.name}: {dice} (DM {signed(side.dm)}, {skill})"


def odds_opposed(args: argparse.Namespace) -> int:
    """``kubik odds starately … --vs-dm …``: initiator_wins / opponent_wins, exact."""
    from rules import starately
    from tui.present.rolls import percent

    check = build_opposed(args)
    odds = starately.opposed_odds(check)
    outcomes = {"initiator_wins": odds.a, "opponent_wins": odds.b}
    data: dict[str, Any] = {
        "system": "starately",
        "kind": "opposed",
        **odds_payload(outcomes),
        "tie": float(odds.tie),
        "tie_exact": fraction_text(odds.tie),
        "tie_goes_to": "initiator",
        "naturals_decide": starately.settings().naturals_decide,
    }
    lines = [
        "Встречный бросок (сложности нет, выше итог — победа)",
        side_title(check.a),
        side_title(check.b),
        f"Побеждает инициатор {percent(odds.a):>7} (в т. ч. ничья {percent(odds.tie)})",
        f"Побеждает соперник  {percent(odds.b):>7}",
    ]
    emit(data, "\n".join(lines), args.json)
    return 0


def check_opposed(args: argparse.Namespace) -> int:
    """``kubik check starately … --vs-dm …``: both roll; a tie goes to the initiator."""
    from rules import starately
    from rules.dice import make_rng

    check = build_opposed(args)
    result = starately.roll_opposed(check, make_rng(args.seed))
    data = result.to_dict()

    from tui.present.rolls import term
    from tui.words import number

    def line(name: str, roll: Any, flags: dict[str, bool]) -> str:
        dice = " ".join(str(d.value) if d.kept else f"({d.value})" for d in roll.dice)
        note = ""
        if flags["natural_12"] or flags["natural_2"]:
            nat = 12 if flags["natural_12"] else 2
            note = f" — натуральные {nat}: отмечено, ничего не решает"
            if starately.settings().naturals_decide:
                note = f" — натуральные {nat} (настройка кампании: решают)"
        bonus = term(roll.total - roll.natural)  # DM, skill, modifiers: «= 7 −6 → 1»
        return f"{name}: [{dice}] = {roll.natural}{bonus} → {number(roll.total)}{note}"

    who = "инициатор" if result.winner == "a" else "соперник"
    how = " (ничья — инициатору)" if result.tie else f", перевес {result.margin}"
    lines = [
        line("Инициатор", result.a, data["a"]),
        line("Соперник", result.b, data["b"]),
        f"Побеждает {who}{how}",
    ]
    emit(data, "\n".join(lines), args.json)
    return 0


def build_check(args: argparse.Namespace) -> Check:
    from rules import starately

    common: dict[str, Any] = {
        "skill": None if args.unskilled else args.skill,
        "boons": args.boon,
        "banes": args.bane,
        "modifiers": tuple(starately.Modifier(m, "модификатор") for m in args.mod),
    }
    if args.characteristic is not None:
        side = starately.Side.of(args.characteristic, **common)
    else:
        side = starately.Side(dm=args.dm, **common)
    if args.difficulty is None:
        return starately.Check(side)
    return starately.Check(side, args.difficulty)


def dice_label(net: int) -> str:
    """Return ``2d6``, ``3d6, два больших`` or ``3d6, два меньших``."""
    return {0: "2d6", 1: "3d6, два больших (+d6)", -1: "3d6, два меньших (−d6)"}[net]


def check_title(check: Check) -> str:
    from rules.starately import difficulty_name
    from tui.present.rolls import signed, term

    side = check.side
    skill = "без навыка" if side.skill is None else f"навык {side.skill}"
    return (
        f"{dice_label(side.net_dice)}{term(side.bonus)} (DM {signed(side.dm)}, {skill}"
        f"{', модификаторы ' + signed(side.modifier_total) if side.modifiers else ''}) "
        f"против {check.difficulty}+ ({difficulty_name(check.difficulty)})"
    )


def odds(argv: Sequence[str]) -> int:
    """``kubik odds starately``: exact success/failure and Effect distribution."""
    from rules import starately
    from tui.present.rolls import percent, signed

    args = starately_parser("odds").parse_args(argv)
    if opposed_wanted(args):
        return odds_opposed(args)
    check = build_check(args)
    result = starately.check_odds(check)
    data: dict[str, Any] = {
        "system": "starately",
        **odds_payload(result.outcomes),
        "effect": {str(e): float(p) for e, p in result.effect.items()},
        "effect_exact": {str(e): fraction_text(p) for e, p in result.effect.items()},
        "natural_success": float(result.natural_success),
        "natural_failure": float(result.natural_failure),
        "with_risk": float(result.with_risk),
        "difficulty": check.difficulty,
        "bonus": check.side.bonus,
        "dice": check.side.dice_count,
    }
    top = max(result.effect.values())
    lines = [check_title(check), *outcome_rows(starately.OUTCOME_NAMES, result.outcomes)]
    lines.append(
        f"Натуральное 12 (успех всегда): {percent(result.natural_success)}; "
        f"натуральное 2 (провал всегда): {percent(result.natural_failure)}"
    )
    lines.append(f"С Риском после провала: успех {percent(result.with_risk)}")
    lines.append("Эффект:")
    lines += [bar_row(signed(e), p, top, 30) for e, p in result.effect.items()]
    emit(data, "\n".join(lines), args.json)
    return 0


def result_line(result: Result) -> str:
    from rules.starately import OUTCOME_NAMES
    from tui.present.rolls import signed, term
    from tui.words import number

    dice = " ".join(str(d.value) if d.kept else f"({d.value})" for d in result.dice)
    auto = ""
    if result.auto:
        auto = " — натуральное 12, успех всегда" if result.success else " — натуральное 2"
    return (
        f"[{dice}] = {result.natural}{term(result.check.side.bonus)} → {number(result.total)}: "
        f"{OUTCOME_NAMES[result.outcome]}, Эффект {signed(result.effect)}{auto}"
    )


def check(argv: Sequence[str]) -> int:
    """``kubik check starately``: roll one check (and Risk after a failure with ``--risk``)."""
    from rules import starately
    from rules.dice import make_rng

    args = starately_parser("check").parse_args(argv)
    if opposed_wanted(args):
        if args.risk is not None:
            fail("Риск — после проваленной проверки, не во встречном броске")
        return check_opposed(args)
    the_check = build_check(args)
    rng = make_rng(args.seed)
    result = starately.roll(the_check, rng)
    lines = [check_title(the_check), result_line(result)]
    data: dict[str, Any] = result.to_dict()
    if args.risk is not None:
        if result.success:
            lines.append("Риск не нужен: проверка удалась.")
        else:
            if not args.risk.strip():
                fail("у Риска должна быть цена: --risk «что теряет персонаж»")
            risky: RiskResult = starately.roll_risk(result, args.risk, rng)
            data = risky.to_dict()
            lines.append(f"Риск (цена: {risky.price}): {result_line(risky.retry)}")
    elif not result.success:  # what Risk is worth, before it is declared
        from tui.systems.ide4.check.text import chance

        worth = starately.risk_odds(the_check, result.effect)
        data["moves"] = [{"kind": "risk", "allowed": True, "odds": worth.to_dict()}]
        lines.append(
            f"Риск (--risk «цена»): успех {chance(worth.better)}, провал хуже первого "
            f"{chance(worth.worse)}; цена платится при любом исходе".replace("\u00a0", " ")
        )
    emit(data, "\n".join(lines), args.json)
    return 0
