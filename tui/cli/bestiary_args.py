"""Arguments the bestiary's commands share with ``kubik party add --from`` (no campaign code,
so ``kubik party -h`` stays quick)."""

from __future__ import annotations

import argparse

from tui.numbers import read_typed_whole

#: How many NPCs one template adds at once (``tui.store.bestiary.COUNT_RANGE``).
COUNT_LOW, COUNT_HIGH = 1, 50


def count_arg(text: str) -> int:
    """A count of NPCs, 1–50, of the digits 0–9 (int() would read «٣» as 3, «1_0» as 10)."""
    value = read_typed_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"«{text}» — не число; нужно от {COUNT_LOW} до {COUNT_HIGH}"
        )
    if not COUNT_LOW <= value <= COUNT_HIGH:
        raise argparse.ArgumentTypeError(f"{value}: нужно от {COUNT_LOW} до {COUNT_HIGH}")
    return value
