"""Issue 19's target: the luck ledger adds at most 1 ms to a builder's check."""

from __future__ import annotations

import pytest

from tests.benchmarks import ledger


@pytest.fixture(scope="module")
def figures() -> dict[str, float]:
    return ledger.measure()


@pytest.mark.parametrize("system", ["drevo", "ide4", "starately", "wod"])
def test_percentile_adds_at_most_a_millisecond(figures: dict[str, float], system: str) -> None:
    assert figures[system] <= ledger.TARGET_MS, f"{figures[system]:.3f} ms"
