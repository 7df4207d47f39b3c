"""Campaign files in a folder: list, name a new file, delete one with everything beside it."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from tui.store import CampaignCorrupt, Store, StoreError
from tui.store.backups import all_backups, backup_dir
from tui.store.errors import os_reason
from tui.store.journal import journal_path


@dataclass(frozen=True)
class CampaignFile:
    """One campaign file as the picker shows it."""

    path: Path
    name: str
    system: str
    #: Why it cannot be opened as is (damaged), or "" when fine.
    problem: str = ""


def list_campaigns(folders: list[Path]) -> list[CampaignFile]:
    """Return the campaigns in ``folders`` (``*.json``, not exports or backups), by name."""
    found: dict[Path, CampaignFile] = {}
    for folder in folders:
        try:
            candidates = sorted(folder.glob("*.json"))
        except OSError:
            continue
        for path in candidates:
            key = path.resolve()
            if key in found or not path.is_file():
                continue
            try:
                with Store.open(path, read_only=True) as store:
                    found[key] = CampaignFile(path, store.campaign.name, store.campaign.system)
            except CampaignCorrupt as err:
                if all_backups(path):  # an export file is no campaign: it has no backups
                    found[key] = CampaignFile(path, path.stem, "?", str(err))
            except StoreError:
                continue
    return sorted(found.values(), key=lambda c: (c.name.casefold(), str(c.path)))


def new_campaign_path(folder: Path, name: str) -> Path:
    """Return a free ``<folder>/<name>.json`` for a new campaign (safe characters only)."""
    stem = re.sub(r"[^\w\-]+", "-", name.strip(), flags=re.UNICODE).strip("-_") or "campaign"
    path = folder / f"{stem[:60]}.json"
    n = 2
    while path.exists() or backup_dir(path).exists() or journal_path(path).exists():
        path = folder / f"{stem[:60]}-{n}.json"
        n += 1
    return path


def delete_campaign(path: Path) -> None:
    """Remove the campaign file, its Журнал, its backups and its lock file.

    Raises:
        StoreError: something could not be removed (the message says what).
    """
    try:
        for extra in (journal_path(path), Path(f"{path}.lock")):
            extra.unlink(missing_ok=True)
        if backup_dir(path).exists():
            shutil.rmtree(backup_dir(path))
        path.unlink(missing_ok=True)
    except OSError as err:
        raise StoreError(
            f"Не удалось удалить {err.filename or path}: {os_reason(err)}. "
            "Проверьте права доступа к папке."
        ) from err
