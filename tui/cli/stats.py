"""``kubik stats``: the luck ledger from the command line (text, JSON or Markdown)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tui.cli.common import Parser, campaign_arg, emit, fail

if TYPE_CHECKING:
    from tui.bridge.luck import Session


def stats_parser() -> Parser:
    parser = Parser(
        prog="kubik stats",
        description=(
            "Удача по журналу: каждый бросок против его точных шансов — по персонажам и за "
            "столом. Без --session и --all — последняя сессия."
        ),
    )
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--session", type=int, metavar="N", help="сессия номер N (с 1)")
    scope.add_argument("--all", action="store_true", help="все сессии вместе")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="вывод в JSON")
    form.add_argument("--markdown", action="store_true", help="вывод в Markdown")
    parser.add_argument(
        "--players",
        action="store_true",
        help="для игроков: скрытые броски — только раскрытые, скрытые НИП — «???»",
    )
    parser.add_argument(
        "--campaign",
        type=campaign_arg,
        help="файл кампании (по умолчанию — кампания пользователя; имя — в папке данных)",
    )
    return parser


def cmd_stats(argv: Sequence[str]) -> int:
    """Run ``kubik stats``."""
    from tui.bridge.luck import read_sessions
    from tui.cli.campaign import open_campaign
    from tui.present import luck as lt

    args = stats_parser().parse_args(argv)
    if args.session is not None and args.session < 1:
        fail("номер сессии — с 1: kubik stats --session 1")
    with open_campaign(args.campaign, write=False) as store:
        entries = list(reversed(store.log()))
        sessions = read_sessions(entries, players=args.players, characters=store.characters())
        name = store.campaign.name
    try:
        chosen = lt.pick(sessions, "all" if args.all else args.session)
    except ValueError as err:
        fail(f"{err}; все сессии: kubik stats --all", code=1)
    if args.markdown:
        sys.stdout.write(lt.markdown(name, chosen, len(sessions)))
        return 0
    data = {"campaign": name, **lt.stats_dict(chosen)}
    emit(data, text(name, chosen, len(sessions)), args.json)
    return 0


def text(name: str, chosen: Sequence[Session], total: int) -> str:
    """Return the stats for people: the table, each character, the histogram, the run."""
    from rules.ledger import summarise
    from tui.present import luck as lt

    sessions = list(chosen)
    lines = [f"Удача: {name} — {lt.scope_title(sessions, total).lower()}"]
    lines += lt.table_lines(sessions)
    rows = lt.character_rows(sessions)
    if rows:
        width = max(len(r[0]) for r in rows)
        lines.append("")
        lines.append(f"{'Кто'.ljust(width)}  Бросков  Средний  Верх   Низ   Вердикт")
        for who, n, mean, top, bottom, verdict in rows:
            lines.append(f"{who.ljust(width)}  {n:>7}  {mean:>7}  {top:>5}  {bottom:>5}  {verdict}")
    samples = [r.sample for s in sessions for r in s.rolls]
    if samples:
        lines += ["", "Перцентили по десяткам, %:"]
        lines += lt.histogram_rows(summarise(samples).histogram)
        lines += ["", f"Ход: {lt.sparkline(samples, 70)}"]
    lines += lt.spent_lines(sessions)
    return "\n".join(lines)
