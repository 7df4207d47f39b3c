"""``kubik fight``: a Древо fight from the shell, through the same engine steps as the Бой tab.

Every command but ``show`` is one engine step (:mod:`tui.systems.drevo.fight.steps`) written as
one undo step with its Журнал lines; a running app follows at once (it watches the file), and a
fight started in the app goes on here, and back. Each prints the fight as it stands after the step
(``--json``: the step's lines and the whole fight as data). Exit status: 0 done, 1 refused by
the rules or the fight's state (the Russian reason on stderr, nothing written), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import Any

from rules import drevo
from rules.encounter import ACTION_KINDS, ACTION_NAMES, Declaration
from rules.errors import RulesError
from rules.systems import exchanges
from tui.cli.campaign import open_campaign
from tui.cli.common import (
    EXIT_REFUSED,
    Parser,
    campaign_option,
    emit,
    fail,
    json_option,
)
from tui.numbers import read_typed_whole
from tui.store import Character, Store, StoreError
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.declare import redeclare, repeat_round
from tui.systems.drevo.fight.report import fight_data, fight_text
from tui.systems.drevo.fight.session import FightSession
from tui.table.core import Dice, Outcome, refuse

DESCRIPTION = (
    "Бой по правилам Древа из командной строки: те же шаги, что на вкладке «Бой».\n"
    "Каждая команда — один шаг отмены (Ctrl+Z в приложении) со строками Журнала;\n"
    "открытое приложение сразу показывает изменения. Порядок боя:\n"
    "  start → declare (каждый по очереди; repeat — как в прошлом раунде) → roll → accept →\n"
    "  damage → next → … → round → end\n"
    "Код выхода: 0 — готово, 1 — правила или состояние боя не позволяют (причина в stderr,\n"
    "ничего не записано), 2 — неверные аргументы."
)


def _common(parser: Parser) -> None:
    campaign_option(parser)
    json_option(parser)


def _action(text: str) -> str:
    """An action by its key (``melee``) or its Russian name (any case)."""
    wanted = text.strip().casefold()
    for key in ACTION_KINDS:
        if wanted in (key, ACTION_NAMES[key].casefold()):
            return key
    names = ", ".join(f"{k} ({ACTION_NAMES[k]})" for k in ACTION_KINDS)
    raise ValueError(f"неизвестное действие «{text}»; доступны: {names}")


def _distance(text: str) -> str:
    wanted = text.strip().casefold()
    for key in drevo.DISTANCES:
        if wanted in (key, drevo.DISTANCE_NAMES[key].casefold()):
            return str(key)
    names = ", ".join(f"{k} ({drevo.DISTANCE_NAMES[k]})" for k in drevo.DISTANCES)
    raise ValueError(f"неизвестная дистанция «{text}»; доступны: {names}")


def _points(text: str) -> int:
    """Read ``--shift`` (argparse type): ±1…10, of the digits 0–9 only («٣», «1_0» are not).
    An ArgumentTypeError, not a ValueError: argparse shows only the former's message."""
    value = read_typed_whole(text)
    if not value or abs(value) > 10:
        raise argparse.ArgumentTypeError(
            f"«{text}» — нужно число от −10 до +10, не 0, например +1 или −2"
        )
    return value


