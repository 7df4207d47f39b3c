"""How many xdist workers the run starts (tests/workers.py): twice the cores on a quiet
machine, as many as the cores beside another job (eight workers of two runs on two cores cost
~30 % more CPU: 129 s against 101 s with two each)."""

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


def test_what_other_processes_used_is_the_busy_share_of_every_cpu_less_this_process() -> None:
    # 200 ticks over the window on 2 CPUs, 50 of them idle: 1.5 cores busy, 0.1 s of it ours
    # over the 0.2 s window (0.5 core): 1.0 core elsewhere.
    elsewhere = workers.used_elsewhere(
        read=samples((1000, 400), (1200, 450)),
        sleep=lambda _s: None,
        own=clock(3.0, 3.1),
        cpus=2,
        window=0.2,
    )
    assert elsewhere == pytest.approx(1.0)
    quiet = workers.used_elsewhere(
        read=samples((1000, 400), (1200, 600)), sleep=lambda _s: None, own=clock(1.0, 1.0), cpus=2
    )
    assert quiet == 0.0
    ours_only = workers.used_elsewhere(  # all the busy ticks were this process's own
        read=samples((0, 0), (200, 150)), sleep=lambda _s: None, own=clock(0.0, 0.2), cpus=2
    )
    assert ours_only == 0.0


def test_no_proc_stat_or_no_ticks_tells_nothing() -> None:
    for read in (samples(None, None), samples((10, 5), None), samples((10, 5), (10, 5))):
        assert workers.used_elsewhere(read=read, sleep=lambda _s: None, own=clock(0, 0)) is None


def test_twice_the_cores_when_quiet_and_the_cores_beside_another_job() -> None:
    assert workers.workers_for(2, 0.0) == 4
    assert workers.workers_for(2, 0.9) == 4
    assert workers.workers_for(2, 1.0) == 2  # half the cores busy elsewhere
    assert workers.workers_for(2, 2.0) == 2
    assert workers.workers_for(2, None) == 4  # not measured: as on a quiet machine
    assert workers.workers_for(1, 0.6) == 1


def test_the_real_proc_stat_reads_as_ticks() -> None:
    ticks = workers.read_proc_stat()
    if not sys.platform.startswith("linux"):
        assert ticks is None or ticks[0] > 0
        return
    assert ticks is not None
    total, idle = ticks
    assert 0 <= idle <= total and total > 0


def test_the_environment_variable_still_decides(monkeypatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "3")
    assert workers.pytest_xdist_auto_num_workers(None) is None  # type: ignore[arg-type]
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS")
    monkeypatch.setattr(workers, "used_elsewhere", lambda: 2.0)
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers, "_CHOSEN", {})
    assert workers.pytest_xdist_auto_num_workers(None) == 2  # type: ignore[arg-type]
    assert workers.pytest_report_header(None) == (  # type: ignore[arg-type]
        "xdist workers: 2 (2 cores, 2.0 of them busy elsewhere)"
    )
