"""One test for a table of cases checked the same way, failing with every case that fails.

A parametrised test over source files or table rows costs each case a test item (~3 ms of CPU
in the xdist workers and the controller, more than most of these checks take). Where the cases
are a list of inputs checked the same way, one test that runs the check on each case and
names EVERY case that fails (not only the first) proves the same thing at a fraction of the
cost. The check keeps its plain ``assert``s: written in a test module, pytest rewrites them, so
each failing case's line carries the same explanation its own test item printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

#: What a failing check may raise: an assert, ``pytest.raises``' «DID NOT RAISE» or
#: ``pytest.fail`` (an ``OutcomeException``, not an ``Exception``), or any crash of the code.
_FAILURES = (Exception, pytest.fail.Exception)


def failures(cases: Iterable[Any], check: Callable[..., object], *, star: bool = True) -> list[str]:
    """Run ``check`` on every case (``check(*case)`` for a tuple when ``star``, else
    ``check(case)``); one line per failing case: the case, then what its check said."""
    found = []
    for case in cases:
        try:
            if star and isinstance(case, tuple):
                check(*case)
            else:
                check(case)
        except _FAILURES as error:
            said = str(error).strip().replace("\n", "\n    ")
            found.append(f"{_short(repr(case))}: {type(error).__name__}: {said}")
    return found


def _short(text: str, most: int = 300) -> str:
    """``text``, its middle cut out past ``most`` characters (a case of 10,000 digits)."""
    return text if len(text) <= most else f"{text[: most // 2]}…{text[-most // 3 :]}"


def report(found: list[str], total: int) -> str:
    """The failure message: how many cases failed, then each of them."""
    return f"{len(found)} of {total} cases fail:\n" + "\n".join(found)


def assert_every_case(
    cases: Iterable[Any], check: Callable[..., object], *, star: bool = True
) -> None:
    """Fail naming every case on which ``check`` fails (:func:`failures`, :func:`report`)."""
    cases = list(cases)
    wrong = failures(cases, check, star=star)
    assert not wrong, report(wrong, len(cases))


def fresh_folder(root: Path) -> Path:
    """A new empty folder under ``root`` for one case (each case had a ``tmp_path`` of its
    own as a test item): ``root/case-1``, ``root/case-2``, …"""
    n = 1
    while (root / f"case-{n}").exists():
        n += 1
    folder = root / f"case-{n}"
    folder.mkdir()
    return folder
