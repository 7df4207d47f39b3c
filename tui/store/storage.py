"""Crash-safe file primitives: atomic replace, fresh reads with a change signature.

TinyDB's own ``JSONStorage`` truncates the file and writes it in place, so a crash or a
power cut mid-write can leave a file that no longer parses. Here every write goes to a
temporary file in the same folder, is flushed to disk, and then atomically replaces the
old file; readers see either the old state or the new one, never a mix. Because a file is
never changed in place, a hard link to the old version (a backup) stays valid for free.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from tinydb import Storage

from tui.sanitize import clean_json, json_may_hold_controls

from .errors import (
    CampaignCorrupt,
    CampaignTooBig,
    ChangeRefused,
    DanglingLink,
    NotRegularFile,
    StoreError,
    os_reason,
    write_error_message,
)

TMP_SUFFIX = ".tmp"

#: Modes of what kubik creates: campaigns hold the GM's secrets, so only the owner reads them.
FILE_MODE = 0o600
DIR_MODE = 0o700

#: The largest campaign file kubik opens or writes (about 17,000 characters with skills and
#: notes; a party of 200 is 0.2 MB). A 71 MB file of 50,000 characters took 20–30 s and 550 MB
#: before the first screen; a bigger one is refused at once with this reason.
MAX_CAMPAIGN_BYTES = 16 * 2**20

__all__ = [
    "AtomicJSONStorage",
    "FileSig",
    "TablesEncoder",
    "atomic_write_bytes",
    "atomic_write_text",
    "dump_tables",
    "file_sig",
    "parse_tables",
    "read_bytes",
    "remove_stale_temp_files",
]


class FileSig(NamedTuple):
    """What ``stat`` says about a file; any write (a new inode) changes it."""

    dev: int
    ino: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileSig:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def file_sig(path: Path) -> FileSig | None:
    """Return the signature of ``path``, or None when it does not exist."""
    try:
        return FileSig.of(os.stat(path))
    except FileNotFoundError:
        return None


def temp_prefix(path: Path) -> str:
    """Return the name prefix of the temporary files written next to ``path``."""
    return f".{path.name}."


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (a no-op on Windows)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd`` (``os.write`` may write less)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def atomic_write_bytes(
    path: Path, data: bytes, *, before_replace: Callable[[], None] | None = None
) -> None:
    """Replace ``path`` with ``data`` atomically and durably.

    ``before_replace`` runs once the new version is safely on disk and just before it takes
    the old one's place (the store links the old version into its backups there).

    A new file is private (0600); a file that exists keeps its mode (a GM's ``chmod``
    stays). A symbolic link is written through: its target is replaced, the link stays.

    Raises:
        OSError: the folder is not writable, the disk is full, ... ``path`` is unchanged.
    """
    path = write_target(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = FILE_MODE
    tmp = path.with_name(f"{temp_prefix(path)}{os.getpid()}.{os.urandom(4).hex()}{TMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        try:
            if mode != FILE_MODE:
                os.fchmod(fd, mode)
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if before_replace is not None:
            before_replace()
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_target(path: Path) -> Path:
    """Return the file a write to ``path`` replaces: the target of a symbolic link."""
    if not os.path.islink(path):
        return path
    return Path(os.path.realpath(path))


def private_copy(src: Path, dst: Path) -> None:
    """Copy ``src`` to a new file ``dst`` that only its owner can read (0600)."""
    import shutil

    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with open(fd, "wb") as out, open(src, "rb") as source:
        shutil.copyfileobj(source, out)


def private_mkdir(folder: Path) -> None:
    """Create ``folder`` and its missing parents if needed; each folder kubik creates is 0700
    (``mkdir(parents=True)`` gives the parents the umask's mode, 0755 on most systems); a
    folder that was there keeps its mode."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir(mode=DIR_MODE)
        except FileExistsError:  # made meanwhile by another kubik: its mode is its own
            continue
        os.chmod(made, DIR_MODE)  # the umask may take more than group and others' bits


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically; see :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


#: What a file that is not a regular one is, in words.
_KINDS = (
    (stat.S_ISFIFO, "именованный канал (FIFO)"),
    (stat.S_ISCHR, "устройство"),
    (stat.S_ISBLK, "блочное устройство"),
    (stat.S_ISSOCK, "сокет"),
    (stat.S_ISDIR, "папка"),
)


def not_regular_message(path: Path, mode: int, what: str = "Файл кампании") -> str:
    kind = next((name for test, name in _KINDS if test(mode)), "особый файл")
    return (
        f"{what} {path} — не обычный файл, а {kind}: kubik читает и пишет только обычные "
        "файлы. Укажите путь к файлу кампании."
    )


def open_regular(path: Path, what: str = "Файл кампании") -> int:
    """Open ``path`` for reading without ever blocking; return the descriptor.

    A FIFO opened for reading waits for a writer, for ever: it is opened non-blocking, and
    anything but a regular file is refused before a byte is read.

    Raises:
        FileNotFoundError: there is no such file.
        NotRegularFile: a FIFO, a device, a socket or a folder.
        OSError: it cannot be opened (no rights, a symlink loop, ...).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(not_regular_message(path, mode, what))
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path) -> tuple[bytes, FileSig] | None:
    """Return the content of ``path`` and the signature of exactly that version.

    None when the file does not exist. The signature comes from the open descriptor, so a
    concurrent replace cannot pair new bytes with an old signature.

    Raises:
        StoreError: the file exists but cannot be read, or is not a regular file.
    """
    try:
        with open(open_regular(path), "rb") as fh:
            sig = FileSig.of(os.fstat(fh.fileno()))
            if sig.size > MAX_CAMPAIGN_BYTES:
                raise CampaignTooBig(too_big_message(path, sig.size))
            return fh.read(), sig
    except FileNotFoundError:
        return None
    except OSError as err:
        raise StoreError(
            f"Не удалось прочитать файл кампании {path}: {os_reason(err)}. "
            "Проверьте права доступа к файлу."
        ) from err


def megabytes(size: int) -> str:
    return f"{size / 2**20:.0f} МБ" if size >= 10 * 2**20 else f"{size / 2**20:.1f} МБ"


def too_big_message(path: Path, size: int) -> str:
    return (
        f"Файл кампании {path} слишком велик для kubik: {megabytes(size)} при пределе "
        f"{megabytes(MAX_CAMPAIGN_BYTES)} (около 17 000 персонажей). kubik его не открывает и "
        "не меняет. Уберите из файла лишних персонажей или разделите кампанию на несколько."
    )


def refuse_too_big(size: int) -> None:
    """Refuse to write a campaign of ``size`` bytes beyond :data:`MAX_CAMPAIGN_BYTES`.

    Raises:
        ChangeRefused: nothing is written.
    """
    if size > MAX_CAMPAIGN_BYTES:
        raise ChangeRefused(
            "Изменение не сохранено: кампания стала бы больше предела kubik "
            f"({megabytes(MAX_CAMPAIGN_BYTES)}). Кампания не изменилась. Уберите лишних "
            "персонажей или разделите кампанию на несколько."
        )


def check_campaign_path(path: Path, *, through_dangling_link: bool = False) -> None:
    """Refuse a campaign path that is not a regular file or a new one (never blocks).

    Raises:
        DanglingLink: a symbolic link to a file that does not exist (unless
            ``through_dangling_link``: the GM agreed to a new campaign at its target).
        NotRegularFile: a FIFO, a device, a socket; StoreError: a folder, a symlink loop, a
            path that cannot be looked at.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path) and not through_dangling_link:
            target = Path(os.path.realpath(path))
            raise DanglingLink(
                f"Файл кампании {path} — ссылка на {target}, а такого файла нет. kubik не "
                "создаёт кампанию по ссылке без спроса: исправьте ссылку или укажите другой "
                "путь.",
                target=target,
            ) from None
        return  # a new campaign
    except OSError as err:
        raise StoreError(
            f"Не удалось открыть файл кампании {path}: {os_reason(err)}. Исправьте путь или ссылку."
        ) from err
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(f"{path} — это папка, а не файл кампании. Укажите путь к файлу.")
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(not_regular_message(path, st.st_mode))
    if st.st_size > MAX_CAMPAIGN_BYTES:
        raise CampaignTooBig(too_big_message(path, st.st_size))


