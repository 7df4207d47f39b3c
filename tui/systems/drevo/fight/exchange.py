"""The Древо exchange in progress, typed: what the encounter document keeps under ``exchange``.

Everything about the exchange lives here from the first Судьба point to the last wound: the
dice the moment they fall, the wounds and effect modifiers its fighters had at the roll (so the
dice mean the same after the damage is written), Судьба spent before and after the roll, the
acceptance and every hit written. The stored form (:meth:`Exchange.to_dict`) is the one kubik
has always written, so fights saved by an older kubik load unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ROLES = ("attacker", "defender")


@dataclass(frozen=True)
class Damage:
    """A hit written into its target's track (lowered by ``reduced`` points of Судьба)."""

    target: str  # the role hit
    cid: str  # the character hit
    level: str  # what the hit did
    final: str  # what was written
    reduced: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "cid": self.cid,
            "level": self.level,
            "final": self.final,
            "reduced": self.reduced,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Damage:
        return cls(
            target=str(data.get("target", "")),
            cid=str(data.get("cid", "")),
            level=str(data.get("level", "")),
            final=str(data.get("final", data.get("level", ""))),
            reduced=int(data.get("reduced", 0) or 0),
        )


@dataclass(frozen=True)
class Shift:
    """Судьба moved after the roll: ``points`` (signed) on ``role``'s total, paid by ``cid``."""

    role: str
    points: int
    cid: str


@dataclass(frozen=True)
class Exchange:
    """The stored state of one exchange (of one attempt: a tie rerolled is a new attempt).

    ``dice`` is None until the roll; then one entry per role, None for a side that does not
    roll (or declared Судьба «+4 без броска»).
    """

    key: str
    attempt: int = 1
    id: str = ""
    ids: Mapping[str, str] = field(default_factory=dict)
    fate_before: tuple[str, ...] = ()
    dice: Mapping[str, tuple[int, ...] | None] | None = None
    wounds: Mapping[str, Mapping[str, int]] | None = None
    effects: Mapping[str, list[list[Any]]] | None = None
    shifts: tuple[Shift, ...] = ()
    accepted: bool = False
    damage: tuple[Damage, ...] = ()

    @property
    def rolled(self) -> bool:
        """Whether the dice of this attempt are in."""
        return self.dice is not None

    def shift_names(self, names: Mapping[str, str]) -> dict[str, list[tuple[int, str]]]:
        """Per role, the points moved after the roll and who spent them (for the result)."""
        found: dict[str, list[tuple[int, str]]] = {}
        for s in self.shifts:
            found.setdefault(s.role, []).append((s.points, names.get(s.cid, "?")))
        return found

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-ready form the encounter document keeps."""
        data: dict[str, Any] = {"key": self.key, "attempt": self.attempt}
        if self.id:
            data["id"] = self.id
        if self.ids:
            data["ids"] = dict(self.ids)
        data["fate_before"] = sorted(self.fate_before)
        if self.dice is not None:
            data["dice"] = {r: (list(d) if d is not None else None) for r, d in self.dice.items()}
            data["wounds"] = {cid: dict(w) for cid, w in (self.wounds or {}).items()}
            data["effects"] = {
                cid: [list(m) for m in ms] for cid, ms in (self.effects or {}).items()
            }
            data["shifts"] = [[s.role, s.points, s.cid] for s in self.shifts]
            data["accepted"] = self.accepted
            data["damage"] = [d.to_dict() for d in self.damage]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Exchange:
        """Read a stored exchange (raises TypeError / ValueError on a damaged one)."""
        dice = data.get("dice")
        return cls(
            key=str(data.get("key", "")),
            attempt=int(data.get("attempt", 1) or 1),
            id=str(data.get("id", "")),
            ids={str(k): str(v) for k, v in (data.get("ids") or {}).items()},
            fate_before=tuple(str(r) for r in data.get("fate_before", ())),
            dice=(
                {
                    str(r): (tuple(int(x) for x in d) if d is not None else None)
                    for r, d in dice.items()
                }
                if isinstance(dice, Mapping)
                else None
            ),
            wounds=data.get("wounds") if isinstance(data.get("wounds"), Mapping) else None,
            effects=data.get("effects") if isinstance(data.get("effects"), Mapping) else None,
            shifts=tuple(Shift(str(r), int(p), str(c)) for r, p, c in data.get("shifts", ())),
            accepted=bool(data.get("accepted", False)),
            damage=tuple(Damage.from_dict(d) for d in data.get("damage", ())),
        )
