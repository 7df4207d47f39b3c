"""``kubik serve``: kubik in a browser through textual-serve (an optional extra).

Every browser tab starts its own ``python -m tui`` process on the server, so each tab is a
full kubik on the same campaign file (the store's lock keeps their writes whole). The default
host is the loopback: only this machine can connect. ``--view`` serves the players' view
instead, which is the safe thing to open to a LAN. Either way every page needs the key of the
link printed at start, only the address served is answered, and the server ends with its tabs
within seconds of Ctrl+C (:mod:`tui.cli.serve_web`).
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from tui.cli.common import Parser, campaign_arg, fail

INSTALL_HINT = (  # kubik is not on PyPI: the running kubik's pip, or the clone's extra
    "Для «kubik serve» нужен пакет textual-serve. Установите его в окружение kubik:\n"
    f"  {sys.executable} -m pip install textual-serve\n"
    "(или из папки клона kubik: pip install '.[serve]')."
)

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD_HOSTS = ("0.0.0.0", "::")
OPEN_WARNING = (
    "Внимание: сервер открыт не только для этого компьютера. Любой, кто достучится до этого "
    "адреса, получит полное приложение ведущего и сможет менять кампанию. Игрокам хватит --view."
)


def serve_parser() -> Parser:
    parser = Parser(
        prog="kubik serve",
        description=(
            "Открыть kubik в браузере (textual-serve). По умолчанию только с этого компьютера; "
            "--host 0.0.0.0 открывает его всей сети — каждый, кто подключится, получит "
            "полное приложение ведущего с правом записи. Игрокам отдавайте --view."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="адрес (по умолчанию 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="порт (по умолчанию 8000)")
    parser.add_argument(
        "--campaign",
        type=campaign_arg,
        metavar="ФАЙЛ",
        help="файл кампании (просто имя — в папке данных)",
    )
    parser.add_argument(
        "--view", action="store_true", help="отдавать вид для игроков (только просмотр)"
    )
    return parser


#: What replaces textual-serve's link to Google Fonts: the same font, from its own folder.
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf");
      }
    </style>"""


def app_command(campaign: Path | None, *, view: bool) -> str:
    """Return the shell command each browser tab runs.

    ``exec``: the shell becomes kubik, so stopping the tab's process stops kubik itself.
    """
    parts = [sys.executable, "-m", "tui"]
    if campaign is not None:
        parts += ["--campaign", str(campaign.expanduser().resolve())]
    if view:
        parts.append("--view")
    return "exec " + shlex.join(parts)


#: An address outside this computer in a page: a link, a script, a CSS import or url().
OUTSIDE = r"(?:src|href)=\"(?:https?:)?//[^\"]*\"|@import|url\(\s*[\"']?(?:https?:)?//"


def local_page(template: str) -> str:
    """Return textual-serve's page with nothing loaded from outside this computer.

    Raises:
        ValueError: the page still names an outside address (a textual-serve we do not know).
    """
    page = re.sub(
        r"<link[^>]*href=\"https?://fonts\.googleapis\.com[^\"]*\"[^>]*/>", LOCAL_FONT, template
    )
    outside = re.search(OUTSIDE, page)
    if outside:
        raise ValueError(f"the page loads {outside.group()}")
    return page


def local_templates() -> Path:
    """Write the page template without outside addresses to a private folder; return it."""
    import tempfile

    import textual_serve

    source = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    folder = Path(tempfile.mkdtemp(prefix="kubik-serve-"))  # 0700
    (folder / "app_index.html").write_text(
        local_page(source.read_text(encoding="utf-8")), encoding="utf-8"
    )
    return folder


def cmd_serve(argv: Sequence[str]) -> int:
    """Run ``kubik serve``; returns the exit status."""
    args = serve_parser().parse_args(argv)
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        fail(INSTALL_HINT, code=1)
    if args.view:  # the view never creates a campaign: one must be there
        from tui.cli.campaign import existing_campaign

        existing_campaign(args.campaign)
    title = "kubik — вид для игроков" if args.view else "kubik"
    from tui.cli.serve_web import KEY_PARAM, guarded_server, new_key

    try:
        templates = local_templates()
    except (ValueError, OSError) as err:
        fail(f"страница textual-serve загружает данные извне ({err}); обновите kubik", code=1)
    key = new_key()  # a new one each start: yesterday's link opens nothing today
    server = guarded_server(
        app_command(args.campaign, view=args.view),
        key=key,
        host=args.host,
        port=args.port,
        title=title,
        hint="Нужна ссылка с ключом: её напечатал kubik serve при запуске.",
        templates=templates,
    )
    server.ending.cleanups.append(lambda: shutil.rmtree(templates, ignore_errors=True))
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"kubik serve: откройте http://{shown_host}:{args.port}/?{KEY_PARAM}={key}\n"
        "  (ссылка с ключом; без него страница не откроется). Ctrl+C остановит сервер.",
        flush=True,
    )
    if args.host in WILDCARD_HOSTS:
        print(
            f"  С других компьютеров: тот же адрес с IP этого компьютера вместо {args.host}.",
            flush=True,
        )
    if args.host not in LOOPBACK and not args.view:
        print(OPEN_WARNING, file=sys.stderr)
    try:
        server.serve()
    finally:  # the page's folder goes with the server (Ctrl+C included)
        shutil.rmtree(templates, ignore_errors=True)
    return 0
