"""``kubik serve``: kubik in a browser through textual-serve (an optional extra).

Every browser tab starts its own ``python -m tui`` process on the server, so each tab is a
full kubik on the same campaign file (the store's lock keeps their writes whole). The default
host is the loopback: only this machine can connect. ``--view`` serves the players' view
instead, which is the safe thing to open to a LAN.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from tui.cli_common import Parser, fail, missing_campaign

INSTALL_HINT = (
    "Для «kubik serve» нужен пакет textual-serve. Установите его:\n"
    "  pip install 'kubik[serve]'\n"
    "(или pip install textual-serve в то же окружение, где стоит kubik)."
)

LOOPBACK = ("127.0.0.1", "localhost", "::1")
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
    parser.add_argument("--campaign", type=Path, help="файл кампании")
    parser.add_argument(
        "--view", action="store_true", help="отдавать вид для игроков (только просмотр)"
    )
    return parser


def app_command(campaign: Path | None, *, view: bool) -> str:
    """Return the shell command each browser tab runs."""
    parts = [sys.executable, "-m", "tui"]
    if campaign is not None:
        parts += ["--campaign", str(campaign.expanduser().resolve())]
    if view:
        parts.append("--view")
    return shlex.join(parts)


def cmd_serve(argv: Sequence[str]) -> int:
    """Run ``kubik serve``; returns the exit status."""
    args = serve_parser().parse_args(argv)
    try:
        from textual_serve.server import Server
    except ImportError:
        fail(INSTALL_HINT, code=1)
    if args.view and args.campaign is not None and not args.campaign.expanduser().exists():
        fail(missing_campaign(args.campaign.expanduser()), code=2)
    title = "kubik — вид для игроков" if args.view else "kubik"
    server = Server(
        app_command(args.campaign, view=args.view), host=args.host, port=args.port, title=title
    )
    print(f"kubik serve: откройте http://{args.host}:{args.port} — Ctrl+C остановит сервер.")
    if args.host not in LOOPBACK and not args.view:
        print(OPEN_WARNING, file=sys.stderr)
    server.serve()
    return 0
