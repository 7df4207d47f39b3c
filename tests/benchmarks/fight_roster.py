"""The Бой tab's roster with 5,000 characters: how long its first build and a redraw take.

    python tests/benchmarks/fight_roster.py

Before (issue 30's review): the roster built a row for every character — 1.9 s for a
redraw of 5,000 and 2 s for the tab's first build, headless. The target: the tab built and a
redraw (a sheet changed elsewhere) each within :data:`TARGET_S`, as the Партия tab holds its
bounded rows (the filter finds the rest).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.benchmarks.big_campaign import build  # noqa: E402

CHARACTERS = 5_000
#: Seconds for the Бой tab's first build, and for one redraw of its roster.
TARGET_S = 0.3


async def _measure(path: Path, redraws: int) -> tuple[float, list[float]]:
    from tui.app import make_app

    app = make_app(path, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        t0 = time.perf_counter()
        pane = await app.ensure_pane("combat")
        built = time.perf_counter() - t0
        await pilot.press("2")
        await pilot.pause()
        times = []
        characters = app.store.characters()
        for n in range(redraws):
            changed = [*characters]
            first = changed[n % len(changed)]
            changed[n % len(changed)] = type(first)(**{**vars(first), "name": f"{first.name} {n}"})
            t0 = time.perf_counter()
            pane.show(changed)
            await pilot.pause()
            times.append(time.perf_counter() - t0)
        return built, times


def measure(redraws: int = 5) -> tuple[float, list[float]]:
    """Return the seconds of the tab's first build and of each roster redraw."""
    with tempfile.TemporaryDirectory(prefix="kubik-roster-") as folder:
        path = Path(folder) / "big.json"
        build(path, CHARACTERS, 10)
        return asyncio.run(_measure(path, redraws))


def main() -> None:
    built, times = measure()
    print(
        f"Бой, {CHARACTERS} персонажей: вкладка {built:.2f} с, перерисовка "
        f"{statistics.median(times):.2f} с (медиана), цель ≤ {TARGET_S} с"
    )


if __name__ == "__main__":
    main()
