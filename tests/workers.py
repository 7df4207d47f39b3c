"""Loaded by ``-p tests.workers`` (pyproject's addopts): how many xdist workers ``-n auto``
starts, from the cores this run may use and how busy the machine is as the run starts.

Measured on the 2-core VM (7 Dec 2026, fresh clones, pytest's wall time):

- idle: four workers keep both cores busy (a pilot test, a subprocess or a slow test waits
  part of its time, and the other workers fill it); two took 70–75 s against 50–57 s;
- beside another run of this suite, both on four workers: 129 s (eight workers on two cores:
  ~30 % more CPU for the same tests); both on three: 117 s; both on two: 101 s;
- beside two busy loops (a CPU job on both cores): 91 s on four workers, 112 s on two.

Beside the busy loops, two workers (with ``-n auto`` choosing them) took 114.6 s of wall time:
the kernel shares the cores per process, so four workers there get two thirds of them, two
only half. So the run takes as many workers as cores only where other processes use half the
cores or more *and* more of them are runnable than there are cores (another run of the suite:
its workers and their subprocesses); otherwise, twice the cores. ``-n N`` on the command line,
or ``PYTEST_XDIST_AUTO_NUM_WORKERS``, still decides.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

#: How long the machine is watched before the workers start (seconds).
WINDOW = 0.2

#: What the run was told, for its header.
_CHOSEN: dict[str, Any] = {}


def read_proc_stat() -> tuple[int, int, int] | None:
    """Return (all ticks, idle ticks) of every CPU since boot and the processes runnable now
    (``/proc/stat``), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            lines = stat.read().splitlines()
    except OSError:
        return None
    fields = lines[0].split() if lines else []
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(value) for value in fields[1:9]]  # user … steal (guest is within user)
    running = next((int(x.split()[1]) for x in lines if x.startswith("procs_running ")), 0)
    return sum(ticks), ticks[3] + ticks[4], running  # idle and iowait


@dataclass(frozen=True)
class Elsewhere:
    """What the machine's other processes did while the run watched it."""

    cores: float  #: the CPU they used, in cores
    runnable: float  #: how many of them were runnable, on average (this process left out)


def used_elsewhere(
    read: Callable[[], tuple[int, int, int] | None] = read_proc_stat,
    sleep: Callable[[float], None] = time.sleep,
    own: Callable[[], float] = time.process_time,
    cpus: int | None = None,
    window: float = WINDOW,
    looks: int = 4,
) -> Elsewhere | None:
    """Return what the machine's other processes did over ``window`` seconds: the cores'
    worth of CPU they used (this process's own use taken off) and how many were runnable
    (``looks`` times during the window), or None where it cannot be told."""
    before, own_before = read(), own()
    runnable = []
    after = before
    for _ in range(looks):
        sleep(window / looks)
        after = read()
        if after is not None:
            runnable.append(max(0, after[2] - 1))  # the process reading is running
    own_after = own()
    if before is None or after is None or not runnable:
        return None
    total, idle = after[0] - before[0], after[1] - before[1]
    if total <= 0:
        return None
    busy = (total - idle) / total * (cpus or os.cpu_count() or 1)
    used = max(0.0, busy - (own_after - own_before) / window)
    return Elsewhere(used, sum(runnable) / len(runnable))


def workers_for(cores: int, elsewhere: Elsewhere | None) -> int:
    """Twice the ``cores``, but as many as the cores where other processes use half of them
    or more and more of them are runnable than there are cores (see the module's figures):
    half a process over, as a process of the kernel's may be running at one of the looks
    (two busy loops read 2.0, another run of the suite 3.0–3.2)."""
    if elsewhere is not None and elsewhere.cores >= cores / 2 and elsewhere.runnable > cores + 0.5:
        return cores
    return 2 * cores


def usable_cores() -> int:
    """The cores this process may run on (its affinity), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist reads it
    cores = usable_cores()
    elsewhere = used_elsewhere()
    _CHOSEN.update(cores=cores, elsewhere=elsewhere, workers=workers_for(cores, elsewhere))
    return int(_CHOSEN["workers"])


def pytest_report_header(config: pytest.Config) -> str | None:
    if not _CHOSEN:
        return None
    seen = _CHOSEN["elsewhere"]
    said = (
        "the machine not measured"
        if seen is None
        else f"{seen.cores:.1f} busy elsewhere, {seen.runnable:.1f} processes runnable"
    )
    return f"xdist workers: {_CHOSEN['workers']} ({_CHOSEN['cores']} cores, {said})"
