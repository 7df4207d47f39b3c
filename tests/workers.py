"""Loaded by ``-p tests.workers`` (pyproject's addopts): how many xdist workers ``-n auto``
starts, from the cores this run may use and how busy the machine is as the run starts.

Measured on the 2-core VM (7 Dec 2026, fresh clones, pytest's wall time):

- idle: four workers keep both cores busy (a pilot test, a subprocess or a slow test waits
  part of its time, and the other workers fill it); two took 70–75 s against 50–57 s;
- beside another run of this suite, both on four workers: 129 s (eight workers on two cores:
  ~30 % more CPU for the same tests); both on three: 117 s; both on two: 101 s;
- beside two busy loops (a CPU job on both cores): 91 s on four workers, 112 s on two.

So the run takes twice as many workers as cores on a quiet machine, and as many as cores
where other processes already use half the cores or more: under 120 s beside either job.
``-n N`` on the command line, or ``PYTEST_XDIST_AUTO_NUM_WORKERS``, still decides.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import pytest

#: How long the machine is watched before the workers start (seconds).
WINDOW = 0.2

#: What the run was told, for its header.
_CHOSEN: dict[str, Any] = {}


def read_proc_stat() -> tuple[int, int] | None:
    """Return (all ticks, idle ticks) of every CPU since boot (``/proc/stat``), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(value) for value in fields[1:9]]  # user … steal (guest is within user)
    return sum(ticks), ticks[3] + ticks[4]  # idle and iowait


def used_elsewhere(
    read: Callable[[], tuple[int, int] | None] = read_proc_stat,
    sleep: Callable[[float], None] = time.sleep,
    own: Callable[[], float] = time.process_time,
    cpus: int | None = None,
    window: float = WINDOW,
) -> float | None:
    """Return how many cores' worth of CPU the machine's other processes used over ``window``
    seconds (this process's own use taken off), or None where it cannot be told."""
    before, own_before = read(), own()
    sleep(window)
    after, own_after = read(), own()
    if before is None or after is None:
        return None
    total, idle = after[0] - before[0], after[1] - before[1]
    if total <= 0:
        return None
    busy = (total - idle) / total * (cpus or os.cpu_count() or 1)
    return max(0.0, busy - (own_after - own_before) / window)


def workers_for(cores: int, elsewhere: float | None) -> int:
    """Twice the ``cores`` on a quiet machine; as many as the cores where other processes use
    half of them or more (see the module's figures)."""
    if elsewhere is not None and elsewhere >= cores / 2:
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
    elsewhere = _CHOSEN["elsewhere"]
    seen = "not measured" if elsewhere is None else f"{elsewhere:.1f} of them busy elsewhere"
    return f"xdist workers: {_CHOSEN['workers']} ({_CHOSEN['cores']} cores, {seen})"
