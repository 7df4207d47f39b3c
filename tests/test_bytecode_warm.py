"""The controller rewrites stale test modules once, before the xdist workers start
(tests/bytecode.py), in the form pytest itself reads back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

from tests import bytecode


class Options:
    """The part of a config the stale-module search reads."""

    def __init__(self, root: Path) -> None:
        self.rootpath = root

    def getoption(self, name: str) -> Any:
        return [str(self.rootpath / "tests" / "benchmarks")] if name == "ignore" else None

    def getini(self, name: str) -> Any:
        return ["tests"] if name == "testpaths" else None


def test_a_stale_module_is_found_rewritten_and_then_fresh(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    tests = tmp_path / "tests"
    (tests / "benchmarks").mkdir(parents=True)
    module = tests / "test_one.py"
    module.write_text("def test_it():\n    x = 1\n    assert x == 2\n")
    (tests / "helpers.py").write_text("X = 1\n")  # not a test module: pytest never rewrites it
    (tests / "benchmarks" / "test_slow.py").write_text("def test_slow():\n    pass\n")
    options = Options(tmp_path)

    assert bytecode._stale_test_modules(options) == [module]
    monkeypatch.setattr(bytecode, "_CONFIG", request.config)
    bytecode._rewrite(module)

    pyc = get_cache_dir(module) / (module.name[:-3] + PYC_TAIL)
    code = _read_pyc(module, pyc)
    assert code, "pytest reads the cache back"
    (function,) = (c for c in code.co_consts if hasattr(c, "co_varnames"))
    assert any(name.startswith("@py_assert") for name in function.co_varnames), "rewritten"
    assert bytecode._stale_test_modules(options) == []

    stat = module.stat()  # the source changes: stale again
    os.utime(module, (stat.st_atime, stat.st_mtime + 5))
    assert bytecode._stale_test_modules(options) == [module]
