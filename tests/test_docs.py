"""The guide (docs/, MkDocs) and the README cannot drift from the code.

The generated pages (keys, commands, notation) are what ``python -m scripts.gendocs`` makes of the
code now; the README keeps its two set-up commands first and `.ci/run` runs the same test
command; every relative link of the README leads to a file (and heading); and the guide builds
with ``mkdocs build --strict``, which fails on a broken link, a missing page or a stale anchor.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from markdown.extensions.toc import slugify_unicode

from scripts import gendocs

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
INSTALL = "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/kubik"
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"


def test_generated_pages_are_what_the_code_says() -> None:
    """A key, a command or a dice form changed without `python -m scripts.gendocs`."""
    stale = [str(path.relative_to(ROOT)) for path in gendocs.stale()]
    assert not stale, f"stale: {stale} — run python -m scripts.gendocs"


def test_a_stale_page_is_found(tmp_path, monkeypatch) -> None:
    """The check can fail: a page one line behind the code is named, a missing one too."""
    for path, text in gendocs.pages().items():
        (tmp_path / path.name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(gendocs, "REFERENCE", tmp_path)
    assert gendocs.stale() == []
    keys = tmp_path / "keys.md"
    keys.write_text(keys.read_text(encoding="utf-8").replace("| `?` |", "| `F1` |"), "utf-8")
    (tmp_path / "notation.md").unlink()
    assert sorted(p.name for p in gendocs.stale()) == ["keys.md", "notation.md"]


def test_every_command_is_in_the_commands_page() -> None:
    """Each command of the dispatcher, each system's odds and check, each party action."""
    from tui import registry
    from tui.cli.kubik import COMMANDS

    page = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ `(kubik[^`]*)`$", page, re.M))
    wanted = {"kubik", *(f"kubik {c}" for c in COMMANDS)}
    wanted |= {f"kubik {verb} {s}" for verb in ("odds", "check") for s in registry.names()}
    wanted |= {"kubik party list", "kubik party add", "kubik party remove", "kubik serve --seat"}
    assert wanted <= headings, wanted - headings


def test_the_set_up_commands_stay_first_and_ci_runs_the_same_tests() -> None:
    """The README's first two commands install and test; `.ci/run` runs exactly the second."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert [b.strip() for b in blocks[:2]] == [INSTALL, TEST]
    ci = (
        (ROOT / ".ci" / "run")
        .read_text(encoding="utf-8")
        .replace("pip install -q ", "pip install ")
    )
    assert TEST in ci.splitlines()


def test_the_readme_stays_short() -> None:
    """A GM reads it in two minutes; the details belong in docs/ (issue 33)."""
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 150, f"README.md has {lines} lines: move the details into docs/"


def headings(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {
        slugify_unicode(h.strip("# ").replace("`", ""), "-")
        for h in re.findall(r"^#+ .*$", text, re.M)
    }


def test_every_readme_link_leads_somewhere() -> None:
    """A relative link of the README names a file of the repository (and a heading of it)."""
    links = re.findall(r"\]\(([^)\s]+)\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local, "the README links into the guide"
    broken = []
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        if not target.exists() or (anchor and anchor not in headings(target)):
            broken.append(link)
    assert not broken, broken


def test_the_guide_builds_strictly(tmp_path) -> None:
    """`mkdocs build --strict`: a broken link, a missing page or a stale anchor fails."""
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert (tmp_path / "guide" / "fight.html").exists()


#: The pages that map the code: every ``tui/…`` or ``rules/…`` path they name must exist.
MAP_PAGES = ("docs/architecture.md", "docs/dev/adding-a-system.md")
#: A path in the text: ``tui/`` or ``rules/``, then folders and a file or folder name.
PATH = re.compile(r"(?<![\w./-])((?:tui|rules)/[\w./-]*[\w/])")
#: Names a page uses for a system the reader adds (the example «Новая») or for any system:
#: the path must exist for a real one (Мир Тьмы's, the shortest).
PLACEHOLDER = re.compile(r"novaya|<\w+>")


def missing_paths(text: str) -> list[str]:
    """The ``tui/…`` and ``rules/…`` paths ``text`` names that the repository lacks; one
    naming «novaya» or ``<name>`` must exist for ``wod``."""
    found = []
    for match in PATH.finditer(text):
        path = match.group(1)
        end = match.end(1)
        tail = re.match(r"<\w+>[\w./-]*", text[end:])  # tui/systems/<name>/… : the rest
        if tail:
            path += tail.group(0)
        if not (ROOT / PLACEHOLDER.sub("wod", path)).exists():
            found.append(path)
    return found


def test_every_path_the_map_pages_name_exists() -> None:
    """docs/architecture.md and the adding-a-system guide name real files and folders."""
    missing = {page: missing_paths((ROOT / page).read_text(encoding="utf-8")) for page in MAP_PAGES}
    assert missing == dict.fromkeys(MAP_PAGES, [])


def test_a_path_that_is_not_there_is_found() -> None:
    text = (
        "see `tui/bridge/combat.py` and tui/table/check/ide4_steps.py, "
        "`tui/systems/novaya/check/` and `tui/systems/<name>/cli.py` (as wod's), not "
        "`tui/widgets/builders/novaya.py` nor tui/table/check/<system>_view.py; "
        "`tui/registry/base.py` is there"
    )
    assert missing_paths(text) == [
        "tui/bridge/combat.py",
        "tui/table/check/ide4_steps.py",
        "tui/widgets/builders/novaya.py",
        "tui/table/check/<system>_view.py",
    ]
