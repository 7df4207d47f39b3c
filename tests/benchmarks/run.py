"""Run every kubik benchmark and print one table: measure, kubik, reference, ratio, target.

    python tests/benchmarks/run.py               # everything (~2 minutes; needs tmux)
    python tests/benchmarks/run.py --only odds   # one part: terminal, odds, notation, storage,
                                                 # paste, big
    python tests/benchmarks/run.py --quick       # fewer runs, for a first look
    python tests/benchmarks/run.py --strict      # exit status 1 when a target is missed

The three parts, side by side with their references in the same run:

* terminal — launch → first paint and key → render of ``kubik`` on the demo campaign in tmux at
  80×24, against a bare Textual app of the same widget kinds (``bare_app.py``); peak RSS;
* odds — every builder state of the four systems, cold and warm, against icepool; the values
  must be identical Fractions;
* notation — exact odds of dice notation (``rules/odds.py``) against icepool on the same
  distributions, values identical; the slowest parse + roll of generated expressions;
* storage — one durable ``upsert_character`` on a campaign of 200 characters and a
  10,000-entry Журнал;
* paste — 10,000 characters pasted as keys into the Бой tab's «Заметка», then Enter, in tmux,
  against a bare Textual app with one field of the same length (``paste.py``);
* big — a campaign of 5,000 characters and a 100,000-entry Журнал: first screen (the app and
  the view), ``party list``, their memory against the campaign's bytes, and the refusal of a
  file beyond the limit (``big_campaign.py``).

Not part of the default test run (``--ignore=tests/benchmarks`` in pyproject). The same targets
as tests: ``python -m pytest tests/benchmarks -o addopts=""``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # run as a script: import the benchmarks as tests.benchmarks.*
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Targets of the issue.
FIRST_PAINT_RATIO = 1.15
KEY_MEDIAN_RATIO = 1.2
KEY_P95_MS = 100.0
FIRST_VISIT_P95_MS = 50.0
RSS_RATIO = 1.3
ODDS_STATE_MS = 1.0
ODDS_SPEEDUP = 5.0
STORE_MS = 10.0
#: 10,000 characters pasted as keys into the fight's note, then Enter, against a bare app.
PASTE_RATIO = 2.0


@dataclass
class Row:
    """One line of the table; ``ok`` is None for a figure without a target."""

    measure: str
    kubik: str
    reference: str
    ratio: str
    target: str
    ok: bool | None

    @property
    def verdict(self) -> str:
        return "—" if self.ok is None else "pass" if self.ok else "FAIL"


def ms(seconds: float, digits: int = 1) -> str:
    return f"{seconds * 1000:.{digits}f} ms"


def terminal_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import terminal as t

    result = t.measure(starts=3 if quick else 7, keys=12 if quick else 40, log=log)
    k, b = result.kubik, result.bare
    rows = []
    kp, bp = t.median(k.first_paint), t.median(b.first_paint)
    rows.append(
        Row(
            f"start: launch → first paint (median of {len(k.first_paint)})",
            ms(kp, 0), f"{ms(bp, 0)} bare app", f"{kp / bp:.2f}×",
            f"≤ {FIRST_PAINT_RATIO}×", kp / bp <= FIRST_PAINT_RATIO,
        )
    )  # fmt: skip
    for what, ks, bs in (
        ("tab switch 2↔1", k.tab_keys, b.tab_keys),
        ("builder → on Сложность", k.builder_keys, b.builder_keys),
    ):
        km, bm = t.median(ks), t.median(bs)
        rows.append(
            Row(
                f"key → render: {what}, median of {len(ks)}",
                ms(km), f"{ms(bm)} bare app", f"{km / bm:.2f}×",
                f"≤ {KEY_MEDIAN_RATIO}×", km / bm <= KEY_MEDIAN_RATIO,
            )
        )  # fmt: skip
        kp95, bp95 = t.p95(ks), t.p95(bs)
        rows.append(
            Row(
                f"key → render: {what}, p95",
                ms(kp95), f"{ms(bp95)} bare app", f"{kp95 / bp95:.2f}×",
                f"≤ {KEY_P95_MS:.0f} ms", kp95 * 1000 <= KEY_P95_MS,
            )
        )  # fmt: skip
        if what.startswith("tab") and result.animated.tab_keys:
            am, bm = t.median(result.animated.tab_keys), t.median(bs)
            rows.append(
                Row(
                    "key → render: tab switch, kubik with TEXTUAL_ANIMATIONS=full, median",
                    ms(am), f"{ms(bm)} bare app", f"{am / bm:.2f}×", "(info)", None,
                )
            )  # fmt: skip
    if k.first_visits:
        fv, bt = t.p95(k.first_visits), t.p95(b.tab_keys)
        rows.append(
            Row(
                f"key → render: first visit of 2, 3, 4, p95 of {len(k.first_visits)}",
                ms(fv), f"{ms(bt)} bare app tab switch", f"{fv / bt:.2f}×",
                f"≤ {FIRST_VISIT_P95_MS:.0f} ms", fv * 1000 <= FIRST_VISIT_P95_MS,
            )
        )  # fmt: skip
    rows.append(
        Row(
            "peak RSS (VmHWM) once the first screen is up",
            f"{k.rss_start:.1f} MiB", f"{b.rss_start:.1f} MiB bare app",
            f"{k.rss_start / b.rss_start:.2f}×", "(info)", None,
        )
    )  # fmt: skip
    rows.append(
        Row(
            f"peak RSS (VmHWM) after all {len(k.tab_keys) + len(k.builder_keys)} keys",
            f"{k.rss:.1f} MiB", f"{b.rss:.1f} MiB bare app", f"{k.rss / b.rss:.2f}×",
            f"≤ {RSS_RATIO}×", k.rss / b.rss <= RSS_RATIO,
        )
    )  # fmt: skip
    return rows


def odds_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import odds as o

    groups = o.measure(log=log)
    rows = []
    for g in groups:
        worst = max(range(g.states), key=lambda i: g.cold[i])
        rows.append(
            Row(
                f"odds {g.name}: {g.states} states, cold, worst",
                ms(g.cold[worst], 3), f"{ms(g.icepool[worst], 3)} icepool", "",
                f"≤ {ODDS_STATE_MS:g} ms", g.cold[worst] * 1000 <= ODDS_STATE_MS,
            )
        )  # fmt: skip
        rows.append(
            Row(
                f"odds {g.name}: all states, cold, total",
                ms(sum(g.cold), 2), f"{ms(sum(g.icepool), 1)} icepool",
                f"{g.speedup:.1f}× faster",
                f"≥ {ODDS_SPEEDUP:g}× faster", g.speedup >= ODDS_SPEEDUP,
            )
        )  # fmt: skip
        rows.append(
            Row(
                f"odds {g.name}: stepping, worst",
                ms(max(g.stepped), 3), "", "",
                "(info)", None,
            )
        )  # fmt: skip
    warm = [w for g in groups for w in g.warm]
    total = sum(g.states for g in groups)
    bad = [m for g in groups for m in g.mismatches]
    rows.append(
        Row(
            f"odds: warm (cached), worst of {total} states",
            ms(max(warm), 4), "", "", f"≤ {ODDS_STATE_MS:g} ms", max(warm) * 1000 <= ODDS_STATE_MS,
        )
    )  # fmt: skip
    rows.append(
        Row(
            "odds: exact values equal icepool's",
            f"{total - len(bad)}/{total} states", "icepool Fractions", "",
            "identical", not bad,
        )
    )  # fmt: skip
    for line in bad[:10]:
        log(f"  MISMATCH {line}")
    return rows


def storage_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import storage as s

    f = s.measure(runs=10 if quick else s.RUNS, log=log)
    floor = statistics.median(f.floor)
    return [
        Row(
            f"store: durable upsert_character, median of {len(f.times)}",
            ms(f.median, 2), f"{ms(floor, 2)} bare atomic write", f"{f.median / floor:.1f}×",
            f"≤ {STORE_MS:g} ms", f.median * 1000 <= STORE_MS,
        ),
        Row(
            "store: durable upsert_character, p95",
            ms(f.p95, 2), "", "", "(info)", None,
        ),
    ]  # fmt: skip


def notation_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import notation as n

    figures = n.measure(log=log, quick=quick)
    rows = []
    for c in figures.cases:
        limit = n.SMALL_MS if c.dice <= n.SMALL_DICE else n.ANY_MS
        speedup = c.icepool / c.kubik
        rows.append(
            Row(
                f"notation {c.text} ({c.dice} dice), cold",
                ms(c.kubik, 2), f"{ms(c.icepool, 1)} icepool", f"{speedup:.1f}× faster",
                f"≤ {limit:g} ms, ≥ {n.SPEEDUP:g}×, identical",
                c.kubik * 1000 <= limit and speedup >= n.SPEEDUP and c.identical,
            )
        )  # fmt: skip
    rows.append(
        Row(
            f"notation: {figures.generated_count} generated expressions, worst parse+roll",
            ms(figures.generated_worst, 2), "", "", f"≤ {n.GENERATED_MS:g} ms",
            figures.generated_worst * 1000 <= n.GENERATED_MS,
        )
    )  # fmt: skip
    rows.append(
        Row(
            f"notation: {figures.odds_accepted} generated expressions of ≤ {n.SMALL_DICE} dice "
            "the bound accepts, worst exact odds",
            ms(figures.odds_worst, 2), "", "", f"≤ {n.SMALL_MS:g} ms",
            figures.odds_worst * 1000 <= n.SMALL_MS,
        )
    )  # fmt: skip
    return rows


def big_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import big_campaign as b

    f = b.measure(runs=3 if quick else 5, log=log)
    screen, demo = statistics.median(f.first_screen), statistics.median(f.first_screen_demo)
    listing, view = statistics.median(f.party_list), statistics.median(f.view_screen)
    cpu = statistics.median(f.first_screen_cpu)
    cpu_demo = statistics.median(f.first_screen_cpu_demo)
    app_extra = f.extra(f.first_screen_rss, f.first_screen_rss_demo)
    list_extra = f.extra(f.party_list_rss, f.party_list_rss_demo)
    on_disk = f"{f.file_bytes / 2**20:.1f} MiB on disk"
    alone = f.campaign_bytes / 2**20
    return [
        Row(
            f"big campaign ({b.CHARACTERS} characters, {b.LOG_ENTRIES} Журнал entries): "
            "launch → first screen, median",
            f"{screen:.2f} s", f"{demo:.2f} s demo campaign", f"+{screen - demo:.2f} s",
            f"≤ {b.FIRST_SCREEN_S:g} s", screen <= b.FIRST_SCREEN_S,
        ),
        Row(
            "big campaign: the app's CPU seconds when its first screen is seen, median",
            f"{cpu:.2f} s", f"{cpu_demo:.2f} s demo campaign", f"+{cpu - cpu_demo:.2f} s",
            "(info: the load aside)", None,
        ),
        Row(
            "big campaign: kubik --view → first screen, median",
            f"{view:.2f} s", "", "", f"≤ {b.FIRST_SCREEN_S:g} s", view <= b.FIRST_SCREEN_S,
        ),
        Row(
            "big campaign: kubik party list, median",
            f"{listing:.2f} s", f"{statistics.median(f.party_list_cpu):.2f} s CPU", "",
            f"≤ {b.PARTY_LIST_S:g} s", listing <= b.PARTY_LIST_S,
        ),
        Row(
            "big campaign: the app's peak RSS at its first screen, beyond the demo's",
            f"{f.first_screen_rss - f.first_screen_rss_demo:.1f} MiB", on_disk,
            f"{app_extra:.2f}× ({(f.first_screen_rss - f.first_screen_rss_demo) / alone:.1f}× "
            "the campaign file alone)",
            f"≤ {b.MEMORY_RATIO:g}× on disk", app_extra <= b.MEMORY_RATIO,
        ),
        Row(
            "big campaign: party list's peak RSS, beyond the demo's",
            f"{f.party_list_rss - f.party_list_rss_demo:.1f} MiB", on_disk,
            f"{list_extra:.2f}× ({(f.party_list_rss - f.party_list_rss_demo) / alone:.1f}× "
            "the campaign file alone)",
            f"≤ {b.MEMORY_RATIO:g}× on disk", list_extra <= b.MEMORY_RATIO,
        ),
        Row(
            "a campaign file beyond the limit: refused (party list)",
            f"{f.refusal:.2f} s", "", "", f"≤ {b.REFUSAL_S:g} s, the reason said",
            f.refusal <= b.REFUSAL_S and "слишком велик" in f.refusal_said,
        ),
    ]  # fmt: skip


def paste_rows(quick: bool, log: Callable[[str], None]) -> list[Row]:
    from tests.benchmarks import paste as p

    f = p.measure(runs=2 if quick else 3, log=log)
    km, bm = statistics.median(f.kubik), statistics.median(f.bare)
    return [
        Row(
            f"paste: {p.CHARS} keys into Бой's «Заметка», Enter → next declarer, median",
            ms(km, 0), f"{ms(bm, 0)} bare app", f"{f.ratio:.2f}×",
            f"≤ {PASTE_RATIO}×", f.ratio <= PASTE_RATIO,
        )
    ]  # fmt: skip


PARTS = {
    "terminal": terminal_rows,
    "odds": odds_rows,
    "notation": notation_rows,
    "storage": storage_rows,
    "big": big_rows,
    "paste": paste_rows,
}


def table(rows: list[Row]) -> str:
    head = ("measure", "kubik", "reference", "ratio", "target", "result")
    cells = [head] + [(r.measure, r.kubik, r.reference, r.ratio, r.target, r.verdict) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = []
    for n, cell in enumerate(cells):
        lines.append(
            "| " + " | ".join(v.ljust(w) for v, w in zip(cell, widths, strict=True)) + " |"
        )
        if n == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=list(PARTS), action="append", help="run only this part")
    parser.add_argument("--quick", action="store_true", help="fewer runs (rougher figures)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    started = time.perf_counter()
    rows: list[Row] = []
    for name, part in PARTS.items():
        if args.only and name not in args.only:
            continue
        log(f"{name} …")
        try:
            rows += part(args.quick, log)
        except (RuntimeError, TimeoutError) as err:  # e.g. no tmux, a screen that never came
            log(f"{name}: {err}")
            rows.append(Row(f"{name}: not measured", str(err).splitlines()[0], "", "", "", False))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"kubik benchmarks — Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load {load:.2f}, {time.perf_counter() - started:.0f} s"
    )
    print(table(rows))
    missed = [r for r in rows if r.ok is False]
    print(f"{len(missed)} of {sum(r.ok is not None for r in rows)} targets missed.")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
