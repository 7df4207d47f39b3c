"""The round tracker's setup and initiative: who fights on which side, initiative rolled the
system's way (``rules.rounds``) and round 1 begun; the line that names the system's rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import rounds
from rules.effects import EffectSet, tick_all
from rules.errors import RulesError
from rules.rounds import Entrant, Fighter, Tracker
from tui.bridge.effects import character_modifiers
from tui.present.rolls import plain
from tui.store import Character
from tui.words import SYSTEM_NAMES

SIDE_CYCLE = ("—", "Отряд", "Противники", "Третья сторона")
OUT = "—"
TIE_NAMES = {
    "reroll": "ничья — переброс между равными",
    "pc_first": "ничья — игроки раньше, затем переброс",
    "bonus": "ничья — выше постоянная часть, затем переброс",
}
#: Combat durations: they cannot tick once the fight is over.


def initiative_rule(system: str) -> str:
    """Return the line that names the system's initiative and tie rule (from the tables)."""
    try:
        tie = TIE_NAMES.get(rounds.tie_rule(system), "")
        per = "по сторонам" if rounds.per_side() else "у каждого"
        if system == "ide4":
            how = "проверка действия «Инициатива»; выше исход, затем итог"
        elif system == "starately":
            stat = rounds.initiative.setting("starately", "characteristic")
            how = f"2d6 + DM ({stat})"
        else:
            attrs = " + ".join(rounds.initiative.setting("wod", "attributes"))
            how = f"d10 + инициатива листа ({attrs})"
    except RulesError as err:
        return f"[$error]{plain(str(err))}[/]"
    return f"[dim]Инициатива {per}: {how}; {tie}.[/]"


class RoundsInitiative:
    """Sides and initiative (mixed into ``RoundsPane``)."""

    # Provided by RoundsPane.
    tracker: Tracker
    effects: EffectSet
    characters: dict[str, Character]
    app: Any

    def action_cycle_side(self) -> None:
        """Move the highlighted character to the next side («—»: not in the fight)."""
        cid = self.highlighted_id()
        c = self.characters.get(cid or "")
        if c is None:
            return
        entrant = self.tracker.entrant(c.id)
        side = entrant.side if entrant else OUT
        new_side = SIDE_CYCLE[(SIDE_CYCLE.index(side) + 1) % len(SIDE_CYCLE)]
        if new_side == OUT:
            tracker = self.tracker.without(c.id)
        else:
            tracker = self.tracker.with_entrant(Entrant(c.id, c.name, new_side, c.kind == "pc"))
            # keep the roster's order: re-adding moved it to the end
            order = [e.id for e in self.tracker.entrants] + [c.id]
            tracker = replace(
                tracker, entrants=tuple(sorted(tracker.entrants, key=lambda e: order.index(e.id)))
            )
        self._save(f"{c.name}: сторона «{new_side}»", tracker=tracker)

    def _fighter(self, e: Entrant) -> Fighter:
        c = self.characters[e.id]
        initiative = c.extra.get("initiative")
        return Fighter(
            e.id,
            c.name,
            e.side,
            c.kind == "pc",
            dict(c.qualities),
            {s.name: s.value for s in c.skills},
            int(initiative) if isinstance(initiative, int) else None,
            int(c.extra.get("energy", 100)),
            character_modifiers(self.store, c),
        )

    def action_initiative(self) -> None:
        """Roll initiative the system's way and begin round 1."""
        fighters = [self._fighter(e) for e in self.tracker.entrants if e.id in self.characters]
        try:
            order, rolls = rounds.roll_initiative(self.system, fighters, self.app.rng)  # type: ignore[attr-defined]
            tracker, events = self.tracker.start(order, rolls)
        except RulesError as err:
            self.app.notify(str(err), severity="error")
            return
        effects, notices = tick_all(self.effects, events, tracker.order)
        names = self._names()
        ranked = " → ".join(f"{names.get(k, k)} ({r.text})" for k, r in rolls.items())
        data = {
            "initiative": {k: r.to_dict() for k, r in rolls.items()},
            "order": list(order),
            "names": {k: names.get(k, k) for k in rolls},  # the luck ledger names who rolled
        }

        def saved(step: str) -> None:  # the pane shows the stored tracker by now
            self._log(None, f"Инициатива ({SYSTEM_NAMES[self.system]}): {ranked}", data, step)
            self._announce(notices, step)

        self._save("Инициатива, раунд 1", tracker=tracker, effects=effects, then=saved)
