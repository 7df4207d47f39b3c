"""Where one durable ``Store.upsert_character`` spends its time (a tool for finding regressions).

    python tests/benchmarks/profile_store.py                 # cProfile, cumulative
    python tests/benchmarks/profile_store.py --sort tottime  # self time
    python tests/benchmarks/profile_store.py --runs 200 --out /tmp/store.txt

Builds the storage benchmark's campaign (``storage.py``: 200 characters, a 10,000-entry Журнал,
a full undo history), then profiles ``--runs`` changes of one character's wounds. The first
line gives the median wall time per change without the profiler, so the listing can be read
against the figure the benchmark reports.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rules.drevo.sheet import DrevoSheet

ROOT = Path(__file__).resolve().parents[2]
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script: import the benchmarks as tests.benchmarks.*
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> None:
    from tests.benchmarks.storage import build_campaign

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--out", type=Path, help="write the listing here instead of stdout")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="kubik-profile-store-"))
    try:
        store, target = build_campaign(folder / "campaign.json")
        step = 0

        def change() -> None:
            nonlocal step
            step += 1
            store.upsert_character(target.edit_sheet(DrevoSheet, wounds={"light": step % 3}))

        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            change()
            times.append(time.perf_counter() - t0)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.runs):
            change()
        profiler.disable()
        size = (folder / "campaign.json").stat().st_size
        store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = io.StringIO()
    print(
        f"{args.runs} changes, {size // 1024} KiB campaign file, "
        f"median {statistics.median(times) * 1e3:.2f} ms without the profiler",
        file=out,
    )
    pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(args.lines)
    if args.out:
        args.out.write_text(out.getvalue())
    else:
        print(out.getvalue())


if __name__ == "__main__":
    main()
