"""``kubik odds ide4`` and ``kubik check ide4``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rules.errors import RulesError
from tui.cli.common import Parser, emit, fail, odds_payload, outcome_rows
from tui.numbers import read_typed_whole

IMPOSSIBLE = 8


def glossed(names: dict[str, str]) -> str:
    """Return ``skill — навык, food — еда`` for choices a GM types in English."""
    return ", ".join(f"{key} — {name}" for key, name in names.items())


def difficulty_value(text: str) -> int:
    """Accept ``3``, ``[3]``, ``−1`` or ``00`` / ``[00]`` (impossible, i.e. 8)."""
    cleaned = text.strip().strip("[]").replace("−", "-")
    if cleaned == "00":
        return IMPOSSIBLE
    value = read_typed_whole(cleaned)  # the digits 0–9 only: «٣» or «1_0» is no difficulty
    if value is None:
        raise argparse.ArgumentTypeError(f"«{text}» — не сложность; например 3, [5] или 00")
    return value


def modifier_value(text: str) -> Any:
    """Accept ``+1``, ``-1`` or ``"+1 темнота"`` (a value with a reason)."""
    from rules import ide4
    from rules.modifiers import parse_modifiers

    try:
        parsed = parse_modifiers(text)
    except RulesError as err:
        raise argparse.ArgumentTypeError(str(err)) from err
    if len(parsed) != 1:
        raise argparse.ArgumentTypeError(f"«{text}» — один модификатор, например +1 или -1")
    return ide4.Modifier(parsed[0].value, parsed[0].reason)


def ide4_parser(command: str) -> Parser:
    from rules import ide4

    parser = Parser(
        prog=f"kubik {command} ide4",
        description="Проверка IDE4™: d100 против сложности [1]…[7], пять исходов.",
    )
    parser.add_argument(
        "--difficulty",
        type=difficulty_value,
        required=command == "odds",
        help="базовая сложность (3 — обычная задача; 00 — невозможно)",
    )
    parser.add_argument(
        "--mod", type=modifier_value, action="append", default=[], help="модификатор: +1 темнота"
    )
    parser.add_argument("--energy-dice", type=int, default=0, help="кубов энергии до броска")
    parser.add_argument("--die", type=int, default=0, help="размер куба энергии: 4 … 20")
    parser.add_argument("--hidden-risk", action="store_true", help="скрытый риск: [0] → [1]")
    parser.add_argument("--pin7", action="store_true", help="Сюжетная броня: сложность [7]")
    parser.add_argument(
        "--ally", choices=list(ide4.HELP_KINDS), help="помощь союзника: " + glossed(ide4.HELP_KINDS)
    )
    parser.add_argument(
        "--ally-difficulty",
        "--open-difficulty",
        dest="ally_difficulty",
        type=int,
        help="сложность, которую назначает мастер, когда исключение открывает [00]",
    )
    parser.add_argument(
        "--special-rule", default="", help="особое правило, открывающее [00] (его название)"
    )
    parser.add_argument("--json", action="store_true", help="вывод в JSON")
    vs = parser.add_argument_group(
        "противоборство",
        "вторая сторона: исходы win / tie / lose с точки зрения первой (одинаковый исход — "
        "побеждает меньшая итоговая сложность; равная — tie, решает мастер)",
    )
    vs.add_argument("--vs", type=difficulty_value, help="базовая сложность второй стороны")
    vs.add_argument(
        "--vs-mod", type=modifier_value, action="append", default=[], help="её модификатор"
    )
    vs.add_argument("--vs-energy-dice", type=int, default=0, help="её кубов энергии до броска")
    vs.add_argument("--vs-die", type=int, default=0, help="размер её куба энергии")
    vs.add_argument("--vs-pin7", action="store_true", help="у второй стороны Сюжетная броня")
    if command == "check":
        vs.add_argument("--vs-actor", default="", help="кто вторая сторона")
        vs.add_argument(
            "--tie",
            choices=["status_quo", "price"],
            help="при полном равенстве: положение без изменений или цена обеим сторонам",
        )
        vs.add_argument("--tie-price", default="", help="цена обеим сторонам (с --tie price)")
    if command == "odds":
        return parser
    parser.add_argument("--seed", type=int, help="зерно генератора (повторяемый бросок)")
    parser.add_argument("--intent", default="", help="намерение персонажа")
    parser.add_argument("--actor", default="", help="кто действует")
    parser.add_argument("--action", default="", help="действие: " + ", ".join(ide4.actions()))
    parser.add_argument("--attribute", default="", help="главный атрибут")
    parser.add_argument("--level", type=int, help="уровень атрибута (задаёт номинал энергии)")
    parser.add_argument("--skill", default="", help="навык")
    parser.add_argument("--mastery", type=int, default=0, help="мастерство навыка 0–100")
    parser.add_argument("--distance", default="", help="дистанция боя: П, Д, Б или К")
    parser.add_argument("--technique", default="", help="именованная техника (бонус 20)")
    parser.add_argument("--reason", default="", help="почему [00] невозможно")
    parser.add_argument("--ally-note", default="", help="какую часть риска берёт союзник")
    parser.add_argument("--pool", type=int, default=100, help="запас энергии (100)")
    parser.add_argument(
        "--triumph-used", action="store_true", help="Успех → Триумф уже был сегодня"
    )
    parser.add_argument(
        "--reroll",
        choices=list(ide4.REROLL_SOURCES),
        action="append",
        default=[],
        help="переброс от источника (повторяемый): " + glossed(ide4.REROLL_SOURCES),
    )
    parser.add_argument("--energy-after", type=int, default=0, help="кубов энергии после броска")
    parser.add_argument("--after-die", type=int, default=0, help="их размер (по умолчанию номинал)")
    parser.add_argument(
        "--bonus",
        choices=["reroll", *ide4.AFTER_BONUSES],
        action="append",
        default=[],
        help="бонус мастерства (повторяемый): "
        + glossed({"reroll": "переброс", **ide4.AFTER_BONUSES}),
    )
    parser.add_argument("--subroll", action="store_true", help="сделать подбросок d6")
    parser.add_argument(
        "--template",
        choices=["quick", "full"],
        default="full",
        help="какой шаблон вывести: quick — краткий, full — полный",
    )
    return parser


def attribute_level(args: argparse.Namespace) -> int:
    """The attribute level given, else the lowest whose nominal fits ``--die``, else 3."""
    from rules import ide4

    if args.level is not None:
        return int(args.level)
    if args.die:
        sizes = ide4.energy_rules().die_size
        fitting = [level for level, size in sizes.items() if size >= args.die]
        if fitting:
            return min(fitting)
    return 3


def check_input(args: argparse.Namespace) -> Any:
    """Build a ``CheckInput`` from the parsed arguments."""
    from rules import ide4

    if args.energy_dice and not args.die and args.level is None:
        fail("--energy-dice нужен вместе с --die (размер куба) или --level (уровень атрибута)")
    return ide4.CheckInput(
        intent=getattr(args, "intent", ""),
        actor=getattr(args, "actor", ""),
        action=getattr(args, "action", ""),
        attribute=getattr(args, "attribute", ""),
        attribute_level=attribute_level(args) if hasattr(args, "level") else 3,
        skill=getattr(args, "skill", ""),
        mastery=getattr(args, "mastery", 0),
        distance=getattr(args, "distance", ""),
        base=args.difficulty,
        modifiers=tuple(args.mod),
        pinned_seven=args.pin7,
        hidden_risk=args.hidden_risk,
        impossible_reason=getattr(args, "reason", ""),
        energy_pool=getattr(args, "pool", 100),
        energy_dice=args.energy_dice,
        energy_die=args.die,
        technique=getattr(args, "technique", ""),
        help=getattr(args, "ally", None) or "",
        help_difficulty=getattr(args, "ally_difficulty", None),
        help_note=getattr(args, "ally_note", ""),
        special_rule=getattr(args, "special_rule", ""),
        daily_triumph_used=getattr(args, "triumph_used", False),
    )


def vs_input(args: argparse.Namespace) -> Any:
    """Build the second side's ``CheckInput`` of an opposed check (``--vs`` …)."""
    from rules import ide4

    if args.vs_energy_dice and not args.vs_die:
        fail("--vs-energy-dice нужен вместе с --vs-die (размер куба энергии)")
    level = 3
    if args.vs_die:
        fitting = [k for k, v in ide4.energy_rules().die_size.items() if v >= args.vs_die]
        level = min(fitting) if fitting else 3
    return ide4.CheckInput(
        actor=getattr(args, "vs_actor", ""),
        attribute_level=level,
        base=args.vs,
        modifiers=tuple(args.vs_mod),
        pinned_seven=args.vs_pin7,
        energy_dice=args.vs_energy_dice,
        energy_die=args.vs_die,
        impossible_reason="—",
    )


