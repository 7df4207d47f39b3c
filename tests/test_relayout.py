"""scripts/relayout.py: moves a tree of the flat layout and rewrites every kind of reference.

It must run again on the merged main (other branches' files included) and change nothing the
second time, so both are checked on a small tree of the old layout.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "relayout.py"

OLD_TREE = {
    "tui/__init__.py": "",
    "tui/cli.py": "def main():\n    return 0\n",
    "tui/cli_common.py": "def fail():\n    pass\n",
    "tui/luck_text.py": "",
    "tui/widgets/__init__.py": "",
    "tui/widgets/combat.py": "class CombatPane:\n    pass\n",
    "tui/widgets/combat_forms.py": "",
    "tui/widgets/log.py": "class LogPane:\n    pass\n",
    # A file another branch added: a pattern places it; one no pattern knows is reported.
    "tui/cli_seat.py": "from tui.cli_common import fail\nfrom tui import luck_text as lt\n",
    "tui/widgets/seat_queue.py": "from tui.widgets.log import LogPane\n",
    "tests/test_x.py": (
        'PATCH = "tui.widgets.combat.CombatPane.x"\n'
        'LATER = ("tui.widgets.combat", "tui.widgets.log")\n'
        "from tui.cli import main\n"
        "from tui.widgets import combat_forms\n"
        "# see tui/widgets/combat.py and tui/cli.py\n"
        'ARGS = ["-m", "tui.cli_common"]\n'
    ),
    "pyproject.toml": '[project.scripts]\nkubik = "tui.cli:main"\n',
}


def run(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(tree)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},  # no ruff: the rewrite alone is checked
    )


def old_tree(tmp_path: Path) -> Path:
    for rel, text in OLD_TREE.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "old"], cwd=tmp_path, check=True)
    return tmp_path


def test_the_move_rewrites_imports_strings_paths_and_entry_points(tmp_path: Path):
    tree = old_tree(tmp_path)
    done = run(tree)
    assert done.returncode == 0, done.stdout + done.stderr
    for rel in ("tui/cli/kubik.py", "tui/cli/common.py", "tui/present/luck.py"):
        assert (tree / rel).is_file(), rel
    assert (tree / "tui/widgets/combat/drevo.py").is_file()
    assert (tree / "tui/widgets/combat/__init__.py").read_text().startswith('"""')
    assert not (tree / "tui/cli.py").exists()
    assert (tree / "tui/cli/seat.py").read_text() == (
        "from tui.cli.common import fail\nfrom tui.present import luck as lt\n"
    )
    assert "tui/widgets/seat_queue.py" in done.stdout.split("NOT PLACED")[1]
    assert (tree / "tui/widgets/seat_queue.py").read_text() == (
        "from tui.widgets.log.pane import LogPane\n"
    )
    assert (tree / "tests/test_x.py").read_text() == (
        'PATCH = "tui.widgets.combat.drevo.CombatPane.x"\n'
        'LATER = ("tui.widgets.combat.drevo", "tui.widgets.log.pane")\n'
        "from tui.cli.kubik import main\n"
        "from tui.widgets.combat import drevo_forms as combat_forms\n"
        "# see tui/widgets/combat/drevo.py and tui/cli/kubik.py\n"
        'ARGS = ["-m", "tui.cli.common"]\n'
    )
    assert 'kubik = "tui.cli.kubik:main"' in (tree / "pyproject.toml").read_text()


def test_a_second_run_changes_nothing(tmp_path: Path):
    tree = old_tree(tmp_path)
    run(tree)
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts}
    again = run(tree)
    after = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before
    assert "moved (" not in again.stdout and "rewritten (" not in again.stdout
