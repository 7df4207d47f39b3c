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
    """The campaign file exists but cannot be used; kubik never overwrites it.

    ``reason`` is the schema's own words (the field and what it needs), when that is why.
    """

    def __init__(self, message: str, *, backups: Sequence[Path] = (), reason: str = "") -> None:
        super().__init__(message, backups=backups)
        self.reason = reason


class ChangeRefused(StoreError):
    """A change would leave the campaign with a value it cannot hold; nothing was written."""


class StoreBusy(StoreError):
    """Another kubik held the campaign's lock for longer than the wait allows."""


class StaleWrite(StoreError):
    """A change was made on a version another window has since changed or removed, and it no
    longer applies: nothing was written. The message says what changed and what was lost."""


class StoreReadOnly(StoreError):
    """A change was asked of a campaign opened read-only."""


class CampaignExists(StoreError):
    """An import would replace an existing campaign and was not told to."""


class CampaignTooBig(StoreError):
    """The campaign file is beyond what kubik opens (:data:`tui.store.storage.MAX_CAMPAIGN_BYTES`):
    refused at once instead of a long silence; never changed."""


class NotRegularFile(StoreError):
    """A FIFO, a device, a socket or a folder where a file kubik reads should be."""


class DanglingLink(StoreError):
    """The campaign is a symbolic link to a file that does not exist: a new campaign would be
    made at ``target``, which only the GM may decide."""

    def __init__(self, message: str, *, target: Path) -> None:
        super().__init__(message)
        self.target = target


_OS_REASONS = {
    errno.EACCES: "нет прав доступа",
    errno.EPERM: "операция запрещена системой",
    errno.ENOENT: "нет такого файла или папки",
    errno.ENOTDIR: "часть пути — не папка",
    errno.EISDIR: "это папка, а не файл",
    errno.ENOSPC: "на диске не хватает места",
    errno.EDQUOT: "превышена квота на диске",
    errno.EROFS: "файловая система только для чтения",
    errno.ELOOP: "слишком много символьных ссылок подряд (ссылка на саму себя?)",
    errno.ENAMETOOLONG: "слишком длинное имя файла",
    errno.EIO: "ошибка ввода-вывода (диск неисправен или отключён?)",
    errno.EBUSY: "файл занят другой программой",
    errno.EEXIST: "такой файл уже есть",
    errno.EMFILE: "открыто слишком много файлов",
}


def os_reason(err: OSError) -> str:
    """Return why an operating-system call failed, in Russian (``strerror`` is English)."""
    if err.errno is None:
        return "ошибка системы"
    return _OS_REASONS.get(err.errno, f"ошибка системы (код {err.errno})")


def write_error_message(path: Path, err: OSError) -> str:
    """Explain a failed save; the previous version on disk is always intact."""
    code = err.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "на диске не хватает места"
        todo = "Освободите место и повторите действие."
    elif code == errno.EPERM and _writable(path.parent):
        # The folder takes new files, yet the system refuses: the file itself is protected
        # (an immutable or append-only attribute, or a sticky folder and another's file).
        why = (
            f"файл {path.name} защищён от изменений (атрибут «неизменяемый» — chattr +i — или "
            "он принадлежит другому пользователю в общей папке)"
        )
        todo = f"Снимите защиту (chattr -i {path}) или откройте кампанию из другого места."
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = f"нет прав на запись в папку {path.parent} (или она только для чтения)"
        todo = "Проверьте права на папку или откройте кампанию из другого места."
    else:
        why = os_reason(err)
        todo = "Проверьте папку и свободное место на диске."
    return (
        f"Не удалось сохранить кампанию {path}: {why}. Изменение не записано, "
        f"последняя сохранённая версия цела. {todo}"
    )


def _writable(folder: Path) -> bool:
    import os

    try:
        return os.access(folder, os.W_OK)
    except OSError:
        return False
