"""The one injectable random source of a session (``rules.dice.make_rng`` re-exports it).

Apart from the dice parser, so that the app can make its random source without loading it.
"""

from __future__ import annotations

import random


def make_rng(seed: int | None = None) -> random.Random:
    """Return the session's random source; a seed makes every roll reproducible."""
    return random.Random(seed)
