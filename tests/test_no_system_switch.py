"""No code outside a system's own files names a system to decide what to do.

A rule system's parts live in its packages (``rules/<name>/``: its rules, sheet and Журнал
reader; ``tui/systems/<name>/``: its words, check engine, builder, CLI — Древо's fight and Бой
pane too); the registry is ``rules/systems.py``. Anywhere else, a comparison
with a system's name (``system == "drevo"``, ``"wod" != system``, ``system in ("ide4", …)``)
or a table keyed by the names (``{"drevo": …, "ide4": …}``) is a switch a fifth system would
have to find and extend, and a system's module named as a string (``"tui.systems.drevo.…"``)
is one part of one system reached past the registry: ask the system (``tui.registry.get(name)``,
``rules.systems``) instead.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules import systems

ROOT = Path(__file__).resolve().parent.parent
NAMES = "|".join(re.escape(name) for name in systems.names())
NAME = rf"""["'](?:{NAMES})["']"""
SWITCH = re.compile(
    rf"(?:==|!=)\s*{NAME}"  # system == "drevo"
    rf"|{NAME}\s*(?:==|!=)"  # "drevo" == system
    rf"|\bin\s*[(\[{{][^)\]}}]*{NAME}"  # system in ("ide4", "wod")
    rf"|{NAME}\s*:\s"  # {"drevo": …} — a registry of its own
    rf"""|["']tui\.systems\.(?:{NAMES})\b"""  # "tui.systems.drevo.…": past the registry
)
#: A system's own files: its packages, the modules named after it, the registry.
OWN = re.compile(rf"^(?:tui/systems/(?:{NAMES})/|rules/systems\.py$|rules/(?:{NAMES})/)")
#: The honest exceptions, each with its reason. This list may only shrink.
ALLOWED: dict[str, str] = {}


def switches() -> dict[str, list[str]]:
    """Every line outside a system's own files that switches on a system's name, by file."""
    found: dict[str, list[str]] = {}
    for path in sorted([*ROOT.glob("tui/**/*.py"), *ROOT.glob("rules/**/*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if OWN.match(relative):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SWITCH.search(line):
                found.setdefault(relative, []).append(f"{number}: {line.strip()}")
    return found


def test_no_switch_on_a_system_name_outside_its_own_files() -> None:
    found = {path: lines for path, lines in switches().items() if path not in ALLOWED}
    assert found == {}, "ask tui.registry / rules.systems instead:\n" + "\n".join(
        f"{path}:{line}" for path, lines in found.items() for line in lines
    )


def test_every_allowed_exception_is_still_needed() -> None:
    assert set(ALLOWED) <= set(switches()), "an exception no longer needed: drop it"


def test_the_pattern_sees_each_kind_of_switch() -> None:
    """The check can fail: each shape of a switch is caught, a system's data is not."""
    caught = [
        'if system == "drevo":',
        'if "wod" != world.system:',
        'if system in ("ide4", "starately"):',
        'TABLES = {"drevo": (), "ide4": ()}',
        'LATER = ("tui.systems.drevo.fight_pane.pane", "tui.widgets.log.pane")',
    ]
    passed = [
        'data = {"system": "wod", "pool": 3}',
        'demo_campaign(system="drevo")',
        'LOCATION = "tui.systems.{name}:SYSTEM"',  # the registry's one way in, by the name
    ]
    assert all(SWITCH.search(line) for line in caught)
    assert not any(SWITCH.search(line) for line in passed)
    assert OWN.match("tui/systems/wod/__init__.py") and OWN.match("tui/systems/wod/cli.py")
    assert not OWN.match("tui/bridge/sheets.py") and not OWN.match("tui/cli/kubik.py")
