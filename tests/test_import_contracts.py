"""Which part may import which (pyproject's [tool.importlinter] contracts; docs/architecture.md).

No circle at any depth; ``rules`` imports no ``tui``, Textual, Rich or TinyDB; ``tui.store``
imports no screen, widget, renderer or app; screens and widgets never import the app (they see
it as ``tui.host.CampaignHost``); the widget areas never import each other; only the store
touches TinyDB.
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

from tui.app import KubikApp
from tui.host import CampaignHost

ROOT = Path(__file__).resolve().parent.parent
LINT = [sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()"]


def lint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LINT, "--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_the_import_contracts_hold():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_circle_breaks_the_contract(tmp_path: Path):
    """The contract type the project uses does see a circle (two modules importing each other)."""
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop import b\n")
    (package / "b.py").write_text("from loop import a\n")
    (tmp_path / ".importlinter").write_text(
        textwrap.dedent(
            """
            [importlinter]
            root_package = loop

            [importlinter:contract:1]
            name = No circle
            type = acyclic_siblings
            ancestors = loop
            """
        )
    )
    result = lint(tmp_path)
    assert result.returncode != 0
    assert "No circle BROKEN" in result.stdout


def test_the_app_is_the_host_the_screens_ask_for():
    """Every member of CampaignHost is one KubikApp has: the protocol is the app's real shape."""
    methods = {n for n in vars(CampaignHost) if not n.startswith(("__", "_abc"))} - {
        "_is_protocol",
        "_is_runtime_protocol",
    }
    attributes = set(CampaignHost.__annotations__)
    assert {"redraw_all", "action_focus_tab", "_store_notified", "store"} <= methods
    assert attributes == {"services", "sub_title", "campaign_folders"}
    missing = [name for name in sorted(methods) if not hasattr(KubikApp, name)]
    assert not missing, f"KubikApp lacks {missing}"
    source = inspect.getsource(KubikApp)
    assert all(f"self.{name}" in source for name in attributes)  # set in __init__


def test_the_table_engine_runs_without_textual_or_rich():
    """The engine (fights, their steps, the store session; Древо's party steps; the round
    tracker and each system's hook of it) imports in a fresh interpreter without loading
    Textual or Rich: the seats' server and ``kubik fight`` need no screen."""
    code = (
        "import sys\n"
        "import tui.systems.drevo.fight.steps, tui.systems.drevo.fight.session\n"
        "import tui.systems.drevo.fight.text\n"
        "import tui.systems.drevo.party.steps, tui.systems.drevo.party.view\n"
        "import tui.table.commit\n"
        "import tui.table.rounds.steps, tui.table.rounds.view\n"
        "from tui import registry\n"
        "hooks = [registry.rounds_hook(name) for name in registry.names()]\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'})\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_every_widget_area_is_kept_apart_from_the_others():
    """The independence contract names every area of ``tui/widgets/`` but ``common``: a new tab's
    folder is kept apart from the others from its first commit (the Бой tab once reached into the
    builders for a turn's check; it now posts ``TurnCheck``)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    apart = next(c for c in contracts["contracts"] if c["type"] == "independence")
    widgets = ROOT / "tui" / "widgets"
    areas = {p.name for p in widgets.iterdir() if (p / "__init__.py").exists()} - {"common"}
    assert set(apart["modules"]) == {f"tui.widgets.{a}" for a in areas}


def test_every_part_outside_the_systems_is_kept_from_importing_one():
    """The contract that no part imports a system's package (``tui/systems/<name>/``: the
    registry's strings find it) names every top-level part of ``tui/`` but the systems, and
    ``rules``: a new part is held to it from its first commit."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    apart = next(
        c for c in contracts["contracts"] if c.get("forbidden_modules") == ["tui.systems.*"]
    )
    tui = ROOT / "tui"
    parts = {
        p.stem
        for p in tui.iterdir()
        if (p.suffix == ".py" or (p / "__init__.py").exists())
        and p.name not in {"__init__.py", "__main__.py", "__pycache__"}
    }
    assert set(apart["source_modules"]) == {"rules"} | {f"tui.{p}" for p in parts - {"systems"}}
