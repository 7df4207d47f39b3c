"""``kubik seat NAME``: a player's seat (the app is :mod:`tui.seats.seat`)."""

from __future__ import annotations

from pathlib import Path

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
    from tui.seats.tokens import seats_dir, socket_path

    args = seat_parser().parse_args(argv)
    path, token = seat_key_or_fail(args.name, args.campaign)
    app = SeatApp(args.name, socket_path(seats_dir(), path), token)
    app.run()
    return int(app.return_code or 0)


def seat_key_or_fail(name: str, campaign: Path | None, *, new: bool = False) -> tuple[Path, str]:
    """Return the campaign's path and the key of seat ``name`` there (made if it has none;
    ``new``: a new one, the old revoked); fail with the reason when there is no such seat.

    The key belongs to the campaign and to the seat's character (tui/seats/tokens.py): the
    campaign is read (never written) to find that character.
    """
    from tui.cli.campaign import open_campaign
    from tui.seats.tokens import SeatKeyError, seat_key, seats_dir

    with open_campaign(campaign, write=False) as store:
        path, characters = store.path, store.characters()
    try:
        return path, seat_key(seats_dir(), path, characters, name, new=new)
    except (SeatKeyError, OSError) as err:
        fail(str(err), code=1)
