"""The Журнал entries waiting for their odds (the luck ledger's queue, one per app): a slow
roll's exact odds are computed in a worker, and the entries recorded after it wait behind it so
the Журнал keeps the order they were made in. Light on purpose: the app makes one at start-up,
before the ledger (``tui.bridge.luck``) is imported."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Pending:
    """An entry waiting to be recorded: ``ready`` once its data has its luck."""

    kind: str
    actor: str | None
    text: str
    data: dict[str, Any]
    ready: bool


@dataclass
class LuckQueue:
    """The waiting entries in the order they were made; ``flushing`` while they are recorded."""

    items: list[Pending] = field(default_factory=list)
    flushing: bool = False
