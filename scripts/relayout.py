"""Move tui/ into the layout that names its parts (issue 21), and rewrite every reference.

Run from the repository root (or name it)::

    python3 scripts/relayout.py [ROOT] [--dry-run]

What it does, in order:

1. ``git mv`` each file of :data:`MAP` from its old path to its new one. A file already at its
   new place is left; a file that is in neither place is reported (another branch removed or
   renamed it). A file that is in BOTH places is a conflict: reported, neither is touched.
2. Places the files it does not know that follow a pattern of :data:`PATTERNS` (a new
   ``tui/cli_seat.py`` goes to ``tui/cli/seat.py``) and reports the rest of the files still
   standing where the old layout had them, so they can be added to :data:`MAP`.
3. Writes the ``__init__.py`` of each new package (:data:`PACKAGES`) that has none.
4. Rewrites, in every text file of tui/, tests/, scripts/, docs/ and the top-level Markdown and
   ``pyproject.toml``: dotted module names (imports, ``"tui.widgets.combat"`` in mock paths and
   ``importlib`` strings, ``python -m tui.cli_party``), ``from tui import luck_text as lt``
   forms, and paths (``tui/widgets/combat.py``). Files other branches added later are
   rewritten too: the map is of modules, not of a list of files.

The rewritten Python files get ``ruff check --select I --fix`` and ``ruff format`` (when ruff
is installed) so the imports stay sorted. It is idempotent: a second run finds every file in
place and every name already new, and changes nothing. Only the standard library; it never
commits.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Old path → new path, for every file that moves. The module map is derived from it.
MAP: dict[str, str] = {
    # The ``kubik`` command: one module per system and per subcommand, ``serve``.
    "tui/cli.py": "tui/cli/kubik.py",
    "tui/cli_common.py": "tui/cli/common.py",
    "tui/cli_dice.py": "tui/cli/dice.py",
    "tui/cli_drevo.py": "tui/cli/drevo.py",
    "tui/cli_ide4.py": "tui/cli/ide4.py",
    "tui/cli_starately.py": "tui/cli/starately.py",
    "tui/cli_wod.py": "tui/cli/wod.py",
    "tui/cli_party.py": "tui/cli/party.py",
    "tui/cli_stats.py": "tui/cli/stats.py",
    "tui/serve.py": "tui/cli/serve.py",
    # Rules results → Russian text (screen, log, CLI, Markdown, JSON).
    "tui/render.py": "tui/present/rolls.py",
    "tui/render_combat.py": "tui/present/combat.py",
    "tui/luck_text.py": "tui/present/luck.py",
    # Campaign (store) ↔ rules objects, and the players' filter of the campaign.
    "tui/combat_bridge.py": "tui/bridge/combat.py",
    "tui/combat_other.py": "tui/bridge/combat_other.py",
    "tui/effects_bridge.py": "tui/bridge/effects.py",
    "tui/sheets.py": "tui/bridge/sheets.py",
    "tui/luck.py": "tui/bridge/luck.py",
    "tui/public.py": "tui/bridge/public.py",
    # The campaign on disk: following other kubiks' writes.
    "tui/watch.py": "tui/store/watch.py",
    # The Партия tab and its character form (a modal the tab opens: it lives with the tab).
    "tui/widgets/party.py": "tui/widgets/party/pane.py",
    "tui/screens/character_form.py": "tui/widgets/party/form.py",
    "tui/screens/character_fields.py": "tui/widgets/party/fields.py",
    # The Бой tab: Древо's exchanges and the round tracker of the other systems.
    "tui/widgets/combat.py": "tui/widgets/combat/drevo.py",
    "tui/widgets/combat_forms.py": "tui/widgets/combat/drevo_forms.py",
    "tui/widgets/combat_resolve.py": "tui/widgets/combat/drevo_resolve.py",
    "tui/widgets/rounds.py": "tui/widgets/combat/rounds.py",
    # The Проверка tab: one builder per system, and what they share.
    "tui/widgets/builder.py": "tui/widgets/builders/base.py",
    "tui/widgets/check.py": "tui/widgets/builders/drevo.py",
    "tui/widgets/builder_ide4.py": "tui/widgets/builders/ide4.py",
    "tui/widgets/ide4_dialogs.py": "tui/widgets/builders/ide4_dialogs.py",
    "tui/widgets/ide4_form.py": "tui/widgets/builders/ide4_form.py",
    "tui/widgets/ide4_moves.py": "tui/widgets/builders/ide4_moves.py",
    "tui/widgets/ide4_opposed.py": "tui/widgets/builders/ide4_opposed.py",
    "tui/widgets/ide4_text.py": "tui/widgets/builders/ide4_text.py",
    "tui/widgets/builder_starately.py": "tui/widgets/builders/starately.py",
    "tui/widgets/builder_starately_opposed.py": "tui/widgets/builders/starately_opposed.py",
    "tui/widgets/builder_starately_parts.py": "tui/widgets/builders/starately_parts.py",
    "tui/widgets/builder_wod.py": "tui/widgets/builders/wod.py",
    "tui/widgets/builder_wod_parts.py": "tui/widgets/builders/wod_parts.py",
    "tui/widgets/dicefaces.py": "tui/widgets/builders/dicefaces.py",
    # The Журнал tab and the luck statistics it opens.
    "tui/widgets/log.py": "tui/widgets/log/pane.py",
    "tui/screens/stats.py": "tui/widgets/log/stats.py",
    # What stands outside any tab, and the small controls every tab uses.
    "tui/widgets/keybar.py": "tui/widgets/common/keybar.py",
    "tui/widgets/quickroll.py": "tui/widgets/common/quickroll.py",
    "tui/widgets/toosmall.py": "tui/widgets/common/toosmall.py",
    "tui/widgets/choice.py": "tui/widgets/common/choice.py",
    "tui/widgets/prompt.py": "tui/widgets/common/prompt.py",
    "tui/widgets/stepper.py": "tui/widgets/common/stepper.py",
    "tui/widgets/table.py": "tui/widgets/common/table.py",
    "tui/widgets/text.py": "tui/widgets/common/text.py",
    "tui/widgets/focus.py": "tui/widgets/common/focus.py",
    "tui/widgets/motion.py": "tui/widgets/common/motion.py",
    "tui/widgets/ordered_input.py": "tui/widgets/common/ordered_input.py",
    # Shared by two areas: effects (Партия and Бой), exact odds as bars (Проверка and Бой).
    "tui/widgets/effect_keys.py": "tui/widgets/common/effect_keys.py",
    "tui/widgets/rounds_forms.py": "tui/widgets/common/effect_form.py",
    "tui/widgets/oddsbars.py": "tui/widgets/common/oddsbars.py",
    # The ``?`` screen lists the app's keys: a screen of the app's, like the settings.
    "tui/widgets/keys.py": "tui/screens/keys.py",
}

#: Files the old layout has that stay where they are (not reported as unknown).
STAYS = {
    "tui/__init__.py",
    "tui/__main__.py",
    "tui/app.py",
    "tui/view.py",
    "tui/host.py",
    "tui/crash.py",
    "tui/clipboard.py",
    "tui/sanitize.py",
    "tui/words.py",
    "tui/widgets/__init__.py",
}

#: Where a file this script does not know goes, by its old name (regex → new path template).
PATTERNS: list[tuple[str, str]] = [
    (r"tui/cli_(\w+)\.py", r"tui/cli/\1.py"),
    (r"tui/render_(\w+)\.py", r"tui/present/\1.py"),
    (r"tui/(\w+)_bridge\.py", r"tui/bridge/\1.py"),
    (r"tui/widgets/builder_(\w+)\.py", r"tui/widgets/builders/\1.py"),
    (r"tui/widgets/ide4_(\w+)\.py", r"tui/widgets/builders/ide4_\1.py"),
    (r"tui/widgets/combat_(\w+)\.py", r"tui/widgets/combat/drevo_\1.py"),
    (r"tui/widgets/rounds_(\w+)\.py", r"tui/widgets/combat/rounds_\1.py"),
    (r"tui/widgets/party_(\w+)\.py", r"tui/widgets/party/\1.py"),
    (r"tui/widgets/log_(\w+)\.py", r"tui/widgets/log/\1.py"),
]

#: The new packages and the line their ``__init__.py`` says.
PACKAGES: dict[str, str] = {
    "tui/cli": "The ``kubik`` command: the app's options, one module per subcommand and system.",
    "tui/present": "Renderers: rules results and the campaign as Russian text, Markdown, JSON.",
    "tui/bridge": "Between the campaign (store characters, documents) and the rules objects.",
    "tui/widgets/party": "The Партия tab: the party table, the character sheet, its form.",
    "tui/widgets/combat": "The Бой tab: Древо's exchanges, the other systems' round tracker.",
    "tui/widgets/builders": "The Проверка tab: one check builder per rules system.",
    "tui/widgets/log": "The Журнал tab and the luck statistics it opens.",
    "tui/widgets/common": "The key bar, the quick roll, and the small controls every tab uses.",
}

#: Where references are rewritten (folders walked whole; single files).
SCAN_DIRS = ("tui", "tests", "scripts", "docs", "rules", "data", ".ci", ".github")
SCAN_FILES = ("pyproject.toml", "README.md", "CONTRIBUTING.md", "Makefile", "tox.ini")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".tcss", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".sh"}
SKIP_PARTS = {"__snapshots__", "__pycache__", ".venv", ".git"}
SELF = "scripts/relayout.py"
SELF_TEST = "tests/test_relayout.py"  # its old-layout tree is the test's input: never rewritten


def module_of(path: str) -> str:
    """Return the dotted module name of a ``.py`` path (a package's ``__init__`` is the package)."""
    name = path.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


class Relayout:
    """One run over one tree: the moves, the new packages, the rewrites, and what to report."""

    def __init__(self, root: Path, dry_run: bool) -> None:
        self.root = root
        self.dry_run = dry_run
        self.moved: list[str] = []
        self.patterned: list[str] = []
        self.missing: list[str] = []
        self.conflicts: list[str] = []
        self.unknown: list[str] = []
        self.created: list[str] = []
        self.rewritten: list[str] = []
        self.paths = dict(MAP)

    # -- moves ------------------------------------------------------------------------------

    def git(self, *args: str) -> None:
        if self.dry_run:
            return
        subprocess.run(["git", *args], cwd=self.root, check=True, capture_output=True)

    def tracked(self, path: str) -> bool:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", path], cwd=self.root, capture_output=True
        )
        return done.returncode == 0

    def move(self, old: str, new: str) -> bool:
        """Move one file; return whether it is (now or already) at ``new``."""
        src, dst = self.root / old, self.root / new
        if src.exists() and dst.exists():
            self.conflicts.append(f"{old} and {new} both exist: merge them by hand")
            return False
        if dst.exists():
            return True
        if not src.exists():
            self.missing.append(f"{old} (for {new}) is in neither place")
            return False
        if not self.dry_run:
            dst.parent.mkdir(parents=True, exist_ok=True)
            if self.tracked(old):
                self.git("mv", old, new)
            else:  # a file git does not know yet moves all the same
                src.rename(dst)
        self.moved.append(f"{old} -> {new}")
        return True

    def place_unknown(self) -> None:
        """Place the files that follow a pattern; report the others left in an old place."""
        known = set(MAP) | set(MAP.values()) | STAYS
        old_places = [self.root / "tui", self.root / "tui" / "widgets"]
        for folder in old_places:
            for path in sorted(folder.glob("*.py")):
                rel = path.relative_to(self.root).as_posix()
                if rel in known:
                    continue
                for pattern, template in PATTERNS:
                    if re.fullmatch(pattern, rel):
                        new = re.sub(pattern, template, rel)
                        if self.move(rel, new):
                            self.paths[rel] = new
                            self.patterned.append(f"{rel} -> {new}")
                        break
                else:
                    self.unknown.append(rel)

    def write_packages(self) -> None:
        for package, line in PACKAGES.items():
            init = self.root / package / "__init__.py"
            if init.exists() or not (self.root / package).is_dir():
                continue
            if not self.dry_run:
                init.write_text(f'"""{line}"""\n', encoding="utf-8")
                self.git("add", init.relative_to(self.root).as_posix())
            self.created.append(init.relative_to(self.root).as_posix())

    # -- rewrites ---------------------------------------------------------------------------

    def modules(self) -> tuple[dict[str, str], set[str], set[str]]:
        """Return old module → new, the new packages, and every new module (files in place)."""
        old_new = {module_of(old): module_of(new) for old, new in self.paths.items()}
        new_modules = set(old_new.values())
        packages: set[str] = set()
        for name in new_modules:
            parts = name.split(".")
            packages.update(".".join(parts[:i]) for i in range(1, len(parts)))
        return old_new, packages, new_modules | packages

    def rename(self, token: str) -> str:
        """Return ``token`` (a dotted name: a module, maybe with attributes) in the new layout."""
        parts = token.split(".")
        for i in range(len(parts), 1, -1):
            old = ".".join(parts[:i])
            if old not in self.old_new:
                continue
            if old in self.packages:  # an old module whose name is a new package's
                if i == len(parts) or ".".join(parts[: i + 1]) in self.new_modules:
                    if i < len(parts):
                        return token  # already new: tui.widgets.combat.drevo...
                return ".".join([self.old_new[old], *parts[i:]])
            return ".".join([self.old_new[old], *parts[i:]])
        return token

    def rewrite_dotted(self, match: re.Match[str]) -> str:
        """Rewrite one dotted name; ``from PKG import submodule`` of a new package stays."""
        token = match.group(0)
        if token in self.packages:
            after = IMPORTED.match(match.string, match.end())
            if after and f"{token}.{after.group(1)}" in self.new_modules:
                return token
        return self.rename(token)

    def rewrite_from_import(self, match: re.Match[str]) -> str:
        """Rewrite ``from PKG import mod [as x]`` where PKG.mod is an old module."""
        indent, package, names, tail = (
            match.group(1),
            match.group(2),
            match.group(3),
            match.group(4),
        )
        if names.strip().startswith("("):
            return match.group(0)
        items = [n.strip() for n in names.split(",")]
        lines: list[str] = []
        rest: list[str] = []
        for item in items:
            name, _, alias = (p.strip() for p in item.partition(" as "))
            full = f"{package}.{name}"
            if full in self.old_new:
                parent, _, leaf = self.old_new[full].rpartition(".")
                as_name = alias or name
                suffix = "" if leaf == as_name else f" as {as_name}"
                lines.append(f"{indent}from {parent} import {leaf}{suffix}")
            else:
                rest.append(item)
        if not lines:
            return match.group(0)
        if rest:
            lines.insert(0, f"{indent}from {package} import {', '.join(rest)}")
        lines[-1] += tail
        return "\n".join(lines)

    def rewrite_text(self, text: str, python: bool) -> str:
        if python:
            text = FROM_IMPORT.sub(self.rewrite_from_import, text)
        text = DOTTED.sub(self.rewrite_dotted, text)
        return PATH.sub(lambda m: self.paths.get(m.group(0), m.group(0)), text)

    def files_to_scan(self) -> list[Path]:
        found: list[Path] = []
        for folder in SCAN_DIRS:
            base = self.root / folder
            if not base.is_dir():
                continue
            for path in base.rglob("*"):
                if (
                    path.is_file()
                    and path.suffix in TEXT_SUFFIXES
                    and not SKIP_PARTS & set(path.relative_to(self.root).parts)
                ):
                    found.append(path)
        found += [self.root / f for f in SCAN_FILES if (self.root / f).is_file()]
        return sorted(
            p for p in found if p.relative_to(self.root).as_posix() not in (SELF, SELF_TEST)
        )

    def rewrite_all(self) -> None:
        self.old_new, self.packages, self.new_modules = self.modules()
        for path in self.files_to_scan():
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            new = self.rewrite_text(text, path.suffix == ".py")
            if new != text:
                self.rewritten.append(path.relative_to(self.root).as_posix())
                if not self.dry_run:
                    path.write_text(new, encoding="utf-8")

    def tidy(self) -> None:
        """Sort the rewritten imports and re-wrap long lines with ruff, when it is installed."""
        ruff = shutil.which("ruff") or shutil.which("ruff", path=str(self.root / ".venv" / "bin"))
        files = [f for f in self.rewritten if f.endswith(".py")]
        if self.dry_run or not ruff or not files:
            return
        for args in (["check", "--select", "I", "--fix", "--quiet"], ["format", "--quiet"]):
            subprocess.run([ruff, *args, *files], cwd=self.root, check=False)

    def long_lines(self) -> list[str]:
        """Lines of the rewritten files that a longer module name pushed past 100 columns."""
        found = []
        for rel in self.rewritten:
            if self.dry_run or not rel.endswith(".py"):
                continue
            lines = (self.root / rel).read_text(encoding="utf-8").splitlines()
            for n, line in enumerate(lines, 1):
                code = re.split(r"  # (?:type:|noqa)", line)[0]  # ruff lets a pragma overhang
                if len(code) > 100:
                    found.append(f"{rel}:{n}")
        return found

    def check_ambiguous(self) -> list[str]:
        """Names an old module defines that are also a submodule of its new package."""
        clashes = []
        for old, new in self.old_new.items():
            if old not in self.packages:
                continue
            path = self.root / (new.replace(".", "/") + ".py")
            if not path.exists():
                continue
            defined = set(re.findall(r"^(?:def|class|async def) (\w+)|^(\w+) =", path.read_text()))
            for name in {a or b for a, b in defined}:
                if f"{old}.{name}" in self.new_modules:
                    clashes.append(f"{old}.{name}: defined in {new} and a module of the package")
        return clashes

    def run(self) -> int:
        for old, new in MAP.items():
            self.move(old, new)
        self.place_unknown()
        self.write_packages()
        self.rewrite_all()
        clashes = self.check_ambiguous()
        self.tidy()
        report = [
            ("moved", self.moved),
            ("placed by a pattern (check the name)", self.patterned),
            ("new packages", self.created),
            ("rewritten", self.rewritten),
            ("in neither place (renamed or removed elsewhere?)", self.missing),
            ("CONFLICT", self.conflicts),
            (
                "NOT PLACED: files in an old place the map does not know; add them to MAP",
                self.unknown,
            ),
            ("AMBIGUOUS names", clashes),
            ("over 100 columns now (comments, docstrings: re-wrap by hand)", self.long_lines()),
        ]
        for title, items in report:
            if items:
                print(f"{title} ({len(items)}):")
                print("".join(f"  {item}\n" for item in items), end="")
        if not any(items for _, items in report):
            print("relayout: nothing to do, every file is in place")
        return 1 if self.conflicts or clashes else 0


#: A dotted name in the tui package (not part of a longer dotted or path name).
DOTTED = re.compile(r"(?<![\w.])tui(?:\.\w+)+")
#: A path of a module in the tui package.
PATH = re.compile(r"(?<![\w./-])tui(?:/\w+)+\.py\b")
#: The first name after ``import`` (``from PKG import (name, ...``).
IMPORTED = re.compile(r"[ \t]+import[ \t]+\(?\s*(\w+)")
#: ``from tui.x import a, b as c`` on one line (``tail``: a comment).
FROM_IMPORT = re.compile(
    r"^([ \t]*)from[ \t]+(tui(?:\.\w+)*)[ \t]+import[ \t]+([\w \t,]+?)([ \t]*(?:#.*)?)$",
    re.MULTILINE,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=".", help="the repository (default: here)")
    parser.add_argument(
        "--dry-run", action="store_true", help="say what would change, change nothing"
    )
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    if not (root / "tui").is_dir():
        print(f"relayout: {root} has no tui/ folder", file=sys.stderr)
        return 2
    return Relayout(root, args.dry_run).run()


if __name__ == "__main__":
    raise SystemExit(main())
