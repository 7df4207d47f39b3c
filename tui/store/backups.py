"""Backups of a campaign file, kept in ``<name>.backups/``.

Rotating backups: the last :data:`KEEP` versions, ``<name>.<stamp>.r<rev>.json``. Writes never
change a file in place, so the version being replaced is kept by a hard link (no copy, no
extra disk I/O); where links are not supported it is copied.

The copy before a migration: the file an older kubik wrote, replaced by its upgrade, is kept as
``<name>.<stamp>.schema<N>.json`` and never pruned — the GM can go back to the older kubik or
recover from a migration that went wrong however much was written since, until they delete it.
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


def _kept_pattern(campaign: Path) -> re.Pattern[str]:
    stem, suffix = re.escape(campaign.stem), re.escape(campaign.suffix)
    return re.compile(rf"^{stem}\.(\d{{8}}-\d{{6}}-\d{{6}})\.schema(\d+){suffix}$")


def _matching(campaign: Path, pattern: re.Pattern[str]) -> list[Path]:
    """The backups ``pattern`` names: regular files only (kubik makes hard links or copies;
    a symlink named like a backup points anywhere, a FIFO would hang the read)."""
    folder = backup_dir(campaign)
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.is_file(follow_symlinks=False)]
    except OSError:
        return []
    found = []
    for name in names:
        m = pattern.match(name)
        if m:
            found.append(((m.group(1), int(m.group(2))), folder / name))
    found.sort(reverse=True)
    return [p for _, p in found]


def list_backups(campaign: Path) -> list[Path]:
    """Return the campaign's rotating backups (the ones :func:`prune` deletes), newest first."""
    return _matching(campaign, _pattern(campaign))


def list_kept(campaign: Path) -> list[Path]:
    """Return the copies kept before a migration (never pruned), newest first."""
    return _matching(campaign, _kept_pattern(campaign))


def all_backups(campaign: Path) -> list[Path]:
    """Return the rotating backups, newest first, then the copies before a migration."""
    return list_backups(campaign) + list_kept(campaign)


def kept_schema(backup: Path) -> int | None:
    """Return the schema of a copy kept before a migration, or None for another file."""
    m = re.search(r"\.schema(\d+)\.[^.]+$", backup.name)
    return int(m.group(1)) if m else None


def describe(backup: Path) -> str:
    """Return a backup's Russian description at most 50 characters long: when it was made,
    and for the copy before a migration, its schema and that it stays until the GM deletes it."""
    m = re.search(r"\.(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)-\d{6}\.", backup.name)
    when = f"{m[1]}-{m[2]}-{m[3]} {m[4]}:{m[5]}:{m[6]}" if m else "?"
    schema = kept_schema(backup)
    if schema is None:
        return when
    return f"{when}  до обновления схемы {schema} (хранится, пока не удалите)"


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
    _link_or_copy(campaign, target)
    return target


def keep_before_migration(campaign: Path, schema: int) -> Path | None:
    """Keep the current file of ``campaign`` (written at ``schema``), about to be replaced by
    its upgrade, as a copy that :func:`prune` never deletes. None when there is no file.

    Raises:
        OSError: the backups folder cannot be written.
    """
    if not campaign.exists():
        return None
    folder = backup_dir(campaign)
    folder.mkdir(exist_ok=True, mode=0o700)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"{campaign.stem}.{stamp}.schema{schema}{campaign.suffix}"
    _link_or_copy(campaign, target)
    return target


def _link_or_copy(campaign: Path, target: Path) -> None:
    try:
        os.link(campaign, target)
    except FileExistsError:
        return
    except OSError as err:
        if err.errno in (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EDQUOT):
            raise
        private_copy(campaign, target)  # a file system without hard links


def prune(campaign: Path, keep: int = KEEP) -> list[Path]:
    """Delete all but the newest ``keep`` rotating backups; return the deleted ones.

    The copies kept before a migration are not touched."""
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
