"""The open Старатели check as a frozen state: what the GM chose, and once rolled, every die.

:class:`Inputs` are the form's choices. :class:`Rolled` is the record of what was rolled — a
check, a task chain, a group check or an встречный бросок — each side with its dice, and Risk
(its price and the retry's dice) once declared; the rules' results are rebuilt from it by
resolving the record's sides with the record's dice (:func:`results`), so the screen always
shows what the record gives. The stored form (:meth:`StaratelyCheck.to_doc`) is the
campaign's ``check`` document.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules import starately
from rules.modifiers import Modifier
from tui.table.check.base import check_doc, new_check_id, read_check

SYSTEM = "starately"
DAMAGED = "Сохранённая проверка Старателей повреждена — начните новую (Enter в форме)."
KINDS = ("check", "chain", "group", "opposed")


@dataclass(frozen=True)
class Inputs:
    """The GM's choices in the form (a text field's text as typed)."""

    character: str = ""
    characteristic: str = ""
    skill: str | None = None  # None: the sheet's first skill; "": без навыка
    difficulty: int = 0  # 0: the campaign's default
    tried: str = ""
    boons: int = 0
    banes: int = 0
    mods: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Inputs:
        skill = data.get("skill")
        return cls(
            character=str(data.get("character", "")),
            characteristic=str(data.get("characteristic", "")),
            skill=None if skill is None else str(skill),
            difficulty=int(data.get("difficulty", 0)),
            tried=str(data.get("tried", "")),
            boons=int(data.get("boons", 0)),
            banes=int(data.get("banes", 0)),
            mods=str(data.get("mods", "")),
        )


def side_to_dict(side: starately.Side) -> dict[str, Any]:
    """A side as the record keeps it (everything :func:`side_from_dict` needs)."""
    return {
        "dm": side.dm,
        "skill": side.skill,
        "boons": side.boons,
        "banes": side.banes,
        "modifiers": [[m.value, m.reason] for m in side.modifiers],
        "name": side.name,
        "characteristic": side.characteristic,
        "skill_name": side.skill_name,
        "characteristic_value": side.characteristic_value,
        "pc": side.pc,
        "unskilled": side.unskilled,
    }


def side_from_dict(data: Mapping[str, Any]) -> starately.Side:
    skill = data.get("skill")
    value = data.get("characteristic_value")
    return starately.Side(
        dm=int(data["dm"]),
        skill=None if skill is None else int(skill),
        boons=int(data.get("boons", 0)),
        banes=int(data.get("banes", 0)),
        modifiers=tuple(Modifier(int(v), str(r)) for v, r in data.get("modifiers", ())),
        name=str(data.get("name", "")),
        characteristic=str(data.get("characteristic", "")),
        skill_name=str(data.get("skill_name", "")),
        characteristic_value=None if value is None else int(value),
        pc=bool(data.get("pc", True)),
        unskilled=int(data.get("unskilled", starately.unskilled_penalty())),
    )


@dataclass(frozen=True)
class Part:
    """One side of what was rolled, with the dice it rolled (a helper, an opponent, the
    main roller; a helper's Effect or the group's help is added by the rules, not here)."""

    side: starately.Side
    dice: tuple[int, ...]
    character: str = ""  # its character's id ("" for none)

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": side_to_dict(self.side),
            "dice": list(self.dice),
            "character": self.character,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Part:
        return cls(
            side_from_dict(data["side"]),
            tuple(int(d) for d in data["dice"]),
            str(data.get("character", "")),
        )


@dataclass(frozen=True)
class Risk:
    """Risk declared on the main roll's failure: its price and the retry's dice."""

    price: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Rolled:
    """What was rolled: ``kind``, the main roll's difficulty, its parts (the helpers or the
    opponent first, the main roller last), the opposed roll's initiator, Risk."""

    kind: str
    difficulty: int
    parts: tuple[Part, ...]
    initiator: str | None = None
    risk: Risk | None = None
    risk_forbidden: bool = False

    @property
    def main(self) -> Part:
        """The main roller (the opposed roll's first side)."""
        return self.parts[0] if self.kind == "opposed" else self.parts[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "difficulty": self.difficulty,
            "parts": [p.to_dict() for p in self.parts],
            "initiator": self.initiator,
            "risk": (
                {"price": self.risk.price, "dice": list(self.risk.dice)} if self.risk else None
            ),
            "risk_forbidden": self.risk_forbidden,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rolled:
        risk = data.get("risk")
        kind = str(data["kind"])
        if kind not in KINDS:
            raise ValueError(kind)
        initiator = data.get("initiator")
        return cls(
            kind=kind,
            difficulty=int(data["difficulty"]),
            parts=tuple(Part.from_dict(p) for p in data["parts"]),
            initiator=None if initiator is None else str(initiator),
            risk=(Risk(str(risk["price"]), tuple(int(d) for d in risk["dice"])) if risk else None),
            risk_forbidden=bool(data.get("risk_forbidden", False)),
        )


@dataclass(frozen=True)
class Other:
    """The choices of a chain's, a group's or an opposed roll's dialog."""

    kind: str
    character: str = ""
    characteristic: str = ""  # "": the main side's (an opponent who has it), else the first
    skill: str | None = None  # None: the sheet's first skill; "": без навыка
    boons: int = 0
    banes: int = 0
    mods: str = ""
    initiator: str | None = "a"
    left_out: tuple[str, ...] = field(default=())  # the group's helpers the GM left out


@dataclass(frozen=True)
class StaratelyCheck:
    """An open Старатели check: its id, the form's choices, and its record once rolled."""

    id: str = field(default_factory=new_check_id)
    inputs: Inputs = field(default_factory=Inputs)
    rolled: Rolled | None = None
    #: The open dialog's other side (a chain's helper, a group's, an opponent): chosen in
    #: memory as the form is (:mod:`.starately_other`); its roll is the record.
    other: Other | None = None

    system = SYSTEM

    @property
    def phase(self) -> str:
        """``setup`` until something is rolled, then ``result``: the form stays usable (the
        next roll is a new check), Risk applies to the record."""
        return "setup" if self.rolled is None else "result"

    @property
    def character(self) -> str:
        return self.inputs.character

    def to_doc(self) -> dict[str, Any]:
        """The campaign document ``check``."""
        return check_doc(SYSTEM, self)

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> StaratelyCheck:
        """Read the stored check.

        Raises:
            RulesError: the document is damaged (the message says what to do).
        """
        parts = {"rolled": Rolled.from_dict}
        return read_check(doc, cls, Inputs.from_dict, parts, _verify, DAMAGED)


def _verify(check: StaratelyCheck) -> None:
    if check.rolled is not None:
        results(check.rolled)


@dataclass(frozen=True)
class Results:
    """The rules' results of a record: the whole (a check, chain, group or opposed result),
    the main roller's result Risk would retry (None for an opposed roll), Risk's."""

    whole: Any
    main: starately.Result | None
    risk: starately.RiskResult | None = None

    @property
    def last(self) -> starately.Result | None:
        """The main roll that stands now: Risk's retry once declared."""
        return self.risk.retry if self.risk is not None else self.main


def results(rolled: Rolled) -> Results:
    """Resolve the record with its own dice.

    Raises:
        RulesError: the dice do not fit their sides (a damaged record).
    """
    parts = rolled.parts
    if rolled.kind == "opposed":
        a, b = parts
        opposed = starately.Opposed(a.side, b.side, rolled.initiator)
        return Results(starately.resolve_opposed(opposed, a.dice, b.dice), None)
    main_check = starately.Check(rolled.main.side, rolled.difficulty)
    whole: Any
    if rolled.kind == "chain":
        helper, main = parts
        chain = starately.TaskChain(helper.side, main_check)
        whole = starately.resolve_chain(chain, helper.dice, main.dice)
        first = whole.main
    elif rolled.kind == "group":
        helpers = parts[:-1]
        group = starately.GroupCheck(main_check, tuple(h.side for h in helpers))
        whole = starately.resolve_group(group, [h.dice for h in helpers], rolled.main.dice)
        first = whole.main
    else:
        whole = first = starately.resolve(main_check, rolled.main.dice)
    risk = None
    if rolled.risk is not None:
        risk = starately.resolve_risk(first, rolled.risk.price, rolled.risk.dice)
    return Results(whole, first, risk)


def parts_of(
    sides: Sequence[tuple[starately.Side, str]], dice: Sequence[Sequence[int]]
) -> tuple[Part, ...]:
    """Parts of sides (each with its character's id) and the dice each rolled."""
    return tuple(Part(s, tuple(d), cid) for (s, cid), d in zip(sides, dice, strict=True))


def fresh(state: StaratelyCheck) -> StaratelyCheck:
    """A new check: the same choices (the roll is a new one), a new id."""
    return StaratelyCheck(inputs=state.inputs)


def unrolled(state: StaratelyCheck) -> StaratelyCheck:
    return replace(state, rolled=None)
