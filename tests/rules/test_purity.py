"""The rules stay pure: no UI or database imports, no I/O beyond packaged data."""

from __future__ import annotations

import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.every_case import assert_every_case

FORBIDDEN = ("textual", "rich", "tinydb", "tui")
RULES_DIR = Path(rules.__file__).parent
MODULES = ["rules"] + [info.name for info in pkgutil.walk_packages(rules.__path__, prefix="rules.")]
SOURCES = sorted(RULES_DIR.rglob("*.py"))
# Reading packaged data through importlib.resources is the one I/O the rules may do.
DATA_READER = RULES_DIR / "data.py"
IO_PATTERNS = {
    "open()": re.compile(r"(?<![\w.])open\s*\(|\.open\s*\("),
    "socket": re.compile(r"\bsocket\b"),
    "subprocess": re.compile(r"\bsubprocess\b"),
    "os.system/popen": re.compile(r"\bos\.(system|popen|exec\w*|spawn\w*)\b"),
    "urllib/http": re.compile(r"\b(urllib|http\.client|requests|httpx)\b"),
    "file read/write": re.compile(r"\.(read_text|read_bytes|write_text|write_bytes)\s*\("),
}


def test_modules_are_discovered() -> None:
    """STYLE habit 1: «A test imports each `rules` module in a fresh subprocess»."""
    assert {"rules.dice", "rules.odds", "rules.errors", "rules.data"} <= set(MODULES)


# One fresh interpreter imports every module in turn and reports, after each import, which
# forbidden packages that import added to sys.modules (or its error). A package one module
# pulls in is charged to the first module that pulled it, so an offender still fails its own
# test; before, each module had its own interpreter (~80 interpreters, ~8 s of CPU).
_IMPORT_EACH = """
import importlib, json, sys, traceback
start = sorted(m for m in sys.modules if m.split(".")[0] in FORBIDDEN)
report = {}
for module in json.loads(sys.argv[1]):
    before = set(sys.modules)
    try:
        importlib.import_module(module)
        error = ""
    except BaseException:
        error = traceback.format_exc()
    added = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in FORBIDDEN)
    report[module] = {"added": added, "error": error}
print(json.dumps({"start": start, "modules": report}))
"""


@pytest.fixture(scope="module")
def imports() -> dict[str, dict[str, Any]]:
    """Each module's import in one fresh interpreter: the forbidden packages it added, its error."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"FORBIDDEN = {FORBIDDEN!r}\n{_IMPORT_EACH}",
            json.dumps(MODULES),
        ],
        capture_output=True,
        text=True,
        cwd=RULES_DIR.parent,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["start"] == [], f"a fresh interpreter already holds {report['start']}"
    modules: dict[str, dict[str, Any]] = report["modules"]
    return modules


def test_every_module_is_imported(imports: dict[str, dict[str, Any]]) -> None:
    """STYLE habit 1: «A test imports each `rules` module in a fresh subprocess» — the one
    interpreter started clean (the fixture checks it) and imported every module."""
    assert list(imports) == MODULES


def test_import_pulls_no_ui_or_database(imports: dict[str, dict[str, Any]]) -> None:
    """STYLE habit 1: «asserts that `textual`, `rich` and `tinydb` are not in `sys.modules`» —
    for every module (one test, naming every module that fails)."""

    def check(module: str) -> None:
        assert imports[module]["error"] == ""
        added = imports[module]["added"]
        assert added == [], f"{module} imports {','.join(added)}"

    assert_every_case(MODULES, check)


def test_source_does_no_io() -> None:
    """STYLE: «rules/ pure Python … No I/O, no Textual, no TinyDB» (data.py reads packaged
    tables through importlib.resources) — for every source file (one test, naming every file
    that fails)."""

    def check(path: Path) -> None:
        source = path.read_text(encoding="utf-8")
        allowed = {"file read/write"} if path == DATA_READER else set()
        found = [
            name
            for name, pattern in IO_PATTERNS.items()
            if name not in allowed and pattern.search(source)
        ]
        assert found == [], f"{path.relative_to(RULES_DIR)} uses {found}"
        if path == DATA_READER:
            assert "importlib.resources" in source

    assert DATA_READER in SOURCES and len(SOURCES) > 50, SOURCES
    assert_every_case(SOURCES, check)


def test_io_check_catches_offenders() -> None:
    """STYLE: «rules/ pure Python … No I/O» — the static check itself must bite."""
    offenders = [
        'with open("x") as f:',
        "import socket",
        "subprocess.run(['ls'])",
        "p.write_text('x')",
    ]
    for line in offenders:
        assert any(pattern.search(line) for pattern in IO_PATTERNS.values()), line
    assert not any(pattern.search("reopen = 1  # opened") for pattern in IO_PATTERNS.values())
