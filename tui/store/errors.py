"""The store's one family of errors; every message is Russian and says what to do."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path


class StoreError(Exception):
    """A campaign kubik cannot read or change. ``str(err)`` is a Russian message for the GM.

    ``backups`` lists good backups of the campaign, newest first, when the app should offer
    one (a corrupt or unreadable file); otherwise it is empty.
    """

    def __init__(self, message: str, *, backups: Sequence[Path] = ()) -> None:
        super().__init__(message)
        self.backups: list[Path] = list(backups)


class CampaignCorrupt(StoreError):
    """The campaign file exists but cannot be used; kubik never overwrites it."""


class StoreBusy(StoreError):
    """Another kubik held the campaign's lock for longer than the wait allows."""


class StaleWrite(StoreError):
    """A change was made on a version another window has since changed or removed, and it no
    longer applies: nothing was written. The message says what changed and what was lost."""


class StoreReadOnly(StoreError):
    """A change was asked of a campaign opened read-only."""


class CampaignExists(StoreError):
    """An import would replace an existing campaign and was not told to."""


def write_error_message(path: Path, err: OSError) -> str:
    """Explain a failed save; the previous version on disk is always intact."""
    code = err.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "на диске не хватает места"
        todo = "Освободите место и повторите действие."
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = f"нет прав на запись в папку {path.parent} (или она только для чтения)"
        todo = "Проверьте права на папку или откройте кампанию из другого места."
    else:
        why = err.strerror or str(err)
        todo = "Проверьте папку и свободное место на диске."
    return (
        f"Не удалось сохранить кампанию {path}: {why}. Изменение не записано, "
        f"последняя сохранённая версия цела. {todo}"
    )
