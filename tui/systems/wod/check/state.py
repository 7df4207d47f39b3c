"""The open Мир Тьмы check as a frozen state: what the GM chose, and once rolled, every die.

:class:`Inputs` are the form's choices. :class:`Rolled` is the record — a pool rolled, a
withdrawal before a chance die, a contested roll, or an extended action with each of its rolls
— each pool with the faces it drew; the rules' results are rebuilt by resolving each pool with
its own faces (:func:`results`). The stored form is the campaign's ``check`` document: an
extended action in progress survives a restart, its successes and rolls as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules import wod
from rules.modifiers import Modifier
from tui.table.check.base import check_doc, new_check_id, read_check

SYSTEM = "wod"
DAMAGED = "Сохранённая проверка Мира Тьмы повреждена — начните новую (Enter в форме)."
KINDS = ("pool", "withdrawn", "contest", "extended")


@dataclass(frozen=True)
class Inputs:
    """The GM's choices in the form (a text field's text as typed)."""

    character: str = ""
    attribute: str = ""  # "": the skill's usual attribute, else the sheet's first
    skill: str | None = None  # None: the sheet's first skill; "": без навыка
    mods: str = ""
    again: str = ""  # "": the campaign's; "10", "9", "8" or "none"
    rote: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inputs:
        skill = data.get("skill")
        return cls(
            character=str(data.get("character", "")),
            attribute=str(data.get("attribute", "")),
            skill=None if skill is None else str(skill),
            mods=str(data.get("mods", "")),
            again=str(data.get("again", "")),
            rote=bool(data.get("rote", False)),
        )


def pool_to_dict(pool: wod.Pool) -> dict[str, Any]:
    return {
        "attribute": pool.attribute,
        "skill": pool.skill,
        "modifiers": [[m.value, m.reason] for m in pool.modifiers],
        "again": pool.again,
        "rote": pool.rote,
        "name": pool.name,
        "attribute_name": pool.attribute_name,
        "skill_name": pool.skill_name,
        "withdrawal_allowed": pool.withdrawal_allowed,
        "success_threshold": pool.success_threshold,
        "exceptional": pool.exceptional,
    }


def pool_from_dict(data: Mapping[str, Any]) -> wod.Pool:
    again = data.get("again")
    return wod.Pool(
        int(data["attribute"]),
        int(data.get("skill", 0)),
        tuple(Modifier(int(v), str(r)) for v, r in data.get("modifiers", ())),
        again=None if again is None else int(again),
        rote=bool(data.get("rote", False)),
        name=str(data.get("name", "")),
        attribute_name=str(data.get("attribute_name", "")),
        skill_name=str(data.get("skill_name", "")),
        withdrawal_allowed=bool(data.get("withdrawal_allowed", True)),
        success_threshold=int(data["success_threshold"]),
        exceptional=int(data["exceptional"]),
    )


@dataclass(frozen=True)
class Throw:
    """A pool as rolled, with the faces it drew (in the order drawn) and its character."""

    pool: wod.Pool
    faces: tuple[int, ...]
    character: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": pool_to_dict(self.pool),
            "faces": list(self.faces),
            "character": self.character,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Throw:
        return cls(
            pool_from_dict(data["pool"]),
            tuple(int(f) for f in data["faces"]),
            str(data.get("character", "")),
        )


@dataclass(frozen=True)
class Rolled:
    """What was rolled: ``kind`` and its throws (a withdrawal: the pool with no faces; an
    extended action: each roll, its target, whether the GM stopped it)."""

    kind: str
    throws: tuple[Throw, ...]
    target: int = 0
    stopped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "throws": [t.to_dict() for t in self.throws],
            "target": self.target,
            "stopped": self.stopped,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rolled:
        kind = str(data["kind"])
        if kind not in KINDS:
            raise ValueError(kind)
        return cls(
            kind,
            tuple(Throw.from_dict(t) for t in data["throws"]),
            int(data.get("target", 0)),
            bool(data.get("stopped", False)),
        )


@dataclass(frozen=True)
class WodCheck:
    """An open Мир Тьмы check: its id, the form's choices, and its record once rolled."""

    id: str = field(default_factory=new_check_id)
    inputs: Inputs = field(default_factory=Inputs)
    rolled: Rolled | None = None
    #: The contest dialog's opponent, chosen in memory as the form is (:mod:`.wod_contest`);
    #: its roll is the record.
    opponent: Inputs | None = None

    system = SYSTEM

    @property
    def phase(self) -> str:
        return "setup" if self.rolled is None else "result"

    @property
    def extending(self) -> bool:
        """An extended action is going on (Enter adds a roll to it)."""
        rolled = self.rolled
        if rolled is None or rolled.kind != "extended" or rolled.stopped:
            return False
        return wod.extended_refusal(extended_of(rolled)) is None

    def to_doc(self) -> dict[str, Any]:
        """The campaign document ``check``."""
        return check_doc(SYSTEM, self)

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> WodCheck:
        """Read the stored check.

        Raises:
            RulesError: the document is damaged (the message says what to do).
        """
        parts = {"rolled": Rolled.from_dict}
        return read_check(doc, cls, Inputs.from_dict, parts, _verify, DAMAGED)


def _verify(check: WodCheck) -> None:
    if check.rolled is not None:
        results(check.rolled)


def results(rolled: Rolled) -> list[wod.PoolResult]:
    """Each throw resolved with its own faces (a withdrawal: none)."""
    if rolled.kind == "withdrawn":
        return []
    return [wod.resolve_pool(t.pool, t.faces) for t in rolled.throws]


def extended_of(rolled: Rolled) -> wod.Extended:
    """The extended action a record holds, every roll added."""
    ext = wod.Extended(rolled.throws[0].pool if rolled.throws else _blank(), rolled.target)
    for result in results(rolled):
        ext = wod.add_roll(ext, result)
    return ext


def _blank() -> wod.Pool:
    return wod.Pool(1)


def fresh(state: WodCheck) -> WodCheck:
    return WodCheck(inputs=state.inputs)


def unrolled(state: WodCheck) -> WodCheck:
    return replace(state, rolled=None)
