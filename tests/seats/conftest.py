"""Fixtures of the seats tests."""

from __future__ import annotations

import pytest

from tests.seats.helpers import short_folder


@pytest.fixture
def folder():
    """A private seats folder with a path short enough for a Unix socket."""
    with short_folder() as f:
        yield f
