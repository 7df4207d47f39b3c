"""Start, keys and memory of kubik against the bare Textual app, measured through tmux at 80×24.

* **first paint**: from ``tmux new-session`` (which starts the program) until ``capture-pane``
  shows a text of the first screen's table (a character of the demo party; a bare-app row);
* **key → render**: from ``tmux send-keys`` until ``capture-pane`` shows the expected change:
  a tab switch (``2`` ↔ ``1``, the other tab's text appears) and one builder change (``→`` / ``←``
  on the Сложность row of the Проверка tab, the odds percents change);
* **peak RSS**: ``VmHWM`` of the app's process (the pane's pid) after all of its keys.

kubik runs without animations unless ``TEXTUAL_ANIMATIONS`` is set
(``tui/widgets/common/motion.py``);
the bare app keeps Textual's default (full). So that the table shows what that choice is worth,
a third app, kubik with ``TEXTUAL_ANIMATIONS=full``, takes the tab keys in the same rotation.

The screen is polled every ``POLL`` seconds, so every figure carries up to ~5 ms of polling and
``tmux`` client overhead — the same for both apps. Starts alternate between the two apps, and
so do keys: both stay up and take one key each in turn.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BARE_APP = Path(__file__).with_name("bare_app.py")
POLL = 0.005  # seconds between screen captures
WIDTH, HEIGHT = 80, 24
TIMEOUT = 20.0

# What each app's first screen shows once its table is painted.
KUBIK_FIRST = "Богдан Сыч"  # the demo party's first character, in the Партия table
BARE_FIRST = "Третий НИП"  # the bare table's last row

# Tab-switch markers: a text only the tab behind the key shows.
KUBIK_TABS = {"2": "Подготовка боя", "1": "Качества:"}
#: The first visit of each other tab (built ahead in idle time): key → a text only it shows.
KUBIK_FIRST_VISITS = {"2": "Подготовка боя", "3": "Сложность", "4": "Время"}
#: How long a GM looks at the first screen before the first tab key.
READING_PAUSE = 1.5
BARE_TABS = {"2": "Вторая вкладка", "1": "Третий НИП"}


def kubik_command(campaign: Path) -> list[str]:
    """``kubik --campaign PATH``: the installed console script, or ``python -m tui``."""
    script = Path(sys.executable).with_name("kubik")
    if script.exists():
        return [str(script), "--campaign", str(campaign)]
    return [sys.executable, "-m", "tui", "--campaign", str(campaign)]


def bare_command() -> list[str]:
    return [sys.executable, str(BARE_APP)]


def bench_env(workdir: Path) -> dict[str, str]:
    """The environment both apps run in: this one, with bytecode caches written (to a folder of
    the run, so the tree stays clean) as an installed kubik has them, and no user data."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "TMUX"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    env["XDG_DATA_HOME"] = str(workdir / "data")
    env["LANG"] = env.get("LANG") or "C.UTF-8"
    return env


