"""What the luck ledger adds to a builder's roll: ``tui.bridge.luck.with_luck`` on each
system's check.

    python tests/benchmarks/ledger.py

Target (issue 19): at most 1 ms added per builder check, the odds tables warm as they are after
the builder showed the live odds (which call the same cached functions).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rules import drevo, ide4, starately, wod
from tui.bridge.luck import with_luck

TARGET_MS = 1.0
RUNS = 300


def checks(rng: random.Random) -> dict[str, Callable[[], dict[str, Any]]]:
    """Each system's check as its builder logs it, rolled anew on every call."""

    def drevo_check() -> dict[str, Any]:
        check = drevo.OneSidedCheck(drevo.Side(rng.randint(0, 4), name="Я"), rng.randint(-2, 3))
        return {"system": "drevo", **drevo.roll_one_sided(check, rng).to_dict()}

    def ide4_check() -> dict[str, Any]:
        inp = ide4.CheckInput(
            attribute="Сила", attribute_level=3, base=rng.randint(1, 7), energy_dice=2,
            energy_pool=100, actor="Я",
        )  # fmt: skip
        return {**ide4.roll(ide4.start(inp), rng).to_dict(), "event": "roll"}

    def starately_check() -> dict[str, Any]:
        side = starately.Side(rng.randint(-1, 2), skill=1, boons=rng.randint(0, 1), name="Я")
        check = starately.Check(side, rng.randint(6, 12))
        return {"system": "starately", **starately.roll(check, rng).to_dict()}

    def wod_check() -> dict[str, Any]:
        pool = wod.Pool(rng.randint(1, 5), rng.randint(0, 4), name="Я")
        return {"system": "wod", **wod.roll_pool(pool, rng).to_dict()}

    return {
        "drevo": drevo_check,
        "ide4": ide4_check,
        "starately": starately_check,
        "wod": wod_check,
    }


def measure() -> dict[str, float]:
    """Return the median milliseconds ``with_luck`` adds, per system (warm caches)."""
    rng = random.Random(19)
    out = {}
    for system, make in checks(rng).items():
        datas = [make() for _ in range(RUNS)]
        for data in datas[:50]:
            with_luck("check", "Я", data)  # warm: the builder's live odds did this already
        times = []
        for data in datas:
            start = time.perf_counter()
            with_luck("check", "Я", data)
            times.append((time.perf_counter() - start) * 1000)
        out[system] = statistics.median(times)
    return out


if __name__ == "__main__":
    for system, ms in measure().items():
        print(f"{system:10} {ms:.3f} ms (target ≤ {TARGET_MS} ms)")
