"""The Журнал on disk: an append-only JSON Lines file beside the campaign.

A roll appends one line and fsyncs it; the campaign file is not touched, so a long session's
log never slows party writes. A writer killed mid-line leaves a torn last line: readers
ignore it, and the next writer (holding the campaign lock) cuts it off before appending.
Complete lines that do not parse are skipped and counted, never fatal.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from tui.sanitize import clean_json, json_may_hold_controls

from .codec import log_from_doc, log_to_doc
from .errors import NotRegularFile
from .models import LogEntry
from .schema import MAX_DEPTH, check_depth
from .storage import (
    FILE_MODE,
    FileSig,
    file_sig,
    fsync_dir,
    not_regular_message,
    open_regular,
    write_all,
)

_CHUNK = 65536


def journal_path(campaign: Path) -> Path:
    """Return ``<name>.log.jsonl`` beside ``campaign.json``."""
    return campaign.with_name(f"{campaign.stem}.log.jsonl")


def entry_line(entry: LogEntry) -> bytes:
    """Return one entry as a JSON line (UTF-8, newline-terminated)."""
    doc = log_to_doc(entry)
    return (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Journal:
    """A cached, incrementally re-read view of one JSON Lines log file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: list[LogEntry] = []
        self._ids: set[str] = set()
        self._offset = 0
        self._sig: FileSig | None = None
        #: Complete lines that were not a valid entry (hand edits, a foreign writer).
        self.skipped_lines = 0

    def entries(self) -> list[LogEntry]:
        """Return every entry read so far, oldest first."""
        return list(self._entries)

    def ids(self) -> set[str]:
        return set(self._ids)

    def refresh(self) -> bool:
        """Read what was appended since the last call; return whether the entries changed.

        Cheap when nothing changed: one ``stat``. A replaced or shrunk file is read anew.
        """
        sig = file_sig(self.path)
        if sig == self._sig:
            return False
        old = self._sig
        self._sig = sig
        if sig is None:
            changed = bool(self._entries)
            self._reset()
            return changed
        reset = old is None or (old.dev, old.ino) != (sig.dev, sig.ino) or sig.size < self._offset
        changed = False
        if reset:
            changed = bool(self._entries)
            self._reset()
        try:
            with open(open_regular(self.path, "Журнал кампании"), "rb") as fh:
                fh.seek(self._offset)
                chunk = fh.read()
        except FileNotFoundError:
            return changed
        end = chunk.rfind(b"\n")
        if end < 0:
            return changed  # only a torn (or still being written) line
        dirty = json_may_hold_controls(chunk)  # once per read, not once per line
        for line in chunk[: end + 1].splitlines():
            entry = _parse(line, dirty)
            if entry is None:
                self.skipped_lines += bool(line.strip())
                continue
            if entry.id in self._ids:
                continue
            self._entries.append(entry)
            self._ids.add(entry.id)
            changed = True
        self._offset += end + 1
        return changed

    def append(self, entries: Iterable[LogEntry]) -> None:
        """Append entries durably (one fsync). The caller holds the campaign lock.

        Raises:
            OSError: the disk is full or the folder is read-only; the file is as before.
        """
        data = b"".join(entry_line(e) for e in entries)
        if not data:
            return
        created = not self.path.exists()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, FILE_MODE)
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):  # a FIFO swapped in: its writes would block when full
                raise NotRegularFile(not_regular_message(self.path, mode, "Журнал кампании"))
            size = _drop_torn_tail(fd)
            try:
                write_all(fd, data)
                os.fsync(fd)
            except OSError:
                # A full disk may have taken half a line: cut it, so no torn line is left.
                try:
                    os.ftruncate(fd, size)
                except OSError:
                    pass
                raise
        finally:
            os.close(fd)
        if created:
            fsync_dir(self.path.parent)

    def _reset(self) -> None:
        self._entries = []
        self._ids = set()
        self._offset = 0


def _drop_torn_tail(fd: int) -> int:
    """Cut a last line without its newline (left by a killed writer); return the new size."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    pos = size
    while pos > 0:
        start = max(0, pos - _CHUNK)
        block = os.pread(fd, pos - start, start)
        nl = block.rfind(b"\n")
        if nl >= 0:
            keep = start + nl + 1
            break
        pos = start
    else:
        keep = 0
    os.ftruncate(fd, keep)
    return keep


def _parse(line: bytes, dirty: bool = True) -> LogEntry | None:
    try:
        doc = json.loads(line.decode("utf-8"))
        if dirty and json_may_hold_controls(line):
            doc = clean_json(doc)
        if not isinstance(doc, dict):
            return None
        if line.count(b"[") + line.count(b"{") > MAX_DEPTH:  # only then can it nest too deep
            check_depth(doc, "запись журнала")
        return log_from_doc(doc)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):
        return None  # SchemaError is a ValueError: a line nested too deep is skipped


def write_journal(path: Path, entries: Iterable[LogEntry]) -> None:
    """Replace the whole log file atomically (import, tests)."""
    from .storage import atomic_write_bytes

    atomic_write_bytes(path, b"".join(entry_line(e) for e in entries))
