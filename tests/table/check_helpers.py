"""Helpers for the open check's engine tests: a campaign's check driven without Textual."""

from __future__ import annotations

import itertools
import os
import random
import signal
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from tui.store import Store
from tui.table.check.session import CheckTable
from tui.table.core import Dice


def table(store: Store, seed: int = 1) -> CheckTable:
    """The campaign's open check, as the app or a seat drives it (seeded dice)."""
    return CheckTable(store, Dice(random.Random(seed)))


def ok(t: CheckTable, step: Callable[..., Any], *args: Any) -> Any:
    """Make a step that must be allowed; return its outcome."""
    outcome = t.run(step, *args)
    assert outcome.ok, outcome.refused
    return outcome


def undo(t: CheckTable) -> None:
    """Ctrl+Z on the campaign, and the check follows it."""
    assert t.store.undo() is not None
    t.follow()


def redo(t: CheckTable) -> None:
    """Ctrl+Y on the campaign, and the check follows it."""
    assert t.store.redo() is not None
    t.follow()


#: Who removes a character in a test, and the words a check then says of it.
REMOVERS = {
    "window": "удалён в другом окне",
    "command": "удалён командой kubik",
    "here": "удалён —",
}


def remove(store: Store, character_id: str, by: str = "window") -> None:
    """Remove a character as ``by`` does (a key of :data:`REMOVERS`): another kubik window on
    the same file, a ``kubik`` command (its store opened as one), or this window itself."""
    if by == "here":
        store.delete_character(character_id)
        return
    other = Store.open(store.path, window="cli" if by == "command" else "app")
    other.delete_character(character_id)
    other.close()
    store.refresh()


def energy(store: Store, name: str) -> int:
    """An IDE4 character's energy as the campaign has it."""
    return next(c for c in store.characters() if c.name == name).ide4.energy


def percent(p: Fraction) -> str:
    """A chance as an effect's odds note writes it («38 %»)."""
    return f"{round(float(p) * 100)} %"


def brute_drevo(bonus: int, difficulty: int) -> Fraction:
    """Enumerate 4dF: +4 is a critical success, −4 a critical failure, else ≥ difficulty."""
    wins = 0
    for faces in itertools.product((-1, 0, 1), repeat=4):
        dice = sum(faces)
        wins += dice == 4 or (dice != -4 and dice + bonus >= difficulty)
    return Fraction(wins, 81)


def killed_after(path: Path, system: str, play: Callable[[CheckTable], Any]) -> Any:
    """Fork a process that opens the campaign, plays ``play`` on its open check (writing each
    step) and dies by SIGKILL right after: return what ``play`` returned, as the child saw
    it (sent through a pipe before the kill, by repr)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no cleanup, no atexit — killed as kill -9 kills
        try:
            os.close(read)
            try:
                store = Store.open(path, system=system)
                seen = repr(play(table(store, seed=os.getpid())))
            except BaseException:  # noqa: BLE001 - said to the parent, which fails on it
                import traceback

                seen = "child failed:\n" + traceback.format_exc()
            os.write(write, seen.encode())
            os.close(write)
        finally:
            os.kill(os.getpid(), signal.SIGKILL)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return b"".join(chunks).decode()


class GmChecks:
    """The checks as the GM makes them, for a state machine: a new one only where he asks for
    it (``new``: «n», another character, a row changed, «как в прошлый раз», a restart);
    every check id the engine gives in between belongs to the GM's check before it. Each of
    the GM's checks is rolled with one set of dice (rolled again after an undo: the same
    ones, as far as they go — a boon added rolls one more), and nothing is bought without
    dice once its dice were seen (Древо's Судьба before the roll)."""

    def __init__(self, first: str) -> None:
        self.owner: dict[str, int] = {first: 0}  # check id → the GM's check it belongs to
        self.current = 0
        self.dice: dict[tuple[int, str], Any] = {}  # (GM's check, procedure) → its dice
        self.seen: set[int] = set()  # the GM's checks whose dice were on screen

    def follow(self, check_id: str, *, new: bool = False) -> None:
        """The open check is ``check_id`` now (``new``: after a step that asks for a new one)."""
        if check_id not in self.owner:
            if new:
                self.current = max(self.owner.values()) + 1
            self.owner[check_id] = self.current
        self.current = self.owner[check_id]

    def rolled(self, check_id: str, kind: str, dice: Any, bought: bool = False) -> None:
        """The open check ``check_id`` is rolled (``kind``: its procedure) with ``dice`` (()
        when none were thrown); ``bought``: a result taken without dice (Судьба)."""
        mine = self.owner[check_id]
        if bought:
            assert mine not in self.seen, "a result without dice bought after the dice were seen"
        if not dice:
            return
        self.seen.add(mine)
        had = self.dice.setdefault((mine, kind), dice)
        assert all(a[: len(b)] == b[: len(a)] for a, b in zip(had, dice, strict=False)), (
            f"one check rolled with two sets of dice: {had} and {dice}"
        )
