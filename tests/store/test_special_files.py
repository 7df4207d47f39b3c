"""Special files in place of a campaign (issue 35): a FIFO hung the CLI, the view and the app
on a blank screen; a symlink loop crashed the app («внутренняя ошибка», errno 40) where the
CLI said «нет такой кампании»; a dangling symlink made the app create the demo campaign at
the link's target. Anything but a regular file is refused with a Russian message, nothing
blocks on an open, and a new campaign behind a link is made only when the GM says yes.

Every call runs in a thread with a time limit, so a hang fails the test instead of stopping
the run (the FIFO is then opened for writing, which lets the blocked reader go).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tui.cli import kubik as cli
from tui.store import Store, StoreError

CYRILLIC = re.compile("[а-яА-ЯёЁ]")
LIMIT = 10.0


def in_time(call: Callable[[], Any], unblock: Path | None = None) -> Any:
    """Return what ``call`` returns (or raise what it raises) within :data:`LIMIT` seconds."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            box["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(LIMIT)
    if thread.is_alive():
        if unblock is not None:  # a writer lets a reader blocked on the FIFO go
            fd = os.open(unblock, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        raise AssertionError(f"blocked for {LIMIT} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def run_cli(capsys, argv: list[str], unblock: Path | None = None) -> tuple[int, str]:
    def call() -> int:
        try:
            return int(cli.main(argv) or 0)
        except SystemExit as exit_:
            return int(exit_.code or 0)

    code = in_time(call, unblock)
    out, err = capsys.readouterr()
    return code, out + err


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.json"
    os.mkfifo(path)
    return path


def loop(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.json"
    path.symlink_to(tmp_path / "other.json")
    (tmp_path / "other.json").symlink_to(path)
    return path


def device(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.json"
    path.symlink_to("/dev/null")
    return path


SPECIAL = {
    "fifo": (fifo, "не обычный файл"),
    "symlink-loop": (loop, "символьных ссыл"),
    "device": (device, "не обычный файл"),
}
ENTRIES = [
    ["party", "list"],
    ["log"],
    ["party", "add", "Новый"],
    ["--view"],  # the players' view
    [],  # the app: refused before Textual starts
    ["seat", "Милава"],
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX")
@pytest.mark.parametrize("case", list(SPECIAL))
def test_a_special_file_is_refused_everywhere_without_blocking(
    tmp_path, capsys, monkeypatch, case
) -> None:
    make, named = SPECIAL[case]
    path = make(tmp_path)
    unblock = path if case == "fifo" else None
    with pytest.raises(StoreError) as err:
        in_time(lambda: Store.open(path), unblock)
    assert named in str(err.value) and str(path) in str(err.value)
    with pytest.raises(StoreError, match=named):
        in_time(lambda: Store.open(path, read_only=True), unblock)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    for entry in ENTRIES:
        code, said = run_cli(capsys, [*entry, "--campaign", str(path)], unblock)
        assert code == 1 and named in said and CYRILLIC.search(said), (entry, said)
        assert "Traceback" not in said and "внутренняя ошибка" not in said, (entry, said)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["campaign.json", *(["other.json"] if case == "symlink-loop" else [])]
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX")
def test_a_fifo_in_place_of_the_journal_is_refused_without_blocking(tmp_path) -> None:
    path = tmp_path / "c.json"
    Store.open(path).close()
    journal = tmp_path / "c.log.jsonl"
    journal.unlink(missing_ok=True)
    os.mkfifo(journal)
    with pytest.raises(StoreError, match="не обычный файл") as err:
        in_time(lambda: Store.open(path), journal)
    assert str(journal) in str(err.value)


def dangling(tmp_path: Path) -> tuple[Path, Path]:
    target = tmp_path / "elsewhere" / "real.json"
    target.parent.mkdir()
    link = tmp_path / "campaign.json"
    link.symlink_to(target)
    return link, target


def test_a_dangling_link_makes_no_campaign_unless_the_gm_says_yes(
    tmp_path, capsys, monkeypatch
) -> None:
    link, target = dangling(tmp_path)
    with pytest.raises(StoreError, match="ссылка") as err:
        Store.open(link)
    assert str(target) in str(err.value)
    assert not target.exists()
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)  # nobody to ask: refused
    for entry in ENTRIES:
        code, said = run_cli(capsys, [*entry, "--campaign", str(link)])
        assert code in (1, 2) and str(target) in said and "ссылка" in said, (entry, said)
        assert not target.exists(), entry
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr(cli, "ask", lambda question: asked.append(question) or False)
    code, said = run_cli(capsys, ["--campaign", str(link)])
    assert code == 1 and not target.exists()
    assert len(asked) == 1 and str(target) in asked[0] and "демо" in asked[0]
    store = Store.open(link, through_dangling_link=True)  # what «д» does
    assert target.is_file() and link.is_symlink() and store.path == target
    store.close()


def test_a_campaign_beyond_the_limit_is_refused_at_once_and_never_written(
    tmp_path, capsys, monkeypatch
) -> None:
    """Issue 35: a 71 MB file of 50,000 characters took 20–30 s before the first screen and
    13.5 s for ``party list``. Beyond the limit: a clear refusal, at once, and no write makes
    a file kubik could not open again."""
    from tui.store import ChangeRefused, Character, new_id, storage

    path = tmp_path / "c.json"
    Store.open(path).close()
    data = path.read_bytes()
    monkeypatch.setattr(storage, "MAX_CAMPAIGN_BYTES", len(data) - 1)
    with pytest.raises(StoreError, match="слишком велик") as err:
        Store.open(path)
    assert str(path) in str(err.value) and "предел" in str(err.value)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    for entry in ENTRIES:
        code, said = run_cli(capsys, [*entry, "--campaign", str(path)])
        assert code == 1 and "слишком велик" in said, (entry, said)
    assert path.read_bytes() == data
    monkeypatch.setattr(storage, "MAX_CAMPAIGN_BYTES", len(data) + 200)
    store = Store.open(path)
    big = Character(new_id(), "Великан", "npc", {}, (), (), notes="ы" * 300)
    with pytest.raises(ChangeRefused, match="больше предела"):
        store.upsert_character(big)
    assert path.read_bytes() == data and store.character(big.id) is None
    store.close()


def test_a_symlink_in_the_backups_folder_is_no_backup(tmp_path):
    """kubik keeps its backups as hard links or copies, never symlinks: a link named like a
    backup (or the kept pre-migration copy) points anywhere — another campaign, /etc/passwd —
    and is neither listed nor offered for restore (the playtest restored another campaign's
    file through one)."""
    from tui.store import backups as bk

    campaign = tmp_path / "c.json"
    campaign.write_text("{}")
    other = tmp_path / "other.json"
    other.write_text("{}")
    folder = bk.backup_dir(campaign)
    folder.mkdir()
    real = folder / "c.20260101-000000-000000.r1.json"
    real.write_text("{}")
    (folder / "c.20260101-000001-000000.r2.json").symlink_to(other)
    (folder / "c.20260101-000002-000000.schema4.json").symlink_to(other)
    assert bk.all_backups(campaign) == [real]