def parse_tables(raw: bytes, path: Path) -> dict[str, dict[str, Any]]:
    """Parse a TinyDB JSON file: an object of tables, each an object of documents.

    Raises:
        CampaignCorrupt: empty, not UTF-8, not JSON, or not a TinyDB layout.
    """
    if not raw:
        raise CampaignCorrupt(corrupt_message(path, "файл пуст (0 байт)"))
    if not raw.strip(b"\x00"):
        raise CampaignCorrupt(corrupt_message(path, "файл заполнен нулями"))
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise CampaignCorrupt(corrupt_message(path, "это не текст UTF-8")) from err
    except json.JSONDecodeError as err:
        where = f"строка {err.lineno}, столбец {err.colno}"
        raise CampaignCorrupt(corrupt_message(path, f"это не JSON ({where})")) from err
    except RecursionError as err:
        raise CampaignCorrupt(corrupt_message(path, TOO_DEEP)) from err
    if not isinstance(data, dict) or not all(isinstance(table, dict) for table in data.values()):
        raise CampaignCorrupt(corrupt_message(path, "неожиданная структура данных"))
    if json_may_hold_controls(raw):  # control codes in a name never reach a terminal
        data = clean_json(data)
    return data


class TablesEncoder:
    """Serialize tables the way kubik writes them: UTF-8, Cyrillic unescaped, one document a line.

    One line per document keeps the file readable and diffable, and lets json's C encoder do
    the work (``indent`` switches to the pure-Python one, several times slower). Each line is
    kept until the next call and reused when the *same object* comes back as that document
    (identity, not equality, so a hit costs nothing): the store never changes a document it
    has written, it replaces it, so a write re-encodes only the documents it touched.
    """

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str], tuple[Any, bytes]] = {}

    def encode(self, data: dict[str, dict[str, Any]]) -> bytes:
        dumps = _dumps
        before = self._lines
        lines: dict[tuple[str, str], tuple[Any, bytes]] = {}
        tables = []
        for name, docs in data.items():
            table = []
            for key, doc in docs.items():
                hit = before.get((name, key))
                if hit is not None and hit[0] is doc:
                    line = hit[1]
                else:
                    line = f"  {dumps(str(key))}: {dumps(doc)}".encode()
                lines[name, key] = (doc, line)
                table.append(line)
            head = f" {dumps(name)}: {{".encode()
            tables.append(head + b"\n" + b",\n".join(table) + b"\n }" if table else head + b"}")
        self._lines = lines
        return b"{\n" + b",\n".join(tables) + b"\n}\n"


