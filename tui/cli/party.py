"""``kubik party``, ``kubik export``, ``kubik import`` and ``kubik log``: the campaign from scripts.

Each command takes ``--campaign PATH`` (default: the per-user campaign). Changes wait for the
campaign lock (up to :data:`~tui.cli.campaign.CLI_LOCK_TIMEOUT` seconds), so concurrent
commands and a running app never lose each other's writes. Every command takes ``--json``.
Exit status: 0 done, 1 refused by the campaign's state (it cannot be used, the character is
not in it, the export file exists), 2 bad arguments. ``party add`` builds its character in
:mod:`tui.cli.character`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tui import registry
from tui.cli.bestiary_args import count_arg
from tui.cli.campaign import CLI_LOCK_TIMEOUT, open_campaign
from tui.cli.character import build_character, set_keys
from tui.cli.common import (
    EXIT_REFUSED,
    Parser,
    campaign_option,
    emit,
    fail,
    json_option,
    some_of,
)
from tui.sanitize import clean
from tui.store import Character, Store, StoreError
from tui.store.codec import character_to_doc, log_to_doc
from tui.words import KIND_NAMES as KIND_WORDS

KIND_NAMES = KIND_WORDS  # «Игрок», «НИП», as the app says


# -- kubik party ---------------------------------------------------------------------------------


def party_parser() -> Parser:
    parser = Parser(prog="kubik party", description="Персонажи кампании.")
    sub = parser.add_subparsers(
        dest="action", metavar="{list,add,remove}", required=True, parser_class=Parser
    )  # the metavar: argparse's errors named it by its dest, «action»
    listing = sub.add_parser("list", help="список персонажей")
    campaign_option(listing)
    json_option(listing)
    add = sub.add_parser("add", help="добавить персонажа")
    add.add_argument("name", metavar="ИМЯ", help="имя нового персонажа")
    add.add_argument("--npc", action="store_true", help="персонаж ведущего (НИП)")
    add.add_argument(
        "--set",
        dest="values",
        action="append",
        default=[],
        metavar="КЛЮЧ=ЗНАЧЕНИЕ",
        help=f"значение персонажа; ключи: {set_keys()}",
    )
    add.add_argument(
        "--from",
        dest="template",
        metavar="ШАБЛОН",
        help="НИП из шаблона бестиария (kubik bestiary list); ИМЯ — их имя: «ИМЯ 1» … «ИМЯ N»",
    )
    add.add_argument(
        "--count", type=count_arg, default=1, metavar="N", help="сколько НИП из шаблона (1–50)"
    )
    add.add_argument("--side", metavar="СТОРОНА", help="сразу в бой на эту сторону (с --from)")
    add.add_argument(
        "--spread", action="store_true", help="разброс черт (data/bestiary/variation.toml)"
    )
    add.add_argument(
        "--hidden", action="store_true", help="НИП из шаблона скрыты от игроков («???»)"
    )
    add.add_argument("--json", action="store_true", help="вывести добавленного в JSON")
    campaign_option(add)
    remove = sub.add_parser("remove", help="удалить персонажа по имени или id")
    remove.add_argument("name", metavar="ИМЯ", help="имя или id персонажа")
    json_option(remove, "вывести удалённого в JSON")
    campaign_option(remove)
    return parser


def party(argv: Sequence[str]) -> int:
    """Run ``kubik party list|add|remove``."""
    parser = party_parser()
    args = parser.parse_args(argv)
    if args.action == "list":
        return _party_list(args)
    if args.action == "add" and args.template is not None:
        return _add_from_template(parser, args)
    if args.action == "add" and (args.count != 1 or args.side or args.spread or args.hidden):
        parser.error("--count, --side, --spread и --hidden — только вместе с --from ШАБЛОН")
    if args.action == "add":
        build_character(parser, args.name, args.npc, args.values)  # bad syntax: before the lock
        with open_campaign(args.campaign, write=True) as store:
            system = store.campaign.system
            character = build_character(parser, args.name, args.npc, args.values, system)
            _refuse_taken(store, character.name)
            _guard(store.upsert_character, character)
        kind = KIND_NAMES[character.kind]  # «Игрок» mid-sentence is «игрок»; «НИП» stays
        kind = kind if kind.isupper() else kind.lower()
        text = f"Добавлен персонаж «{character.name}» ({kind}, id {character.id})."
        emit(character_to_doc(character), text, args.json)
        return 0
    with open_campaign(args.campaign, write=True) as store:
        target = _find(store, args.name)
        _guard(store.delete_character, target.id)
    emit(character_to_doc(target), f"Удалён персонаж «{target.name}».", args.json)
    return 0


def _add_from_template(parser: Parser, args: Any) -> int:
    from tui.cli.bestiary import add_from_template

    if args.values or args.npc:
        parser.error("--set и --npc не нужны с --from: лист и вид НИП берутся из шаблона")
    name = " ".join(args.name.split())
    if not name:
        parser.error("имя персонажа не может быть пустым")
    data = add_from_template(
        args.campaign, name, args.template, args.count, args.side, args.spread, args.hidden
    )
    names = ", ".join(c["name"] for c in data["added"])
    emit(data, f"Добавлены НИП из шаблона «{args.template}»: {names}.", args.json)
    return 0


def _party_list(args: Any) -> int:
    with open_campaign(args.campaign, write=False) as store:
        chars = store.characters()
        campaign = store.campaign
    if args.json:  # the documents only when asked: 5,000 of them cost more than the rest
        data = {
            "campaign": {"name": campaign.name, "system": campaign.system},
            "characters": [character_to_doc(c) for c in chars],
        }
        emit(data, "", True)
        return 0
    from tui.bridge.sheets import columns, row

    # The Партия table's own columns of this system (Судьба and wounds are Древо's, energy
    # IDE4's), each «title value» after the kind and the name.
    titles = columns(campaign.system)[2:]
    lines = [f"{campaign.name} — персонажей: {len(chars)}"]
    rows = [row(campaign.system, c) for c in chars]
    width = max((len(r[1]) for r in rows), default=5) + 1  # «НИП скрыт»: hidden from players
    for c, cells in zip(chars, rows, strict=True):
        values = cells[2:]
        shown = "  ".join(f"{t}: {v}" for t, v in zip(titles, values, strict=True))
        state = registry.get(campaign.system).state(c)  # Древо: «погиб», «тяжело ранен»
        shown += f"  ({state})" if state else ""
        lines.append(f"{cells[1]:<{width}}{c.name}  {shown}")
    emit({}, "\n".join(lines), False)
    return 0


def _find(store: Store, name: str) -> Character:
    """Return the character named ``name`` (or with that id); none or two is a refusal (1)."""
    chars = store.characters()
    found = [c for c in chars if c.id == name] or [
        c for c in chars if c.name.casefold() == name.strip().casefold()
    ]
    if not found:
        fail(f"персонажа «{name}» нет в кампании", code=EXIT_REFUSED)
    if len(found) > 1:
        ids = some_of([c.id for c in found])
        fail(f"персонажей с именем «{name}» несколько; укажите id: {ids}", code=EXIT_REFUSED)
    return found[0]


def _refuse_taken(store: Store, name: str) -> None:
    """Refuse a name another character has (letter case aside), as the app's form does."""
    same = [c for c in store.characters() if c.name.casefold() == name.casefold()]
    if same:
        fail(
            f"в партии уже есть «{same[0].name}» (id {same[0].id}); выберите другое имя",
            code=EXIT_REFUSED,
        )


