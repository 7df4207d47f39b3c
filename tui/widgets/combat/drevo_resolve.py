"""The Древо exchange of the Бой tab, kept in the store step by step.

Everything about the exchange in progress lives in the encounter document (``exchange``):
the dice the moment they fall, the Судьба spent before and after the roll, the damage
written. The pane keeps no copy of it: every redraw derives the plan and the result from
that document and the party, so a restart, a crash, a second kubik, an undo or a redo shows
exactly the stored state. The steps of one exchange carry one label prefix (``group``), and
the app undoes and redoes them together (``tui.bridge.combat.whole_exchange``).

A roll is named by the fight, the round, the pairing and the attempt (a tie rerolled is a new
attempt). Rolling the same attempt again — after an undo — takes the dice from the Журнал,
which is never undone: the same exchange never gets new dice.

The exchange's parts are mixins next to this one: the stored state (``drevo_exchange``), its
lines (``drevo_exchange_text``), Судьба (``drevo_fate``) and the damage (``drevo_damage``);
the dice are rolled here.
"""

from __future__ import annotations

from rules import drevo
from tui.bridge import combat as bridge
from tui.present.combat import damage_text, result_lines
from tui.widgets.combat.drevo_damage import DamageMixin
from tui.widgets.combat.drevo_exchange import drevo_tables_version, plain_text
from tui.widgets.combat.drevo_exchange_text import ExchangeText, plan_lines_of
from tui.widgets.combat.drevo_fate import FateMixin


class ExchangeMixin(ExchangeText, FateMixin, DamageMixin):
    """Resolution of the current Древо exchange (mixed into ``CombatPane``)."""

    # -- the dice -------------------------------------------------------------------------------

    def roll_exchange(self, attempt: int | None = None) -> None:
        """Roll the current exchange and store the dice at once."""
        pairing = self._pairing()
        plan, refusal, result = self._derive()
        if pairing is None or plan is None or (result is not None and attempt is None):
            return
        ex = self._ex()
        fate = set(ex.get("fate_before", ()))
        if attempt is None:
            attempt = int(ex.get("attempt", 1))
        else:
            fate = set()  # a reroll is a new check; Судьба before it is declared anew
        self._with_fight_id()  # written with the roll below
        exchange_id = self._exchange_id(attempt)
        earlier = self._earlier_dice(exchange_id) or {}
        rng = self.app.rng
        dice: dict[str, list[int] | None] = {}
        for side in (plan.attacker, plan.defender):
            if not side.rolls or side.role in fate:
                dice[side.role] = None
            elif earlier.get(side.role) is not None:
                dice[side.role] = list(earlier[side.role])
            else:
                dice[side.role] = list(drevo.roll_4df(rng))
        ids = bridge.roles(pairing, self.characters)
        stored = {
            "key": pairing.key,
            "id": exchange_id,
            "attempt": attempt,
            "ids": ids,
            "fate_before": sorted(fate),
            "dice": dice,
            "wounds": {
                cid: bridge.wounds_now(self.characters[cid])
                for cid in ids.values()
                if cid in self.characters
            },
            "effects": bridge.effects_now(self.store, ids.values()),
            "shifts": [],
            "accepted": False,
            "damage": [],
        }
        what = "бросок" if attempt == 1 else f"переброс ничьей ({attempt})"

        def saved(step: str) -> None:  # the exchange as stored now
            _, _, result = self._derive()
            if result is None:
                return
            text = " / ".join(plain_text(line) for line in result_lines(result))
            again = " (те же кубики, что до отмены)" if earlier else ""
            self._log(  # type: ignore[attr-defined]
                plan.attacker.fighter.name,
                f"Схватка{again}: {text}",
                {"exchange": exchange_id, "dice": dice, **result.to_dict()},
                step=step,
            )

        self._store_exchange(stored, what, then=saved)


__all__ = ["ExchangeMixin", "damage_text", "drevo_tables_version", "plan_lines_of"]
