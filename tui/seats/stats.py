"""The luck stats a seat may see: the players' numbers of the Журнал, as ``kubik --view`` shows
them (a secret roll only once revealed, a hidden NPC «???»), counted in the GM's app when a seat
asks and sent to it as plain JSON.

The GM's side (:func:`players_stats`) reads the sessions exactly as the view's stats screen does
(:func:`tui.bridge.luck.read_sessions` with ``players=True``); the seat's side
(:func:`sessions_from`) checks the answer strictly and gives back the sessions the same screen
(:class:`tui.widgets.log.stats.StatsScreen`) draws. Only what the screen needs travels: who,
where each roll landed, its outcomes' chances (each distinct list once), what was spent — no
entry ids, no texts, no times but each session's start. Both load the ledger: import this
module only when a seat asks (start-up time and memory stay as they were).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from rules.ledger import Sample
from tui.bridge.luck import Roll, Session, read_sessions
from tui.store import Character, LogEntry

#: The longest answer the GM's app sends (bytes; a seat reads lines up to 4 MiB).
MAX_ANSWER = 3 << 20
MAX_SESSIONS = 10_000
MAX_NAME = 200


class StatsError(ValueError):
    """An answer that is not the stats; ``str()`` is the Russian reason the player sees."""


def players_stats(entries: Sequence[LogEntry], characters: Iterable[Character]) -> dict[str, Any]:
    """Return the players' sessions of the Журнал (``entries`` oldest first), JSON-ready."""
    sessions = read_sessions(entries, players=True, characters=characters)
    dists: dict[tuple[float, ...], int] = {}
    out = []
    for s in sessions:
        rolls = []
        for r in s.rolls:
            probs = r.sample.probs
            dist = None if probs is None else dists.setdefault(probs, len(dists))
            rolls.append([r.who, r.sample.percentile, dist, r.sample.variance])
        out.append({"number": s.number, "start": s.start, "rolls": rolls, "spent": s.spent})
    return {"sessions": out, "dists": [list(d) for d in dists]}


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise StatsError("Ведущий прислал не число.")
    return float(value)


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1 << 31:
        raise StatsError("Ведущий прислал не число.")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise StatsError("Ведущий прислал не имя.")
    return value


def sessions_from(answer: dict[str, Any]) -> list[Session]:
    """Return the sessions of the GM's ``stats`` answer; raises StatsError if it is not one."""
    try:
        raw_dists, raw_sessions = answer["dists"], answer["sessions"]
        if not isinstance(raw_dists, list) or not isinstance(raw_sessions, list):
            raise StatsError("Ведущий прислал не удачу бросков.")
        if len(raw_sessions) > MAX_SESSIONS:
            raise StatsError("Ведущий прислал слишком много сессий.")
        dists = [tuple(_number(p) for p in d) for d in raw_dists]
        sessions = []
        for s in raw_sessions:
            number = s["number"]
            if isinstance(number, bool) or not isinstance(number, int):
                raise StatsError("Ведущий прислал неверный номер сессии.")
            session = Session(number, _name(s["start"]))
            for who, percentile, dist, variance in s["rolls"]:
                if dist is not None and (
                    isinstance(dist, bool)
                    or not isinstance(dist, int)
                    or not 0 <= dist < len(dists)
                ):
                    raise StatsError("Ведущий прислал неверное распределение.")
                probs = None if dist is None else dists[dist]
                sample = Sample(_number(percentile), probs, _number(variance))
                session.rolls.append(Roll("", _name(who), sample, ""))
            for who, kinds in s["spent"].items():
                session.spent[_name(who)] = {_name(k): _count(v) for k, v in kinds.items()}
            sessions.append(session)
    except StatsError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError):
        raise StatsError("Ведущий прислал не удачу бросков.") from None
    return sessions