def _guard(action: Any, *args: Any) -> Any:
    try:
        return action(*args)
    except StoreError as err:
        fail(str(err), code=1)


# -- kubik export / import -----------------------------------------------------------------------


def export(argv: Sequence[str]) -> int:
    """Run ``kubik export PATH``: the whole campaign as one JSON file."""
    parser = Parser(prog="kubik export", description="Сохранить кампанию в файл JSON.")
    parser.add_argument("path", type=Path, metavar="ФАЙЛ", help="куда сохранить (JSON)")
    campaign_option(parser)
    parser.add_argument("--force", action="store_true", help="перезаписать существующий файл")
    json_option(parser)
    args = parser.parse_args(argv)
    target = args.path.expanduser()
    if target.is_dir():
        fail(f"{target} — это папка, а не файл: укажите путь к файлу", code=EXIT_REFUSED)
    if target.exists() and not args.force:
        fail(f"файл {target} уже есть; --force — перезаписать его", code=EXIT_REFUSED)
    with open_campaign(args.campaign, write=False) as store:
        _guard(store.export_json, target)
        count, log = len(store.characters()), len(store.log())
        name = store.campaign.name
    data = {"path": str(target), "campaign": name, "characters": count, "log_entries": log}
    text = f"Кампания сохранена в {target}: персонажей {count}, записей журнала {log}."
    emit(data, text, args.json)
    return 0


