"""The mutation tool's list of equivalent mutants (scripts/mutation_equivalents.toml) stays
readable and true to the code: a merge that lost an entry's header, or an entry whose line the
code no longer has, would silently change what the score leaves out."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_listed_equivalent_names_a_line_the_code_has_and_says_why():
    data = tomllib.loads((ROOT / "scripts" / "mutation_equivalents.toml").read_text())
    entries = data["equivalent"]
    assert entries
    for e in entries:
        assert set(e) == {"file", "line", "mutant", "reason"}, e
        assert e["reason"].strip() and e["line"] != e["mutant"], e
        assert e["line"].strip() in (ROOT / e["file"]).read_text(encoding="utf-8"), e["file"]
