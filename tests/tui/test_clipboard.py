"""`y` and `v` say only what kubik knows: the text went to the terminal (OSC 52); in tmux,
whether tmux passes it on; and `v` copies a command that runs without an activated venv."""

from __future__ import annotations

import subprocess
import sys

from tui.clipboard import SENT, kubik_command, tmux_hint, view_command_line


def answer(stdout: str, code: int = 0):
    def run(argv, **_kwargs):
        assert argv == ["tmux", "show", "-gv", "set-clipboard"]
        return subprocess.CompletedProcess(argv, code, stdout=stdout, stderr="")

    return run


def test_no_hint_outside_tmux() -> None:
    def never(*_a, **_k):
        raise AssertionError("tmux asked outside tmux")

    assert tmux_hint({}, never) == ""


def test_hint_when_tmux_set_clipboard_is_off_or_external() -> None:
    for value in ("off", "external"):
        hint = tmux_hint({"TMUX": "/tmp/tmux-0/default,1,0"}, answer(f"{value}\n"))
        assert f"set-clipboard {value}" in hint and "set -g set-clipboard on" in hint
    assert tmux_hint({"TMUX": "x"}, answer("on\n")) == ""
    assert tmux_hint({"TMUX": "x"}, answer("", code=1)) == ""  # an old tmux: no claim


def test_v_names_the_running_kubik_by_its_full_path(tmp_path) -> None:
    """`v` copied a bare `kubik`, not on PATH in a venv that was never activated."""
    script = tmp_path / "venv" / "bin" / "kubik"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    assert kubik_command(str(script), "/usr/bin/python3") == [str(script)]
    assert kubik_command("/x/tui/__main__.py", "/v/bin/python") == ["/v/bin/python", "-m", "tui"]
    line = view_command_line(tmp_path / "my camp.json", argv0=str(script), executable="p")
    assert line == f"{script} --view --campaign '{tmp_path / 'my camp.json'}'"


async def test_v_copies_a_command_of_this_python_and_y_says_sent_not_copied(
    make_test_app, monkeypatch
) -> None:
    """`v` copies a command that starts this Python's kubik. «Скопировано» claimed a copy that
    tmux may never have passed on: `y` says the text went to the terminal.

    Replaces the pilot tests `tests/tui/test_clipboard.py::
    test_y_says_sent_to_the_terminal_not_copied` and
    `…::test_v_copies_a_command_that_starts_this_python` (the same demo campaign, one run:
    `v` first, as `y` copies too)."""
    monkeypatch.delenv("TMUX", raising=False)
    app = make_test_app()
    told: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v")
        copied = app.clipboard
        monkeypatch.setattr(app, "notify", lambda message, **_k: told.append(message))
        await pilot.press("slash")
        app.query_one("#quick-input").value = "2d6"  # (the typing is not what is tested)
        await pilot.press("enter", "escape", "y")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert copied.startswith(f"{sys.executable} -m tui --view"), f"«v» copied {copied!r}"
    assert told and told[-1].startswith(f"{SENT}: "), f"«y» said {told}"
    assert not any("Скопировано" in m for m in told), f"«y» said {told}"
