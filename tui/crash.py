"""What a user sees when kubik itself fails: one Russian line and the path of a crash report.

A traceback is for the developers; it goes to a private file in kubik's state folder
(``~/.local/state/kubik/crashes/``, 0600), and the terminal gets one line saying where.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # mypy reads the mixin as a part of the app; at run time a plain class
    from textual.app import App

    _AppBase = App[None]
else:
    _AppBase = object

BROKEN_PIPE_EXIT = 141  # 128 + SIGPIPE, what a shell reports for `yes | head`


def crash_dir() -> Path:
    """Return the folder crash reports go to."""
    import platformdirs

    return platformdirs.user_state_path("kubik", appauthor=False) / "crashes"


def write_report(
    exc: tuple[type[BaseException], BaseException, TracebackType | None] | None = None,
) -> Path | None:
    """Write the traceback of ``exc`` (default: the one being handled); None if impossible."""
    import traceback

    kind, value, tb = exc or sys.exc_info()
    if value is None:
        return None
    text = "".join(traceback.format_exception(kind, value, tb))
    header = f"kubik crash {datetime.now().astimezone().isoformat(timespec='seconds')}\n"
    header += f"argv: {sys.argv!r}\npython: {sys.version.split()[0]}\n\n"
    try:
        folder = crash_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = folder / f"crash-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(header + text)
    except OSError:
        return None
    return path


def crash_message(path: Path | None) -> str:
    """Return the one line a user sees after an internal error."""
    where = f"Подробности для разработчиков: {path}" if path else "Отчёт записать не удалось."
    return (
        "kubik: внутренняя ошибка kubik (не ваша) — программа остановлена; последняя "
        f"сохранённая версия кампании цела. {where}"
    )


def report_and_say(stream: Any = None) -> None:
    """Write the crash report of the exception being handled and print the one line."""
    print(crash_message(write_report()), file=stream or sys.stderr)


def silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the exit flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


class CrashReporting(_AppBase):
    """Mixin for the Textual apps: an unhandled error ends the app with the one line.

    Textual prints a full traceback (with local variables) when a handler raises; this
    writes it to the crash report instead and leaves the single Russian line on exit.
    """

    def _fatal_error(self) -> None:
        from rich.text import Text

        self.crash_report = write_report()
        self.bell()
        self._exit_renderables.append(Text(crash_message(self.crash_report)))
        self._close_messages_no_wait()
