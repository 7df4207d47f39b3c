"""README: «The data folder kubik creates is 0700» — the seats folder's parent too."""

from __future__ import annotations

import os
import stat

from tui.seats.tokens import seats_dir


def test_the_data_folder_the_seats_create_is_private(tmp_path) -> None:
    """Play-test: a GM whose campaign lives elsewhere (`--campaign ~/games/c.json`) got
    `~/.local/share/kubik/` made 0755 by the seats folder (only `seats/` was 0700)."""
    base = tmp_path / "share" / "kubik"
    folder = seats_dir(base)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(base).st_mode) == 0o700


def test_a_data_folder_that_exists_keeps_its_mode(tmp_path) -> None:
    """A mode the GM set stays: only a folder kubik creates is made 0700."""
    base = tmp_path / "kubik"
    base.mkdir(mode=0o750)
    os.chmod(base, 0o750)
    seats_dir(base)
    assert stat.S_IMODE(os.stat(base).st_mode) == 0o750
