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


#: ``from rules.drevo… import``, ``import rules.ide4``, ``from rules import wod``: a system's
#: rules package (its sheet class with it) reached from shared code, not through its System.
RULES_IMPORT = re.compile(
    rf"^\s*(?:from\s+rules\.(?:{NAMES})\b|import\s+rules\.(?:{NAMES})\b"
    rf"|from\s+rules\s+import\s+.*\b(?:{NAMES})\b)"
)
#: A system's sheet class imported by name from anywhere (``from … import WodSheet``).
SHEET_CLASSES = "|".join(
    re.escape(line.sheet.rpartition(":")[2]) for line in systems.SYSTEMS.values() if line.sheet
)
SHEET_IMPORT = re.compile(rf"^\s*(?:from\s+\S+\s+)?import\s+.*\b(?:{SHEET_CLASSES})\b")
#: The shared places that may import a system's rules, each with its reason. May only shrink.
RULES_ALLOWED: dict[str, str] = {
    "tui/store/models.py": "the typed character: its Sheet union and typed views (c.drevo, "
    "c.ide4…) are the store's, which may not ask tui.registry (import contract)",
    "tui/store/demo.py": "a demo Древо PC's starting Судьба (drevo/fate.toml): the store may "
    "not ask the registry's System.new_sheet",
    "tui/table/core.py": "the table's dice service rolls 4dF (rules.drevo.roll_4df) for the "
    "engine's seeded rng",
    "tui/present/faces.py": "typing only: the shared die-face renderers' argument types",
    "tui/bridge/sheets.py": "typing only: track_of's WoundTrack (the common core's Древо view)",
}


def rules_imports() -> dict[str, list[str]]:
    """Every import of a system's rules package or sheet class outside its own files."""
    found: dict[str, list[str]] = {}
    for path in sorted([*ROOT.glob("tui/**/*.py"), *ROOT.glob("rules/**/*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if OWN.match(relative):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if RULES_IMPORT.search(line) or SHEET_IMPORT.search(line):
                found.setdefault(relative, []).append(f"{number}: {line.strip()}")
    return found


def test_no_shared_module_imports_a_systems_rules_or_sheet() -> None:
    """A shared module reaches a system's rules and sheet through its System (its hooks in
    ``tui/systems/<name>/``: ``sheet_fields``, ``set_keys``, ``fight_readers``…), not by an
    import of ``rules.<name>``."""
    found = {path: lines for path, lines in rules_imports().items() if path not in RULES_ALLOWED}
    assert found == {}, "ask the system (tui.registry.get(name)…) instead:\n" + "\n".join(
        f"{path}:{line}" for path, lines in found.items() for line in lines
    )


def test_every_allowed_rules_import_is_still_needed() -> None:
    assert set(RULES_ALLOWED) <= set(rules_imports()), "an exception no longer needed: drop it"


def test_the_import_pattern_sees_each_kind_of_import() -> None:
    """The check can fail: each shape of such an import is caught; a shared rules module, a
    system's name in a string and a sheet word in prose are not."""
    caught = [
        "from rules.drevo.sheet import DrevoSheet",
        "    from rules.ide4.state import REROLL_SOURCES",
        "import rules.wod",
        "from rules import drevo  # PEP 562",
        "from rules import errors, starately",
        "from tui.store.models import Ide4Sheet",
    ]
    passed = [
        "from rules.rounds import health",
        "from rules import systems as rules_systems",
        "from rules.drevolike import x",
        'LINE = "rules.drevo.sheet:DrevoSheet"',
        "    its sheet (DrevoSheet.track) is read here",
    ]
    assert all(RULES_IMPORT.search(s) or SHEET_IMPORT.search(s) for s in caught)
    assert not any(RULES_IMPORT.search(s) or SHEET_IMPORT.search(s) for s in passed)


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