def _vs_given(args: argparse.Namespace) -> bool:
    given = args.vs_mod or args.vs_energy_dice or args.vs_die or args.vs_pin7
    if args.vs is None and given:
        fail("--vs-mod, --vs-energy-dice, --vs-die и --vs-pin7 — только вместе с --vs D2")
    return args.vs is not None


def odds_opposed(args: argparse.Namespace) -> int:
    """``kubik odds ide4 … --vs D2 …``: win / tie / lose from the first side's view."""
    from rules import ide4

    a, b = check_input(args), vs_input(args)
    try:
        outcomes = ide4.opposed_odds(a, b)
        da, db = ide4.resolve_difficulty(a), ide4.resolve_difficulty(b)
    except RulesError as err:
        fail(str(err))
    title = f"Противоборство: {da.label} против {db.label}"
    if da.final == db.final:
        title += " (одинаковый исход — равенство, решает мастер)"
    else:
        lower = "первая" if da.final < db.final else "вторая"
        title += f" (одинаковый исход — побеждает {lower}: ниже итоговая сложность)"
    data = {
        "system": "ide4",
        "kind": "opposed",
        **odds_payload(outcomes),
        "difficulty": da.to_dict(),
        "vs_difficulty": db.to_dict(),
    }
    names = {"win": "Победа", "tie": "Равенство", "lose": "Поражение"}
    emit(data, "\n".join([title, *outcome_rows(names, outcomes)]), args.json)
    return 0


