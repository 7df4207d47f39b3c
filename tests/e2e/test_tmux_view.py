"""End to end in real tmux: the GM plays in one session, the players watch ``kubik --view``.

Two sessions on a private tmux server (``tmux -L``), 80×24 each, no user config. The GM's
pane runs with ``TERM=screen-256color``, the view with ``TERM=screen`` (8/16 colours), as the
card asks kubik to work in both. Skipped only where tmux is not installed; ``.ci/run``
installs it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tui.store import Store

TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)"),
]

STARTUP = 20.0  # seconds a cold start of Python + Textual may take on a busy CI machine
FOLLOW = 2.0  # the card: the view shows a GM's change within two seconds
ECHO = 10.0  # the GM's own pane answering a key; generous, as CI runs three workers on 2 cores
ROOT = Path(__file__).resolve().parents[2]


class Tmux:
    """A private tmux server; every session it starts dies with :meth:`kill`."""

    def __init__(self) -> None:
        # A path in the run's temporary folder (``-S``), which goes with the run: ``-L`` put
        # the socket in tmux's own folder (/tmp/tmux-UID), and kill-server leaves it there
        # (121 files after a day of runs).
        name = f"kubik-e2e-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.socket = str(Path(tempfile.gettempdir()) / name)

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            [str(TMUX), "-S", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
        return done.stdout

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        line = shlex.join(["env", *(f"{k}={v}" for k, v in env.items()), *command])
        self("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(ROOT), line)

    def screen(self, name: str) -> str:
        return self("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        self("send-keys", "-t", name, *keys)

    def type(self, name: str, text: str) -> None:
        self("send-keys", "-t", name, "-l", text)

    def kill(self) -> None:
        subprocess.run([str(TMUX), "-S", self.socket, "kill-server"], capture_output=True)


def wait_for(tmux: Tmux, name: str, seen: Callable[[str], bool], timeout: float) -> str:
    """Poll a pane until ``seen(screen)``; return the screen, or fail showing it."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux.screen(name)
        if seen(screen):
            return screen
        time.sleep(0.1)
    pytest.fail(f"{name}: not on screen after {timeout:.1f} s:\n{screen}")


def kubik(*args: str) -> list[str]:
    return [sys.executable, "-m", "tui", *args]


@pytest.fixture
def tmux():
    server = Tmux()
    yield server
    server.kill()


def roll(tmux: Tmux, text: str) -> None:
    """Open the quick roll in the GM's pane, type ``text``, roll it and wait for the total.

    Each step waits for the pane to show the one before, so a busy machine slows the test
    down instead of failing it; the seconds the card promises are for the view (FOLLOW).
    """
    tmux.keys("gm", "/")
    wait_for(tmux, "gm", lambda s: "Дополнить" in s, ECHO)  # the dialog's key bar
    tmux.keys("gm", "C-u")
    tmux.type("gm", text)
    typed = re.compile(r"▊\s+" + re.escape(text) + r"\s*▎")  # in the field, not its placeholder
    wait_for(tmux, "gm", lambda s: typed.search(s) is not None, ECHO)
    tmux.keys("gm", "Enter")
    wait_for(tmux, "gm", lambda s: "Итог" in s and text.split("+")[0] in s, ECHO)


def test_view_follows_the_gm_and_hides_secrets(tmux, tmp_path):
    camp = str(tmp_path / "campaign.json")
    Store.open(Path(camp)).close()  # the demo, as the app's first start makes it
    tmux.start("gm", kubik("--campaign", camp, "--seed", "5"), {"TERM": "screen-256color"})
    tmux.start("view", kubik("--view", "--campaign", camp), {"TERM": "screen"})
    wait_for(tmux, "gm", lambda s: "Партия" in s, STARTUP)
    wait_for(tmux, "view", lambda s: "вид для игроков" in s and "Милава" in s, STARTUP)

    # A character the GM scripts in (the app has no add form yet): on the view within 2 s.
    subprocess.run(
        kubik("party", "add", "Веселин", "--campaign", camp), check=True, capture_output=True
    )
    wait_for(tmux, "view", lambda s: "Веселин" in s, FOLLOW)

    # A public quick roll in the GM's pane.
    roll(tmux, "2d6")
    wait_for(tmux, "view", lambda s: "2d6" in s, FOLLOW)

    # A secret roll: Ctrl+S, then roll; the view says «скрытый бросок» and never the dice.
    tmux.keys("gm", "Escape")
    # Wait for the dialog to close: a key sent within the terminal's escape delay would
    # arrive as Alt+key and swallow the Escape.
    wait_for(tmux, "gm", lambda s: "Дополнить" not in s, ECHO)
    tmux.keys("gm", "C-s")
    wait_for(tmux, "gm", lambda s: "СКРЫТНО" in s, ECHO)
    roll(tmux, "3d8+1")
    view = wait_for(tmux, "view", lambda s: "скрытый бросок" in s, FOLLOW)
    assert "3d8" not in view
    time.sleep(1.0)  # a few more refreshes of the view: still nothing of the secret
    view = tmux.screen("view")
    assert "скрытый бросок" in view and "3d8" not in view and "2d6" in view

    # The view has no key that changes anything: try the GM's keys there, the file stays.
    before = Path(camp).read_bytes()
    tmux.keys("view", "/", "2", "d", "6", "Enter", "C-s", "t", "r", "C-z")
    time.sleep(0.5)
    assert Path(camp).read_bytes() == before
    assert "вид для игроков" in tmux.screen("view")


def test_the_private_tmux_keeps_its_socket_in_the_runs_folder() -> None:
    """Every run left a socket file in /tmp/tmux-UID (``-L`` names one there, and
    kill-server does not remove it): the private server's socket is a path in the run's
    temporary folder, removed when the run ends."""
    assert Path(tempfile.gettempdir()) in Path(Tmux().socket).parents
