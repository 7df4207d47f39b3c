"""The ``kubik`` command: the app, and scriptable ``roll``, ``odds`` and ``check``.

Only ``kubik`` without a subcommand imports Textual; the scripting commands stay light.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import threading
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from rules.errors import RulesError
from tui import registry
from tui.cli.common import (
    Parser,
    ask,
    campaign_arg,
    fail,
)
from tui.sanitize import clean

# -- roll / odds of a dice expression (tui/cli/dice.py) ------------------------------------------


def cmd_roll(argv: Sequence[str]) -> int:
    from tui.cli.dice import cmd_roll as roll

    return roll(argv)


def cmd_odds_expression(argv: Sequence[str]) -> int:
    from tui.cli.dice import cmd_odds

    return cmd_odds(argv)


#: Below this chance the sums at either end of ``kubik odds`` fold into one line.
RARE = Fraction(1, 1000)


def system_module(system: str) -> Any:
    """Import the CLI module of a system (``System.cli``); a system not built yet is a clear
    error."""
    name = registry.get(system).cli
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        fail(f"система {registry.title(system)} ещё не поддерживается в этой версии kubik")


def system_help(command: str) -> str:
    """Return ``kubik odds -h`` / ``kubik check -h``: the notation (odds), then the systems."""
    listed = "\n".join(f"  kubik {command} {name} -h" for name in registry.names())
    if command == "odds":
        from tui.cli.dice import expression_parser

        head = expression_parser("odds").format_help()
    else:
        parser = Parser(prog="kubik check", description="Проверка по правилам системы.")
        parser.add_argument("system", metavar="СИСТЕМА", help=", ".join(registry.names()))
        head = parser.format_help()
    return f"{head}\nСистемы (у каждой своя справка):\n{listed}\n"


def cmd_system(command: str, argv: Sequence[str]) -> int:
    """Dispatch ``kubik odds|check SYSTEM ...`` to the system's CLI module."""
    if not argv or argv[0] in ("-h", "--help"):
        print(system_help(command), file=sys.stdout if argv else sys.stderr, end="")
        return 0 if argv else 2
    system, rest = argv[0], argv[1:]
    if system in registry.names():
        return int(getattr(system_module(system), command)(rest))
    if command == "odds":
        return cmd_odds_expression(argv)
    fail(f"неизвестная система «{system}»; доступны: {', '.join(registry.names())}")


# -- the app ---------------------------------------------------------------------------------------