def odds(argv: Sequence[str]) -> int:
    """``kubik odds ide4``: exact odds of the five outcomes, energy before the roll included."""
    from rules import ide4

    args = ide4_parser("odds").parse_args(argv)
    if args.energy_dice and not args.die:
        fail("--energy-dice нужен вместе с --die (размер куба энергии: 4, 6, 8, 10, 12 или 20)")
    if _vs_given(args):
        return odds_opposed(args)
    inp = check_input(args)
    try:
        difficulty = ide4.resolve_difficulty(inp)
        outcomes = ide4.outcome_odds(difficulty.final, args.energy_dice, args.die or 4)
    except RulesError as err:
        fail(str(err))
    energy = f", энергия {args.energy_dice}×d{args.die}" if args.energy_dice else ""
    name = f" ({difficulty.name})" if difficulty.name else ""
    if difficulty.made_possible:
        name = f" ([00] открыто: {difficulty.opened_by})"
    title = f"d100 против {difficulty.label}{name}{energy}"
    data = {
        "system": "ide4",
        **odds_payload(outcomes),
        "difficulty": difficulty.to_dict(),
        "energy": {"dice": args.energy_dice, "die": args.die},
    }
    emit(data, "\n".join([title, *outcome_rows(ide4.OUTCOME_NAMES, outcomes)]), args.json)
    return 0


