"""A corrupt campaign: the CLI explains, offers the newest good backup, never overwrites."""

from __future__ import annotations

import dataclasses
import io
import json
import sys

import pytest

from tui.cli import kubik as cli
from tui.store import CampaignCorrupt, Store


@pytest.fixture
def corrupt(tmp_path):
    """A campaign with a backup, then truncated mid-file."""
    path = tmp_path / "c.json"
    store = Store.open(path)
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, notes="после первой сессии"))
    store.close()
    path.write_bytes(path.read_bytes()[:300])
    return path


class AppStarted(BaseException):
    """Raised if kubik got as far as running an app (main() turns an Exception into exit 1)."""


def test_without_a_terminal_it_explains_and_exits_1(corrupt, capsys, monkeypatch):
    """Through main(), all ``python -m tui`` runs, with a standard input that is no terminal
    (as ``stdin=DEVNULL`` gave the subprocess this was): it explains and exits before any app
    runs (an app that would run raises :class:`AppStarted` here instead of drawing)."""
    from tui.app import KubikApp

    def no_app(self, *args, **kwargs) -> None:
        raise AppStarted

    damaged = corrupt.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # isatty() is False
    monkeypatch.setattr(KubikApp, "run", no_app)
    try:
        code = cli.main(["--campaign", str(corrupt)])
    except SystemExit as exit_:
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 1
    assert "повреждён" in err and "исправная копия" in err
    assert corrupt.read_bytes() == damaged  # never overwritten


