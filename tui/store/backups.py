"""Rotating backups: the last versions of a campaign file, kept in ``<name>.backups/``.

Writes never change a file in place, so the version being replaced is kept by a hard link
(no copy, no extra disk I/O); where links are not supported it is copied.
"""

from __future__ import annotations

import errno
import os
import re
from datetime import datetime
from pathlib import Path

from .storage import private_copy

#: How many previous versions each campaign keeps.
KEEP = 10


def backup_dir(campaign: Path) -> Path:
    """Return the backups folder beside ``campaign.json``: ``campaign.backups/``."""
    return campaign.with_name(f"{campaign.stem}.backups")


def _pattern(campaign: Path) -> re.Pattern[str]:
    stem, suffix = re.escape(campaign.stem), re.escape(campaign.suffix)
    return re.compile(rf"^{stem}\.(\d{{8}}-\d{{6}}-\d{{6}})\.r(\d+){suffix}$")


def list_backups(campaign: Path) -> list[Path]:
    """Return the campaign's backups, newest first."""
    folder = backup_dir(campaign)
    pattern = _pattern(campaign)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        m = pattern.match(name)
        if m:
            found.append(((m.group(1), int(m.group(2))), folder / name))
    found.sort(reverse=True)
    return [p for _, p in found]


def keep_version(campaign: Path, rev: int) -> Path | None:
    """Keep the current file of ``campaign`` (at change counter ``rev``) as a backup.

    Returns the new backup, or None when there is no file yet.

    Raises:
        OSError: the backups folder cannot be written.
    """
    if not campaign.exists():
        return None
    folder = backup_dir(campaign)
    folder.mkdir(exist_ok=True, mode=0o700)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"{campaign.stem}.{stamp}.r{rev}{campaign.suffix}"
    try:
        os.link(campaign, target)
    except FileExistsError:
        return target
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EDQUOT):
            raise
        private_copy(campaign, target)  # a file system without hard links
    return target


def prune(campaign: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` backups; return the deleted ones."""
    removed = []
    for old in list_backups(campaign)[keep:]:
        try:
            old.unlink()
            removed.append(old)
        except OSError:
            pass
    return removed


def aside_name(campaign: Path, label: str) -> Path:
    """Return ``<name>.<label>-<timestamp>`` beside the campaign, for a file set aside."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    return campaign.with_name(f"{campaign.name}.{label}-{stamp}")
