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


def test_what_a_process_of_the_run_leaves_in_its_temporary_folder_goes_with_it() -> None:
    """The stateful machines make a campaign folder per example and never remove it: in
    ``/dev/shm`` a day of runs had left 51,000 folders (3.9 GB of RAM). Each process of the run
    keeps its temporary files in a folder of its own, removed when it ends."""
    import subprocess
    import sys

    code = (
        "import tempfile, tests.conftest;"
        "left = tempfile.mkdtemp(prefix='kubik-check-');"
        "open(left + '/c.json', 'w').close();"
        "print(tempfile.gettempdir())"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    assert folder.name.startswith("kt-"), folder  # its own, not the machine's shared one
    assert not folder.exists(), f"{folder} outlived its process"


def test_a_test_may_end_with_a_campaigns_tables_in_the_rules() -> None:
    """The first of a pair (the next test checks what this one leaves): an app ends a test with
    its campaign's tables handed to the rules (``rules.data.set_overrides``), process-wide."""
    from rules import data

    table = data.packaged_table("wod/pool.toml")
    data.set_overrides({"wod/pool.toml": {**table, "pool": {**table["pool"], "exceptional": 3}}})
    assert data.load_table("wod/pool.toml")["pool"]["exceptional"] == 3


def test_the_next_test_reads_the_packaged_tables_again() -> None:
    """After the test above (in the same process: both run in one worker but where the run is
    split between them), the rules read their packaged tables: test_check_wod's exceptional
    rows read «3+» for «5+» when test_warm's Мир Тьмы app ran before them in one worker."""
    from rules import data

    assert data.overrides() == {}
    assert data.load_table("wod/pool.toml")["pool"]["exceptional"] == 5