_dumps = json.JSONEncoder(ensure_ascii=False).encode


def dump_tables(data: dict[str, dict[str, Any]]) -> bytes:
    """Serialize tables the way kubik writes them; see :class:`TablesEncoder`."""
    return TablesEncoder().encode(data)


TOO_DEEP = "JSON вложен слишком глубоко (тысячи уровней)"


def corrupt_message(path: Path, why: object) -> str:
    why = russian_reason(why)
    return (
        f"Файл кампании {path} повреждён: {why}. kubik не будет его перезаписывать. "
        "Восстановите файл из резервной копии или укажите другой путь."
    )


def russian_reason(why: object) -> str:
    """Return ``why`` for a Russian message: a Python error's English text is not shown."""
    text = str(why)
    if re.search("[а-яА-ЯёЁ]", text):
        return text
    return "в нём неожиданные данные (не тот тип или не то значение)"


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
    file is left untouched so nothing the GM wrote is lost. The store itself reads and
    writes whole files under its lock; this class serves code that wants TinyDB on a file.
    """

    def __init__(self, path: str | os.PathLike[str], indent: int | None = 1) -> None:
        self.path = Path(path)
        self._indent = indent

    def read(self) -> dict[str, dict[str, Any]] | None:
        got = read_bytes(self.path)
        return None if got is None else parse_tables(got[0], self.path)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, indent=self._indent)
        try:
            atomic_write_text(self.path, text)
        except OSError as err:
            raise StoreError(write_error_message(self.path, err)) from err
