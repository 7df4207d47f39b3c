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
    path = Path(path).expanduser() if path is not None else default_campaign_path()
    if not path.exists():
        fail(missing_campaign(path), code=2)
    try:
        if not write and path.is_file():
            return Store.open(path, read_only=True)
        return Store.open(path, lock_timeout=CLI_LOCK_TIMEOUT, window="cli")
    except StoreError as err:
        fail(str(err), code=1)
