"""A fresh interpreter that forks once per case: what a test of import order runs code in.

A test that asks "which modules does X load?" needs a process whose ``sys.modules`` holds
none of kubik yet. One fresh interpreter per case gives that for ~70–500 ms of CPU each, most
of it spent importing the standard library and Textual again. :class:`Zygote` starts one
interpreter, imports only ``preload`` (modules that are not kubik's: it asserts so), and forks
for each :meth:`Zygote.run`: each case starts from that ``sys.modules``, as a fresh
interpreter started after the same imports would, for the cost of a fork.

A preloaded module can only make a check of the form "M is not loaded" fail, never pass, so
the preload never hides an import a case looks for; a case that checks a module preloaded
here fails loudly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

#: The fork server: one request (JSON: code, environment) a line on stdin, one answer
#: (JSON: exit code, stdout, stderr) a line on stdout.
SERVER = """
import json, os, sys, tempfile, traceback
PRELOAD
kubik = sorted(m for m in sys.modules if m.split(".")[0] in ("rules", "tui", "data", "tests"))
assert not kubik, kubik
answers = sys.stdout
for line in sys.stdin:
    request = json.loads(line)
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdin = open(0)
            sys.stdout = open(1, "w", encoding="utf-8")
            sys.stderr = open(2, "w", encoding="utf-8")
            os.environ.clear()
            os.environ.update(request["env"])
            exec(compile(request["code"], "<case>", "exec"), {"__name__": "__main__"})
            status = 0
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    texts = []
    for f in (out, err):
        f.seek(0)
        texts.append(f.read().decode("utf-8", "replace"))
        f.close()
    answers.write(json.dumps([code, *texts]) + "\\n")
    answers.flush()
"""


@dataclass(frozen=True)
class Done:
    """What a case did: as :class:`subprocess.CompletedProcess` names it."""

    returncode: int
    stdout: str
    stderr: str


class Zygote:
    """One fresh interpreter that has imported ``preload`` and forks for each case."""

    def __init__(self, preload: str) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-c", SERVER.replace("PRELOAD", preload)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, code: str) -> Done:
        """Run ``code`` in a fork of the zygote (as ``python -c code`` would run it)."""
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"code": code, "env": dict(os.environ)}) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        assert line, f"the zygote ended (exit {self._process.wait()})"
        return Done(*json.loads(line))

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=30)
