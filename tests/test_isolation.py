"""The suite keeps out of the GM's own folders: what a test's app makes lands in this run's."""

from __future__ import annotations

import tempfile
from pathlib import Path

from tui.seats.tokens import seats_dir
from tui.store import default_campaign_path


def test_a_tests_app_makes_its_seats_folder_in_the_runs_data_folder() -> None:
    """The seats folder (and each GM app's socket in it) landed in ~/.local/share/kubik/seats,
    and a socket left there outlived the run."""
    home = Path.home().resolve()
    temp = Path(tempfile.gettempdir()).resolve()
    for path in (default_campaign_path(), seats_dir()):
        assert temp in path.resolve().parents, path
        if temp not in home.parents:
            assert home not in path.resolve().parents, path
