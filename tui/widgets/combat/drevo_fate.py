"""Судьба in a Древо exchange: «+4 без броска» before the roll, ±1 a point after it, and
the levels of damage it can take off (the choices and the steps that spend it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import drevo
from rules.errors import RulesError
from tui import words
from tui.present.combat import result_lines
from tui.widgets.combat.drevo_exchange import ExchangeState, plain_text
from tui.widgets.common.choice import Choice, ChoiceScreen


class FateMixin(ExchangeState):
    """Spending Судьба on the current exchange (mixed into ``CombatPane``)."""

    def _fate_before_choices(self) -> list[Choice]:
        plan, _, result = self._derive()
        if plan is None or result is not None:
            return []
        ex = self._ex()
        if self._earlier_dice(self._exchange_id(ex.get("attempt", 1))):
            return []  # the dice of this exchange already fell: Судьба comes before them
        use = plan.fate_use_before_roll
        rules = drevo.fate_rules()
        declared = set(ex.get("fate_before", ()))
        choices = []
        for role in ("attacker", "defender"):
            c = self._character_of(role)
            if c is None or not plan.side(role).rolls or role in declared:
                continue
            refused = ""
            try:
                drevo.spend_fate(use, c.fate, rules=rules)
            except RulesError as err:
                refused = str(err)
            if c.fate > 0 or refused:
                label = f"{c.name}: Судьба — «+4 без броска» (1 очко из {c.fate})"
                choices.append(Choice(label, role, refused))
        return [ch for ch in choices if not ch.refused] and choices

    def action_fate_before(self) -> None:
        """Offer Судьба before the roll: the side's dice count as +4 (uses 1 and 3)."""

        def chosen(role: str | None) -> None:
            if role is not None:
                why = self.fate_before(role)
                if why:
                    self.app.notify(why, severity="error")

        self.app.push_screen(ChoiceScreen("Судьба до броска", self._fate_before_choices()), chosen)

    def fate_before(
        self,
        role: str,
        *,
        by: str = "",
        data: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
    ) -> str:
        """Spend Судьба «+4 без броска» for ``role`` of the current exchange: one undo step
        with its Журнал line (the «f» key's choice, and an accepted seat's request).

        ``by``: who asked (the line says «Заявка игрока …»), ``data``: added to the line's
        data. Returns "" when the write is on its way, else why it cannot be done now.
        """
        plan, _, result = self._derive()
        if plan is None or result is not None:
            return "Кости этой схватки уже брошены: «+4 без броска» — только до броска."
        ex = self._ex()
        if self._earlier_dice(self._exchange_id(ex.get("attempt", 1))):
            return "Кости этой схватки уже брошены: «+4 без броска» — только до броска."
        c = self._character_of(role)
        if c is None or not plan.side(role).rolls:
            return "В этой схватке персонаж не бросает кости."
        if role in ex.get("fate_before", ()):
            return "Судьба до броска в этой схватке уже потрачена."
        if waiting := getattr(self, "_pending", None):  # a key pressed twice applies once
            return f"Подождите: ещё сохраняется «{waiting}»."
        try:
            left = drevo.spend_fate(plan.fate_use_before_roll, c.fate)
        except RulesError as err:
            return str(err)
        pairing = self._pairing()
        assert pairing is not None
        ex.update(key=pairing.key, attempt=ex.get("attempt", 1))
        ex["fate_before"] = sorted({*ex.get("fate_before", ()), role})

        def saved(step: str) -> None:
            text = _asked(by, "Судьба до броска: «+4 без броска»")
            self._log(c.name, text, {"fate": "before", **(data or {})}, step=step)  # type: ignore[attr-defined]
            if then is not None:
                then(step)

        what = f"Судьба до броска ({c.name})"
        self._store_exchange(ex, what, (replace(c, fate=left),), then=saved, failed=failed)
        return ""

    def _shift_choices(self) -> list[Choice]:
        plan, _, result = self._derive()
        if result is None or plan is None or not drevo.fate_rules().allows("shift"):
            return []
        if self._ex().get("accepted"):
            return []
        choices = []
        for role in ("attacker", "defender"):
            c = self._character_of(role)
            if c is None or not plan.side(role).rolls or c.fate <= 0:
                continue
            for points in (1, 2, 3):
                if points > c.fate:
                    break
                for sign in (1, -1):
                    choices.append(
                        Choice(
                            f"{c.name}: {words.signed(sign * points)} Судьбой "
                            f"({words.points(points)})",
                            (role, sign * points),
                        )
                    )
        return choices

    def action_fate_shift(self) -> None:
        """Offer Судьба after the roll: ±1 per point (use 2)."""

        def chosen(value: tuple[str, int] | None) -> None:
            if value is not None:
                why = self.fate_shift(*value)
                if why:
                    self.app.notify(why, severity="error")

        self.app.push_screen(ChoiceScreen("Судьба после броска", self._shift_choices()), chosen)

    def fate_shift(
        self,
        role: str,
        points: int,
        *,
        by: str = "",
        data: dict[str, Any] | None = None,
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
    ) -> str:
        """Shift the rolled result by ``points`` of ``role``'s Судьба: one undo step with its
        Журнал line (the «p» key's choice, and an accepted seat's request; see
        :meth:`fate_before` for ``by``, ``data`` and what it returns)."""
        plan, _, result = self._derive()
        if result is None or plan is None:
            return "Сдвиг Судьбой — после броска: кости этой схватки ещё не брошены."
        if self._ex().get("accepted"):
            return "Результат схватки уже принят: сдвигать Судьбой поздно."
        c = self._character_of(role)
        if c is None or not plan.side(role).rolls:
            return "В этой схватке персонаж не бросает кости."
        if waiting := getattr(self, "_pending", None):  # a key pressed twice applies once
            return f"Подождите: ещё сохраняется «{waiting}»."
        try:
            left = drevo.spend_fate("shift", c.fate, cost=abs(points))
            drevo.shift_exchange(result, role, points)
        except RulesError as err:
            return str(err)
        ex = self._ex()
        ex["shifts"] = [*ex.get("shifts", ()), [role, points, c.id]]
        what = f"Судьба {words.signed(points)} ({c.name})"

        def saved(step: str) -> None:  # the result as stored now
            _, _, shifted = self._derive()
            if shifted is not None:
                names = self._shift_names(self._ex())
                text = " / ".join(plain_text(line) for line in result_lines(shifted, names))
                self._log(  # type: ignore[attr-defined]
                    c.name,
                    _asked(
                        by,
                        f"Судьба: {words.signed(points)} к результату "
                        f"({words.points(abs(points))}): {text}",
                    ),
                    {"exchange": ex.get("id"), "fate": "shift", "points": points, **(data or {})},
                    step=step,
                )
            if then is not None:
                then(step)

        self._store_exchange(ex, what, (replace(c, fate=left),), then=saved, failed=failed)
        return ""

    def _reduce_options(self) -> tuple[tuple[str, int], ...]:
        if self._exchange_stage() != "damage":
            return ()
        _, _, result = self._derive()
        assert result is not None
        hit = result.hits[len(self._ex().get("damage", ()))]
        c = self._character_of(hit.target)
        return drevo.reduce_options(hit.level, c.fate) if c else ()


def _asked(by: str, text: str) -> str:
    """The Журнал line of a step a player asked for from their seat."""
    return f"Заявка игрока {by}: {text}" if by else text
