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
    """A view of one JSON Lines log file: its newest entries read from the end on demand, the
    whole of it only when asked (then cached and re-read incrementally).

    A long campaign's Журнал has 100,000 entries (30 MB): reading and keeping all of them
    cost a second and ~200 MB before the first screen, which shows a few dozen. Until
    :meth:`entries` is called, :meth:`refresh` only looks at the file (one ``stat``), and
    :meth:`tail` parses the newest lines, reading backwards from the size the last refresh saw
    (so, as before, what another kubik appended shows after the next refresh).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: list[LogEntry] = []
        self._ids: set[str] = set()
        self._offset = 0
        self._sig: FileSig | None = None
        #: Whether ``_entries`` holds the whole file (read in order, incrementally after).
        self._whole = False
        #: What the last refresh saw, before the whole file is read.
        self._seen: FileSig | None = None
        #: The newest entries read from the end: (the file seen, how many asked, them).
        self._tail: tuple[FileSig | None, int, list[LogEntry]] | None = None
        #: Complete lines that were not a valid entry (hand edits, a foreign writer).
        self.skipped_lines = 0

    def entries(self) -> list[LogEntry]:
        """Return every entry (as of the last refresh), oldest first: the whole file is read
        the first time."""
        self._read_whole()
        return list(self._entries)

    def ids(self) -> set[str]:
        self._read_whole()
        return set(self._ids)

    def tail(self, count: int) -> list[LogEntry]:
        """Return the newest ``count`` entries (as of the last refresh), oldest first."""
        if count <= 0:
            return []
        if self._whole:
            return self._entries[-count:]
        cached = self._tail
        if cached is None or cached[0] != self._seen or cached[1] < count:
            cached = self._tail = (self._seen, count, self._read_tail(count))
        return cached[2][-count:]  # a copy: the caller may reverse it

    def refresh(self) -> bool:
        """Take in what was appended since the last call; return whether the entries changed.

        Cheap when nothing changed: one ``stat``. A replaced or shrunk file is read anew.
        Before the whole file was asked for, only the look is taken (a change may be a torn
        line still being written: the caller's notice costs a redraw).

        Raises:
            NotRegularFile: a FIFO or a device in place of the file (never opened).
        """
        if not self._whole:
            sig = self._look()
            changed = sig != self._seen
            self._seen = sig
            return changed and (sig is not None or self._tail is not None)
        return self._read_appended()

    def _look(self) -> FileSig | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(not_regular_message(self.path, st.st_mode, "Журнал кампании"))
        return FileSig.of(st)

    def _read_whole(self) -> None:
        if not self._whole:
            self._whole = True
            self._tail = None
            self._read_appended()

    def _read_appended(self) -> bool:
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

    def _read_tail(self, count: int) -> list[LogEntry]:
        """Parse the newest ``count`` entries, reading back from the end the last refresh saw
        (a torn last line is left out; an id seen twice counts once, the older kept)."""
        seen = self._seen
        if seen is None:
            return []
        try:
            fd = open_regular(self.path, "Журнал кампании")
        except FileNotFoundError:
            return []
        batches: list[list[LogEntry]] = []
        found = 0
        try:
            now = FileSig.of(os.fstat(fd))
            same = (now.dev, now.ino) == (seen.dev, seen.ino)
            pos = min(seen.size, now.size) if same else now.size
            buf = b""  # read, not yet split into whole lines
            torn_cut = False
            while pos > 0 and found < count:
                start = max(0, pos - _CHUNK)
                buf = os.pread(fd, pos - start, start) + buf
                pos = start
                if not torn_cut:  # what follows the last newline is a line being written
                    cut = buf.rfind(b"\n")
                    if cut < 0:
                        continue
                    buf, torn_cut = buf[:cut], True
                if pos > 0:
                    first = buf.find(b"\n")
                    if first < 0:
                        continue  # one line longer than a chunk: read on
                    block, buf = buf[first + 1 :], buf[:first]
                else:
                    block, buf = buf, b""
                dirty = json_may_hold_controls(block)
                batch = [e for e in map(lambda ln: _parse(ln, dirty), block.split(b"\n")) if e]
                batches.insert(0, batch)
                found += len(batch)
        finally:
            os.close(fd)
        entries: list[LogEntry] = []
        ids: set[str] = set()
        for entry in (e for batch in batches for e in batch):
            if entry.id not in ids:
                entries.append(entry)
                ids.add(entry.id)
        return entries[-count:]

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
        self._tail = None


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