def fight_parser() -> Parser:
    parser = Parser(
        prog="kubik fight",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="action", metavar="КОМАНДА", required=True, parser_class=Parser
    )
    _common(sub.add_parser("show", help="бой как он есть: фаза, раунд, порядок, заявки, схватки"))
    start = sub.add_parser("start", help="начать бой: стороны, затем инициатива (4dF за сторону)")
    start.add_argument(
        "--side",
        action="append",
        default=[],
        required=True,
        metavar="СТОРОНА=ИМЯ,ИМЯ",
        help="сторона и её бойцы (имена или id через запятую); повторите для каждой стороны",
    )
    start.add_argument(
        "--ambush",
        metavar="СТОРОНА,СТОРОНА",
        help="засада: порядок сторон задаёт ведущий (вместо броска инициативы)",
    )
    start.add_argument("--seed", type=int, help="зерно кубиков (повторяемый бросок)")
    _common(start)
    declare = sub.add_parser("declare", help="заявка того, чья очередь заявлять")
    declare.add_argument("name", metavar="ИМЯ", help="кто заявляет (имя или id)")
    declare.add_argument(
        "what",
        metavar="ДЕЙСТВИЕ",
        help="melee, throw, shoot, dodge, shield, parry, other, none или по-русски "
        "(«Ближний бой», «Уклонение»…)",
    )
    declare.add_argument("--target", metavar="ИМЯ", help="цель атаки (имя или id)")
    declare.add_argument("--weapon", metavar="ОРУЖИЕ", help="оружие с листа (по умолчанию — руки)")
    declare.add_argument(
        "--distance", default="close", metavar="ДИСТАНЦИЯ", help="close (вплотную), near, …"
    )
    declare.add_argument("--turns", type=int, default=1, metavar="N", help="ходов (1–4)")
    declare.add_argument("--note", default="", metavar="ТЕКСТ", help="заметка к заявке")
    declare.add_argument(
        "--allow",
        action="store_true",
        help="исключение ведущего: разрешить запрещённое правилами",
    )
    declare.add_argument(
        "--others",
        choices=("meet", "helpless"),
        help="против других нападающих: meet — его бросок встречает и их, helpless — "
        "беззащитен (по умолчанию — настройка кампании drevo/fight)",
    )
    declare.add_argument(
        "--change",
        action="store_true",
        help="изменить уже сделанную заявку этого раунда (до бросков), остальные остаются",
    )
    _common(declare)
    _common(sub.add_parser("repeat", help="заявки как в прошлом раунде — у всех, кто не заявил"))
    roll = sub.add_parser("roll", help="бросить кубики текущей схватки")
    roll.add_argument("--reroll", action="store_true", help="перебросить ничью (новая попытка)")
    roll.add_argument("--seed", type=int, help="зерно кубиков (повторяемый бросок)")
    _common(roll)
    fate = sub.add_parser("fate", help="Судьба в текущей схватке")
    fate.add_argument("name", metavar="ИМЯ", help="кто тратит (имя или id)")
    how = fate.add_mutually_exclusive_group(required=True)
    how.add_argument("--before", action="store_true", help="до броска: «+4 без броска»")
    how.add_argument("--shift", type=_points, metavar="±N", help="после броска: ±N к результату")
    _common(fate)
    accept = sub.add_parser("accept", help="принять результат броска")
    damage = sub.add_parser("damage", help="записать урон текущей схватки")
    damage.add_argument(
        "--reduce", type=int, default=0, metavar="N", help="снять N уровней урона Судьбой"
    )
    for taking in (accept, damage):
        taking.add_argument(
            "--yes",
            action="store_true",
            help="записать смертельный урон (или выводящий из боя), хотя у раненого есть Судьба",
        )
        _common(taking)
    _common(sub.add_parser("next", help="закрыть схватку: дальше следующая"))
    skip = sub.add_parser("skip", help="пропустить схватку (до броска)")
    skip.add_argument("--reason", default="", metavar="ТЕКСТ", help="почему (в Журнал)")
    _common(skip)
    _common(sub.add_parser("round", help="следующий раунд (порядок заявок меняется)"))
    remove = sub.add_parser("remove", help="убрать из боя тяжелораненого или павшего")
    remove.add_argument("name", metavar="ИМЯ", help="кого (имя или id)")
    _common(remove)
    _common(sub.add_parser("end", help="завершить бой (раны остаются)"))
    return parser


def _find(store: Store, name: str) -> Character:
    """The character with that id or name (any case), else the one whose name starts so
    («Горан» → «Горан Рябой»); none or several: a refusal naming them."""
    chars = store.characters()
    wanted = name.strip().casefold()
    found = [c for c in chars if c.id == name] or [c for c in chars if c.name.casefold() == wanted]
    if not found and wanted:
        found = [c for c in chars if c.name.casefold().startswith(wanted)]
    if not found:
        fail(f"персонажа «{name}» нет в кампании", code=EXIT_REFUSED)
    if len(found) > 1:
        which = ", ".join(f"{c.name} (id {c.id})" for c in found[:5])
        more = f" и ещё {len(found) - 5}" if len(found) > 5 else ""
        fail(f"под «{name}» подходят несколько: {which}{more}; уточните имя или id", EXIT_REFUSED)
    return found[0]


def _sides(store: Store, specs: Sequence[str]) -> dict[str, str]:
    sides: dict[str, str] = {}
    for spec in specs:
        side, sep, names = spec.partition("=")
        if not sep or not side.strip() or not names.strip():
            fail(f"--side «{spec}»: нужно «СТОРОНА=ИМЯ,ИМЯ», например «Отряд=Горан,Милава»")
        for name in filter(str.strip, names.split(",")):
            c = _find(store, name.strip())
            if c.id in sides:
                fail(f"{c.name} указан дважды: у бойца одна сторона", code=EXIT_REFUSED)
            sides[c.id] = side.strip()
    return sides


