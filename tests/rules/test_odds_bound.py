"""The counted bound of exact odds: a refusal is decided by counting work, never by a clock.

Issue 31: «Refused by the clock. `kubik odds '20d10!kh10'` exits 2 after ~1.5–1.7 s … The
refusal comes from a wall-clock backstop (`rules/odds/weights.py`, 1.5 s), so the same
expression is answered on a quiet machine and refused on a busy one. A result must never depend
on load»; «refusals decided by a counted bound that does not depend on time or load»; «the
bound's decision is the same under a CPU burner».
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules.odds.weights as weights
from rules.dice import parse
from rules.errors import DiceLimitError
from rules.odds import _compute, odds
from rules.odds.tree import _node
from rules.odds.weights import BUDGET, _Work, mul_steps

ODDS = Path(__file__).resolve().parents[2] / "rules" / "odds"

#: Expressions around the bound, with the decision it makes: answered (True) or refused.
DECISIONS = {
    "20d10!kh10": True,  # the rows, refused by the clock before
    "15d10!kh10": True,
    "20d10!kl10": True,
    "20d10!dl10": True,
    "100d6dl10": True,
    "{4d6+2d8-3d30}d3": True,  # rpg-dice-roller's own example
    "500d100": True,  # 2,950,000 steps: just under the budget
    "506d100": False,  # 3,036,000: just over
    "1000d1000": False,
    "20d1000kh10": False,
    "1000d6!": False,
}


def steps(text: str, budget: int = 10**18) -> int:
    """The steps one calculation counts (up to where ``budget`` stops it)."""
    work = _Work(budget=budget)
    try:
        _node(parse(text).root, 100, work)
    except DiceLimitError:
        pass
    return work.done


def decide(text: str) -> bool:
    _compute.cache_clear()  # type: ignore[attr-defined]
    try:
        odds(text)
    except DiceLimitError:
        return False
    return True


def test_no_clock_in_the_odds() -> None:
    """No module of ``rules/odds`` reads a clock: the bound is a count."""
    for path in sorted(ODDS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name != "time" for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("time", "datetime"), path.name


def test_a_stopped_clock_or_a_racing_one_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that jumps an hour at every look (a machine so loaded each step takes an hour)
    changes no decision."""
    expected = {text: decide(text) for text in DECISIONS}
    now = [0.0]

    def racing() -> float:
        now[0] += 3600.0
        return now[0]

    for name in ("perf_counter", "monotonic", "process_time", "time"):
        monkeypatch.setattr(time, name, racing)
    assert {text: decide(text) for text in DECISIONS} == expected == DECISIONS


def test_the_decision_is_the_same_under_a_cpu_burner() -> None:
    """Issue 31: «the bound's decision is the same under a CPU burner» — two processes
    spinning on the two cores, the same answers and the same counts."""
    quiet = {text: (decide(text), steps(text, BUDGET)) for text in DECISIONS}
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        busy = {text: (decide(text), steps(text, BUDGET)) for text in DECISIONS}
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert busy == quiet
    assert {text: answered for text, (answered, _) in busy.items()} == DECISIONS


def test_the_budget_and_its_edge_are_pinned() -> None:
    """The budget is a number of steps; a plain pool's price is
    ``count × faces × (1 + count × bits(faces) / 60)``: 500d100 is under it, 506d100 over."""
    assert BUDGET == 3_000_000
    assert steps("500d100") == 500 * 100 * (1 + 500 * 7 // 60) == 2_950_000
    assert steps("506d100") == 506 * 100 * (1 + 506 * 7 // 60) == 3_036_000
    assert decide("500d100") and not decide("506d100")
    work = _Work(budget=10)
    work.take(10)  # at the budget: still allowed
    with pytest.raises(DiceLimitError, match="слишком много вариантов"):
        work.take(1)
    assert work.done == 11


def test_a_refusal_comes_before_the_work() -> None:
    """A calculation too big is refused by its first price, not after doing part of it: the
    price of a big pool is counted in one go before any weight is computed."""
    calls = []
    original = weights._Work.take

    def counting(self: _Work, n: int) -> None:
        calls.append(n)
        original(self, n)

    weights._Work.take = counting  # type: ignore[method-assign]
    try:
        for text in ("1000d1000", "506d100", "20d1000kh10"):
            calls.clear()
            assert not decide(text)
            assert len(calls) <= 3 and calls[-1] > BUDGET // 4, (text, calls)
    finally:
        weights._Work.take = original  # type: ignore[method-assign]


def test_products_are_priced_by_their_size() -> None:
    """The price of a big-integer product: schoolbook below ~2,100 bits, Karatsuba above."""
    assert mul_steps(30 * 70 - 30, 30 * 70 - 30) == 70 * 70 // 40 + 1
    assert mul_steps(2000, 300_000) == 10_001 * 67 // 40 + 1
    assert mul_steps(300_000, 300_000) == int(10_001 * 10_001**0.7) // 16 + 1


def test_keep_and_drop_work_grows_with_faces_and_kept_dice() -> None:
    """Issue 31: «keep/drop of exploding and large pools by an algorithm that scales with faces
    × kept dice rather than with the pool's outcomes»: 100d6 has 96 million multisets of faces,
    and keeping 3 of them costs a few thousand steps, 12 four or five times that; an exploding
    pool's keep costs what a fixed pool's does, a few times over."""
    assert steps("100d6kh3") < 5_000
    assert steps("100d6kh12") < 6 * steps("100d6kh3")
    assert steps("100d6dl10") < 500_000
    assert steps("20d10!kh10") < 100_000
    assert steps("20d10!dl10") < 100_000
    assert steps("100d6kh12") < steps("100d12kh12") < steps("100d24kh12")
