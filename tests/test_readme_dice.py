"""The README's dice notation table: every modifier with an example, and the example's odds."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import parse
from rules.odds import odds
from tui.present.rolls import number, percent

README = Path(__file__).resolve().parent.parent / "README.md"


def rows() -> list[tuple[str, str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Quick roll and dice notation", 1)[1].split("\nSaved rolls:", 1)[0]
    found = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`") and cells[0] != "---":
            found.append((cells[0], cells[1].strip("`"), cells[3]))
    return found


def stated_odds(example: str) -> str:
    expression = parse(example)
    dist = odds(expression)
    mean = f"{float(dist.mean()):.2f}".replace(".", ",")
    low, high = number(dist.minimum), number(dist.maximum)
    text = f"{low}…{high}, среднее {mean}"
    if expression.target is not None:
        text += f", ≥ {number(expression.target)}: {percent(dist.p_at_least(expression.target))}"
    if dist.truncated:
        text += " (цепочки реже 1e−12 обрезаны)"
    return text


def test_every_modifier_is_in_the_table() -> None:
    """Issue 18: «every modifier in the README with an example and its odds»; issue 31: the
    rest of rpg-dice-roller's notation."""
    modifiers = " ".join(m for m, _, _ in rows())
    for token in ("`!`", "`!!`", "`!p`", "`r`", "`ro`", "`k`", "`kh`", "`kl`", "`d`", "`dh`",
                  "`dl`", "`min`", "`max`", "`>=`", "`<=`", "`!=`", "`f`", "`# label`", "`Nx`",
                  "`vs N`", "`к`", "`+ - * /`", "`u`", "`uo`", "`cs`", "`cf`", "`s`", "`sd`",
                  "`dF.1`", "`^`", "`**`", "`%`", "functions", "`(…)d`",
                  "`// label`"):  # fmt: skip
        assert token in modifiers, token


@pytest.mark.parametrize(("modifier", "example", "stated"), rows())
def test_each_example_states_its_exact_odds(modifier: str, example: str, stated: str) -> None:
    """Issue 18: «every modifier in the README with an example and its odds»."""
    assert stated == stated_odds(example)
