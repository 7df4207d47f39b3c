"""Shared test setup: no animations, a frozen clock, a temporary campaign, seeded dice."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from types import FunctionType, MethodType
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from hypothesis import settings

# No example has a deadline: hypothesis's default (200 ms an example) is a timed unit test,
# and a 0.1 ms example took 258 ms on a machine busy with another job, failing the run
# («Unreliable test timings»). How fast things are: tests/benchmarks/.
settings.register_profile("kubik", deadline=None)
settings.load_profile("kubik")
# ``--hypothesis-profile=thorough`` (README): ten times the examples, for a change to the rules
# or the store; the default run is sized for the two-minute suite (tests/hypo.py).
settings.register_profile("thorough", parent=settings.get_profile("kubik"), max_examples=1000)

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")


def _temp_files_in_memory() -> None:
    """Keep the run's temporary files (tmp_path, the folders below, what subprocesses make) in
    memory where the machine has it (``/dev/shm``). The store writes durably — ``fsync`` of the
    file and of its folder, ~7 ms a write on this disk — and a pilot test waits for each write
    as a GM's next key does; in memory the same calls return at once. No test here is about a
    power cut (the kill tests kill a process: the page cache survives that either way).

    Each process of the run (the main one, each xdist worker) puts them in a folder of its own
    that goes when it ends, with whatever the tests and their subprocesses left there: the
    stateful machines make a campaign folder per example, and in memory a day of runs had
    left 51,000 folders (3.9 GB of RAM) in ``/dev/shm``."""
    base = None  # the system's temporary folder
    shm = "/dev/shm"
    if os.environ.get("KUBIK_TEST_TMP") != "disk":  # the disk's own timing, when it matters
        try:
            usable = os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK)
            usable = usable and shutil.disk_usage(shm).free > 2**30
        except OSError:
            usable = False
        if usable:
            base = shm
            os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", shm)  # pytest's tmp_path (basetemp)
    # (short: the seats' sockets are made below it, and a socket's path has ~100 bytes at most)
    run = tempfile.mkdtemp(prefix="kt-", dir=base)
    atexit.register(shutil.rmtree, run, ignore_errors=True)
    os.environ["TMPDIR"] = tempfile.tempdir = run  # this process and its subprocesses


_temp_files_in_memory()
# A crash report a test provokes (or a bug it finds) goes to a folder of this run, never to the
# GM's ~/.local/state/kubik/crashes; subprocesses inherit it. Tests of the report set their own.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="kubik-test-state-")
# Likewise the data folder: an app a test starts makes its seats folder and socket beside the
# default campaign (tui/seats/tokens.py); without this they landed in the GM's own
# ~/.local/share/kubik/seats, and a socket left there outlived the run.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="kubik-test-data-")
# (Both in this process's temporary folder, which goes with it.)
if "textual.constants" in sys.modules:  # the snapshot plugin imported Textual before us
    _constants = sys.modules["textual.constants"]
    _constants.TEXTUAL_ANIMATIONS = _constants._get_textual_animations()  # type: ignore[misc]

# Keep compiled test modules (pytest's assertion rewrite) and project modules between runs,
# even where the environment says PYTHONDONTWRITEBYTECODE: without the cache every run, and
# every xdist worker in it, parses and rewrites each test file again (seconds of CPU each).
sys.dont_write_bytecode = False

FROZEN_AT = datetime(2026, 11, 29, 20, 0, 0, tzinfo=timezone(timedelta(hours=3)))


def frozen_clock() -> datetime:
    """Return the same instant every time, so snapshots and logs are stable."""
    return FROZEN_AT


def _wait_for_store_writes() -> None:
    """Make the pilot wait for the app's store writes as it waits for its messages.

    The app writes in worker threads (the UI never waits for the campaign's lock); a test
    that presses a key and then reads the file needs that write to be over, as a GM's next
    key would find it.
    """
    import asyncio

    from textual._context import active_app
    from textual.pilot import Pilot

    if getattr(Pilot, "_waits_for_writes", False):
        return
    press = Pilot.press

    async def settle(pilot: Pilot) -> None:
        # The app's ordered writes (KubikApp: its services' writer; a test's own app may
        # have its own, or none).
        done = getattr(getattr(pilot.app, "services", pilot.app), "writes_done", None)
        if done is not None:
            await done()
        await _until_quiet(pilot.app)  # thread workers too, and what they hand back

    async def pressed(self: Pilot, *keys: str) -> None:
        for key in keys:  # each key finds the last one's write over, as a GM's next key does
            if key.startswith("wait:"):
                await press(self, key)
            else:  # as App._press_keys, and without its waits for a quiet moment of CPU
                _send_key(self.app, key)
                await self.app._animator.wait_until_complete()
            await settle(self)

    async def paused(self: Pilot, delay: float | None = None) -> None:
        # As Pilot.pause, without its waits for a quiet moment of CPU and for every widget
        # (see _send_key): settle waits for the same work.
        await settle(self)
        if delay is not None:
            await asyncio.sleep(delay)
        # As the screen's own update timer would, in its app's context: from another app's
        # (a test that runs a GM and seats) the screen is not current there, and the call
        # only paused its timer, leaving a layout due until the screen's next message.
        token = active_app.set(self.app)
        try:
            self.app.screen._on_timer_update()
        finally:
            active_app.reset(token)
        await settle(self)

    Pilot.press, Pilot.pause = pressed, paused  # type: ignore[method-assign]
    Pilot.press_without_waiting = press  # type: ignore[attr-defined]
    Pilot._waits_for_writes = True  # type: ignore[attr-defined]


def _send_key(app: Any, key: str) -> None:
    """Send ``key`` as Textual's pilot does (``App._press_keys``), without its waits, and
    straight into the app's queue.

    Textual hands the key to the driver, which posts it from a task of its own
    (``run_coroutine_threadsafe``): for a few turns of the loop the key is nowhere to be seen,
    so Textual then sleeps until a 1/50 s window of CPU is quiet, twice, and posts a callback
    to every widget of the screen and waits for them all. Posted here, the key is in the
    queue at once, and :func:`_until_quiet` waits for exactly the work it makes. The windows
    of quiet CPU were most of a key's time, and longer the busier the machine (a process
    that another one keeps off the CPU looks quiet too, and one that shares it rarely does):
    the suite took 66.5–67 s against 56.7–59.5 s without them, back to back."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    app.post_message(event)


