"""The ``kubik`` command: the app, and scriptable ``roll``, ``odds`` and ``check``.

Only ``kubik`` without a subcommand imports Textual; the scripting commands stay light.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules.errors import RulesError
from tui.cli_common import Parser, fail

# -- roll / odds of a dice expression (tui/cli_dice.py) ------------------------------------------


def cmd_roll(argv: Sequence[str]) -> int:
    from tui.cli_dice import cmd_roll as roll

    return roll(argv)


def cmd_odds_expression(argv: Sequence[str]) -> int:
    from tui.cli_dice import cmd_odds

    return cmd_odds(argv)


SYSTEM_MODULES = {
    "drevo": "tui.cli_drevo",
    "ide4": "tui.cli_ide4",
    "starately": "tui.cli_starately",
    "wod": "tui.cli_wod",
}
SYSTEM_NAMES = {"drevo": "Древо", "ide4": "IDE4", "starately": "Старатели", "wod": "Мир Тьмы"}


def system_module(system: str) -> Any:
    """Import the CLI module of a system; a system not built yet is a clear error."""
    name = SYSTEM_MODULES[system]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        fail(f"система {SYSTEM_NAMES[system]} ещё не поддерживается в этой версии kubik")


def cmd_system(command: str, argv: Sequence[str]) -> int:
    """Dispatch ``kubik odds|check SYSTEM ...`` to the system's CLI module."""
    if not argv or argv[0] in ("-h", "--help"):
        lines = [f"kubik {command} EXPR [--json]"] if command == "odds" else []
        lines += [f"kubik {command} {name} -h" for name in SYSTEM_MODULES]
        print("\n".join(lines), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    system, rest = argv[0], argv[1:]
    if system in SYSTEM_MODULES:
        return int(getattr(system_module(system), command)(rest))
    if command == "odds":
        return cmd_odds_expression(argv)
    fail(f"неизвестная система «{system}»; доступны: {', '.join(SYSTEM_MODULES)}")


# -- the app ---------------------------------------------------------------------------------------


def app_parser() -> Parser:
    parser = Parser(
        prog="kubik",
        description=(
            "kubik — помощник ведущего за столом. Без команды открывает приложение.\n"
            "Команды: roll EXPR, odds EXPR, odds|check drevo|ide4|starately|wod …,\n"
            "party list|add|remove, export, import, log, serve (у каждой есть -h).\n"
            "kubik --view — вид для игроков (только просмотр)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--campaign", type=Path, help="файл кампании (новый путь — демо-кампания)")
    parser.add_argument(
        "--system",
        choices=list(SYSTEM_NAMES),
        default="drevo",
        help="система новой кампании: drevo, ide4, starately, wod (по умолчанию drevo)",
    )
    parser.add_argument("--seed", type=int, help="зерно кубиков (повторяемая сессия)")
    parser.add_argument(
        "--view",
        action="store_true",
        help="вид для игроков: только просмотр, следит за изменениями ведущего",
    )
    return parser


def run_app(argv: Sequence[str]) -> int:
    args = app_parser().parse_args(argv)
    from tui.store import StoreError

    if args.view:
        from tui.view import make_view

        try:
            view = make_view(args.campaign)
        except StoreError as err:
            fail(str(err), code=1)
        view.run()
        return 0
    # Starting allocates ~400k objects, and the collections that walk them cost ~40 ms before
    # the first screen (a 17 ms one just before it); the app collects again once it is drawn.
    gc.disable()
    try:
        return _run_kubik(args)
    finally:
        gc.enable()


def _run_kubik(args: argparse.Namespace) -> int:
    from tui.app import make_app
    from tui.store import CampaignCorrupt, StoreError

    try:
        app = make_app(args.campaign, system=args.system, seed=args.seed)
    except CampaignCorrupt as err:
        if not (err.backups and offer_backup(err, args.campaign)):
            fail(str(err), code=1)
        try:
            app = make_app(args.campaign, system=args.system, seed=args.seed)
        except StoreError as again:
            fail(str(again), code=1)
    except StoreError as err:
        fail(str(err), code=1)
    app.run()
    return 0


def offer_backup(err: Any, path: Path | None) -> bool:
    """Show a damaged campaign's newest good backup and restore it if the GM says yes."""
    from tui.store import Store, StoreError, default_campaign_path

    newest = err.backups[0]
    if not sys.stdin.isatty():
        print(f"kubik: новейшая исправная копия: {newest}", file=sys.stderr)
        return False  # then the caller prints the error and exits with 1
    print(f"kubik: {err}\nНовейшая исправная копия: {newest}", file=sys.stderr)
    if input("Восстановить кампанию из этой копии? [д/Н] ").strip().lower() not in ("д", "да", "y"):
        return False
    try:
        aside = Store.restore_backup(path or default_campaign_path(), newest)
    except StoreError as restore_err:
        fail(str(restore_err), code=1)
    if aside is not None:
        print(f"Повреждённый файл сохранён как {aside}.", file=sys.stderr)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kubik``; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    try:
        if command == "roll":
            return cmd_roll(rest)
        if command in ("odds", "check"):
            return cmd_system(command, rest)
        if command in ("party", "export", "import", "log"):
            from tui import cli_party

            return int(cli_party.COMMANDS[command](rest))
        if command == "serve":
            from tui.serve import cmd_serve

            return cmd_serve(rest)
        return run_app(argv)
    except RulesError as err:
        fail(str(err))
