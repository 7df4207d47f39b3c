"""The luck ledger: every roll placed in its own exact distribution, and what many rolls say.

``percentile`` places one roll; ``checks`` reads a Журнал entry's result and rebuilds its exact
odds with the system's own functions (each system's reader is its package's ``ledger`` module,
``rules/<name>/ledger.py``, named by its line in :mod:`rules.systems`; a fight's initiative:
``initiative``; what an entry's luck is made of: ``entry``); ``stats`` cuts
the log into sessions, averages and judges the mean against fair dice.
"""

from rules.ledger.checks import EntryLuck, RollLuck, entry_luck, is_notation
from rules.ledger.percentile import Luck, outcome_luck, total_luck
from rules.ledger.stats import (
    Sample,
    Summary,
    Verdict,
    exact_tail,
    normal_tail,
    session_numbers,
    settings,
    summarise,
    verdict,
)

__all__ = [
    "EntryLuck",
    "Luck",
    "RollLuck",
    "Sample",
    "Summary",
    "Verdict",
    "entry_luck",
    "exact_tail",
    "is_notation",
    "normal_tail",
    "outcome_luck",
    "session_numbers",
    "settings",
    "summarise",
    "total_luck",
    "verdict",
]
