"""How many xdist workers the run starts (tests/workers.py): twice the cores on a quiet
machine or beside a few busy processes, as many as the cores beside another job with more
runnable processes than cores (eight workers of two runs on two cores cost ~30 % more CPU:
129 s against 101 s with two each)."""

from __future__ import annotations

import sys

import pytest

from tests import workers


def samples(*values):
    """A ``/proc/stat`` reader that gives ``values`` in turn."""
    left = list(values)
    return lambda: left.pop(0)


def clock(*values):
    left = list(values)
    return lambda: left.pop(0)


def look(read, own, cpus=2, window=0.2, looks=2):
    return workers.used_elsewhere(
        read=read, sleep=lambda _s: None, own=own, cpus=cpus, window=window, looks=looks
    )


def test_what_other_processes_used_is_the_busy_share_of_every_cpu_less_this_process() -> None:
    # 200 ticks over the window on 2 CPUs, 50 of them idle: 1.5 cores busy, 0.1 s of it ours
    # over the 0.2 s window (0.5 core): 1.0 core elsewhere; 3 then 5 runnable, this process
    # (reading) one of them: 3 on average elsewhere.
    seen = look(samples((1000, 400, 1), (1100, 420, 3), (1200, 450, 5)), clock(3.0, 3.1))
    assert seen is not None
    assert seen.cores == pytest.approx(1.0) and seen.runnable == pytest.approx(3.0)
    quiet = look(samples((1000, 400, 1), (1100, 500, 1), (1200, 600, 1)), clock(1.0, 1.0))
    assert quiet == workers.Elsewhere(0.0, 0.0)
    # all the busy ticks were this process's own
    ours = look(samples((0, 0, 1), (100, 75, 1), (200, 150, 1)), clock(0.0, 0.2))
    assert ours is not None and ours.cores == 0.0


def test_no_proc_stat_or_no_ticks_tells_nothing() -> None:
    for read in (
        samples(None, None, None),
        samples((10, 5, 1), None, None),
        samples((10, 5, 1), (10, 5, 1), (10, 5, 1)),
    ):
        assert look(read, clock(0, 0)) is None


def test_twice_the_cores_unless_another_job_keeps_more_processes_than_cores_busy() -> None:
    job = workers.Elsewhere
    assert workers.workers_for(2, job(0.0, 0.0)) == 4  # quiet
    assert workers.workers_for(2, job(0.9, 3.0)) == 4  # less than half the cores used
    assert workers.workers_for(2, job(2.0, 2.0)) == 4  # two busy loops: a share per process
    assert workers.workers_for(2, job(2.0, 2.5)) == 4  # and a kernel thread at one look
    assert workers.workers_for(2, job(1.0, 2.75)) == 2  # another run of the suite
    assert workers.workers_for(2, job(2.0, 4.0)) == 2
    assert workers.workers_for(2, None) == 4  # not measured: as on a quiet machine
    assert workers.workers_for(1, job(0.6, 1.75)) == 1


def test_the_real_proc_stat_reads_as_ticks() -> None:
    ticks = workers.read_proc_stat()
    if not sys.platform.startswith("linux"):
        assert ticks is None or ticks[0] > 0
        return
    assert ticks is not None
    total, idle, running = ticks
    assert 0 <= idle <= total and total > 0 and running >= 1  # this process, reading


def test_the_environment_variable_still_decides(monkeypatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert workers.pytest_xdist_auto_num_workers(None) is None  # type: ignore[arg-type]
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS")
    monkeypatch.setattr(workers, "used_elsewhere", lambda: workers.Elsewhere(2.0, 4.0))
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers, "_CHOSEN", {})
    assert workers.pytest_xdist_auto_num_workers(None) == 2  # type: ignore[arg-type]
    assert workers.pytest_report_header(None) == (  # type: ignore[arg-type]
        "xdist workers: 2 (2 cores, 2.0 busy elsewhere, 4.0 processes runnable)"
    )