class Tmux:
    """A private tmux server (its own socket, no config) that holds one session per app run."""

    def __init__(self, env: dict[str, str]) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("the start and key benchmarks need tmux (apt-get install tmux)")
        self.socket = f"kubik-bench-{os.getpid()}"
        self.base = ["tmux", "-L", self.socket, "-f", "/dev/null"]
        self.env = env  # the server's environment, which every program started in it inherits
        # A session that just sleeps keeps the server up, so no run pays for starting it.
        self.tmux("new-session", "-d", "-s", "keepalive", "-x", "20", "-y", "5", "sleep 100000")
        self._count = 0

    def tmux(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, env=self.env)
        if done.returncode:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def start(self, argv: Sequence[str], env: dict[str, str] | None = None) -> tuple[str, float]:
        """Start ``argv`` (with ``env`` added) in a new 80×24 session; return its name and the
        start instant."""
        self._count += 1
        name = f"run{self._count}"
        extra = [f"-e{key}={value}" for key, value in (env or {}).items()]
        t0 = time.perf_counter()
        self.tmux(
            "new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT),
            "-c", str(ROOT), *extra, *argv,
        )  # fmt: skip
        return name, t0

    def screen(self, name: str, escapes: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", name)

    def keys(self, name: str, *keys: str) -> float:
        """Send keys; return the instant just before sending."""
        t0 = time.perf_counter()
        self.tmux("send-keys", "-t", name, *keys)
        return t0

    def wait(self, name: str, done: Callable[[str], bool], timeout: float = TIMEOUT) -> float:
        """Poll the screen until ``done(screen)``; return the instant it was seen."""
        end = time.perf_counter() + timeout
        while True:
            screen = self.screen(name)
            now = time.perf_counter()
            if done(screen):
                return now
            if now > end:
                raise TimeoutError(f"the expected screen did not appear; the screen:\n{screen}")
            time.sleep(POLL)

    def pid(self, name: str) -> int:
        return int(self.tmux("display", "-p", "-t", name, "#{pane_pid}").strip())

    def kill(self, name: str) -> None:
        subprocess.run([*self.base, "kill-session", "-t", name], capture_output=True)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


def peak_rss_mib(pid: int) -> float:
    """``VmHWM`` (peak resident set) of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for pid {pid}")


@dataclass
class AppFigures:
    """What one app measured: seconds, and MiB for memory."""

    first_paint: list[float] = field(default_factory=list)
    tab_keys: list[float] = field(default_factory=list)
    builder_keys: list[float] = field(default_factory=list)
    first_visits: list[float] = field(default_factory=list)  # 2, 3, 4 once after each start
    rss: float = 0.0  # peak resident set after every key, MiB
    rss_start: float = 0.0  # peak resident set once the first screen is up, MiB


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def p95(xs: Sequence[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(xs)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def _odds_block(screen: str) -> list[str]:
    return [line for line in screen.splitlines() if "%" in line]


def _focused_line(tmux: Tmux, name: str, text: str) -> bool:
    """Whether the row holding ``text`` is drawn bold (the focused stepper)."""
    for line in tmux.screen(name, escapes=True).splitlines():
        if text in line:
            return "\x1b[1m" in line
    return False


class AppRun:
    """One app in its session: start it, wait for its first paint, press keys, read memory."""

    def __init__(
        self,
        tmux: Tmux,
        argv: Sequence[str],
        first: str,
        tabs: dict[str, str],
        env: dict[str, str] | None = None,
    ):
        self.tmux, self.argv, self.first, self.tabs = tmux, list(argv), first, tabs
        self.env = env
        self.name = ""
        self.resyncs = 0

    def start(self) -> float:
        self.name, t0 = self.tmux.start(self.argv, self.env)
        return self.tmux.wait(self.name, lambda s: self.first in s) - t0

    def tab_switch(self, i: int) -> float:
        """Press ``2`` (even ``i``) or ``1`` (odd ``i``) and wait for that tab; return seconds.

        A key is timed only from a settled screen: if the tab it leads to is somehow showing
        already, the other tab is brought back first (untimed) and counted in ``resyncs``.
        """
        key = "2" if i % 2 == 0 else "1"
        other = "1" if key == "2" else "2"
        marker, gone = self.tabs[key], self.tabs[other]  # a whole new frame: old text gone
        if marker in self.tmux.screen(self.name):
            self.resyncs += 1
            self.tmux.keys(self.name, other)
            self.tmux.wait(self.name, lambda s: gone in s and marker not in s)
            time.sleep(0.2)
        t0 = self.tmux.keys(self.name, key)
        seen = self.tmux.wait(self.name, lambda s: marker in s and gone not in s)
        return seen - t0

    def first_visits(self, visits: dict[str, str]) -> list[float]:
        """After a reading pause, press each tab key once and time its first frame."""
        time.sleep(READING_PAUSE)
        seconds = []
        for key, marker in visits.items():
            t0 = self.tmux.keys(self.name, key)
            seconds.append(self.tmux.wait(self.name, lambda s, m=marker: m in s) - t0)
            time.sleep(0.3)
        return seconds

    def focus_builder_row(self, tab_key: str, row: str) -> None:
        """On tab ``tab_key``, focus the builder row holding ``row``."""
        self.tmux.keys(self.name, tab_key)
        self.tmux.wait(self.name, lambda s: row in s)
        time.sleep(0.2)
        for _ in range(16):
            if _focused_line(self.tmux, self.name, row):
                return
            # ↓ moves between the builder's rows; Tab first when the focus is outside them.
            inside = any("\x1b[1m" in line and "◀" in line for line in self._lines())
            self.tmux.keys(self.name, "Down" if inside else "Tab")
            time.sleep(0.1)
        raise RuntimeError(f"could not focus the {row!r} row:\n{self.tmux.screen(self.name)}")

    def builder_change(self, i: int) -> float:
        """Press → (even ``i``) or ← on the focused row; wait for new odds; return seconds."""
        before = _odds_block(self.tmux.screen(self.name))
        t0 = self.tmux.keys(self.name, "Right" if i % 2 == 0 else "Left")
        done = self.tmux.wait(self.name, lambda s: _odds_block(s) != before)
        return done - t0

    def _lines(self) -> list[str]:
        return self.tmux.screen(self.name, escapes=True).splitlines()

    def rss(self) -> float:
        return peak_rss_mib(self.tmux.pid(self.name))

    def stop(self) -> None:
        self.tmux.kill(self.name)


@dataclass
class TerminalResult:
    kubik: AppFigures
    bare: AppFigures
    animated: AppFigures  # kubik with TEXTUAL_ANIMATIONS=full: tab keys only


def measure(starts: int = 7, keys: int = 40, log: Callable[[str], None] = print) -> TerminalResult:
    """Start each app ``starts`` times (alternating; one unmeasured warm-up each). The last run
    of both stays up, and ``keys`` tab switches and ``keys`` builder changes are pressed in
    turn, one key to kubik, one to the bare app, so a busy moment of the machine falls on both.
    """
    workdir = Path(tempfile.mkdtemp(prefix="kubik-bench-"))
    campaign = workdir / "campaign.json"
    tmux = Tmux(bench_env(workdir))
    figures = {"kubik": AppFigures(), "bare": AppFigures(), "animated": AppFigures()}
    makers = {
        "kubik": lambda: AppRun(tmux, kubik_command(campaign), KUBIK_FIRST, KUBIK_TABS),
        "bare": lambda: AppRun(tmux, bare_command(), BARE_FIRST, BARE_TABS),
    }
    runs: dict[str, AppRun] = {}
    try:
        for i in range(starts + 1):  # run 0 is a warm-up: .pyc files, page cache, demo file
            for label, make in makers.items():
                run = make()
                seconds = run.start()
                if i:
                    figures[label].first_paint.append(seconds)
                log(f"  {label:<5} start {i}: {seconds * 1000:.0f} ms")
                if i and label == "kubik":
                    visits = run.first_visits(KUBIK_FIRST_VISITS)
                    figures[label].first_visits += visits
                    log(f"  kubik first visits: {', '.join(f'{v * 1000:.0f}' for v in visits)} ms")
                if i == starts:
                    runs[label] = run  # kept up for the keys
                else:
                    run.stop()
        time.sleep(0.5)
        for label, run in runs.items():
            figures[label].rss_start = run.rss()
        animated = AppRun(
            tmux, kubik_command(campaign), KUBIK_FIRST, KUBIK_TABS, {"TEXTUAL_ANIMATIONS": "full"}
        )
        animated.start()
        tab_runs = {**runs, "animated": animated}
        time.sleep(0.5)
        for i in range(keys):
            for label, run in tab_runs.items():
                figures[label].tab_keys.append(run.tab_switch(i))
                time.sleep(0.05)  # let the app go idle, as between a person's keys
        animated.stop()
        for label, run in tab_runs.items():
            if run.resyncs:
                log(f"  {label}: {run.resyncs} tab keys found the screen unsettled")
        for run in runs.values():
            run.focus_builder_row("3", "Сложность")
        for i in range(keys):
            for label, run in runs.items():
                figures[label].builder_keys.append(run.builder_change(i))
                time.sleep(0.05)
        for label, run in runs.items():
            figures[label].rss = run.rss()
    finally:
        for run in runs.values():
            run.stop()
        tmux.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return TerminalResult(figures["kubik"], figures["bare"], figures["animated"])


if __name__ == "__main__":
    result = measure()
    for label, fig in (("kubik", result.kubik), ("bare", result.bare)):
        print(
            f"{label}: first paint {median(fig.first_paint) * 1000:.0f} ms; "
            f"tab {median(fig.tab_keys) * 1000:.1f}/{p95(fig.tab_keys) * 1000:.1f} ms; "
            f"builder {median(fig.builder_keys) * 1000:.1f}/{p95(fig.builder_keys) * 1000:.1f} ms; "
            f"rss {fig.rss:.1f} MiB"
        )
