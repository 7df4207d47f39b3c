"""A big campaign (issue 35): 5,000 characters and a 100,000-entry Журнал.

Before: 50,000 characters (71 MB) took 13.5 s and 487 MB for ``kubik party list`` and
20–30 s and 550 MB before the app's first screen; ``--view`` showed nothing after 8 s. The
targets, for 5,000 characters (with skills, weapons and notes, as ``storage.py`` makes them)
and 100,000 Журнал entries:

* **first screen ≤ 1 s**: ``kubik`` in tmux at 80×24, launch → the party's first row drawn
  (and the players' view, ``kubik --view``, the same);
* **party list ≤ 0.5 s**: ``kubik party list`` from launch to exit;
* **memory ≤ 2× the file**: the peak RSS of each beyond the same command on the demo campaign,
  against the campaign's bytes on disk (the campaign file and its Журнал);
* **beyond the limit, a refusal**: a campaign file over ``MAX_CAMPAIGN_BYTES`` is refused
  with its reason within a second, before anything is read.

The campaign is written directly (the tables kubik writes, ``write_journal``), so building it
costs seconds, not the minutes of 5,000 store changes.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks import terminal as t
from tests.benchmarks.storage import make_character, make_entry

CHARACTERS = 5_000
LOG_ENTRIES = 100_000
FIRST_SCREEN_S = 1.0
PARTY_LIST_S = 0.5
MEMORY_RATIO = 2.0
REFUSAL_S = 1.0
#: The first row of the party table: the PCs come first, by name.
FIRST_ROW = "Персонаж 00000"


def build(path: Path, characters: int = CHARACTERS, entries: int = LOG_ENTRIES) -> None:
    """Write a campaign of ``characters`` and a Журнал of ``entries`` at ``path``."""
    from tui.store.codec import character_to_doc
    from tui.store.files import new_tables, write_file
    from tui.store.journal import journal_path, write_journal
    from tui.store.migrations import CHARACTERS as TABLE

    tables = new_tables("Большая кампания", "drevo")
    tables[TABLE] = {
        str(i + 1): character_to_doc(
            dataclasses.replace(make_character(i), id=f"big-{i:06d}", name=f"Персонаж {i:05d}")
        )
        for i in range(characters)
    }
    write_file(path, tables, old_rev=None)
    write_journal(journal_path(path), (make_entry(i) for i in range(entries)))


def on_disk(path: Path) -> int:
    from tui.store.journal import journal_path

    return path.stat().st_size + journal_path(path).stat().st_size


@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds: what the run costs whatever else the machine does
    rss: float  # peak, MiB
    said: str  # its error output


def run_measured(argv: list[str], env: dict[str, str]) -> Run:
    """Run ``argv``; return its wall and CPU seconds, its peak RSS and its error output.

    The figures come from GNU time, which forks the command from its own small process: a
    child forked from this one starts with this process's peak (Linux copies it at fork).
    """
    timer = shutil.which("time") or "/usr/bin/time"
    t0 = time.perf_counter()
    done = subprocess.run([timer, "-f", "%U %S %M", *argv], env=env, capture_output=True, text=True)
    took = time.perf_counter() - t0
    *said, figures = done.stderr.rstrip("\n").split("\n")
    user, system, peak = figures.split()
    return Run(took, float(user) + float(system), int(peak) / 1024, "\n".join(said))


def cpu_seconds(pid: int) -> float:
    """The user + system seconds a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def kubik(*args: str) -> list[str]:
    return [sys.executable, "-m", "tui", *args]


@dataclass
class BigFigures:
    file_bytes: int  # the campaign file and its Журнал
    campaign_bytes: int  # the campaign file alone
    party_list: list[float]
    party_list_cpu: list[float]
    party_list_rss: float
    party_list_rss_demo: float
    first_screen: list[float]
    first_screen_cpu: list[float]  # the app's CPU seconds when its first screen was seen
    first_screen_cpu_demo: list[float]
    first_screen_demo: list[float]
    first_screen_rss: float
    first_screen_rss_demo: float
    view_screen: list[float]
    refusal: float
    refusal_said: str

    def extra(self, big: float, demo: float) -> float:
        """RSS beyond the demo's, per byte of the campaign on disk."""
        return (big - demo) * 2**20 / self.file_bytes


def measure(runs: int = 5, log: Callable[[str], None] = print) -> BigFigures:
    from tui.store import Store

    work = Path(tempfile.mkdtemp(prefix="kubik-bench-big-"))
    env = t.bench_env(work)
    try:
        big, demo = work / "big.json", work / "demo.json"
        log(f"  building {CHARACTERS} characters and {LOG_ENTRIES} Журнал entries …")
        build(big)
        Store.open(demo).close()
        size = on_disk(big)
        log(
            f"  big campaign: {big.stat().st_size / 2**20:.1f} MiB + Журнал, {size / 2**20:.1f} MiB"
        )
        subprocess.run(kubik("party", "list", "--campaign", str(demo)), env=env, check=True,
                       capture_output=True)  # fmt: skip  # bytecode written once
        lists, cpus, rss, rss_demo = [], [], [], []
        for _ in range(runs):
            run = run_measured(kubik("party", "list", "--campaign", str(big)), env)
            lists.append(run.wall)
            cpus.append(run.cpu)
            rss.append(run.rss)
            rss_demo.append(run_measured(kubik("party", "list", "--campaign", str(demo)), env).rss)
        log(f"  party list: median {statistics.median(lists):.3f} s, {max(rss):.0f} MiB")
        tmux = t.Tmux(env)
        try:
            screens, screens_demo, peaks, peaks_demo, views = [], [], [], [], []
            used: dict[Path, list[float]] = {big: [], demo: []}
            for _ in range(max(3, runs // 2)):
                for path, first, into in (
                    (big, FIRST_ROW, peaks),
                    (demo, t.KUBIK_FIRST, peaks_demo),
                ):
                    run = t.AppRun(tmux, t.kubik_command(path), first, t.KUBIK_TABS)
                    took = run.start()
                    used[path].append(cpu_seconds(tmux.pid(run.name)))
                    time.sleep(0.3)  # what the first screen still does right after
                    into.append(t.peak_rss_mib(tmux.pid(run.name)))
                    tmux.kill(run.name)
                    (screens if path == big else screens_demo).append(took)
                view = t.AppRun(tmux, [*t.kubik_command(big), "--view"], FIRST_ROW, {})
                views.append(view.start())
                tmux.kill(view.name)
        finally:
            tmux.close()
        log(f"  first screen: median {statistics.median(screens):.3f} s, {max(peaks):.0f} MiB")
        from tui.store import storage

        huge = work / "huge.json"
        with huge.open("wb") as fh:  # past the limit; what it holds is never read
            fh.truncate(storage.MAX_CAMPAIGN_BYTES + 1)
        refused = run_measured(kubik("party", "list", "--campaign", str(huge)), env)
        return BigFigures(
            file_bytes=size,
            campaign_bytes=big.stat().st_size,
            party_list=lists,
            party_list_cpu=cpus,
            party_list_rss=max(rss),
            party_list_rss_demo=max(rss_demo),
            first_screen=screens,
            first_screen_cpu=used[big],
            first_screen_cpu_demo=used[demo],
            first_screen_demo=screens_demo,
            first_screen_rss=max(peaks),
            first_screen_rss_demo=max(peaks_demo),
            view_screen=views,
            refusal=refused.wall,
            refusal_said=refused.said,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    figures = measure()
    print(figures)