def _busy(app: Any) -> bool:
    """Whether the app still has work queued: a message or callback waiting in any of its
    nodes, a refresh or an after-refresh callback due on its screen, a thread worker running
    (odds, luck stats, the clipboard's question: a GM's next key finds their answer on the
    screen). Textual's own wait looks only for a quiet moment of CPU, which a descheduled
    process on a busy machine also shows."""
    if not app.is_running or app._exit:
        return False
    if app._resize_event is not None:  # a new size, sent to the screens on a timer (1/120 s)
        return True
    for node in (app, *list(app._registry)):
        if node._closed or node._closing:
            continue
        if node._next_callbacks or not node._message_queue.empty():
            return True
    if _watch_calling(app):  # what the file watch picked up, on its way to the screen
        return True
    screen = app.screen
    if (
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._recompose_required
        or screen._dirty_widgets
        or screen._callbacks
    ):
        return True
    return any(w._thread_worker and not w.is_finished for w in list(app.workers))


def _watch_calling(app: Any) -> bool:
    """Whether ``app``'s campaign watch is in its callback (:func:`_count_watch_calls`)."""
    services = getattr(app, "services", None)  # the GM's app; the players' view keeps its own
    if services is not None:
        watch = getattr(getattr(services, "watch", None), "current", None)
    else:
        watch = getattr(app, "_watch", None)
    return bool(getattr(watch, "calling", 0))


def _count_watch_calls() -> None:
    """Count the campaign watch's callbacks in flight, for :func:`_busy`.

    The watch's thread (``tui.store.watch``) refreshes the store and hands the redraw to the UI
    thread, which it waits for; a test's own ``app._refresh_store()`` (what the watch or the
    timer does) returns at once while that thread is refreshing (``Store.refresh``: the write
    mutex is taken), and the pause after it found nothing queued yet: the screen still showed
    the campaign as it was before another window's write. A busy machine does it now and then
    (the watch fires 10 ms after the write: the test's thread kept off the CPU that long, the
    watch's kept off it while it reads the file). Counted from before the mutex is taken to
    after the redraw it waits for, the pilot waits for it too."""
    from tui.store.watch import CampaignWatch

    if getattr(CampaignWatch, "_counted", False):
        return
    call = CampaignWatch._call

    def counted(self: CampaignWatch) -> None:
        self.calling += 1  # type: ignore[attr-defined]  # (only the watch thread changes it)
        try:
            call(self)
        finally:
            self.calling -= 1  # type: ignore[attr-defined]

    CampaignWatch.calling = 0  # type: ignore[attr-defined]
    CampaignWatch._call = counted  # type: ignore[method-assign]
    CampaignWatch._counted = True  # type: ignore[attr-defined]


