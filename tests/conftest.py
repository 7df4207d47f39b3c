"""Shared test setup: no animations, a frozen clock, a temporary campaign, seeded dice."""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone

import pytest

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

FROZEN_AT = datetime(2026, 11, 29, 20, 0, 0, tzinfo=timezone(timedelta(hours=3)))


def frozen_clock() -> datetime:
    """Return the same instant every time, so snapshots and logs are stable."""
    return FROZEN_AT


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


def pytest_sessionfinish(session, exitstatus):
    """Fail a run in which tests were collected but none of them passed (all skipped)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    if session.testscollected and not reporter.stats.get("passed"):
        session.exitstatus = 1
