"""10,000 characters pasted into the Бой tab's «Заметка» as keys, then Enter, in tmux at 80×24.

A paste arrives as keys where the terminal does not bracket it (over SSH, tmux's
``paste-buffer`` without ``-p``). Textual's Input measured its whole text on every key, so
10,000 «Я» kept kubik busy 16 s (36 s on a loaded machine) and the Enter after them waited
its turn; a field now takes at most 300 characters (the keys past them are refused, said
once). Timed: from ``paste-buffer`` (the Enter sent right after it) until the form shows the
next declarer — against a bare Textual app with one such field (``bare_paste_app.py``), so
that the figure is kubik's share and not the machine's.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.benchmarks.terminal import KUBIK_FIRST, Tmux, bench_env, kubik_command

CHARS = 10_000
#: «Заявляет Богдан Сыч — Enter: объявить …»: who declares now.
DECLARER = re.compile(r"Заявляет (.+?) —")
BARE_APP = Path(__file__).with_name("bare_paste_app.py")


def declarer(screen: str) -> str:
    found = DECLARER.search(screen)
    return found.group(1) if found else ""


@dataclass
class PasteFigures:
    kubik: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return statistics.median(self.kubik) / statistics.median(self.bare)


def _paste(tmux: Tmux, name: str, text: Path, timeout: float = 300) -> float:
    """Paste ``text`` into the focused field as keys, press Enter; seconds until the form
    shows another declarer."""
    first = declarer(tmux.screen(name))
    tmux.tmux("load-buffer", str(text))
    t0 = time.perf_counter()
    tmux.tmux("paste-buffer", "-t", name)
    tmux.keys(name, "Enter")
    return tmux.wait(name, lambda s: declarer(s) not in ("", first), timeout=timeout) - t0


def measure(runs: int = 3, log: Callable[[str], None] = print) -> PasteFigures:
    """One figure per run and app, the apps taking turns (a new demo campaign each run)."""
    workdir = Path(tempfile.mkdtemp(prefix="kubik-paste-"))
    text = workdir / "paste.txt"
    text.write_text("Я" * CHARS, encoding="utf-8")
    tmux = Tmux(bench_env(workdir))
    figures = PasteFigures()
    try:
        for run in range(runs):
            name, _ = tmux.start(kubik_command(workdir / f"paste{run}.json"))
            tmux.wait(name, lambda s: KUBIK_FIRST in s)
            tmux.keys(name, "2")
            tmux.wait(name, lambda s: "Подготовка боя" in s)
            tmux.keys(name, "i")
            tmux.wait(name, lambda s: declarer(s) != "")
            tmux.keys(name, *["Down"] * 6)  # Действие … Против других, then «Заметка»
            time.sleep(0.5)
            figures.kubik.append(_paste(tmux, name, text))
            tmux.kill(name)
            name, _ = tmux.start([sys.executable, str(BARE_APP)])
            tmux.wait(name, lambda s: declarer(s) != "")
            time.sleep(0.5)
            figures.bare.append(_paste(tmux, name, text))
            tmux.kill(name)
            kubik, bare = figures.kubik[-1], figures.bare[-1]
            log(f"  paste {run + 1}: kubik {kubik:.2f} s, bare {bare:.2f} s")
    finally:
        tmux.close()
    return figures
