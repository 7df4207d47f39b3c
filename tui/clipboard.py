"""What `y` and `v` may honestly say about the clipboard, and the command `v` copies.

kubik copies with OSC 52: it asks the terminal to put the text on the clipboard and cannot
know whether it did. tmux passes the request on only while its ``set-clipboard`` option is
``on``; that much kubik can ask tmux, so the note says what to change when it is not.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

#: The honest words for a copy: the request went to the terminal, no more is known.
SENT = "Отправлено в буфер терминала (OSC 52)"


def tmux_hint(
    env: Mapping[str, str] | None = None,
    run: Callable[..., Any] = subprocess.run,
) -> str:
    """Return a hint when kubik runs in tmux whose ``set-clipboard`` is not ``on`` (else "").

    Runs ``tmux show -gv set-clipboard`` (call it off the UI thread).
    """
    env = os.environ if env is None else env
    if not env.get("TMUX"):
        return ""
    try:
        answer = run(
            ["tmux", "show", "-gv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    value = (answer.stdout or "").strip()
    if answer.returncode != 0 or value == "on":
        return ""
    return (
        f"tmux не передаёт буфер терминалу (set-clipboard {value or '?'}): "
        "выполните tmux set -g set-clipboard on (и добавьте в ~/.tmux.conf)."
    )


def kubik_command(argv0: str | None = None, executable: str | None = None) -> list[str]:
    """Return the command that runs this kubik again, by full path: a bare «kubik» is not on
    PATH in a venv that was never activated.

    The ``kubik`` script's own path when kubik was started by it; else this Python with
    ``-m tui`` (``python -m tui``, the tests).
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    script = Path(argv0)
    if script.name == "kubik" and script.is_file():
        return [str(script.absolute())]
    return [executable, "-m", "tui"]


def view_command_line(path: Path, **kwargs: Any) -> str:
    """Return the shell command that opens the players' view of the campaign at ``path``."""
    return shlex.join([*kubik_command(**kwargs), "--view", "--campaign", str(path)])
