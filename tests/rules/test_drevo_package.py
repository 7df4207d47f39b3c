"""``rules.drevo`` loads its submodules on first use and still offers every public name."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rules.drevo as drevo

SUBMODULES = sorted(set(drevo._WHERE.values()) | {"ladder", "settings", "weapons"})

#: One fresh interpreter that imports nothing of kubik (only the standard library modules the
#: rules use, which decide nothing about which submodule loads first) and forks once per case:
#: each case runs in a process whose ``sys.modules`` holds no ``rules`` module, as a fresh
#: interpreter's does, for the ~5 ms of a fork instead of the ~70 ms of an interpreter.
ZYGOTE = """
import json, os, sys, traceback
import ast, dataclasses, datetime, decimal, enum, fractions, functools, importlib
import importlib.resources, inspect, itertools, math, pathlib, random, re, tempfile
import tomllib, types, typing, zipfile
kubik = sorted(m for m in sys.modules if m.split(".")[0] in ("rules", "tui", "data"))
assert not kubik, kubik
results = {}
for name, code in json.loads(sys.stdin.read()).items():
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        os.dup2(w, 2)
        status = 1
        try:
            exec(code, {"__name__": "__main__"})
            status = 0
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    os.close(w)
    out = b""
    while chunk := os.read(r, 65536):
        out += chunk
    os.close(r)
    results[name] = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out.decode()]
print(json.dumps(results))
"""


def first_import(first: str) -> str:
    """The check of one case: ``first`` loads before anything else of ``rules.drevo``."""
    return (
        f"import importlib, rules.drevo as d; importlib.import_module('rules.drevo.{first}');"
        "from rules.drevo import *;"
        "import types;"
        "bad = [n for n in ('ladder', 'settings', 'weapons') "
        "if isinstance(getattr(d, n), types.ModuleType)];"
        "print(bad); raise SystemExit(1 if bad else 0)"
    )


WOUND_TRACK = (
    "import sys, rules.drevo as d; d.WoundTrack;"
    "heavy = [m for m in ('rules.drevo.exchange', 'rules.drevo.odds', 'rules.drevo.check') "
    "if m in sys.modules]; print(heavy); raise SystemExit(1 if heavy else 0)"
)


@pytest.fixture(scope="module")
def fresh_runs() -> dict[str, list]:
    """Every case of this module run in a fork of one kubik-free interpreter:
    ``{case: [exit code, output]}``."""
    if not hasattr(__import__("os"), "fork"):
        pytest.skip("needs fork")
    cases = {first: first_import(first) for first in SUBMODULES} | {"wound track": WOUND_TRACK}
    done = subprocess.run(
        [sys.executable, "-c", ZYGOTE], input=json.dumps(cases), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_public_name_resolves_to_its_submodule_object() -> None:
    import importlib

    for name in drevo.__all__:
        value = getattr(drevo, name)
        home = drevo._WHERE.get(name)
        if home is not None:
            assert value is getattr(importlib.import_module(f"rules.drevo.{home}"), name)
    assert set(drevo.__all__) <= set(dir(drevo))
    with pytest.raises(AttributeError):
        drevo.no_such_name  # noqa: B018


@pytest.mark.parametrize("first", SUBMODULES)
def test_functions_named_like_their_module_stay_functions(first: str, fresh_runs) -> None:
    """Whichever submodule loads first, drevo.ladder/settings/weapons are the functions."""
    code, out = fresh_runs[first]
    assert code == 0 and out == "[]\n", out


def test_the_wound_track_loads_without_combat_or_odds(fresh_runs) -> None:
    code, out = fresh_runs["wound track"]
    assert code == 0 and out == "[]\n", out