_count_watch_calls()


async def _until_quiet(app: Any, timeout: float = 10.0) -> None:
    """Wait until :func:`_busy` has nothing to say twice in a row (or ``timeout`` passed)."""
    import asyncio
    import time

    end = time.monotonic() + timeout
    quiet = 0
    while quiet < 2 and time.monotonic() < end:
        if _busy(app):
            quiet = 0
            await asyncio.sleep(0.001)
        else:
            quiet += 1
            await asyncio.sleep(0)


_wait_for_store_writes()


async def until(seen: Any, timeout: float = 5.0) -> None:
    """Wait until ``seen()`` is true (or ``timeout`` passed: the test's next assert then says
    what is missing), looking every 10 ms. For what comes while the pilot must not wait for
    the app's writes (a write held by another kubik's lock): a fixed sleep there was too short
    on a busy machine."""
    import asyncio
    import time

    end = time.monotonic() + timeout
    while not seen() and time.monotonic() < end:
        await asyncio.sleep(0.01)


def _steady_input_cursors() -> None:
    """Give every Input a cursor that does not blink: on a busy machine a snapshot taken more
    than half a second after the focus caught the cursor off, and failed though nothing
    changed. (The cursor shows as in the blink's first half, so the stored SVGs stay.)"""
    from textual.widgets import Input

    if getattr(Input, "_steady_in_tests", False):
        return
    init = Input.__init__

    def steady(self: Input, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        self.cursor_blink = False

    Input.__init__ = steady  # type: ignore[method-assign]
    Input._steady_in_tests = True  # type: ignore[attr-defined]


_steady_input_cursors()


@pytest.fixture
def campaign_path(tmp_path):
    """Return a path for a new campaign (the store fills it with the demo party)."""
    return tmp_path / "campaign.json"


@pytest.fixture
def make_test_app(campaign_path):
    """Build the app on a temporary demo campaign with seeded dice and a frozen clock."""
    from tui.app import make_app

    def factory(seed: int = 7, path=None, system: str = "drevo"):
        return make_app(path or campaign_path, system=system, seed=seed, clock=frozen_clock)

    return factory


#: Allocations between two young-generation collections while the tests run (Python's default
#: is 700). Pilot tests make and drop hundreds of thousands of small objects per test (strips,
#: segments, styles); at the default the collector took ~15% of the suite's CPU, at 20,000 ~7%.
#: Most of what is left was the young collections scanning a test's still-living app again and
#: again, and the older ones the same objects once more: with young collections this rare, and
#: the test's garbage collected once when it ends (:func:`pytest_runtest_protocol`), ~4%.
GC_YOUNG = 200_000


#: How long the pilot's idle test watches the app for CPU use (Textual's is 1/50 s) and how
#: often a screen refreshes (Textual's is 1/60 s). The window must be longer than a refresh:
#: a refresh due is work the test would otherwise not wait for.
IDLE_WINDOW = 0.005
REFRESH_PERIOD = 0.002


def _quick_pilot() -> None:
    """Shorten the waits for a quiet window of CPU (``textual._wait.wait_for_idle``) that
    Textual's pilot still makes here: a click, a ``wait:`` key and the snapshots'
    ``wait_for_scheduled_animations`` (keys and pauses wait for the app's work instead:
    :func:`_send_key`). A window of :data:`IDLE_WINDOW`, with the screens refreshed every
    :data:`REFRESH_PERIOD`, waits for the same work as Textual's 1/50 s."""
    import textual._wait
    import textual.screen

    textual._wait.SLEEP_GRANULARITY = IDLE_WINDOW
    textual._wait.SLEEP_IDLE = IDLE_WINDOW / 20  # Textual's ratio
    textual.screen.UPDATE_PERIOD = REFRESH_PERIOD  # type: ignore[misc]


def _frames_only_when_looked_at() -> None:
    """Compose a headless app's frames only when a test looks at the screen.

    A headless app composes the frame of every refresh and then drops it (``App._display``
    writes nothing without a terminal): about a quarter of the suite's CPU. A test that reads
    the screen (``export_screenshot``, the snapshots) composes the whole frame itself from the
    same widgets' lines, so the dropped frames change nothing it can see. A test about what a
    refresh draws asks for every frame with the ``every_frame`` fixture."""
    from textual.screen import Screen

    if getattr(Screen, "_frames_when_looked_at", False):
        return
    refresh = Screen._compositor_refresh

    def when_looked_at(self: Screen) -> None:  # type: ignore[type-arg]
        app = self.app
        if EVERY_FRAME[0] or not app.is_headless or app.is_inline or self is not app.screen:
            refresh(self)
            return
        self._compositor._dirty_regions.clear()
        self._dirty_widgets.clear()
        app._update_mouse_over(self)

    Screen._compositor_refresh = when_looked_at  # type: ignore[method-assign]
    Screen._frames_when_looked_at = True  # type: ignore[attr-defined]


#: Whether the running test wants every frame composed (the ``every_frame`` fixture).
EVERY_FRAME = [False]


@pytest.fixture
def every_frame():
    """Compose every refresh's frame, as a terminal's app does (tests of what a refresh draws)."""
    EVERY_FRAME[0] = True
    yield
    EVERY_FRAME[0] = False


def _css_parsed_once() -> None:
    """Parse each piece of CSS once per test process, not once per app.

    Textual keeps what a stylesheet parsed for that app only (``Stylesheet._parse_cache``),
    so every app a test starts parses all its widgets' CSS again: ~50 ms of a start's
    ~180 ms of CPU. The parse is a function of the text, where it came from and the theme's
    variables, which are all in the key here; the rules are read, never changed, after it."""
    from textual.css.stylesheet import Stylesheet

    if getattr(Stylesheet, "_parsed_once", False):
        return
    parse = Stylesheet._parse_rules
    parsed: dict[tuple[Any, ...], Any] = {}
    # The theme's variables (~200) as a small number: sorting and hashing them on every parse
    # cost more than the lookup. Textual replaces the dict (``set_variables``), never edits it.
    numbers: dict[tuple[tuple[str, str], ...], int] = {}
    last: list[Any] = [None, 0]

    def variables_number(variables: dict[str, str]) -> int:
        if last[0] is not variables:
            items = tuple(sorted(variables.items()))
            last[:] = [variables, numbers.setdefault(items, len(numbers))]
        return last[1]

    def once(self: Stylesheet, css: str, read_from: Any, *args: Any, **kwargs: Any) -> Any:
        variables = variables_number(self._variables)
        key = (css, read_from, args, tuple(sorted(kwargs.items())) if kwargs else (), variables)
        if key not in parsed:
            parsed[key] = parse(self, css, read_from, *args, **kwargs)
        return parsed[key]

    Stylesheet._parse_rules = once  # type: ignore[method-assign]
    Stylesheet._parsed_once = True  # type: ignore[attr-defined]


def _parameters_counted_once() -> None:
    """Count a callback's parameters once per function, not once per call.

    Textual calls each callback with as many arguments as it takes, and keeps the count on the
    callable it was given (``textual._callback.count_parameters``). The callbacks it makes
    itself are mostly new ``partial`` objects (``call_later``, ``call_next``, the refreshes),
    so every call read the wrapped function's signature anew: ~2% of the pilot tests' CPU.
    Here the count of a function, and of a method bound to any object, is kept with that
    function (weakly: a test's closures still go with it); anything else is counted as before.
    """
    import textual._callback as callback

    if getattr(callback, "_counted_once", False):
        return
    count = callback._count_parameters
    plain: WeakKeyDictionary[Any, int] = WeakKeyDictionary()
    bound: WeakKeyDictionary[Any, int] = WeakKeyDictionary()

    def once(func: Any) -> int:
        kind = type(func)
        if kind is FunctionType:
            table, key = plain, func
        elif kind is MethodType and type(func.__func__) is FunctionType:
            table, key = bound, func.__func__  # a bound signature depends on its function only
        else:
            return count(func)
        known = table.get(key)
        if known is None:
            known = table[key] = count(func)
        return known

    callback._count_parameters = once
    callback._counted_once = True  # type: ignore[attr-defined]


def pytest_addoption(parser):
    parser.addoption(
        "--reseed",
        type=int,
        default=None,
        metavar="K",
        help="give every seeded random source another seed (the seed mixed with K): a test "
        "whose verdict flips passed by the luck of its seed (README, For developers)",
    )


def _reseed(k: int) -> None:
    """Make ``random.Random(n)`` and ``.seed(n)`` draw another sequence for each whole ``n``,
    the same one each time (``n`` and ``k`` hashed together), so the tests' scripted seeds
    become other seeds without a test changing."""
    import hashlib
    import random

    plain = random.Random.seed

    def seed(self: random.Random, a: Any = None, version: int = 2) -> None:
        if isinstance(a, int) and not isinstance(a, bool):
            digest = hashlib.sha256(f"{k}:{a}".encode()).digest()
            a = int.from_bytes(digest[:8], "big")
        plain(self, a, version)

    random.Random.seed = seed  # type: ignore[method-assign]


def pytest_configure(config):
    """The pilot's speed-ups (run for pytest only: the benchmarks import this module too)."""
    _quick_pilot()
    _frames_only_when_looked_at()
    _css_parsed_once()
    _parameters_counted_once()
    if config.getoption("--reseed", None) is not None:
        _reseed(config.getoption("--reseed"))


def slow_first(items: list[Any], workers: int = 1) -> list[Any]:
    """Return ``items`` with the tests marked ``slow`` at the head of the first workers' runs,
    each group in its own order.

    A slow test waits seconds of real time (a subprocess, a timeout, a lock) with the CPU
    idle. xdist's worksteal hands each of the ``workers`` a run of the list (its first quarter
    to the first of four, and so on) and the idle ones take from the others' *ends*, so a slow
    test late in the list kept one worker waiting after the rest were done
    (``test_prebuild_waits_while_the_gm_types`` ended a run 3.4 s after the others). First in
    the list, all 22 of them (~60 s of waiting) were one worker's run, that worker's 60 s the
    floor of the whole suite. So they are dealt, in turn, to the heads of the first half of the
    runs: their waits overlap the CPU work of the other workers, and no run holds them all."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    rest = [item for item in items if item.get_closest_marker("slow") is None]
    if workers < 2:
        return slow + rest
    sizes, left = [], len(items)
    for k in range(workers):  # as xdist's WorkStealingScheduling.check_schedule deals them
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    waiting = max(1, workers // 2)  # the runs that start with slow tests
    heads: list[list[Any]] = [[] for _ in range(workers)]
    for i, item in enumerate(slow):
        heads[i % waiting].append(item)
    ordered: list[Any] = []
    for size, head in zip(sizes, heads, strict=True):
        ordered += head
        take = max(0, size - len(head))
        ordered += rest[:take]
        rest = rest[take:]
    return ordered + rest


def _xdist_workers(config: Any) -> int:
    """How many xdist workers share the run, as a worker sees it (1 outside xdist). A worker's
    own ``dist`` option reads "no"; the order above suits worksteal, and no other mode minds."""
    workerinput = getattr(config, "workerinput", None)
    return 1 if workerinput is None else int(workerinput.get("workercount", 1))


def pytest_collection_modifyitems(config, items):
    items[:] = slow_first(items, _xdist_workers(config))


def pytest_collection_finish(session):
    """Make the collector cheaper for the run (it changes no result, only when memory is freed):
    what the imports and the collection made lives for the whole run, so it is frozen out of
    every later full collection, and young collections come less often (:data:`GC_YOUNG`)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """After each test's fixtures are torn down, collect what the test dropped, once, and freeze
    what it left alive (caches, the next tests' fixtures), so that no later collection scans it
    again. A finalizer that fails in this collection is reported with the next test's setup
    (before, with whichever test the collector happened to run in).

    And give the rules their packaged tables back: an app whose campaign has settings hands
    them to ``rules.data`` (process-wide) and a test that ends with it open left them there.
    Run after one such test (test_warm's Мир Тьмы case, «от 3 успехов»), a test that reads
    the packaged Мир Тьмы pool read the campaign's exceptional threshold (3, not 5)."""
    from rules import data

    data.set_overrides(None)
    if gc.isenabled():
        gc.collect()
        gc.freeze()


def pytest_sessionfinish(session, exitstatus):
    """Fail a run in which tests were collected but none of them passed (all skipped).

    And freeze what the run left alive: pytest then collects five times over to find objects
    whose finalizers fail (``gc_collect_harder``), seconds a worker over the whole heap; the
    collections during the run have reported theirs with the test that made them."""
    gc.freeze()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    if session.testscollected and not reporter.stats.get("passed"):
        session.exitstatus = 1
