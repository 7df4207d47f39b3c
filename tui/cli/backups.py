"""``kubik restore``: the campaign's backups listed, and one of them put back.

The rotating backups (the last versions, pruned) come first, newest first; the copies kept
before a migration (the file an older kubik wrote) follow, marked, because they stay until
the GM deletes them. Restoring never opens the campaign: a damaged file can be restored too,
and a copy of an older schema comes back as that older kubik wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.cli.common import Parser, campaign_option, emit, fail, json_option
from tui.words import number


def restore_parser() -> Parser:
    parser = Parser(
        prog="kubik restore",
        description=(
            "Резервные копии кампании: без номера — список (новые сначала; копии до "
            "обновления схемы — в конце, они не удаляются сами), с номером — восстановить "
            "эту копию (текущий файл станет резервной копией)."
        ),
    )
    parser.add_argument("number", nargs="?", type=int, metavar="НОМЕР", help="номер копии в списке")
    campaign_option(parser)
    json_option(parser)
    return parser


def cmd_restore(argv: Sequence[str]) -> int:
    """Run ``kubik restore``."""
    from tui.cli.campaign import existing_campaign
    from tui.store import Store, StoreError
    from tui.store import backups as bk

    args = restore_parser().parse_args(argv)
    path = existing_campaign(args.campaign)
    found = bk.all_backups(path)
    if args.number is None:
        rows = [
            {
                "number": n,
                "file": str(b),
                "kept": bk.kept_schema(b) is not None,
                "schema": bk.kept_schema(b),
                "about": bk.describe(b),
            }
            for n, b in enumerate(found, 1)
        ]
        lines = [f"{r['number']:>3}. {r['about']}" for r in rows]
        if lines:
            lines.append(f"Папка копий: {bk.backup_dir(path)}")
        text = "\n".join(lines) if lines else f"У кампании {path.name} нет резервных копий."
        emit({"campaign": str(path), "backups": rows}, text, args.json)
        return 0
    if not found:
        fail(f"У кампании {path.name} нет резервных копий.", code=1)
    if not 1 <= args.number <= len(found):
        shown = number(args.number)  # «−1», the UI's minus sign
        fail(f"Нет копии номер {shown}: есть 1–{len(found)} (kubik restore — список).", 1)
    chosen = found[args.number - 1]
    try:
        aside = Store.restore_backup(path, chosen)
    except StoreError as err:
        fail(str(err), code=1)
    text = f"Кампания {path.name} восстановлена из копии {args.number} ({bk.describe(chosen)})."
    if aside is not None:
        text += f"\nПовреждённый файл сохранён как {aside}."
    data = {"campaign": str(path), "restored": str(chosen), "aside": str(aside) if aside else None}
    emit(data, text, args.json)
    return 0
