"""The Древо builder and the players' seats: a player's Судьба asked from their seat
(:mod:`tui.seats.check`) and applied, once the GM accepts, as the step the GM's «f» / «+» /
«−» make (the same rules, the same refusals, the same undo step with its Журнал line). A Судьба
before the roll declared from a seat is an undo step of its own; its point is paid when the
dice are rolled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import drevo
from rules.errors import RulesError
from tui.present.rolls import signed
from tui.widgets.builders.base import CheckRolled, SeatCheck, SeatLater, SpendTrail


class SeatMixin:
    """A player's Судьба for the open Древо check (mixed into ``DrevoBuilder``)."""

    character: Any
    app: Any
    seat: SeatCheck
    _result: drevo.OneSidedResult | None
    _fate_auto: bool
    _trail: SpendTrail
    # Provided by the builder: _recompute(), _shown().
    _recompute: Any
    _shown: Any

    def _rolled(self) -> bool:
        c, result = self.character, self._result
        return c is not None and result is not None and result.check.side.name == c.name

    def seat_check(self) -> dict[str, Any] | None:
        """The open check as its character's seat sees it (see ``SeatCheck``)."""
        c = self.character
        if c is None:
            return None
        rules, rolled = drevo.fate_rules(), self._rolled()
        choices = []
        if c.fate > 0 and not rolled and not self._fate_auto and rules.allows("auto_success"):
            choices.append("Судьба до броска: автоматический критический успех")
        if c.fate > 0 and rolled and rules.allows("shift"):
            choices.append("Судьба после броска: ±1 к результату за очко")
        return {
            "id": self.seat.id,
            "character": c.id,
            "stage": "rolled" if rolled else "before",
            "kinds": ["fate"] if choices else [],
            "choices": choices,
        }

    def seat_closed(self, check_id: str) -> str:
        return self.seat.closed(check_id)

    def seat_refusal(self, kind: str, payload: dict[str, Any]) -> str:
        """Why a player's Судьба cannot apply to this check now ("" if it can); raises
        ``SeatLater`` while a shift waits for the GM's points."""
        c, result, rules = self.character, self._result, drevo.fate_rules()
        if kind != "fate" or c is None:
            return "В этой проверке такой заявки нет."
        if payload.get("use") == "before":
            if self._rolled():
                return SeatCheck.ROLLED + " После броска — сдвиг Судьбой (±)."
            if not rules.allows("auto_success"):
                return "В этой кампании Судьба до броска не даёт автоматического успеха."
            if self._fate_auto:
                return "Судьба до броска в этой проверке уже заявлена."
            return "" if c.fate > 0 else "Судьбы не осталось."
        if not self._rolled() or result is None:
            return "Проверка ещё не брошена: сдвиг Судьбой — после броска."
        points = payload.get("points")
        if not points:
            raise SeatLater(
                "Сколько очков и в какую сторону? «e» — изменить: число, например +1 или −2."
            )
        try:
            drevo.spend_fate("shift", c.fate, cost=abs(points))
            drevo.shift_one_sided(result, points)
        except RulesError as err:
            return str(err)
        return ""

    def seat_apply(self, kind: str, payload: dict[str, Any], seat: str) -> CheckRolled:
        """Make a player's Судьба the step the GM's «f» / «+» / «−» make; return its line."""
        c, result = self.character, self._result
        assert c is not None
        before = (result, self._fate_auto)
        if payload.get("use") == "before":  # declared now, paid when the dice are rolled
            self._fate_auto = True
            self._recompute()
            text = "Судьба до броска: автоматический критический успех (очко — при броске)"
            message = CheckRolled(c.name, text, {"system": "drevo", "fate": "before"})
            self._trail.add(self.app, message.entry_id, before, (result, True))
            return message
        assert result is not None
        points = int(payload["points"])
        left = drevo.spend_fate("shift", c.fate, cost=abs(points))
        shifted = drevo.shift_one_sided(result, points)
        return self._shown(shifted, f"Судьба {signed(points)}", replace(c, fate=left), before)
