"""A campaign opened for a command (``kubik party``, ``export``, ``log``, ``stats``): reading never
takes the lock or writes; a change waits for the lock longer than the app does.
"""

from __future__ import annotations

from pathlib import Path

from tui.cli.common import fail, missing_campaign
from tui.store import Store, StoreError, default_campaign_path

#: Scripts may queue behind a long session's writes; they wait longer than the app does.
CLI_LOCK_TIMEOUT = 30.0


def open_campaign(path: Path | None, *, write: bool) -> Store:
    """Open for a command; reading an existing file never takes the lock or writes.

    A missing file is an error (exit 2): only the app's first start creates the demo, so a
    mistyped path never leaves a new campaign behind.
    """
    path = existing_campaign(path)
    try:
        if not write and path.is_file():
            return Store.open(path, read_only=True)
        return Store.open(path, lock_timeout=CLI_LOCK_TIMEOUT)
    except StoreError as err:
        fail(str(err), code=1)


def existing_campaign(path: Path | None) -> Path:
    """Return the campaign to read (default: the user's), which must be there and a regular
    file: a missing one is exit 2; a FIFO, a device, a loop of links or a link to nothing is
    exit 1 with the reason (never an open that waits for ever)."""
    from tui.store import check_campaign_path

    path = Path(path).expanduser() if path is not None else default_campaign_path()
    try:
        check_campaign_path(path)
    except StoreError as err:
        fail(str(err), code=1)
    if not path.exists():
        fail(missing_campaign(path), code=2)
    return path
