"""Loaded by ``-p tests.bytecode`` (pyproject's addopts), before pytest's plugins.

pytest rewrites the asserts of every module of a plugin's distribution (hypothesis, syrupy,
anyio, xdist, …: ~150 modules) and keeps the result in ``__pycache__`` only when bytecode may be
written. Where the environment says ``PYTHONDONTWRITEBYTECODE`` every process of every run (the
main one and each xdist worker) parsed and rewrote them all again: ~0.9 s of CPU each. Allowing
the cache here, before the plugins load, keeps it (tests/conftest.py does the same for the test
modules and the project's own)."""

from __future__ import annotations

import sys

sys.dont_write_bytecode = False
