"""The IDE4™ builder and the players' seats: the choices the seed gives the player — the
expanded check on demand, energy before and after the roll, rerolls — asked from a seat
(:mod:`tui.seats.check`) and applied, once the GM accepts, as the step the GM's own key makes
(the same rules, the same refusals — and the same code: a move after the roll is
``MovesMixin._move_step``, the demand is :meth:`SeatMixin._demand_step`, whoever asked). Each is
one undo step with its Журнал line: Ctrl+Z puts the check (or, before the roll, the form) back
as it was, Ctrl+Y brings the step again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.widgets.builders.base import CheckRolled, SeatCheck, SpendTrail
from tui.widgets.common.stepper import Stepper

DEMAND = "игрок требует развёрнутую проверку"
NOT_ROLLED = "Проверка ещё не брошена: это — после d100."
OVER = "Проверка уже завершена: менять её поздно."


class SeatMixin:
    """A player's requests about the open IDE4 check (mixed into ``Ide4Builder``)."""

    check: ide4.Check | None
    app: Any
    form: Any
    phase: str
    player_demand: bool
    seat: SeatCheck
    _seat_trail: SpendTrail
    _trail: SpendTrail
    _check_character_id: str | None
    # Provided by the builder (and Textual): _level(), _show_result(), _recompute(),
    # refresh_bindings(), query_one(), _restore_check().

    _seat_for: str | None = None

    def _seat_character(self) -> Any:
        if self.phase == "setup":
            return self.form.character
        return self.form.characters.get(self._check_character_id or "")

    def seat_check(self) -> dict[str, Any] | None:
        """The open check as its character's seat sees it (see ``SeatCheck``)."""
        c = self._seat_character()
        if c is None:
            return None
        if c.id != self._seat_for:  # another character: the seats' check is another one
            if self._seat_for is not None:
                self.seat.renew(SeatCheck.CLOSED)
            self._seat_for = c.id
        check = self.check
        stage = "before" if self.phase == "setup" else "done"
        if check is not None and self.phase != "setup" and check.status == "rolled":
            stage = "rolled"
        kinds, choices = [], []
        if not (self._level() == "expanded" and self.player_demand):  # type: ignore[attr-defined]
            kinds.append("expanded")
            choices.append("потребовать развёрнутую проверку")
        if stage == "before" and self.form.level == "expanded":
            kinds.append("energy")
            nominal = self._seat_nominal()
            choices.append(f"энергия до броска (кубы до d{nominal})" if nominal else "энергия")
        if stage == "rolled" and check is not None:
            if ide4.energy_after_refusal(check) is None:
                kinds.append("energy")
                choices.append(f"энергия после броска (кубы до d{check.input.nominal})")
            if any(m.kind == "reroll" and m.allowed for m in ide4.allowed_moves(check)):
                kinds.append("reroll")
                choices.append("переброс d100")
        return {
            "id": self.seat.id,
            "character": c.id,
            "stage": stage,
            "kinds": kinds,
            "choices": choices,
        }

    def seat_closed(self, check_id: str) -> str:
        return self.seat.closed(check_id)

    def _seat_nominal(self) -> int:
        try:
            return int(self.current_input().nominal)  # type: ignore[attr-defined]
        except (RulesError, AttributeError):
            return 0

    def _energy_input(self, payload: dict[str, Any]) -> ide4.CheckInput:
        """The form's inputs with the player's energy before the roll (RulesError: why not)."""
        inp = self.current_input()  # type: ignore[attr-defined]
        inp = replace(inp, energy_dice=int(payload["amount"]), energy_die=payload.get("die") or 0)
        ide4.validate(inp)
        return inp

    def _seat_source(self, named: str = "") -> str:
        """The reroll source a player's request takes: the one named (the GM's «e»), else the
        first the rules allow now."""
        assert self.check is not None
        if named:
            why = ide4.reroll_refusal(self.check, named)
            if why:
                raise RulesError(f"Переброс ({ide4.REROLL_SOURCES[named]}): {why}")
            return named
        moves = [m for m in ide4.allowed_moves(self.check) if m.kind == "reroll"]
        allowed = [m for m in moves if m.allowed]
        if not allowed:
            raise RulesError(moves[0].reason if moves else "Переброс сейчас не разрешён.")
        return allowed[0].source

    def seat_refusal(self, kind: str, payload: dict[str, Any]) -> str:
        """Why a player's ``kind`` cannot apply to this check now ("" if it can)."""
        check = self.check
        rolled = check is not None and self.phase != "setup" and check.status == "rolled"
        try:
            if kind == "expanded":
                if self._level() == "expanded" and self.player_demand:  # type: ignore[attr-defined]
                    return "Развёрнутая проверка уже идёт по требованию игрока."
                return ""
            if kind == "energy" and payload.get("when") == "before":
                if self.phase != "setup":
                    return SeatCheck.ROLLED + " После броска — «Энергия после»."
                if self.form.level != "expanded":
                    return (
                        "Энергия до броска — шаг развёрнутой проверки: сначала потребуйте её («x»)."
                    )
                self._energy_input(payload)
                return ""
            if not rolled:
                return NOT_ROLLED if self.phase == "setup" else OVER
            assert check is not None
            if kind == "energy":
                die = payload.get("die") or check.input.nominal
                return ide4.energy_after_refusal(check, int(payload["amount"]), die) or ""
            if kind == "reroll":
                self._seat_source(payload.get("source") or "")
                return ""
        except RulesError as err:
            return str(err)
        return "В этой проверке такой заявки нет."

    def seat_apply(self, kind: str, payload: dict[str, Any], seat: str) -> CheckRolled:
        """Make the step the GM's key makes for a player's ``kind``; return its line (the
        seats' hub writes it as one undo step)."""
        check = self.check
        if kind == "expanded":
            return self._demand_step()
        actor = (check.input.actor if check else self.form.character.name) or None
        if kind == "energy" and payload.get("when") == "before":
            before = self._form_state()
            inp = self._energy_input(payload)
            die = self.query_one("#ide4-die", Stepper)  # type: ignore[attr-defined]
            die.select(inp.before_die)
            self.form._refresh_energy()  # the count's options follow the die
            self.query_one("#ide4-energy", Stepper).select(inp.energy_dice)  # type: ignore[attr-defined]
            self._recompute()  # type: ignore[attr-defined]
            line = (
                f"энергия до броска {inp.energy_dice}×d{inp.before_die} "
                f"(стоит {inp.energy_dice * inp.before_die}; тратится при броске)"
            )
            return self._seat_line(actor, line, "energy_before", before)
        assert check is not None
        rng = self.app.rng
        if kind == "energy":
            die = payload.get("die") or check.input.nominal
            after = ide4.energy_after(check, int(payload["amount"]), die, rng=rng)
            return self._move_step(after, "energy_after")  # type: ignore[attr-defined]
        source = self._seat_source(payload.get("source") or "")
        return self._move_step(ide4.reroll(check, source, rng), "reroll")  # type: ignore[attr-defined]

    # -- the steps ---------------------------------------------------------------------------

    def _demand_step(self) -> CheckRolled:
        """The player demands the expanded check (the GM's «p», a seat's accepted request):
        one undo step with its line. Before the roll it is the form's step; on a rolled check
        it is a move of the check (one trail with the others: undoing one never brings back
        the check another left), its line the level's step if the level changes."""
        check = self.check
        line = "Требует развёрнутую проверку: мастер обязан её провести"
        if check is None or self.phase == "setup":
            before = self._form_state()
            self._seat_level("expanded")
            actor = self.form.character.name or None
            return self._seat_line(actor, line, "demand_expanded", before)
        self.player_demand = True
        stepper = self.query_one("#ide4-level", Stepper)  # type: ignore[attr-defined]
        with stepper.prevent(Stepper.Changed):
            stepper.select("expanded")
        after = ide4.set_level(check, "expanded", DEMAND)
        if after.steps != check.steps:
            return self._move_step(after, "level")  # type: ignore[attr-defined,no-any-return]
        return self._move_step(after, "demand_expanded", line)  # type: ignore[attr-defined,no-any-return]

    def _seat_line(self, actor: str | None, line: str, event: str, before: Any) -> CheckRolled:
        data = {"system": "ide4", "event": event}
        if self.check is not None:
            data = {**self.check.to_dict(), "event": event}
        message = CheckRolled(actor, line[:1].upper() + line[1:], data)
        what = "энергия до броска" if event == "energy_before" else DEMAND
        message.step = f"Проверка ({actor or 'без имени'}): {what}"
        self._seat_trail.add(self.app, message.entry_id, before, self._form_state())
        self.seat.changed(self)
        return message

    def _seat_level(self, level: str) -> None:
        """The player's demand before the roll: the form's level."""
        self.player_demand = True
        self.query_one("#ide4-level", Stepper).select(level)  # type: ignore[attr-defined]
        self._recompute()  # type: ignore[attr-defined]
        self.refresh_bindings()  # type: ignore[attr-defined]

    def _form_state(self) -> tuple[Any, ...]:
        f = self.form
        return (self.check, self.player_demand, f.level, f.value("energy"), f.value("die"))

    def _follow_seat_trail(self) -> None:
        """A player's step undone or redone (Ctrl+Z, Ctrl+Y): the form and check follow."""
        has, state = self._seat_trail.state(self.app)
        if has and state != self._form_state():
            self._restore_form(state)

    def _restore_form(self, state: tuple[Any, ...]) -> None:
        check, self.player_demand, level, energy, die = state
        stepper = self.query_one("#ide4-level", Stepper)  # type: ignore[attr-defined]
        if self.phase != "setup":
            with stepper.prevent(Stepper.Changed):
                stepper.select(level)
            if check is not None:
                self._restore_check(check)  # type: ignore[attr-defined]
        else:
            stepper.select(level)
            self.query_one("#ide4-die", Stepper).select(die)  # type: ignore[attr-defined]
            self.form._refresh_energy()
            self.query_one("#ide4-energy", Stepper).select(energy)  # type: ignore[attr-defined]
            self._recompute()  # type: ignore[attr-defined]
        self.refresh_bindings()  # type: ignore[attr-defined]
        self.seat.changed(self)
