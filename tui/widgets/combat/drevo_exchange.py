"""The stored Древо exchange of the Бой tab: what the pane derives from it, and how it is written.

Everything about the exchange in progress lives in the encounter document (``exchange``): the
pane keeps no copy of it. Every redraw derives the plan and the result from that document and
the party (kept until the encounter, the party or the campaign's tables change); every step of
the exchange is written back as one store step labelled with the exchange's ``group``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import drevo
from rules.data import on_change
from rules.encounter import Pairing
from rules.errors import RulesError
from tui.bridge import combat as bridge
from tui.store import Character, new_id


class ExchangeState:
    """The current exchange as the store has it (the base of the exchange's mixins)."""

    # Provided by CombatPane.
    encounter: Any
    characters: dict[str, Character]
    app: Any
    store: Any

    # -- derived state ---------------------------------------------------------------------------

    def _pairing(self) -> Pairing | None:
        pending = self.encounter.pending() if self.encounter.phase == "resolve" else []
        return pending[0] if pending else None

    def _ex(self) -> dict[str, Any]:
        """The stored state of the current exchange (empty before anything happened)."""
        pairing, ex = self._pairing(), self.encounter.exchange or {}
        return dict(ex) if pairing is not None and ex.get("key") == pairing.key else {}

    def _number(self) -> tuple[int, int]:
        total = len(self.encounter.pairings())
        return total - len(self.encounter.pending()) + 1, total

    def group(self) -> str:
        """The label prefix of the current exchange's undo steps."""
        return f"Раунд {self.encounter.round}, схватка {self._number()[0]}"

    def _exchange_id(self, attempt: int) -> str:
        pairing = self._pairing()
        key = pairing.key if pairing else "-"
        return f"{self.encounter.id}:{self.encounter.round}:{key}:{attempt}"

    def _ids(self) -> dict[str, str]:
        pairing = self._pairing()
        if pairing is None:
            return {}
        return self._ex().get("ids") or bridge.roles(pairing, self.characters)

    def _derive(self) -> tuple[drevo.ExchangePlan | None, str, drevo.ExchangeResult | None]:
        """Return the plan, the refusal and the result of the current exchange, from the store.

        Kept until the encounter, the party or the campaign's tables change (every key's
        ``check_action`` asks for it).
        """
        memo = getattr(self, "_derived", None)
        tables = drevo_tables_version()
        if memo is not None and memo[0] is self.encounter and memo[1] is self.characters:
            if memo[2] == tables:
                return memo[3]  # type: ignore[no-any-return]
        derived = self._derive_now()
        self._derived = (self.encounter, self.characters, tables, derived)
        return derived

    def _derive_now(self) -> tuple[drevo.ExchangePlan | None, str, drevo.ExchangeResult | None]:
        pairing = self._pairing()
        if pairing is None:
            return None, "", None
        ex = self._ex()
        try:
            effects = ex.get("effects") if "dice" in ex and "effects" in ex else None
            if effects is None:
                effects = bridge.effects_now(
                    self.store, bridge.roles(pairing, self.characters).values()
                )
            plan = bridge.plan_for(pairing, self.characters, ex.get("wounds"), effects)
        except RulesError as err:
            return None, str(err), None
        dice = ex.get("dice")
        if dice is None:
            return plan, "", None
        try:
            result = drevo.resolve_exchange_with_dice(
                plan, dice.get("attacker"), dice.get("defender"), fate=ex.get("fate_before", ())
            )
            for role, points, _who in ex.get("shifts", ()):
                result = drevo.shift_exchange(result, role, points)
        except (RulesError, TypeError, ValueError) as err:
            return plan, f"сохранённый бросок не подходит к схватке ({err})", None
        return plan, "", result

    def _exchange_stage(self) -> str:
        """``plan``, ``refused``, ``rolled``, ``damage`` or ``done`` for the current exchange."""
        plan, refusal, result = self._derive()
        if refusal:
            return "refused"
        ex = self._ex()
        if result is None:
            return "plan"
        if not ex.get("accepted"):
            return "rolled"
        if len(ex.get("damage", ())) < len(result.hits):
            return "damage"
        return "done"

    def _character_of(self, role: str) -> Character | None:
        return self.characters.get(self._ids().get(role, ""))

    def _earlier_dice(self, exchange_id: str) -> dict[str, Any] | None:
        """The dice already rolled for this exchange attempt, from the Журнал (never undone)."""
        for entry in self.store.log(limit=500):
            data = entry.data or {}
            dice = data.get("dice")
            if data.get("exchange") == exchange_id and isinstance(dice, dict):
                if any(d is not None for d in dice.values()):
                    return dict(dice)
        return None

    # -- writing ----------------------------------------------------------------------------------

    def _store_exchange(
        self,
        ex: dict[str, Any] | None,
        what: str,
        upsert: tuple[Character, ...] = (),
        then: Callable[[str], object] | None = None,
        failed: Callable[[Exception], object] | None = None,
    ) -> bool:
        """Save the exchange in the app's writer; ``then(step)`` runs once it is saved (the
        pane then shows the stored exchange), ``failed(err)`` when the write fails."""
        enc = self.encounter.with_exchange(ex)
        label = f"{self.group()}: {what}"
        return self._save(enc, label, upsert, then=then, failed=failed)  # type: ignore[attr-defined]

    def _with_fight_id(self) -> None:
        """Give a fight saved by an older kubik (no id) one, so its rolls are named apart."""
        if not self.encounter.id:
            self.encounter = replace(self.encounter, id=new_id())


def drevo_tables_version() -> int:
    """A number that changes whenever the campaign's rules tables change."""
    return _TABLES[0]


_TABLES = [0]


def _tables_changed() -> None:
    _TABLES[0] += 1


def plain_text(markup: str) -> str:
    """Strip Textual markup for the log's plain text."""
    from textual.markup import to_content

    return to_content(markup).plain


on_change(_tables_changed)