def check(argv: Sequence[str]) -> int:
    """``kubik check ide4``: one check, the moves applied in the seed's order."""
    from rules import ide4
    from rules.dice import make_rng

    args = ide4_parser("check").parse_args(argv)
    if _vs_given(args):
        return check_opposed(args)
    inp = check_input(args)
    notes: list[str] = []
    try:
        result = ide4.play(
            inp,
            make_rng(args.seed),
            rerolls=args.reroll,
            energy_after_dice=args.energy_after,
            energy_after_die=args.after_die,
            bonuses=args.bonus,
            with_subroll=args.subroll,
            notes=notes,
        )
    except RulesError as err:
        fail(str(err))
    template = ide4.quick_template if args.template == "quick" else ide4.full_template
    text = f"{ide4.summary(result)}\n\n{template(result)}"
    moves = next_moves(result)
    if moves:
        text += "\n\n" + "\n".join(moves_text(moves))
    if notes:
        text += "\n\n" + "\n".join(f"Внимание: {n}" for n in notes)
    data = {**result.to_dict(), "notes": notes, "moves": [m.to_dict() for m in moves]}
    emit(data, text, args.json)
    return 0


def next_moves(check: Any) -> list[Any]:
    """The moves the result still allows, each with its exact odds (the table engine's
    figures, the same the Проверка tab shows)."""
    from tui.systems.ide4.check.view import offers_of

    return [o for o in offers_of(check) if o.allowed]


def moves_text(moves: list[Any]) -> list[str]:
    """«Ходы после броска (шанс, что исход станет лучше / хуже):», then the rerolls (one line
    for the sources with the same odds), energy after per die size, each bonus, the sub-roll."""
    from tui.systems.ide4.check.text import chance

    lines = ["Ходы после броска (шанс, что исход станет лучше / хуже):"]
    rerolls: dict[str, list[str]] = {}
    for m in moves:
        if m.kind == "reroll":
            rerolls.setdefault(m.odds_text, []).append(m.name)
    lines += [f"  переброс ({', '.join(names)}): {odds}" for odds, names in rerolls.items()]
    sizes: dict[str, list[str]] = {}
    for m in moves:
        if m.kind == "energy_after":
            count, size = m.source.split("x")
            sizes.setdefault(size, []).append(f"{count} — лучше {chance(m.odds.better)}")
    lines += [
        f"  энергия после, кубы d{size}: {'; '.join(each)} (хуже — никогда)"
        for size, each in sizes.items()
    ]
    lines += [f"  бонус «{m.name}»: {m.odds_text}" for m in moves if m.kind == "bonus"]
    lines += [f"  {m.name}: {m.odds_text}" for m in moves if m.kind == "subroll"]
    return [line.replace("\u00a0", " ") for line in lines]


def check_opposed(args: argparse.Namespace) -> int:
    """``kubik check ide4 … --vs D2 …``: both sides roll, then the seed's comparison."""
    from rules import ide4
    from rules.dice import make_rng

    rng = make_rng(args.seed)
    try:
        a = ide4.play(check_input(args), rng)
        b = ide4.play(vs_input(args), rng)
        result = ide4.opposed(a, b)
        if result.winner is None and args.tie:
            result = result.resolve_tie(args.tie, args.tie_price)
    except RulesError as err:
        fail(str(err))
    how = {"outcome": "выше исход", "difficulty": "ниже итоговая сложность"}
    if result.winner is None:
        choice = ide4.TIE_RESOLUTIONS.get(result.resolution, "")
        verdict = f"равенство — {choice}" if choice else "равенство: решает мастер (--tie)"
        if result.price:
            verdict += f": {result.price}"
    else:
        side = "первая" if result.winner == "a" else "вторая"
        verdict = f"побеждает {side} сторона ({how[result.decided_by]})"
    text = f"{ide4.summary(a)}\n{ide4.summary(b)}\nПротивоборство: {verdict}"
    emit(result.to_dict(), text, args.json)
    return 0
