"""Where a start's time goes, from launch to the first paint (a tool for finding regressions).

Run it in a terminal — tmux at 80×24 for figures comparable to the benchmark::

    python tests/benchmarks/profile_start.py --out /tmp/k.txt kubik --campaign /tmp/c.json
    python tests/benchmarks/profile_start.py --out /tmp/b.txt bare
    python tests/benchmarks/profile_start.py --phases --out /tmp/k.txt kubik --campaign /tmp/c.json

The app quits itself right after its first screen is drawn and writes to ``--out`` either a
cProfile listing (``--sort cumulative`` by default, ``--sort tottime`` for self time) or, with
``--phases`` (no profiler, so real times), milliseconds since the interpreter started for:
imports done, app built, app running (compose, mount and styles done), first paint; and how
many widgets the screen has. ``--after-ready`` profiles only from «running» to the first paint.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

T0 = time.perf_counter()


def main() -> None:
    args = sys.argv[1:]
    options = {"--sort": "cumulative", "--out": "start.prof.txt"}
    for flag in options:
        if flag in args:
            i = args.index(flag)
            options[flag] = args[i + 1]
            del args[i : i + 2]
    phases = "--phases" in args
    if phases:
        args.remove("--phases")
    late = "--after-ready" in args  # profile only from «running» to the first paint
    if late:
        args.remove("--after-ready")
    which, rest = args[0], args[1:]
    profiler = cProfile.Profile()
    if not phases and not late:
        profiler.enable()
    marks: dict[str, float] = {}
    widgets: list[int] = []
    from textual.app import App

    original_ready = App._ready

    async def _ready(self: App) -> None:  # type: ignore[type-arg]
        await original_ready(self)
        marks["running"] = time.perf_counter()
        if late and not phases:
            profiler.enable()

        def done() -> None:
            marks["painted"] = time.perf_counter()
            widgets.append(len(list(self.screen.walk_children())))
            self.exit()

        self.call_after_refresh(done)

    App._ready = _ready  # type: ignore[method-assign]
    original_run = App.run

    def run(self: App, *a, **k):  # type: ignore[no-untyped-def, type-arg]
        marks["built"] = time.perf_counter()
        return original_run(self, *a, **k)

    App.run = run  # type: ignore[method-assign]
    if which == "kubik":
        import tui.app  # noqa: F401 - what ``kubik`` imports before it builds the app
        from tui.cli.kubik import main as kubik_main

        marks["imported"] = time.perf_counter()
        kubik_main(rest)
    else:
        sys.path.insert(0, str(Path(__file__).parent))
        from bare_app import BareApp

        marks["imported"] = time.perf_counter()
        BareApp().run()
    profiler.disable()
    out = io.StringIO()
    steps = ("imported", "built", "running", "painted")
    print(
        " ".join(f"{s}={1000 * (marks[s] - T0):.0f}" for s in steps if s in marks),
        end=" ",
        file=out,
    )
    print(f"widgets={widgets[0] if widgets else '?'}", file=out)
    if not phases:
        pstats.Stats(profiler, stream=out).sort_stats(options["--sort"]).print_stats(80)
    Path(options["--out"]).write_text(out.getvalue())


if __name__ == "__main__":
    main()
