"""The open IDE4™ check as a frozen state: what the GM chose, and once rolled, every die.

:class:`Inputs` are the form's choices (a choice the current sheet no longer offers is
re-derived by :mod:`.ide4_view`, never shown stale). :class:`Rolled` is the record of the
roll: the inputs the d100 was rolled with, the d100 and the energy dice before it, and each
move after it with the dice it rolled; the rules' ``Check`` is rebuilt from it by replaying
the procedure with those dice (:func:`replay`), so what the screen shows is always what the
record gives. The stored form (:meth:`Ide4Check.to_doc`) is the campaign's ``check``
document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.table.check.base import check_doc, new_check_id, read_check

SYSTEM = "ide4"
DEMAND = "игрок требует развёрнутую проверку"
DAMAGED = "Сохранённая проверка IDE4 повреждена — начните новую (n)."


@dataclass(frozen=True)
class Inputs:
    """The GM's choices in the form, in the seed's order (a text field's text as typed)."""

    character: str = ""
    level: str = "standard"
    intent: str = ""
    action: str = ""
    attribute: str = ""
    skill: str = ""
    distance: str = ""
    base: int = 3
    mods: str = ""
    hidden: bool = False
    reason: str = ""
    alternative: str = ""
    special: str = ""
    open: int = 5
    die: int = 0  # 0: the nominal of the attribute
    energy: int = 0
    help: str = ""
    helpnote: str = ""
    technique: str = ""
    circumstances: str = ""
    risk: str = ""
    reasons: tuple[str, ...] = ()
    player_demand: bool = False
    checklist_seen: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["reasons"] = list(self.reasons)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inputs:
        made = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            default = getattr(cls(), f.name)
            value = data[f.name]
            if isinstance(default, tuple):
                value = tuple(str(v) for v in value)
            elif isinstance(default, bool):
                value = bool(value)
            elif isinstance(default, int):
                value = int(value)
            else:
                value = str(value)
            made[f.name] = value
        return cls(**made)


#: The text fields of the form (their rows are ``#ide4-row-<name>``).
TEXTS = (
    "intent",
    "mods",
    "reason",
    "alternative",
    "special",
    "helpnote",
    "technique",
    "circumstances",
    "risk",
)
#: What a new check for the same character clears (who and how stay).
SITUATION = (*TEXTS, "energy", "help", "hidden", "open", "reasons", "player_demand")


@dataclass(frozen=True)
class Move:
    """One move after the d100, with the dice it rolled.

    ``kind``: ``reroll`` (``source``: the reroll source), ``energy_after`` (``count`` dice of
    size ``die``), ``bonus`` (``source``: soften / triumph / technique), ``subroll``,
    ``level`` (``source``: the level, ``note``: why) or ``demand`` (the player demands the
    expanded check).
    """

    kind: str
    source: str = ""
    count: int = 0
    die: int = 0
    dice: tuple[int, ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "source": self.source,
            "count": self.count,
            "die": self.die,
            "dice": list(self.dice),
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        return cls(
            kind=str(data["kind"]),
            source=str(data.get("source", "")),
            count=int(data.get("count", 0)),
            die=int(data.get("die", 0)),
            dice=tuple(int(d) for d in data.get("dice", ())),
            note=str(data.get("note", "")),
        )


@dataclass(frozen=True)
class Rolled:
    """The record of a rolled check: what it was rolled with, its dice, its moves."""

    character: str
    input: ide4.CheckInput
    natural: int | None = None  # None: [0] or [00], no d100
    energy: tuple[int, ...] = ()
    moves: tuple[Move, ...] = ()
    concluded: bool = False
    meaning: str = ""
    consequence: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character,
            "input": self.input.to_dict(),
            "natural": self.natural,
            "energy": list(self.energy),
            "moves": [m.to_dict() for m in self.moves],
            "concluded": self.concluded,
            "meaning": self.meaning,
            "consequence": self.consequence,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rolled:
        natural = data.get("natural")
        return cls(
            character=str(data["character"]),
            input=ide4.CheckInput.from_dict(dict(data["input"])),
            natural=int(natural) if natural is not None else None,
            energy=tuple(int(d) for d in data.get("energy", ())),
            moves=tuple(Move.from_dict(m) for m in data.get("moves", ())),
            concluded=bool(data.get("concluded", False)),
            meaning=str(data.get("meaning", "")),
            consequence=str(data.get("consequence", "")),
        )


@dataclass(frozen=True)
class Opposed:
    """An opposed check with the form's check as its first side: the second side's choices
    (derived as an expanded check, rolled at the first side's level) and, once rolled, each
    side's record with its moves; the GM's choice on a full tie; whether it is concluded.

    Its own ``id`` names its Журнал lines and their dice (a roll or a move made again after an
    undo takes them back), apart from the single check the form may roll later.
    """

    id: str = field(default_factory=new_check_id)
    inputs: Inputs = field(default_factory=lambda: Inputs(level="expanded"))
    a: Rolled | None = None
    b: Rolled | None = None
    resolution: str = ""
    price: str = ""
    concluded: bool = False

    @property
    def rolled(self) -> bool:
        """Both sides are rolled."""
        return self.a is not None and self.b is not None

    @property
    def moves(self) -> int:
        """How many moves both sides made."""
        return sum(len(r.moves) for r in (self.a, self.b) if r is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "inputs": self.inputs.to_dict(),
            "a": self.a.to_dict() if self.a is not None else None,
            "b": self.b.to_dict() if self.b is not None else None,
            "resolution": self.resolution,
            "price": self.price,
            "concluded": self.concluded,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Opposed:
        a, b = data.get("a"), data.get("b")
        return cls(
            id=str(data["id"]),
            inputs=Inputs.from_dict(data.get("inputs") or {}),
            a=Rolled.from_dict(a) if a else None,
            b=Rolled.from_dict(b) if b else None,
            resolution=str(data.get("resolution", "")),
            price=str(data.get("price", "")),
            concluded=bool(data.get("concluded", False)),
        )


@dataclass(frozen=True)
class Ide4Check:
    """An open IDE4 check: its id, the form's choices, its record once rolled, and an opposed
    check on the form's choices (the form stays unrolled: the opposed check is two checks of
    its own)."""

    id: str = field(default_factory=new_check_id)
    inputs: Inputs = field(default_factory=Inputs)
    rolled: Rolled | None = None
    opposed: Opposed | None = None

    system = SYSTEM

    @property
    def opposed_open(self) -> bool:
        """An opposed check is rolled and not concluded: its moves and its outcome wait."""
        opp = self.opposed
        return opp is not None and opp.rolled and not opp.concluded

    @property
    def phase(self) -> str:
        """``setup`` (the form), ``result`` (rolled, moves open) or ``done`` (concluded)."""
        if self.rolled is None:
            return "setup"
        return "done" if self.rolled.concluded else "result"

    @property
    def character(self) -> str:
        """The character the check is for (the rolled one once rolled)."""
        return self.rolled.character if self.rolled is not None else self.inputs.character

    def to_doc(self) -> dict[str, Any]:
        """The campaign document ``check``."""
        return check_doc(
            SYSTEM,
            self,
            opposed=self.opposed.to_dict() if self.opposed is not None else None,
        )

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Ide4Check:
        """Read the stored check.

        Raises:
            RulesError: the document is damaged (the message says what to do).
        """
        parts = {"rolled": Rolled.from_dict, "opposed": Opposed.from_dict}
        return read_check(doc, cls, Inputs.from_dict, parts, _verify, DAMAGED)


def _verify(check: Ide4Check) -> None:
    for record in (check.rolled, *_sides(check.opposed)):
        if record is not None:
            replay(record)  # the record must replay with its own dice


def _sides(opposed: Opposed | None) -> tuple[Rolled | None, ...]:
    return (opposed.a, opposed.b) if opposed is not None else ()


@lru_cache(maxsize=64)
def replay(rolled: Rolled, inp: ide4.CheckInput | None = None) -> ide4.Check:
    """The rules' check the record gives: the procedure made again with the record's dice
    (``inp`` in place of the recorded inputs: the energy the sheet has now).

    Raises:
        RulesError: the record does not replay (a damaged document, or a pool that can no
            longer pay for a move it made).
    """
    check = ide4.start(inp or rolled.input)
    if check.status == "ready":
        if rolled.natural is None:
            raise RulesError("no d100 in a rolled check")
        check = ide4.roll(check, natural=rolled.natural, energy=rolled.energy)
    for m in rolled.moves:
        check = apply_move(check, m)
    if rolled.concluded:
        check = ide4.conclude(check, rolled.meaning, rolled.consequence)
    return check


def with_move(record: Rolled, check: ide4.Check, move: Move) -> Rolled:
    """The record with ``move``, made on ``check``: the record's check as the sheets have it
    now (``record_check``). Where the sheet's energy or the day's Триумф re-based it, the record
    takes that base, so that it replays from itself: a move paid from energy given after the
    roll did not replay from the roll's pool, and the stored check read as damaged. A pool
    given back past the maximum is recorded at the maximum, from which the check was made."""
    was, now = record.input, check.input
    if (now.energy_pool, now.daily_triumph_used) != (was.energy_pool, was.daily_triumph_used):
        pool = min(now.energy_pool, ide4.energy_rules().pool_max)
        was = replace(was, energy_pool=pool, daily_triumph_used=now.daily_triumph_used)
    return replace(record, input=was, moves=(*record.moves, move))


def apply_move(check: ide4.Check, m: Move) -> ide4.Check:
    """One recorded move made again with its own dice."""
    if m.kind == "reroll":
        return ide4.reroll(check, m.source, natural=m.dice[0])
    if m.kind == "energy_after":
        return ide4.energy_after(check, m.count, m.die, dice=m.dice)
    if m.kind == "bonus":
        return ide4.bonus(check, m.source)
    if m.kind == "subroll":
        return ide4.subroll(check, value=m.dice[0])
    if m.kind == "level":
        return ide4.set_level(check, m.source, m.note)
    if m.kind == "demand":
        return ide4.set_level(check, "expanded", DEMAND)
    raise RulesError(f"unknown move {m.kind!r}")


def fresh(state: Ide4Check, **keep: Any) -> Ide4Check:
    """A new check (a new id) with the same choices of who and how, the situation cleared."""
    base = Inputs()
    cleared = {name: getattr(base, name) for name in SITUATION}
    act = state.inputs.action
    cleared["base"] = ide4.action(act).base if act else 3
    cleared["checklist_seen"] = False
    return Ide4Check(inputs=replace(state.inputs, **{**cleared, **keep}))
