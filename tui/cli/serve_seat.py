"""``kubik serve --seat ИМЯ``: a player's seat in a browser, on 127.0.0.1, behind the seat's key.

textual-serve starts ``kubik seat ИМЯ`` for each browser tab. It listens on the loopback only
(a player on another machine reaches it through ``ssh -L``), and every page and websocket
must carry the seat's key: ``/?token=…`` opens the page and sets an HttpOnly, SameSite
cookie that the page's websocket then carries. Without it: 403 and nothing starts. The guard,
the log without secrets and the end within seconds are :mod:`tui.cli.serve_web`'s.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tui.cli.common import Parser, campaign_arg, fail

HINT = "Нужна ссылка места с ключом (kubik serve --seat)."


def serve_seat_parser() -> Parser:
    parser = Parser(
        prog="kubik serve --seat",
        description="Место игрока в браузере: только с этого компьютера (127.0.0.1), "
        "по ссылке с ключом места; игрок с другой машины — через ssh -L.",
    )
    parser.add_argument("--seat", required=True, metavar="ИМЯ", help="имя игрока (персонажа)")
    parser.add_argument("--port", type=int, default=8001, help="порт (по умолчанию 8001)")
    parser.add_argument(
        "--new-key",
        action="store_true",
        help="новый ключ места: старые ссылки больше не откроют его",
    )
    parser.add_argument(
        "--campaign",
        type=campaign_arg,
        metavar="ФАЙЛ",
        help="файл кампании (просто имя — в папке данных)",
    )
    return parser


def seat_command(seat: str, campaign: Path | None) -> str:
    """Return the shell command each browser tab runs: the seat, nothing else."""
    parts = [sys.executable, "-m", "tui", "seat", seat]
    if campaign is not None:
        parts += ["--campaign", str(campaign.expanduser().resolve())]
    return "exec " + shlex.join(parts)


def seat_server(
    seat: str, token: str | Callable[[], str | None], campaign: Path | None, port: int
) -> Any:
    """Return a textual-serve Server that serves only ``seat``, only with its key."""
    from tui.cli.serve import local_templates
    from tui.cli.serve_web import guarded_server

    return guarded_server(
        seat_command(seat, campaign),
        key=token,
        host="127.0.0.1",
        port=port,
        title=f"kubik — место {seat}",
        hint=HINT,
        templates=local_templates(),
    )


def cmd_serve_seat(argv: Sequence[str]) -> int:
    """Run ``kubik serve --seat ИМЯ``; returns the exit status."""
    args = serve_seat_parser().parse_args(argv)
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        from tui.cli.serve import INSTALL_HINT

        fail(INSTALL_HINT, code=1)
    from tui.cli.seat import seat_key_or_fail
    from tui.seats.tokens import keys_path, read_keys, seats_dir

    campaign, token = seat_key_or_fail(args.seat, args.campaign, new=args.new_key)
    import shutil

    folder = seats_dir()
    key_file = keys_path(folder, campaign)

    def current() -> str | None:
        """The seat's key now: the GM may have revoked it (or its character left)."""
        keys = read_keys(folder, campaign).values() if key_file.exists() else ()
        return token if token in keys else None

    server = seat_server(args.seat, current, campaign, args.port)
    templates = server.templates_path
    server.ending.cleanups.append(lambda: shutil.rmtree(templates, ignore_errors=True))
    print(
        f"kubik serve --seat: ссылка для игрока {args.seat} (только с этого компьютера):\n"
        f"  http://127.0.0.1:{args.port}/?token={token}\n"
        "Игроку на другой машине: ssh -L "
        f"{args.port}:127.0.0.1:{args.port} <ведущий>@<адрес>, затем эта ссылка. Ctrl+C — стоп.",
        flush=True,
    )
    try:
        server.serve()
    finally:
        shutil.rmtree(templates, ignore_errors=True)
    return 0