def import_(argv: Sequence[str]) -> int:
    """Run ``kubik import PATH``: create (or, with --force, replace) a campaign from an export."""
    parser = Parser(prog="kubik import", description="Загрузить кампанию из файла экспорта.")
    parser.add_argument("path", type=Path, metavar="ФАЙЛ", help="файл экспорта kubik (JSON)")
    campaign_option(parser)
    parser.add_argument(
        "--force", action="store_true", help="заменить существующую кампанию (её копия сохранится)"
    )
    json_option(parser)
    args = parser.parse_args(argv)
    campaign = _guard(
        lambda: Store.import_json(
            args.path, args.campaign, force=args.force, lock_timeout=CLI_LOCK_TIMEOUT
        )
    )
    data = {"path": str(args.path), "campaign": campaign.name, "system": campaign.system}
    text = f"Кампания «{campaign.name}» загружена из {args.path}."
    if campaign.note:
        data["note"] = campaign.note
        text += "\n" + campaign.note
    emit(data, text, args.json)
    return 0


# -- kubik log -----------------------------------------------------------------------------------


def log(argv: Sequence[str]) -> int:
    """Run ``kubik log``: the Журнал, oldest first, as text, JSON or Markdown."""
    parser = Parser(prog="kubik log", description="Журнал бросков кампании.")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="вывод в Markdown")
    form.add_argument("--json", action="store_true", help="вывод в JSON")
    parser.add_argument("--limit", type=int, metavar="N", help="только последние N записей")
    campaign_option(parser)
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 0:
        parser.error("--limit не может быть отрицательным")
    with open_campaign(args.campaign, write=False) as store:
        if args.markdown:
            sys.stdout.write(clean(store.log_markdown(args.limit)))
            return 0
        entries = list(reversed(store.log(args.limit)))
        everything = store.log() if args.limit is not None else list(reversed(entries))
        name = store.campaign.name
    from tui.bridge.luck import session_of  # the luck ledger's sessions (a mark or a 6-hour pause)

    sessions = session_of(list(reversed(everything)))
    # An entry whose change was undone stays in the Журнал, marked.
    docs = [
        {**log_to_doc(e), "session": sessions.get(e.id), **({"undone": True} if e.undone else {})}
        for e in entries
    ]
    data = {"campaign": name, "entries": docs}
    lines: list[str] = []
    several, shown = len(set(sessions.values())) > 1, None
    for e in entries:
        if several and sessions.get(e.id) != shown:
            shown = sessions.get(e.id)
            lines.append(f"— Сессия {shown} —")
        undone = "(отменено) " if e.undone else ""
        lines.append(f"{e.at}  {undone}{e.actor + ': ' if e.actor else ''}{e.text}")
    emit(data, "\n".join(lines) if lines else "Журнал пуст.", args.json)
    return 0


COMMANDS = {"party": party, "export": export, "import": import_, "log": log}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tui.cli.party party list`` — the same commands before ``kubik`` wires them."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:
        fail(f"укажите команду: {', '.join(COMMANDS)}")
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
