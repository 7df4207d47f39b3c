"""Arguments the bestiary's commands share with ``kubik party add --from`` (no campaign code,
so ``kubik party -h`` stays quick)."""

from __future__ import annotations

import argparse

#: How many NPCs one template adds at once (``tui.store.bestiary.COUNT_RANGE``).
COUNT_LOW, COUNT_HIGH = 1, 50


def count_arg(text: str) -> int:
    """A count of NPCs, 1–50."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"«{text}» — не число; нужно от {COUNT_LOW} до {COUNT_HIGH}"
        ) from None
    if not COUNT_LOW <= value <= COUNT_HIGH:
        raise argparse.ArgumentTypeError(f"{value}: нужно от {COUNT_LOW} до {COUNT_HIGH}")
    return value