def app_parser() -> Parser:
    parser = Parser(
        prog="kubik",
        description=(
            "kubik — помощник ведущего за столом. Без команды открывает приложение.\n"
            "Команды: roll EXPR, odds EXPR, odds|check drevo|ide4|starately|wod …,\n"
            "party list|add|remove, bestiary, encounter, export, import, log, stats,\n"
            "restore, fight, serve (у каждой есть -h).\n"
            "kubik --view — вид для игроков (только просмотр).\n"
            "kubik seat ИМЯ — место игрока: заявки за своего персонажа ведущему.\n"
            "Код выхода: 0 — готово, 1 — отказ из-за состояния кампании или файла,\n"
            "2 — неверные аргументы."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--campaign",
        type=campaign_arg,
        metavar="ФАЙЛ",
        help="файл кампании; просто имя (ide4.json) — в папке данных kubik; новый файл — "
        "демо-кампания",
    )
    parser.add_argument(
        "--system",
        choices=list(registry.names()),
        default="drevo",
        help="система новой кампании: drevo, ide4, starately, wod (по умолчанию drevo)",
    )
    parser.add_argument("--seed", type=int, help="зерно кубиков (повторяемая сессия)")
    parser.add_argument(
        "--view",
        action="store_true",
        help="вид для игроков: только просмотр, следит за изменениями ведущего",
    )
    parser.add_argument("--version", action=VersionAction, help="версия kubik")
    return parser


class VersionAction(argparse.Action):
    """``--version``: print kubik's version and exit. The version is looked up only then:
    importlib.metadata (and its email, zipfile, csv) and the search of the installed packages
    cost 40–100 ms and ~1 MiB before every first screen when argparse's own action had it made
    for each parser."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.update(nargs=0, default=argparse.SUPPRESS)
        super().__init__(option_strings, argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"kubik {version()}")
        parser.exit()


def version() -> str:
    """Return the installed kubik's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("kubik")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0.1.0+src"


def run_app(argv: Sequence[str]) -> int:
    args = app_parser().parse_args(argv)
    if args.view:
        return _run_view(args)
    # Starting allocates ~400k objects, and the collections that walk them cost ~40 ms before
    # the first screen (a 17 ms one just before it); the app collects again once it is drawn.
    # A timer turns it back on whatever happens to that first frame (under ``kubik serve`` a
    # browser that leaves during start-up means it never comes, and memory grew unbounded).
    gc.disable()
    timer = threading.Timer(GC_BACK_ON_SECONDS, gc.enable)
    timer.daemon = True
    timer.start()
    try:
        return _run_kubik(args)
    finally:
        timer.cancel()
        gc.enable()


#: Seconds after which the collector is on again even if the first frame was never drawn.
GC_BACK_ON_SECONDS = 3.0


def _run_view(args: argparse.Namespace) -> int:
    from tui.cli.campaign import existing_campaign
    from tui.view import make_view

    path = existing_campaign(args.campaign)
    return _run_opened(lambda: make_view(path), path)


def _run_opened(make: Callable[[], Any], path: Path | None) -> int:
    """Build the app with ``make`` and run it; return its exit status (1 after an error).

    A damaged campaign offers its newest good backup (``offer_backup``) and is opened again
    once; any other store error ends kubik with its Russian message.
    """
    from tui.store import CampaignCorrupt, StoreError

    try:
        app = make()
    except CampaignCorrupt as err:
        if not (err.backups and offer_backup(err, path)):
            fail(str(err), code=1)
        try:
            app = make()
        except StoreError as again:
            fail(str(again), code=1)
    except StoreError as err:
        fail(str(err), code=1)
    from tui.seats.tokens import seats_dir_or_none  # players' seats (kubik seat ИМЯ)

    app.seats_folder = seats_dir_or_none()
    app.run()
    return int(app.return_code or 0)


def _run_kubik(args: argparse.Namespace) -> int:
    from tui.app import make_app
    from tui.store import DanglingLink, StoreError, check_campaign_path, default_campaign_path

    through = False  # a new campaign at a link's missing target: only if the GM says so
    try:
        check_campaign_path(args.campaign or default_campaign_path())
    except DanglingLink as err:
        question = f"kubik: {err}\nСоздать там новую демо-кампанию ({err.target})? [д/Н] "
        if not (sys.stdin.isatty() and ask(question)):
            fail(str(err), code=1)
        through = True
    except StoreError as err:  # a FIFO, a device, a loop of links: before Textual starts
        fail(str(err), code=1)
    return _run_opened(
        lambda: make_app(
            args.campaign,
            system=args.system,
            seed=args.seed,
            prebuild=True,
            through_dangling_link=through,
        ),
        args.campaign,
    )


def offer_backup(err: Any, path: Path | None) -> bool:
    """Show a damaged campaign's newest good backup and restore it if the GM says yes."""
    from tui.store import Store, StoreError, default_campaign_path

    newest = err.backups[0]
    if not sys.stdin.isatty():
        print(f"kubik: новейшая исправная копия: {clean(str(newest))}", file=sys.stderr)
        return False  # then the caller prints the error and exits with 1
    print(clean(f"kubik: {err}\nНовейшая исправная копия: {newest}"), file=sys.stderr)
    if not ask("Восстановить кампанию из этой копии? [д/Н] "):
        return False  # Ctrl+Q too: kubik's quit key ends the question (tui/cli/common.py)
    try:
        aside = Store.restore_backup(path or default_campaign_path(), newest)
    except StoreError as restore_err:
        fail(str(restore_err), code=1)
    if aside is not None:
        print(clean(f"Повреждённый файл сохранён как {aside}."), file=sys.stderr)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kubik``; returns the exit status. No traceback reaches the user."""
    from tui import crash

    try:
        return _main(argv)
    except BrokenPipeError:  # `kubik party list | head`: the reader left, nothing to say
        crash.silence_stdout()
        return crash.BROKEN_PIPE_EXIT
    except KeyboardInterrupt:
        print("\nkubik: прервано (Ctrl+C).", file=sys.stderr)
        return 130
    except Exception:  # a bug: one Russian line, the traceback in a private report
        crash.report_and_say()
        return 1


#: The subcommands after ``kubik``; anything else starts the app.
COMMANDS = (
    "roll",
    "odds",
    "check",
    "party",
    "bestiary",
    "encounter",
    "export",
    "import",
    "log",
    "stats",
    "restore",
    "fight",
    "serve",
    "seat",
)
#: The app's options that take a value (``--campaign X``); the others are flags.
VALUED = ("--campaign", "--system", "--seed")


def global_options_after(argv: list[str]) -> list[str]:
    """Move options typed before a subcommand to after it (``kubik --campaign X log`` is
    ``kubik log --campaign X``), in front of a ``--`` that ends the options.

    Without a subcommand, or with ``-h``/``--version`` first, ``argv`` is the app's, unchanged.
    """
    index = 0
    while index < len(argv) and argv[index].startswith("-") and argv[index] != "--":
        if argv[index] in ("-h", "--help", "--version"):
            return argv
        index += 2 if argv[index] in VALUED else 1
    if index == 0 or index >= len(argv) or argv[index] not in COMMANDS:
        return argv
    leading, command, rest = argv[:index], argv[index], argv[index + 1 :]
    end = rest.index("--") if "--" in rest else len(rest)
    return [command, *rest[:end], *leading, *rest[end:]]


def system_command(command: str) -> Callable[[list[str]], int] | None:
    """Return the command a system adds to ``kubik`` (``System.commands``: Древо's ``fight``),
    or None."""
    for system in registry.all_systems():
        target = dict(system.commands).get(command)
        if target is not None:
            run: Callable[[list[str]], int] = registry.load(target)
            return run
    return None


def _main(argv: Sequence[str] | None) -> int:
    argv = global_options_after(list(sys.argv[1:] if argv is None else argv))
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    try:
        if command == "roll":
            return cmd_roll(rest)
        if command in ("odds", "check"):
            return cmd_system(command, rest)
        if command in ("party", "export", "import", "log"):
            from tui.cli import party as cli_party

            return int(cli_party.COMMANDS[command](rest))
        if command in ("bestiary", "encounter"):  # NPC templates, prepared encounters
            from tui.cli import bestiary as cli_bestiary

            return int(cli_bestiary.COMMANDS[command](rest))
        if (run := system_command(command)) is not None:  # a system's own: kubik fight
            return int(run(rest))
        if command == "stats":
            from tui.cli.stats import cmd_stats

            return cmd_stats(rest)
        if command == "restore":  # the backups, and the copy kept before a migration
            from tui.cli.backups import cmd_restore

            return cmd_restore(rest)
        if command == "seat":  # a player's seat at the GM's kubik (tui/seats)
            from tui.cli.seat import cmd_seat

            return cmd_seat(rest)
        if command == "serve" and "--seat" in rest:  # a seat in a browser (tui/seats)
            from tui.cli.serve_seat import cmd_serve_seat

            return cmd_serve_seat(rest)
        if command == "serve":
            from tui.cli.serve import cmd_serve

            return cmd_serve(rest)
        return run_app(argv)
    except RulesError as err:
        fail(str(err))
