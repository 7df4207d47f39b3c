"""Where a first visit's time goes: the CPU time of each tab key after a start, headless.

Run it from the repository (any terminal; nothing is drawn)::

    python tests/benchmarks/profile_visit.py            # CPU ms of 2, 3, 4 over 7 starts
    python tests/benchmarks/profile_visit.py --starts 3 --profile /tmp/v.txt  # + cProfile
    python tests/benchmarks/profile_visit.py --no-warm   # the tabs built ahead, not warmed
    python tests/benchmarks/profile_visit.py --again     # second visits (after 1), to compare

Each start builds the app as ``kubik`` does (the hidden tabs built ahead in idle time), waits
until they are built and the app is idle, then presses ``2``, ``3`` and ``4`` once each and
times, per key, the process CPU time (``time.process_time``) and the wall time from the key
until the frame that shows the tab is written out (the frame's escape sequences are made as a
terminal's driver makes them, so that work is counted). ``--profile`` writes a cProfile listing
of those keys only (``--sort tottime`` for self time).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: Seconds from the app's start until every hidden tab was warm, one per start.
ready: list[float] = []
#: Whether a key's first frame is being waited for (for ad-hoc instrumentation).
MEASURING = [False]
#: key → a text only that tab's first frame shows (as in terminal.py).
VISITS = {"2": "Подготовка боя", "3": "Сложность", "4": "Время"}
#: ``--again``: each key is pressed again after ``1`` (a second visit, for comparison).
AGAIN = {"1": "Качества:", "2": "Подготовка боя", "3": "Сложность", "4": "Время"}


async def one_start(
    campaign: Path, profiler: cProfile.Profile | None, visits: dict[str, str]
) -> list[tuple[float, float]]:
    from textual.app import App

    from tests.conftest import frozen_clock
    from tui.app import make_app
    from tui.services.startup import PREBUILT_TABS

    app = make_app(campaign, seed=7, clock=frozen_clock, prebuild=True)
    waiting: dict[str, object] = {}
    seen = asyncio.Event()
    original = App._display

    def display(self: App, screen, renderable) -> None:  # type: ignore[no-untyped-def, type-arg]
        original(self, screen, renderable)
        marker = waiting.get("marker")
        if marker is None or renderable is None:
            return
        renderable.render_segments(self.console)  # what a terminal driver writes
        cpu, wall = time.process_time(), time.perf_counter()
        MEASURING[0] = False
        if profiler is not None:
            profiler.disable()
        if _shows(screen, str(marker)):
            waiting["cpu"], waiting["wall"] = cpu, wall
            waiting.pop("marker")
            seen.set()
        else:
            MEASURING[0] = True
            if profiler is not None:
                profiler.enable()

    App._display = display  # type: ignore[method-assign]
    figures = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            began = time.perf_counter()
            for _ in range(400):
                await asyncio.sleep(0.05)
                built = set(PREBUILT_TABS) <= set(app._panes)
                size = app.screen_stack[0].size
                if built and all(app.services.startup.is_warm(t, size) for t in PREBUILT_TABS):
                    break
            ready.append(time.perf_counter() - began)
            gc.freeze()  # as kubik does a second after its start (KubikApp._import_later_tabs)
            await asyncio.sleep(0.6)  # idle, as a GM reading the first screen
            for key, marker in (
                VISITS.items() if visits is VISITS else [*VISITS.items(), *visits.items()]
            ):
                seen.clear()
                waiting["marker"] = marker
                cpu0, wall0 = time.process_time(), time.perf_counter()
                MEASURING[0] = True
                if profiler is not None:
                    profiler.enable()
                await pilot.press_without_waiting(key)  # type: ignore[attr-defined]
                await asyncio.wait_for(seen.wait(), 10)
                figures.append((waiting["cpu"] - cpu0, waiting["wall"] - wall0))  # type: ignore[operator]
                await asyncio.sleep(0.3)
    finally:
        App._display = original  # type: ignore[method-assign]
    return figures


def _shows(screen, marker: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the screen's lines now hold ``marker`` (checked after the frame is timed)."""
    return any(marker in strip.text for strip in screen._compositor.render_strips())


def main() -> None:
    args = sys.argv[1:]
    starts = int(args[args.index("--starts") + 1]) if "--starts" in args else 7
    out = args[args.index("--profile") + 1] if "--profile" in args else None
    sort = args[args.index("--sort") + 1] if "--sort" in args else "cumulative"
    profiler = cProfile.Profile() if out else None
    if "--no-warm" in args:  # built ahead but not warmed, as before the warm-up (commit 641cedc)
        import tui.app

        tui.app.warm = lambda *a, **k: "warmed"  # type: ignore[assignment]
    visits = AGAIN if "--again" in args else VISITS
    folder = Path(tempfile.mkdtemp(prefix="kubik-visit-"))
    for xdg in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        os.environ[xdg] = str(folder / xdg.lower())  # no one's kubik data, crash reports here
    rows: dict[str, list[tuple[float, float]]] = {key: [] for key in VISITS}
    for i in range(starts + 1):  # start 0 warms imports
        campaign = folder / f"c{i}.json"
        figures = asyncio.run(one_start(campaign, profiler if i else None, visits))
        if visits is AGAIN:
            figures = figures[len(VISITS) + 1 :]  # the second visits only
        if i:
            for key, figure in zip(VISITS, figures, strict=True):
                rows[key].append(figure)
            print(
                f"start {i}: "
                + ", ".join(
                    f"{k} {c * 1000:.1f}" for k, (c, _) in zip(VISITS, figures, strict=True)
                )
            )
    cpu = [c for fig in rows.values() for c, _ in fig]
    wall = [w for fig in rows.values() for _, w in fig]
    for key, fig in rows.items():
        print(
            f"key {key}: CPU median {statistics.median(c for c, _ in fig) * 1000:.1f} ms, "
            f"max {max(c for c, _ in fig) * 1000:.1f}; wall median "
            f"{statistics.median(w for _, w in fig) * 1000:.1f} ms"
        )
    print(f"all tabs warm after {statistics.median(ready):.2f} s (median; max {max(ready):.2f})")
    print(
        f"all: CPU median {statistics.median(cpu) * 1000:.1f} ms, max {max(cpu) * 1000:.1f}; "
        f"wall median {statistics.median(wall) * 1000:.1f}, max {max(wall) * 1000:.1f}"
    )
    if profiler is not None and out:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats(sort).print_stats(70)
        profiler.dump_stats(out + ".prof")
        Path(out).write_text(stream.getvalue())


if __name__ == "__main__":
    main()
