"""Судьба in a Древо exchange: «+4 без броска» before the roll, ±1 a point after it, and
the levels of damage it can take off (the choices and the steps that spend it)."""

from __future__ import annotations

from dataclasses import replace

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
            plan, _, result = self._derive()
            if role is None or plan is None or result is not None:
                return
            c = self._character_of(role)
            if c is None:
                return
            try:
                left = drevo.spend_fate(plan.fate_use_before_roll, c.fate)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
            ex = self._ex()
            pairing = self._pairing()
            assert pairing is not None
            ex.update(key=pairing.key, attempt=ex.get("attempt", 1))
            ex["fate_before"] = sorted({*ex.get("fate_before", ()), role})

            def saved(step: str) -> None:
                text = "Судьба до броска: «+4 без броска»"
                self._log(c.name, text, {"fate": "before"}, step=step)  # type: ignore[attr-defined]

            what = f"Судьба до броска ({c.name})"
            self._store_exchange(ex, what, (replace(c, fate=left),), then=saved)

        self.app.push_screen(ChoiceScreen("Судьба до броска", self._fate_before_choices()), chosen)

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
            plan, _, result = self._derive()
            if value is None or result is None or self._ex().get("accepted"):
                return
            role, points = value
            c = self._character_of(role)
            if c is None:
                return
            try:
                left = drevo.spend_fate("shift", c.fate, cost=abs(points))
                drevo.shift_exchange(result, role, points)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
            ex = self._ex()
            ex["shifts"] = [*ex.get("shifts", ()), [role, points, c.id]]
            what = f"Судьба {words.signed(points)} ({c.name})"

            def saved(step: str) -> None:  # the result as stored now
                _, _, shifted = self._derive()
                if shifted is None:
                    return
                names = self._shift_names(self._ex())
                text = " / ".join(plain_text(line) for line in result_lines(shifted, names))
                self._log(  # type: ignore[attr-defined]
                    c.name,
                    f"Судьба: {words.signed(points)} к результату "
                    f"({words.points(abs(points))}): {text}",
                    {"exchange": ex.get("id"), "fate": "shift", "points": points},
                    step=step,
                )

            self._store_exchange(ex, what, (replace(c, fate=left),), then=saved)

        self.app.push_screen(ChoiceScreen("Судьба после броска", self._shift_choices()), chosen)

    def _reduce_options(self) -> tuple[tuple[str, int], ...]:
        if self._exchange_stage() != "damage":
            return ()
        _, _, result = self._derive()
        assert result is not None
        hit = result.hits[len(self._ex().get("damage", ()))]
        c = self._character_of(hit.target)
        return drevo.reduce_options(hit.level, c.fate) if c else ()