def _step_of(args: Any, store: Store) -> tuple[Callable[..., Outcome[Any]], tuple, dict]:
    """The engine step a command makes, with its arguments."""
    if args.action == "start":
        order = [s.strip() for s in args.ambush.split(",")] if args.ambush else None
        return steps.start, (_sides(store, args.side), order), {}
    if args.action == "declare":
        actor = _find(store, args.name)
        target = _find(store, args.target).id if args.target else None
        try:
            d = Declaration(
                actor=actor.id,
                action=_action(args.what),
                target=target,
                weapon=args.weapon,
                distance=_distance(args.distance),
                turns=args.turns,
                note=args.note,
                others=args.others or "",
            )
        except (ValueError, RulesError) as err:
            fail(str(err))
        if args.weapon and args.weapon not in actor.weapons:
            held = ", ".join(actor.weapons) or "нет оружия"
            fail(f"у {actor.name} нет оружия «{args.weapon}» (на листе: {held})", EXIT_REFUSED)
        if args.change:
            return redeclare, (d,), {"allow": args.allow}
        return steps.declare, (d,), {"allow": args.allow}
    if args.action == "roll":
        return (steps.reroll_tie if args.reroll else steps.roll), (), {}
    if args.action == "fate":
        c = _find(store, args.name)
        return _fate, (c.id, args.shift), {}
    if args.action == "damage":
        return steps.damage, (args.reduce,), {}
    if args.action == "skip":
        return steps.skip, (args.reason,), {}
    if args.action == "remove":
        return steps.remove_fallen, (_find(store, args.name).id,), {}
    simple = {
        "accept": steps.accept,
        "repeat": repeat_round,
        "next": steps.finish,
        "round": steps.next_round,
        "end": steps.end,
    }
    return simple[args.action], (), {}


def _fate(enc: Any, world: Any, character_id: str, shift: int | None) -> Outcome[Any]:
    """Судьба of a character in the exchange on turn: before the roll, or ``shift`` after."""
    from tui.systems.drevo.fight.view import exchange_view

    view = exchange_view(enc, world)
    if view is None:
        return steps.not_at_dice(enc)
    role = view.role_of(character_id)
    if role is None:
        who = world.characters.get(character_id)
        name = who.name if who is not None else "Персонаж"
        return refuse(enc, f"{name} не участвует в схватке на очереди: Судьба тратится в своей.")
    if shift is None:
        return steps.fate_before(enc, world, role)
    return steps.fate_shift(enc, world, role, shift)


def _ask_before_lethal(args: Any, session: FightSession) -> None:
    """Refuse to write a hit that kills or takes its target out while his Судьба could lower
    it, unless ``--yes`` says so (the Бой tab asks the same question)."""
    if args.action not in ("accept", "damage") or args.yes or getattr(args, "reduce", 0):
        return
    from tui.systems.drevo.fight.view import exchange_view

    try:
        _stored, enc, world = session.read()
    except RulesError:
        return  # the step itself says the fight is damaged
    view = exchange_view(enc, world)
    warning = view.unspent_fate_warning() if view is not None else ""
    if not warning:
        return
    assert view is not None
    costs = ", ".join(str(cost) for _level, cost in view.reduce_options())
    fail(
        f"{warning} Снимите урон Судьбой: kubik fight damage --reduce N (N: {costs}) — "
        f"или запишите его как есть: kubik fight {args.action} --yes.",
        code=EXIT_REFUSED,
    )


def fight(argv: Sequence[str]) -> int:
    """Run ``kubik fight КОМАНДА``."""
    parser = fight_parser()
    args = parser.parse_args(argv)
    write = args.action != "show"
    with open_campaign(args.campaign, write=write) as store:
        if not exchanges(store.campaign.system):
            fail(
                "бой по шагам — для кампаний Древа; в других системах бой ведётся на вкладке "
                "«Бой» приложения",
                code=EXIT_REFUSED,
            )
        seed = getattr(args, "seed", None)
        session = FightSession(store, Dice(random.Random(seed)))
        outcome: Outcome[Any] | None = None
        if write:
            _ask_before_lethal(args, session)
            step, step_args, kwargs = _step_of(args, store)
            try:
                outcome = session.run(step, *step_args, **kwargs)
            except RulesError as err:
                fail(str(err), code=EXIT_REFUSED)
            except StoreError as err:
                fail(str(err), code=1)
            if not outcome.ok:
                fail(outcome.refused, code=EXIT_REFUSED)
        try:
            stored, enc, world = session.read()
        except RulesError as err:
            fail(str(err), code=EXIT_REFUSED)
        shown = enc if stored is not None else None
        text = fight_text(shown, world)
        data: dict[str, Any] = {"fight": fight_data(shown, world)}
        if outcome is not None:
            data = {
                "step": outcome.label,
                "log": [line.text for line in outcome.log],
                "notices": list(outcome.notices),  # what the app says beside the step
                **data,
            }
            done = "\n".join(line.text for line in outcome.log) or outcome.label
            said = "".join(f"\n{notice}" for notice in outcome.notices)
            text = f"{done}{said}\n\n{text}"
    emit(data, text, args.json)
    return 0