def test_at_a_terminal_yes_restores_and_keeps_the_damaged_file(corrupt, monkeypatch):
    with pytest.raises(CampaignCorrupt) as caught:
        Store.open(corrupt)
    monkeypatch.setattr(sys, "stdin", io.StringIO("д\n"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert cli.offer_backup(caught.value, corrupt) is True
    restored = Store.open(corrupt)
    assert len(restored.characters()) == 7
    assert list(corrupt.parent.glob("c.json.corrupt-*"))


def test_at_a_terminal_no_leaves_everything_as_it_was(corrupt, monkeypatch):
    damaged = corrupt.read_bytes()
    with pytest.raises(CampaignCorrupt) as caught:
        Store.open(corrupt)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert cli.offer_backup(caught.value, corrupt) is False
    assert corrupt.read_bytes() == damaged


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_at_a_terminal_ctrl_q_ends_the_question(corrupt):
    """Issue 35: Ctrl+Q (kubik's quit key) did nothing at «Восстановить кампанию из этой
    копии? [д/Н]»: the terminal's flow control swallowed it. It now says no and kubik ends.

    kubik is a fork of this process running main() (all ``python -m tui`` runs) in a session
    of its own with the pseudo-terminal as its stdin, stdout and stderr, as the subprocess
    this was (an interpreter start and the app's imports, ~0.28 CPU-s) had them."""
    import os
    import select
    import signal
    import time

    damaged = corrupt.read_bytes()
    master, slave = os.openpty()
    pid = os.fork()
    if pid == 0:  # kubik at the terminal: main(), all python -m tui runs; never back in pytest
        code = 1
        try:
            os.close(master)
            os.setsid()  # a session of its own, as start_new_session gave the subprocess
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            sys.stdin = open(0, encoding="utf-8")  # noqa: SIM115 - the fork ends with _exit
            sys.stdout = open(1, "w", encoding="utf-8")  # noqa: SIM115
            sys.stderr = open(2, "w", encoding="utf-8")  # noqa: SIM115
            code = cli.main(["--campaign", str(corrupt)])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    os.close(slave)
    seen = b""
    ended = (0, 0)
    try:
        deadline = time.monotonic() + 30
        while "[д/Н]".encode() not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                seen += os.read(master, 4096)
        assert "[д/Н]".encode() in seen, seen
        os.write(master, b"\x11")  # Ctrl+Q
        deadline = time.monotonic() + 10
        while not (ended := os.waitpid(pid, os.WNOHANG))[0] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ended[0] == pid, "kubik did not end after Ctrl+Q"
        assert os.waitstatus_to_exitcode(ended[1]) == 1
    finally:
        if ended[0] != pid:  # still asking (or never asked): it must not outlive the test
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(master)
    assert corrupt.read_bytes() == damaged


def _restore(capsys, *argv):
    try:
        code = cli.main(["restore", *argv])
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


@pytest.fixture
def migrated(tmp_path):
    """A schema-4 campaign opened by this kubik, then written more times than backups are kept."""
    import shutil
    from pathlib import Path

    from tui.store import backups as bk

    path = tmp_path / "c.json"
    shutil.copyfile(Path(__file__).parent / "store" / "fixtures" / "schema4.json", path)
    original = path.read_bytes()
    with Store.open(path) as store:
        for n in range(bk.KEEP + 1):
            c = store.characters()[0]
            store.upsert_character(dataclasses.replace(c, notes=f"запись {n}"))
    return path, original


def test_the_list_shows_the_copy_before_the_migration_apart(capsys, migrated):
    path, _ = migrated
    code, out, _ = _restore(capsys, "--campaign", str(path))
    assert code == 0
    lines = out.splitlines()
    kept = [line for line in lines if "до обновления схемы 4" in line]
    assert len(kept) == 1 and "хранится, пока не удалите" in kept[0] and len(kept[0]) <= 80
    assert f"Папка копий: {path.with_name('c.backups')}" in out
    assert kept[0].lstrip().startswith("11.")  # after the 10 rotating ones, numbered
    code, out, _ = _restore(capsys, "--campaign", str(path), "--json")
    listed = json.loads(out)["backups"]
    assert [b["schema"] for b in listed] == [None] * 10 + [4]
    assert listed[-1]["kept"] is True and listed[0]["kept"] is False


def test_restoring_the_copy_by_number_brings_the_older_file_back(capsys, migrated):
    path, original = migrated
    code, out, err = _restore(capsys, "11", "--campaign", str(path))
    assert code == 0, err
    assert path.read_bytes() == original
    assert "схемы 4" in out


def test_a_number_out_of_range_is_refused_with_the_list_size(capsys, migrated):
    path, _ = migrated
    before = path.read_bytes()
    code, _, err = _restore(capsys, "12", "--campaign", str(path))
    assert code == 1 and "1–11" in err
    assert path.read_bytes() == before


def test_a_damaged_copy_is_named_as_the_copy_and_the_campaign_is_left_alone(capsys, migrated):
    """Playtest: a corrupted kept copy was refused with the damaged-campaign advice («Файл
    кампании … повреждён … Восстановите файл из резервной копии»), as if the campaign were the
    broken file. The refusal says the copy is damaged, that the campaign is unchanged, and
    where the list is."""
    path, _ = migrated
    (kept,) = path.with_name("c.backups").glob("*.schema4.json")
    kept.write_bytes(b'{"_meta": {"1": ')  # cut short
    before = path.read_bytes()
    code, _, err = _restore(capsys, "11", "--campaign", str(path))
    assert code == 1 and path.read_bytes() == before
    assert "Резервная копия" in err and "повреждена" in err and "кампания не изменена" in err
    assert "Файл кампании" not in err and "kubik restore" in err


def test_a_negative_number_is_refused_with_the_minus_sign(capsys, migrated):
    """Playtest: `kubik restore -1` answered «Нет копии номер -1» with a hyphen; the UI writes
    minus as «−» (U+2212)."""
    path, _ = migrated
    before = path.read_bytes()
    code, _, err = _restore(capsys, "-1", "--campaign", str(path))
    assert code == 1 and "номер −1" in err and "-1" not in err, err
    assert path.read_bytes() == before


@pytest.mark.parametrize("number", ["٢", "２", "1٢"], ids=["arabic-indic", "fullwidth", "mixed"])
def test_only_ascii_digits_are_a_number(capsys, migrated, number):
    """Playtest: `kubik restore ٢` (an Arabic-Indic digit) restored copy 2, as Python's int()
    reads any Unicode digit; only 0–9 are a number here."""
    path, _ = migrated
    before = path.read_bytes()
    code, _, err = _restore(capsys, number, "--campaign", str(path))
    assert code == 2 and f"«{number}» — не целое число" in err, err
    assert path.read_bytes() == before
