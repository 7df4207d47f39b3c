"""The luck ledger in the app: each Журнал entry gets its percentile when it is recorded, and
the log is read back into sessions of rolls for the stats (screen, ``kubik stats``, Markdown).

``stamp`` is the one hook in ``KubikApp.record``: a builder's check is placed in its exact odds
right there (well under a millisecond, the odds tables are cached); dice notation whose exact
odds may take longer (explosions, many dice) is computed in a thread worker and the entry is
written when it is done, keeping the Журнал's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from rules.ledger import Sample, entry_luck, is_notation, session_numbers
from rules.systems import reads_previous
from tui.bridge.luck_queue import LuckQueue, Pending
from tui.bridge.public import Masker, is_secret, revealed_ids
from tui.store import Character, LogEntry, Store

if TYPE_CHECKING:
    from tui.services import Journal

#: The Журнал entry kind of the GM's «новая сессия» mark.
SESSION_KIND = "session"
#: Who a roll without an actor (a quick roll) is counted for.
NOBODY = "без персонажа"
#: A spent kind: Судьба spent by an older entry that did not keep how many points (a count).
UNKNOWN_FATE = "fate_unknown"
_CHEAP_DICE = 12  # dice notation with no explosion and at most this many dice: computed inline


# -- at record time ----------------------------------------------------------------------------


class LuckHost(Protocol):
    """The app as the ledger sees it: its campaign, its clock, the entries waiting for their
    odds, a worker thread and the way back to the UI thread, and its ``record``."""

    luck_queue: LuckQueue

    @property
    def store(self) -> Store:
        """The open campaign."""

    def clock(self) -> datetime:
        """Now."""

    def record(self, kind: str, actor: str | None, text: str, data: dict[str, Any]) -> None:
        """Append an entry to the Журнал."""

    def run_worker(self, work: Any, *, thread: bool, group: str, exit_on_error: bool) -> Any:
        """Run ``work`` in a thread."""

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        """Run ``callback`` on the UI thread."""


def is_cheap(expression: str) -> bool:
    """Whether the exact odds of dice notation take well under a millisecond to compute."""
    from rules.dice import parse
    from rules.dice.model import Dice, Group, walk

    try:
        parsed = parse(expression)
    except Exception:  # noqa: BLE001 - a bad expression is the worker's (and odds') business
        return False
    nodes = list(walk(parsed.root))
    dice = [n for n in nodes if isinstance(n, Dice)]
    if any(isinstance(n, Group) for n in nodes) or any(d.explode or d.reroll for d in dice):
        return False
    return sum(d.count for d in dice) <= _CHEAP_DICE


def with_luck(
    kind: str, actor: str | None, data: dict[str, Any], previous: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """Return ``data`` with ``"percentile"`` (the first roll's), ``"percentiles"`` (every
    roll's: ``6x 4d6`` has six) and ``"luck"`` added (unchanged without dice)."""
    try:
        luck = entry_luck(kind, actor, data, previous)
    except Exception:  # noqa: BLE001 - the ledger never costs the GM a roll
        return data
    if luck is None:
        return data
    return {
        **data,
        "percentile": luck.percentile,
        "percentiles": luck.percentiles,
        "luck": luck.to_dict(),
    }


def _previous(store: Any, data: dict[str, Any]) -> list[dict[str, Any]]:
    """Recent entries' data (newest first): a Судьба shift is priced against its roll."""
    if not reads_previous(data.get("system")) and "plan" not in data:
        return []
    return [e.data for e in store.log(limit=30)]


def stamp(
    app: LuckHost, kind: str, actor: str | None, text: str, data: dict[str, Any]
) -> dict[str, Any] | None:
    """Return the entry's data with its luck, or ``None`` if a worker will record it later.

    Called by ``KubikApp.record`` before it appends; the worker calls ``record`` again with
    the finished data, which then passes straight through.
    """
    queue = app.luck_queue
    if queue.flushing or "luck" in data:
        return data
    slow = is_notation(data) and not is_cheap(str(data["expression"]))
    if not slow:
        done = with_luck(kind, actor, data, _previous(app.store, data))
        if not queue.items:
            return done
        queue.items.append(Pending(kind, actor, text, done, True))  # keep the order
        return None
    item = Pending(kind, actor, text, data, False)
    queue.items.append(item)

    def compute() -> None:
        finished = with_luck(kind, actor, data)
        try:
            app.call_from_thread(_finish, app, item, finished)
        except Exception:  # noqa: BLE001 - the app is gone: write the entry ourselves
            item.data, item.ready = finished, True
            _append_late(app, item)

    app.run_worker(compute, thread=True, group="luck", exit_on_error=False)
    return None


def _finish(app: LuckHost, item: Pending, data: dict[str, Any]) -> None:
    item.data, item.ready = data, True
    queue = app.luck_queue
    while queue.items and queue.items[0].ready:
        head = queue.items.pop(0)
        queue.flushing = True
        try:
            app.record(head.kind, head.actor, head.text, head.data)
        finally:
            queue.flushing = False


def _append_late(app: LuckHost, item: Pending) -> None:
    import uuid

    from tui.store import StoreError

    entry = LogEntry(
        uuid.uuid4().hex,
        app.clock().isoformat(timespec="seconds"),
        item.kind,
        item.actor,
        item.text,
        item.data,
    )
    try:
        app.store.append_log(entry)
    except StoreError:
        pass  # the campaign is closed: nothing left to write to


def pending(app: LuckHost) -> int:
    """Return how many entries wait for their odds (tests wait for 0)."""
    return len(app.luck_queue.items)


# -- reading the log back ----------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One counted roll: when, who, where it landed."""

    at: str
    who: str
    sample: Sample
    entry_id: str


@dataclass
class Session:
    """One game session of the Журнал."""

    number: int
    start: str
    rolls: list[Roll] = field(default_factory=list)
    spent: dict[str, dict[str, int]] = field(default_factory=dict)


def _when(iso: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.astimezone()


def _sample(roll: dict[str, Any]) -> Sample | None:
    try:
        probs = roll.get("probs")
        return Sample(
            float(roll["percentile"]),
            tuple(float(p) for p in probs) if isinstance(probs, list) else None,
            float(roll["variance"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def read_sessions(
    entries: Sequence[LogEntry],
    *,
    players: bool = False,
    characters: Iterable[Character] = (),
) -> list[Session]:
    """Cut the Журнал (``entries`` oldest first) into sessions of counted rolls.

    Args:
        entries: the whole Журнал, oldest first (an entry marked «отменено» counts nothing:
            undoing gave the points back, and the Бой tab rolls the same dice again).
        players: the players' view: a secret roll counts only once the GM revealed it, and
            hidden NPCs are «???».
        characters: the party (for the names of hidden NPCs).
    """
    revealed = revealed_ids(entries)
    mask: Callable[[str], str] = Masker(characters) if players else (lambda s: s)
    items = [(_when(e.at), e.kind == SESSION_KIND) for e in entries]
    sessions: dict[int, Session] = {}
    for entry, number in zip(entries, session_numbers(items), strict=True):
        session = sessions.get(number)
        if session is None:
            session = sessions[number] = Session(number, entry.at)
        if entry.undone or (players and is_secret(entry, revealed)):
            continue  # an undone change never stood: its Судьба is back, its dice re-used
        luck = entry.data.get("luck")
        if not isinstance(luck, dict):
            luck = _older_luck(entry)
        if luck is None:
            continue
        for roll in luck.get("rolls") or []:
            sample = _sample(roll) if isinstance(roll, dict) else None
            if sample is not None:
                who = mask(str(roll.get("who") or entry.actor or NOBODY))
                session.rolls.append(Roll(entry.at, who, sample, entry.id))
        for spent in luck.get("spent") or []:
            if not isinstance(spent, dict):
                continue
            who = mask(str(spent.get("who") or entry.actor or NOBODY))
            kinds = session.spent.setdefault(who, {})
            for kind, amount in spent.items():
                if kind != "who" and isinstance(amount, int):
                    kinds[kind] = kinds.get(kind, 0) + amount
    return [sessions[n] for n in sorted(sessions)]


#: The Журнал text of a Судьба point spent on a circumstance, before entries kept the amount;
#: that use always cost one point (the seed's «одно очко»).
_OLD_CIRCUMSTANCE = "Судьба на благоприятное обстоятельство"
#: The Журнал text of damage lowered by Судьба, before entries kept how many points it took.
_OLD_REDUCED = "(Судьба −"


def _older_luck(entry: LogEntry) -> dict[str, Any] | None:
    """The luck of an entry written before the ledger counted it (``None``: nothing to count).

    Entries recorded by an older version carry no ``"luck"``: Древо initiative and Судьба
    after a combat roll are rebuilt from their data here (no dice notation: that would cost a
    worker); Судьба on a circumstance counts its one point; damage lowered by Судьба says
    only that points were spent: counted as ``fate_unknown`` (one spending of unknown size).
    """
    data = entry.data
    if is_notation(data):
        return None
    if "fate_spent" not in data:
        if entry.kind == "note" and entry.text.startswith(_OLD_CIRCUMSTANCE):
            return {"rolls": [], "spent": [{"who": entry.actor, "fate": 1}]}
        if entry.kind == "combat" and "damage" in data and _OLD_REDUCED in entry.text:
            return {"rolls": [], "spent": [{"who": entry.actor, UNKNOWN_FATE: 1}]}
    if isinstance(data.get("initiative"), dict) and "names" not in data:
        data = {**data, "names": _initiative_names(entry.text, data["initiative"])}
    try:
        luck = entry_luck(entry.kind, entry.actor, data)
    except Exception:  # noqa: BLE001 - an unreadable old entry counts nothing
        return None
    return None if luck is None else luck.to_dict()


def _initiative_names(text: str, rolls: dict[str, Any]) -> dict[str, str]:
    """Who rolled a round tracker's initiative, read from its line «Инициатива (Старатели):
    Хаим (4+6 +1 = 11) → …» (older entries kept only ids); ``{}`` if the line does not say."""
    parts = text.split(": ", 1)[-1].split(" → ")
    if len(parts) != len(rolls):
        return {}
    names = {}
    for part, (key, roll) in zip(parts, rolls.items(), strict=True):
        suffix = f" ({roll.get('text') if isinstance(roll, dict) else ''})"
        if not part.endswith(suffix):
            return {}
        names[key] = part[: -len(suffix)]
    return names


def session_of(entries: Sequence[LogEntry]) -> dict[str, int]:
    """Return each entry's session number by id (``entries`` oldest first)."""
    items = [(_when(e.at), e.kind == SESSION_KIND) for e in entries]
    return {e.id: n for e, n in zip(entries, session_numbers(items), strict=True)}


def session_count(entries: Sequence[LogEntry]) -> tuple[int, bool]:
    """Return the current session's number and whether it has no entries but its mark."""
    items = [(_when(e.at), e.kind == SESSION_KIND) for e in entries]
    if not items:
        return 1, True
    numbers = session_numbers(items)
    current = numbers[-1]
    empty = all(is_mark for (_, is_mark), n in zip(items, numbers, strict=True) if n == current)
    return current, empty


def reveal(journal: Journal, entry: LogEntry, revealed: set[str]) -> bool:
    """Show the secret roll ``entry`` to the players: a «Раскрыто» entry that names it (the GM's
    key in the Журнал tab). ``revealed``: the ids revealed so far. Return False, recording
    nothing, when ``entry`` is no secret roll (or one revealed already)."""
    if not is_secret(entry, revealed):
        return False
    journal.record(
        "note", entry.actor, f"Раскрыто: {entry.text}", {"reveals": entry.id, "hidden": False}
    )
    return True


def mark_session(journal: Journal, notify: Callable[[str], object]) -> None:
    """Start a new game session in the Журнал (the GM's key in the Журнал tab)."""
    entries = journal.entries_ahead()  # with the rolls whose writes still wait
    current, empty = session_count(entries)
    if entries and empty:
        notify(f"Сессия {current} уже начата: в ней пока нет бросков.")
        return
    number = current + 1 if entries else 1
    journal.record(SESSION_KIND, None, f"— Сессия {number} —", {"session": number})
    notify(f"Начата сессия {number}: статистика удачи считается с этой записи.")
