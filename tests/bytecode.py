"""Loaded by ``-p tests.bytecode`` (pyproject's addopts), before pytest's plugins.

pytest rewrites the asserts of every module of a plugin's distribution (hypothesis, syrupy,
anyio, xdist, …: ~150 modules) and keeps the result in ``__pycache__`` only when bytecode may be
written. Where the environment says ``PYTHONDONTWRITEBYTECODE`` every process of every run (the
main one and each xdist worker) parsed and rewrote them all again: ~0.9 s of CPU each. Allowing
the cache here, before the plugins load, keeps it (tests/conftest.py does the same for the test
modules and the project's own).

The test modules themselves are rewritten once, here, before the workers start
(:func:`pytest_sessionstart`): on a fresh clone each of the four workers collected every test
file and rewrote its asserts at the same moment — the same ~6.5 s of CPU four times over (8.1 s
to collect against 1.4 s with the cache, each worker). Rewritten in the controller, split over
the cores, the workers find the cache written and only load it.
"""

from __future__ import annotations

import compileall
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

sys.dont_write_bytecode = False

#: The main process's config, for the forked rewriters (a fork inherits it; nothing pickled).
_CONFIG: Any = None


def _stale_test_modules(config: Any) -> list[Path]:
    """The test modules and conftests under the test paths whose rewritten cache is missing
    or older than their source (what each worker would otherwise rewrite)."""
    from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

    ignored = {Path(p).resolve() for p in config.getoption("ignore") or ()}
    stale = []
    for top in config.getini("testpaths") or ["."]:
        for path in sorted(Path(config.rootpath, top).rglob("*.py")):
            if not (path.name.startswith("test_") or path.name == "conftest.py"):
                continue
            if any(path.resolve().is_relative_to(i) for i in ignored):
                continue
            if not _fresh(path, get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)):
                stale.append(path)
    return stale


def _fresh(source: Path, pyc: Path) -> bool:
    """Whether ``pyc``'s header says it was made from ``source`` as it is now (the check
    pytest's ``_read_pyc`` makes before it loads the code, without loading it)."""
    import importlib.util
    import struct

    try:
        with open(pyc, "rb") as fp:
            head = fp.read(16)
        stat = source.stat()
    except OSError:
        return False
    want = struct.pack("<LL", int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size & 0xFFFFFFFF)
    return head == importlib.util.MAGIC_NUMBER + b"\x00\x00\x00\x00" + want


def _rewrite(path: Path) -> None:
    """Rewrite one test module's asserts and keep the result where pytest looks for it."""
    from _pytest.assertion import assertstate_key
    from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, get_cache_dir

    stat, code = _rewrite_test(path, _CONFIG)
    cache = get_cache_dir(path)
    cache.mkdir(exist_ok=True)
    _write_pyc(_CONFIG.stash[assertstate_key], code, stat, cache / (path.name[:-3] + PYC_TAIL))


def _compile(folder: Path) -> None:
    compileall.compile_dir(folder, quiet=2)


@pytest.hookimpl(tryfirst=True)  # before xdist's, which starts the workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """With xdist workers to come, write the caches they would each build: the rewritten test
    modules and the project's bytecode. Only a speed-up: anything going wrong leaves each worker
    to do it itself, as before."""
    global _CONFIG
    config = session.config
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return
    try:
        _CONFIG = config
        stale = _stale_test_modules(config)
        project = [Path(config.rootpath, name) for name in ("rules", "tui")]
        if len(stale) < 8:
            for path in stale:
                _rewrite(path)
            for folder in project:
                _compile(folder)
            return
        import multiprocessing

        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(os.cpu_count() or 1, mp_context=context) as pool:
            list(pool.map(_compile, project))
            list(pool.map(_rewrite, stale, chunksize=4))
    except Exception:  # noqa: BLE001 — a cache not written is only slower
        return
    finally:
        _CONFIG = None
