"""``kubik seat NAME``: a player's seat (the app is :mod:`tui.seats.seat`)."""

from __future__ import annotations

from tui.cli.common import Parser, campaign_arg, fail
from tui.seats.seat import SeatApp


def seat_parser() -> Parser:
    """The arguments of ``kubik seat``."""
    parser = Parser(
        prog="kubik seat",
        description="Место игрока: вид для игроков и заявки за своих персонажей; "
        "ведущий принимает их в своём kubik (Ctrl+P).",
    )
    parser.add_argument("name", metavar="ИМЯ", help="имя игрока или его персонажа")
    parser.add_argument("--campaign", type=campaign_arg, metavar="ФАЙЛ", help="файл кампании")
    return parser


def cmd_seat(argv: list[str]) -> int:
    """``kubik seat NAME [--campaign ФАЙЛ]``: open a player's seat at the GM's kubik."""
    from tui.seats.tokens import seats_dir, socket_path, token_for
    from tui.store import default_campaign_path

    args = seat_parser().parse_args(argv)
    folder = seats_dir()
    token = token_for(folder, args.name)
    if token is None:
        fail(
            f"Места «{args.name}» нет: ведущий создаёт места для игроков партии, когда "
            "открывает kubik. Проверьте имя (как у персонажа) и что kubik ведущего запущен.",
            code=1,
        )
    path = socket_path(folder, args.campaign or default_campaign_path())
    app = SeatApp(args.name, path, token)
    app.run()
    return int(app.return_code or 0)
