"""``kubik bestiary`` and ``kubik encounter``: NPC templates and prepared encounters from
scripts, and ``kubik party add ИМЯ --from ШАБЛОН`` (:func:`add_from_template`).

Each change is one engine step (:mod:`tui.table.bestiary.steps`) written as one undo step.
Every command takes ``--json``. Exit status: 0 done, 1 refused (no such template, a starter
entry cannot be removed, the fight is running, a bad file), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tui.cli.bestiary_args import count_arg
from tui.cli.campaign import open_campaign
from tui.cli.common import (
    EXIT_REFUSED,
    Parser,
    campaign_option,
    emit,
    fail,
    json_option,
)
from tui.store import Store, StoreError
from tui.store.bestiary import (
    DEFAULT_SIDE,
    Group,
    Prepared,
    Template,
    encounter_to_doc,
    template_to_doc,
)
from tui.store.schema import SchemaError

#: Who put an entry in the bestiary, as the lists say it.
ORIGIN = {True: "kubik", False: "своя"}


# -- the session ---------------------------------------------------------------------------------


def _session(store: Store) -> Any:
    from tui.table.bestiary.session import BestiarySession
    from tui.table.core import Dice

    return BestiarySession(store, Dice(random.Random()))


def _read(store: Store) -> Any:
    try:
        return _session(store).read()
    except SchemaError as err:
        fail(f"бестиарий кампании повреждён: {err}", code=EXIT_REFUSED)


def _run(store: Store, step: Any, *args: Any, **kwargs: Any) -> Any:
    """Make a step and write it; a refusal or a store error is exit 1."""
    try:
        outcome = _session(store).run(step, *args, **kwargs)
    except SchemaError as err:
        fail(f"бестиарий кампании повреждён: {err}", code=EXIT_REFUSED)
    except StoreError as err:
        fail(str(err), code=EXIT_REFUSED)
    if not outcome.ok:
        fail(outcome.refused, code=EXIT_REFUSED)
    for notice in outcome.notices:
        print(notice, file=sys.stderr)
    return outcome


# -- kubik bestiary ------------------------------------------------------------------------------


def bestiary_parser() -> Parser:
    parser = Parser(
        prog="kubik bestiary",
        description=(
            "Бестиарий: шаблоны НИП кампании (стартовые — kubik, свои — в файле кампании).\n"
            "Файл шаблонов и сцен — TOML, формат в docs/guide/bestiary.md."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="action", metavar="{list,show,add,remove}", required=True, parser_class=Parser
    )
    listing = sub.add_parser("list", help="список шаблонов")
    listing.add_argument("--tag", metavar="МЕТКА", help="только шаблоны с этой меткой")
    json_option(listing)
    campaign_option(listing)
    show = sub.add_parser("show", help="лист шаблона")
    show.add_argument("name", metavar="ШАБЛОН", help="имя шаблона")
    json_option(show)
    campaign_option(show)
    add = sub.add_parser(
        "add", help="добавить шаблоны и сцены из файла TOML или сохранить персонажа как шаблон"
    )
    source = add.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=Path, metavar="ФАЙЛ", help="файл TOML")
    source.add_argument("--character", metavar="ИМЯ", help="сохранить персонажа партии как шаблон")
    add.add_argument(
        "--tag", action="append", default=[], metavar="МЕТКА", help="метка шаблона (--character)"
    )
    json_option(add)
    campaign_option(add)
    remove = sub.add_parser("remove", help="удалить свой шаблон")
    remove.add_argument("name", metavar="ШАБЛОН", help="имя шаблона")
    json_option(remove)
    campaign_option(remove)
    return parser


def bestiary(argv: Sequence[str]) -> int:
    """Run ``kubik bestiary list|show|add|remove``."""
    from tui.table.bestiary import steps

    args = bestiary_parser().parse_args(argv)
    if args.action == "list":
        with open_campaign(args.campaign, write=False) as store:
            b = _read(store).shelf.bestiary
        tag = (args.tag or "").casefold()
        found = [t for t in b.templates if not tag or tag in (x.casefold() for x in t.tags)]
        data = {"templates": [_template_json(t) for t in found]}
        lines = [f"Шаблонов: {len(found)}"] + [
            f"{t.name}  ({ORIGIN[t.default]})" + (f"  метки: {', '.join(t.tags)}" if t.tags else "")
            for t in found
        ]
        emit(data, "\n".join(lines), args.json)
        return 0
    if args.action == "show":
        with open_campaign(args.campaign, write=False) as store:
            b = _read(store).shelf.bestiary
            system = store.campaign.system
        t = b.template(args.name)
        if t is None:
            fail(f"шаблона «{args.name}» нет в бестиарии", code=EXIT_REFUSED)
        from tui.bridge.sheets import sheet_text
        from tui.present.markup import plain_text

        text = plain_text(sheet_text(system, t.sheet))
        text += f"\nИсточник: {ORIGIN[t.default]}" + (
            f"; метки: {', '.join(t.tags)}" if t.tags else ""
        )
        emit(_template_json(t), text, args.json)
        return 0
    if args.action == "add" and args.file is not None:
        from tui.store.bestiary_toml import read_file

        try:
            from_file = read_file(args.file)
        except StoreError as err:
            fail(str(err), code=EXIT_REFUSED)
        with open_campaign(args.campaign, write=True) as store:
            if from_file.system != store.campaign.system:
                fail(
                    f"{args.file}: бестиарий системы «{from_file.system}», а кампания — "
                    f"«{store.campaign.system}»",
                    code=EXIT_REFUSED,
                )
            out = _run(store, steps.put_file, from_file.templates, from_file.encounters)
        added = {
            "templates": [t.name for t in from_file.templates],
            "encounters": [e.name for e in from_file.encounters],
        }
        emit(added, f"{out.label}.", args.json)
        return 0
    if args.action == "add":
        with open_campaign(args.campaign, write=True) as store:
            who = _character(store, args.character)
            _run(store, steps.save_character, who.id, tuple(args.tag))
            t = _read(store).shelf.bestiary.template(who.name)
        emit(
            _template_json(t), f"Персонаж «{who.name}» сохранён в бестиарии как шаблон.", args.json
        )
        return 0
    with open_campaign(args.campaign, write=True) as store:
        out = _run(store, steps.remove_template, args.name)
    emit({"removed": args.name}, f"{out.label}.", args.json)
    return 0


def _character(store: Store, name: str) -> Any:
    """The character called ``name`` (letter case aside) or with that id; else exit 1."""
    found = [c for c in store.characters() if c.id == name] or [
        c for c in store.characters() if c.name.casefold() == " ".join(name.split()).casefold()
    ]
    if len(found) != 1:
        many = "несколько — укажите id" if found else "нет в кампании"
        fail(f"персонажа «{name}» {many}", code=EXIT_REFUSED)
    return found[0]


def _template_json(t: Template) -> dict[str, Any]:
    return {"id": t.id, "default": t.default, **template_to_doc(t)}


# -- kubik encounter -----------------------------------------------------------------------------


def encounter_parser() -> Parser:
    parser = Parser(
        prog="kubik encounter",
        description=(
            "Подготовленные сцены: шаблоны НИП с числом и сторонами, в бой одной командой.\n"
            "Пример: kubik encounter add «Засада у брода» --group Атаман 1 --group Разбойник 5 "
            "--group Стрелок 2 Засада --hidden"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="action",
        metavar="{list,show,add,remove,load,unload}",
        required=True,
        parser_class=Parser,
    )
    listing = sub.add_parser("list", help="список сцен")
    json_option(listing)
    campaign_option(listing)
    show = sub.add_parser("show", help="состав сцены")
    show.add_argument("name", metavar="СЦЕНА", help="название сцены")
    json_option(show)
    campaign_option(show)
    add = sub.add_parser("add", help="подготовить сцену (или заменить свою с тем же названием)")
    add.add_argument("name", metavar="СЦЕНА", help="название сцены")
    add.add_argument(
        "--group",
        action="append",
        nargs="+",
        required=True,
        metavar="ШАБЛОН [ЧИСЛО [СТОРОНА]]",
        help=f"строка сцены: шаблон, сколько (1–50, по умолчанию 1), сторона (по умолчанию "
        f"«{DEFAULT_SIDE}»); можно несколько раз",
    )
    add.add_argument("--hidden", action="store_true", help="НИП сцены скрыты от игроков («???»)")
    add.add_argument("--notes", default="", metavar="ТЕКСТ", help="заметки ведущего")
    json_option(add)
    campaign_option(add)
    remove = sub.add_parser("remove", help="удалить свою сцену")
    remove.add_argument("name", metavar="СЦЕНА", help="название сцены")
    json_option(remove)
    campaign_option(remove)
    load = sub.add_parser("load", help="загрузить сцену в бой (НИП — в партию и на свои стороны)")
    load.add_argument("name", metavar="СЦЕНА", help="название сцены")
    json_option(load)
    campaign_option(load)
    unload = sub.add_parser("unload", help="после боя: убрать из партии НИП, которых привела сцена")
    unload.add_argument("name", metavar="СЦЕНА", help="название сцены")
    json_option(unload)
    campaign_option(unload)
    return parser


def encounter(argv: Sequence[str]) -> int:
    """Run ``kubik encounter list|show|add|remove|load|unload``."""
    from tui.table.bestiary import steps

    parser = encounter_parser()
    args = parser.parse_args(argv)
    if args.action == "list":
        with open_campaign(args.campaign, write=False) as store:
            b = _read(store).shelf.bestiary
        data = {"encounters": [_encounter_json(e) for e in b.encounters]}
        lines = [f"Сцен: {len(b.encounters)}"] + [_encounter_line(e) for e in b.encounters]
        emit(data, "\n".join(lines), args.json)
        return 0
    if args.action == "show":
        with open_campaign(args.campaign, write=False) as store:
            b = _read(store).shelf.bestiary
        e = b.encounter(args.name)
        if e is None:
            fail(f"сцены «{args.name}» нет", code=EXIT_REFUSED)
        lines = [_encounter_line(e)] + [f"  {g.template} ×{g.count} — {g.side}" for g in e.groups]
        if e.notes:
            lines.append(e.notes)
        emit(_encounter_json(e), "\n".join(lines), args.json)
        return 0
    if args.action == "add":
        groups = [_group(parser, items) for items in args.group]
        try:
            from tui.store.bestiary import check_encounter, encounter_to_doc

            e = Prepared("new", " ".join(args.name.split()), tuple(groups), args.hidden, args.notes)
            check_encounter(encounter_to_doc(e), f"сцена «{e.name}»")
        except SchemaError as err:
            parser.error(str(err))
        with open_campaign(args.campaign, write=True) as store:
            from tui.store import new_id

            e = Prepared(new_id(), e.name, e.groups, e.hidden, e.notes)
            out = _run(store, steps.put_encounter, e)
        emit(_encounter_json(e), f"{out.label}: {e.size} НИП.", args.json)
        return 0
    with open_campaign(args.campaign, write=True) as store:
        step = {
            "remove": steps.remove_encounter,
            "load": steps.load_encounter,
            "unload": steps.remove_brought,
        }[args.action]
        out = _run(store, step, args.name)
    result: dict[str, Any] = {"label": out.label}
    if out.sheets:
        result["added"] = [{"id": c.id, "name": c.name} for c in out.sheets]
    if out.removed:
        result["removed"] = list(out.removed)
    text = out.log[0].text if out.log else f"{out.label}."
    emit(result, text, args.json)
    return 0


def _group(parser: Parser, items: list[str]) -> Group:
    if len(items) > 3:
        parser.error(f"--group {' '.join(items)}: нужно ШАБЛОН [ЧИСЛО [СТОРОНА]]")
    count = 1
    if len(items) > 1:
        try:
            count = count_arg(items[1])
        except argparse.ArgumentTypeError as err:
            parser.error(f"--group {items[0]}: {err}")
    side = items[2] if len(items) > 2 else DEFAULT_SIDE
    return Group(" ".join(items[0].split()), count, " ".join(side.split()))


def _encounter_line(e: Prepared) -> str:
    parts = ", ".join(f"{g.template} ×{g.count}" for g in e.groups)
    hidden = ", скрыта" if e.hidden else ""
    return f"{e.name} ({ORIGIN[e.default]}{hidden}): {parts}"


def _encounter_json(e: Prepared) -> dict[str, Any]:
    return {"id": e.id, "default": e.default, "size": e.size, **encounter_to_doc(e)}


# -- kubik party add ИМЯ --from ШАБЛОН -------------------------------------------------------


def add_from_template(
    campaign: Path | None,
    name: str,
    template: str,
    count: int,
    side: str | None,
    spread: bool,
    hidden: bool = False,
) -> dict[str, Any]:
    """``kubik party add ИМЯ --from ШАБЛОН``: ``count`` NPCs named after ``name`` from the
    template; returns what the command prints as JSON."""
    from tui.table.bestiary import spawn, steps

    with open_campaign(campaign, write=True) as store:
        out = _run(
            store,
            steps.add_from_template,
            template,
            count,
            side=side,
            variation=spawn.SPREAD if spread else None,
            name=name,
            hidden=hidden,
        )
    return {"label": out.label, "added": [{"id": c.id, "name": c.name} for c in out.sheets]}


COMMANDS = {"bestiary": bestiary, "encounter": encounter}
