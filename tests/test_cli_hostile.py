"""The CLI on a missing file, a closed pipe and its own bugs: Russian, no traceback (issue 15)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

from tests.every_case import assert_every_case, fresh_folder
from tui.cli import kubik as cli
from tui.store import Store

A_COMMAND_ON_A_MISSING_CAMPAIGN_EXITS_2_AND_CREATES_NOTHING = [
    ["party", "list"],
    ["party", "add", "Волк"],
    ["party", "remove", "Волк"],
    ["log"],
    ["export", "OUT"],
    ["--view"],
]


def test_a_command_on_a_missing_campaign_exits_2_and_creates_nothing(capsys, tmp_path) -> None:
    def check(argv) -> None:
        folder = fresh_folder(tmp_path)  # a folder of its own, as its item had
        missing = folder / "nope" / "mistyped.json"
        argv = [str(folder / "out.json") if a == "OUT" else a for a in argv]
        with pytest.raises(SystemExit) as exit_:
            cli.main([*argv, "--campaign", str(missing)])
        err = capsys.readouterr().err
        assert exit_.value.code == 2
        assert f"нет такой кампании: {missing}" in err
        assert list(folder.iterdir()) == []  # no folder, no demo, no lock

    assert_every_case(
        A_COMMAND_ON_A_MISSING_CAMPAIGN_EXITS_2_AND_CREATES_NOTHING, check, star=False
    )


def in_process(capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``kubik argv`` through its main() in this process: (exit status, stdout, stderr).

    For what is about the command's text, not its process (a subprocess costs an interpreter
    start and the imports, ~0.3 s of CPU each); main() is all ``python -m tui`` runs."""
    capsys.readouterr()
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:  # argparse's own exits
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_the_default_campaign_is_not_created_by_a_command(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _, err = in_process(capsys, "party", "list")
    assert code == 2 and "нет такой кампании" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [["party", "list"], ["log", "--markdown"]])
def test_a_closed_pipe_is_no_traceback(tmp_path, argv) -> None:
    """`kubik party list | head -c 5` printed a BrokenPipeError traceback."""
    path = tmp_path / "c.json"
    Store.open(path).close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", *argv, "--campaign", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader left before kubik wrote anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141  # as a shell reports a tool killed by SIGPIPE
    assert err == ""


def test_a_bug_gives_one_russian_line_and_a_private_report(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(argv):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "cmd_roll", broken)
    assert cli.main(["roll", "2d6"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and "внутренняя ошибка" in err
    (report,) = (tmp_path / "state" / "kubik" / "crashes").iterdir()
    assert str(report) in err and "ZeroDivisionError" in report.read_text()
    assert report.stat().st_mode & 0o777 == 0o600


def test_control_codes_in_arguments_never_reach_the_terminal(tmp_path, capsys) -> None:
    path = tmp_path / "c.json"
    Store.open(path).close()
    hostile = "\x1b]52;c;cm0gLXJmIH4=\x07"
    for argv in (
        ["party", "add", f"Волк{hostile}", "--campaign", str(path)],
        ["party", "list", "--campaign", str(path)],
        ["party", "list", "--json", "--campaign", str(path)],
        ["party", "remove", f"нет{hostile}", "--campaign", str(path)],
        ["roll", f"2d6{hostile}"],
    ):
        _, out, err = in_process(capsys, *argv)
        assert "\x1b" not in out + err, argv
        assert "Traceback" not in err
    assert "Волк␛]52" in in_process(capsys, "party", "list", "--campaign", str(path))[1]


def test_an_unreadable_campaign_is_explained_in_russian(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "c.json"
    Store.open(path).close()
    path.chmod(0)
    if os.geteuid() == 0:  # root reads every file (CI runs as root): the read is refused here
        import errno

        real_open = os.open

        def refused(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path):
                raise PermissionError(errno.EACCES, "Permission denied", str(file))
            return real_open(file, *args, **kwargs)

        monkeypatch.setattr(os, "open", refused)
    with pytest.raises(SystemExit) as exit_:
        cli.main(["party", "list", "--campaign", str(path)])
    err = capsys.readouterr().err
    assert exit_.value.code == 1 and "нет прав доступа" in err and "Permission" not in err


def test_os_errors_read_in_russian() -> None:
    import errno

    from tui.store.errors import os_reason

    assert os_reason(OSError(errno.EACCES, "Permission denied")) == "нет прав доступа"
    assert os_reason(OSError(errno.ENOSPC, "No space left on device")).startswith("на диске")
    assert os_reason(OSError(errno.EXDEV, "Invalid cross-device link")) == "ошибка системы (код 18)"


async def test_a_bug_in_the_app_leaves_one_russian_line(tmp_path, monkeypatch) -> None:
    """Textual printed a whole traceback with local variables; now one line and a report."""
    from tests.conftest import frozen_clock
    from tui.app import KubikApp, make_app

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(self) -> None:
        raise ZeroDivisionError("division by zero")

    printed: list[str] = []

    def record(self) -> None:  # what Textual prints after the app ends
        printed.extend(str(r) for r in self._exit_renderables)

    monkeypatch.setattr(KubikApp, "action_keys", broken)
    monkeypatch.setattr(KubikApp, "_print_error_renderables", record)
    app = make_app(tmp_path / "c.json", clock=frozen_clock)
    with pytest.raises(ZeroDivisionError):  # the pilot re-raises what ended the app
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
    (line,) = printed
    assert "внутренняя ошибка" in line and str(app.crash_report) in line
    assert "ZeroDivisionError" in app.crash_report.read_text()


def test_the_view_of_a_default_campaign_never_made_exits_2(tmp_path, capsys, monkeypatch) -> None:
    """Through main(), all ``python -m tui --view`` runs: the refusal comes before any app (a
    view that got that far fails this test with a crash, not by starting a screen here)."""

    def no_app(*args) -> int:
        raise AssertionError("the view started an app")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(cli, "_run_opened", no_app)
    code, _, err = in_process(capsys, "--view")
    assert code == 2 and "нет такой кампании" in err
    assert list(tmp_path.iterdir()) == []


def test_the_test_run_writes_no_crash_report_into_the_users_state_folder() -> None:
    """A crash report a test provokes goes to the run's own folder (tests/conftest.py), not to
    ~/.local/state/kubik/crashes, where the GM looks for real ones."""
    from pathlib import Path

    from tui.crash import crash_dir

    home_state = Path.home() / ".local" / "state"
    assert not crash_dir().is_relative_to(home_state)
    assert crash_dir().is_relative_to(Path(tempfile.gettempdir()))
