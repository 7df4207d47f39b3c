"""Style never drifts: ruff (lint and format) and mypy (rules/ and tui/ but the app and three
widget areas, issue 29's) run with the tests."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_ruff_lint_and_format():
    lint = run(sys.executable, "-m", "ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_mypy_checks_all_of_rules_and_tui():
    """mypy's files are the whole of rules/ and tui/: a new module is type-checked from its
    first commit (the app, its parts and every widget area included)."""
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    assert files == ["rules", "tui"]


#: How many ``# type: ignore`` tui/ may hold (issue 29: from 136 to at most 10).
MAX_TYPE_IGNORES = 10


def test_type_ignores_are_few_and_say_why():
    """Count the ``# type: ignore`` comments of tui/: never more than ten, and each names the
    error it silences and says why in the line (``# type: ignore[code]  # why``)."""
    ignores = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in sorted((ROOT / "tui").rglob("*.py*"))
        if path.suffix in (".py", ".pyi")
        for line in path.read_text(encoding="utf-8").splitlines()
        if "type: ignore" in line
    ]
    assert len(ignores) <= MAX_TYPE_IGNORES, "\n".join(ignores)
    unexplained = [i for i in ignores if not re.search(r"type: ignore\[[a-z, -]+\]  # \S", i)]
    assert not unexplained, "\n".join(unexplained)


def test_the_slow_tests_run_first_and_each_group_keeps_its_order() -> None:
    """A slow test (seconds of real waiting) late in the list kept one xdist worker waiting
    after the others were done; they go first, the rest in collection order."""
    from tests.conftest import slow_first

    class Item:
        def __init__(self, name: str, slow: bool) -> None:
            self.name, self.slow = name, slow

        def get_closest_marker(self, name: str) -> object:
            return object() if name == "slow" and self.slow else None

    items = [Item("a", False), Item("b", True), Item("c", False), Item("d", True)]
    assert [i.name for i in slow_first(items)] == ["b", "d", "a", "c"]


def test_the_slow_tests_head_the_runs_of_half_the_workers() -> None:
    """All 22 slow tests first in the list made one xdist run of ~60 s of waiting, the floor of
    the suite: they are dealt to the heads of the runs worksteal gives the first half of the
    workers (its own split: 10 items over 4 workers is 2, 2, 3, 3), and nothing is lost."""
    from tests.conftest import slow_first

    class Item:
        def __init__(self, name: str, slow: bool) -> None:
            self.name, self.slow = name, slow

        def get_closest_marker(self, name: str) -> object:
            return object() if name == "slow" and self.slow else None

        def __repr__(self) -> str:
            return self.name

    items = [
        Item(n, n.startswith("s")) for n in ["a", "s1", "b", "c", "s2", "d", "s3", "e", "f", "g"]
    ]
    ordered = [i.name for i in slow_first(items, workers=4)]
    runs = [ordered[0:2], ordered[2:4], ordered[4:7], ordered[7:10]]
    assert runs == [["s1", "s3"], ["s2", "a"], ["b", "c", "d"], ["e", "f", "g"]]
    assert sorted(ordered) == sorted(i.name for i in items)


#: A widget that declares only the store: what it does not declare is a mypy error (issue 29:
#: each widget gets only the services it uses). ``# E: code`` marks each line mypy must refuse,
#: with the error's code; every other line must pass.
UNDECLARED_SERVICE = """
from typing import Any

from textual.widget import Widget

from tui.services import lent
from tui.widgets.common.bestiary_writes import run_step

step: Any = None


class StoreOnly(Widget):
    store = lent.store

    def go(self) -> None:
        self.store.characters()
        self.rng.random()  # E: attr-defined
        self.writer.write(lambda: None)  # E: attr-defined
        self.journal.record("note", None, "", {})  # E: attr-defined
        run_step(self, step)  # E: arg-type


class Declared(StoreOnly):  # the store its base's, the rest its own
    rng = lent.rng
    journal = lent.journal
    writer = lent.writer

    def go(self) -> None:
        self.rng.random()
        self.writer.write(lambda: None)
        run_step(self, step)
        self.store.no_such_verb()  # E: attr-defined
"""


def test_mypy_passes_rules_and_tui_and_refuses_a_service_a_widget_does_not_declare(
    tmp_path: Path,
):
    """rules/ and tui/ type-check; and the narrowing is real: touching an undeclared service,
    or handing a function a widget that lacks what it needs, fails mypy, the declared ones
    pass. One mypy run checks both: two ran side by side on two workers, each from a cold
    cache on a fresh clone (~7 CPU-s each)."""
    snippet = tmp_path / "undeclared_service.py"
    snippet.write_text(UNDECLARED_SERVICE, encoding="utf-8")
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    result = run(sys.executable, "-m", "mypy", "--no-error-summary", *files, str(snippet))
    errors = re.findall(r"^(\S+?):(\d+): error: .*\[([a-z-]+)\]$", result.stdout, re.M)
    lines = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert all(Path(line.split(":")[0]).name == snippet.name for line in lines), result.stdout
    found = {(int(number), code) for _, number, code in errors}
    expected = {
        (number, line.split("# E: ")[1].strip())
        for number, line in enumerate(UNDECLARED_SERVICE.splitlines(), start=1)
        if "# E: " in line
    }
    assert expected and found == expected, result.stdout + result.stderr
