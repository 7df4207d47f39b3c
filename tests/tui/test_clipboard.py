"""`y` and `v` say only what kubik knows: the text went to the terminal (OSC 52); in tmux,
whether tmux passes it on; and `v` copies a command that runs without an activated venv.

What `y` and `v` say and copy in the app: tests/tui/test_pilot.py::
test_the_quick_bar_is_built_when_first_opened_says_a_mistake_and_y_v_copy (the quick bar's
app run)."""

from __future__ import annotations

import subprocess

from tui.clipboard import kubik_command, tmux_hint, view_command_line


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
