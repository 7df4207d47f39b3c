"""``kubik serve --seat ИМЯ``: a player's seat in a browser, on 127.0.0.1, behind the seat's key.

textual-serve starts ``kubik seat ИМЯ`` for each browser tab. It listens on the loopback only
(a player on another machine reaches it through ``ssh -L``), and every page and websocket
must carry the seat's token: ``/?token=…`` opens the page and sets an HttpOnly, SameSite
cookie that the page's websocket then carries. Without it: 403 and nothing starts.
"""

from __future__ import annotations

import hmac
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tui.cli.common import Parser, campaign_arg, fail

COOKIE = "kubik_seat"


def serve_seat_parser() -> Parser:
    parser = Parser(
        prog="kubik serve --seat",
        description="Место игрока в браузере: только с этого компьютера (127.0.0.1), "
        "по ссылке с ключом места; игрок с другой машины — через ssh -L.",
    )
    parser.add_argument("--seat", required=True, metavar="ИМЯ", help="имя игрока (персонажа)")
    parser.add_argument("--port", type=int, default=8001, help="порт (по умолчанию 8001)")
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


def allowed(path: str, query_token: str | None, cookie: str | None, token: str) -> bool:
    """Return whether a request may pass: static files always; the page and the websocket
    only with the seat's token (in the query, or the cookie the page set)."""
    if path.startswith("/static/"):
        return True
    if path not in ("/", "/ws"):
        return False  # downloads and anything else: a seat has none
    given = query_token or cookie or ""
    return hmac.compare_digest(given.encode(), token.encode())


def seat_server(seat: str, token: str, campaign: Path | None, port: int) -> Any:
    """Return a textual-serve Server that serves only ``seat``, only with its token."""
    from aiohttp import web
    from textual_serve.server import Server

    from tui.cli.serve import local_templates

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        if not allowed(
            request.path, request.query.get("token"), request.cookies.get(COOKIE), token
        ):
            return web.Response(
                status=403, text="Нужна ссылка места с ключом (kubik serve --seat)."
            )
        response = await handler(request)
        if request.path == "/" and request.query.get("token"):
            response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    class SeatServer(Server):  # type: ignore[misc]
        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(guard)
            return app

    return SeatServer(
        seat_command(seat, campaign),
        host="127.0.0.1",
        port=port,
        title=f"kubik — место {seat}",
        templates_path=local_templates(),
    )


def cmd_serve_seat(argv: Sequence[str]) -> int:
    """Run ``kubik serve --seat ИМЯ``; returns the exit status."""
    args = serve_seat_parser().parse_args(argv)
    try:
        import textual_serve.server  # noqa: F401
    except ImportError:
        from tui.cli.serve import INSTALL_HINT

        fail(INSTALL_HINT, code=1)
    from tui.seats.tokens import seats_dir, token_for

    token = token_for(seats_dir(), args.seat)
    if token is None:
        fail(f"Места «{args.seat}» нет: сначала запустите kubik ведущего.", code=1)
    import textual_serve.server as served

    from tui.cli.serve import patient_app_service

    served.AppService = patient_app_service()  # type: ignore[attr-defined]
    server = seat_server(args.seat, token, args.campaign, args.port)
    print(
        f"kubik serve --seat: ссылка для игрока {args.seat} (только с этого компьютера):\n"
        f"  http://127.0.0.1:{args.port}/?token={token}\n"
        "Игроку на другой машине: ssh -L "
        f"{args.port}:127.0.0.1:{args.port} <ведущий>@<адрес>, затем эта ссылка. Ctrl+C — стоп."
    )
    server.serve()
    return 0
