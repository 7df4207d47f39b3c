"""Shared test setup: no animations, a frozen clock, a temporary campaign, seeded dice."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import settings

# ``--hypothesis-profile=thorough`` (README): ten times the examples, for a change to the rules
# or the store; the default run is sized for the two-minute suite (tests/hypo.py).
settings.register_profile("thorough", max_examples=1000)

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
# A crash report a test provokes (or a bug it finds) goes to a folder of this run, never to the
# GM's ~/.local/state/kubik/crashes; subprocesses inherit it. Tests of the report set their own.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="kubik-test-state-")
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
    from textual.pilot import Pilot

    if getattr(Pilot, "_waits_for_writes", False):
        return
    press, pause = Pilot.press, Pilot.pause

    async def settle(pilot: Pilot) -> None:
        done = getattr(pilot.app, "writes_done", None)
        if done is not None:
            await done()

    async def pressed(self: Pilot, *keys: str) -> None:
        await press(self, *keys)
        await settle(self)

    async def paused(self: Pilot, delay: float | None = None) -> None:
        await settle(self)
        await pause(self, delay)
        await settle(self)

    Pilot.press, Pilot.pause = pressed, paused  # type: ignore[method-assign]
    Pilot.press_without_waiting = press  # type: ignore[attr-defined]
    Pilot._waits_for_writes = True  # type: ignore[attr-defined]


_wait_for_store_writes()


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
#: segments, styles); at the default the collector took ~15% of the suite's CPU, at this it
#: takes ~5%, for a few MB more between collections.
GC_YOUNG = 20_000


def pytest_collection_finish(session):
    """Make the collector cheaper for the run (it changes no result, only when memory is freed):
    what the imports and the collection made lives for the whole run, so it is frozen out of
    every later full collection, and young collections come less often (:data:`GC_YOUNG`)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


def pytest_sessionfinish(session, exitstatus):
    """Fail a run in which tests were collected but none of them passed (all skipped)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    if session.testscollected and not reporter.stats.get("passed"):
        session.exitstatus = 1
