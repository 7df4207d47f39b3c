"""A TinyDB storage that never leaves a half-written campaign file behind.

TinyDB's own ``JSONStorage`` truncates the file and writes it in place, so a crash or a
power cut mid-write can leave a file that no longer parses. Here every write goes to a
temporary file in the same folder, is flushed to disk, and then atomically replaces the
old file; readers see either the old state or the new one, never a mix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tinydb import Storage

TMP_SUFFIX = ".tmp"


class StoreError(Exception):
    """A campaign file kubik cannot use. ``str(err)`` is a Russian message for the GM."""


def temp_prefix(path: Path) -> str:
    """Return the name prefix of the temporary files written next to ``path``."""
    return f".{path.name}."


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable. Windows cannot open a folder, and does not need to.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically and durably.

    Raises:
        OSError: the folder is not writable, the disk is full, ...
    """
    tmp = path.with_name(f"{temp_prefix(path)}{os.getpid()}.{os.urandom(4).hex()}{TMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def remove_stale_temp_files(path: Path) -> list[Path]:
    """Delete temporary files next to ``path`` left by writers that no longer run.

    The writer's pid is part of the name; a file is removed only when that process is gone,
    so a kubik still writing the same campaign is left alone. Returns the removed paths.
    """
    if os.name != "posix":  # os.kill(pid, 0) would terminate the process on Windows
        return []
    removed: list[Path] = []
    prefix = temp_prefix(path)
    try:
        candidates = [p for p in path.parent.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return []
    for tmp in candidates:
        parts = tmp.name[len(prefix) :].split(".")
        if len(parts) != 3 or not parts[0].isdigit() or f".{parts[2]}" != TMP_SUFFIX:
            continue
        pid = int(parts[0])
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            try:
                tmp.unlink()
                removed.append(tmp)
            except OSError:
                pass
        except OSError:
            pass  # alive, owned by someone else
    return removed


class AtomicJSONStorage(Storage):
    """JSON storage for TinyDB with atomic writes and loud failures.

    ``read`` returns None only when the file does not exist yet. An existing file that is
    empty, not UTF-8, not JSON or not a TinyDB document raises :class:`StoreError`; the
    file is left untouched so nothing the GM wrote is lost.
    """

    def __init__(self, path: str | os.PathLike[str], indent: int | None = 1) -> None:
        self.path = Path(path)
        self._indent = indent

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            raise StoreError(
                f"Не удалось прочитать файл кампании {self.path}: {err.strerror or err}. "
                "Проверьте права доступа к файлу."
            ) from err
        if not raw:
            raise StoreError(_corrupt(self.path, "файл пуст (0 байт)"))
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            raise StoreError(_corrupt(self.path, "это не текст UTF-8")) from err
        except json.JSONDecodeError as err:
            where = f"строка {err.lineno}, столбец {err.colno}"
            raise StoreError(_corrupt(self.path, f"это не JSON ({where})")) from err
        if not isinstance(data, dict) or not all(
            isinstance(table, dict) for table in data.values()
        ):
            raise StoreError(_corrupt(self.path, "неожиданная структура данных"))
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, indent=self._indent)
        try:
            atomic_write_text(self.path, text)
        except OSError as err:
            raise StoreError(
                f"Не удалось сохранить кампанию в {self.path}: {err.strerror or err}. "
                "Проверьте права на папку и свободное место на диске."
            ) from err


def _corrupt(path: Path, why: str) -> str:
    return (
        f"Файл кампании {path} повреждён: {why}. kubik не будет его перезаписывать. "
        "Восстановите файл из резервной копии или укажите другой путь."
    )
