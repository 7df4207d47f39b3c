"""The end of a Древо exchange: the roll accepted, each hit written into its target's wound
track (lowered by Судьба), the exchange marked resolved with what it did."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import drevo
from rules.errors import RulesError
from tui import words
from tui.bridge import combat as bridge
from tui.bridge.sheets import wounds_text
from tui.widgets.combat.drevo_exchange import ExchangeState


class DamageMixin(ExchangeState):
    """Accepting the roll, the damage and the exchange's result (mixed into ``CombatPane``)."""

    def accept_exchange(self) -> None:
        """Enter after the roll: accept it; damage without a Судьба choice is written at once."""
        stage = self._exchange_stage()
        if stage == "done":
            self.finish_exchange()
            return
        if stage == "damage":
            self.take_damage(0)
            return
        if stage != "rolled":
            return
        _, _, result = self._derive()
        assert result is not None
        if not result.hits:
            self.finish_exchange()
            return
        ex = self._ex()
        ex["accepted"] = True

        def saved(_step: str) -> None:
            if not self._reduce_options():
                self.take_damage(0)

        self._store_exchange(ex, "принято", then=saved)

    def take_damage(self, reduce_by: int) -> None:
        """Write the current hit into the target's track, lowered by ``reduce_by`` Судьбы."""
        if self._exchange_stage() != "damage":
            return
        _, _, result = self._derive()
        assert result is not None
        ex = self._ex()
        hit = result.hits[len(ex.get("damage", ()))]
        c = self._character_of(hit.target)
        if c is None:
            self.app.notify("Раненый больше не в партии — пропустите схватку.", severity="error")
            return
        level, fate = hit.level, c.fate
        if reduce_by:
            try:
                fate = drevo.spend_fate("reduce_damage", c.fate, cost=reduce_by)
                level = drevo.reduce_damage(hit.level, reduce_by)
            except RulesError as err:
                self.app.notify(str(err), severity="error")
                return
        track = bridge.track_of(c).take(level)
        updated = replace(bridge.with_track(c, track), fate=fate)
        ex["damage"] = [
            *ex.get("damage", ()),
            {
                "target": hit.target,
                "cid": c.id,
                "level": hit.level,
                "final": level,
                "reduced": reduce_by,
            },
        ]
        note = f" (Судьба −{reduce_by}: было «{words.wound(hit.level)}»)" if reduce_by else ""
        state = words.wound_state(track)

        def saved(step: str) -> None:
            self._log(  # type: ignore[attr-defined]
                c.name,
                f"Урон: {c.name} получает {words.wound(level, 'acc')}{note}. "
                f"Раны: {wounds_text(track.counts)}" + (f" — {state}" if state else ""),
                {
                    "exchange": ex.get("id"),
                    "damage": level,
                    "wounds": track.to_dict(),
                    **({"fate_spent": reduce_by} if reduce_by else {}),  # the ledger counts it
                },
                step=step,
            )

        self._store_exchange(ex, f"урон {c.name}", (updated,), then=saved)

    def finish_exchange(self, skipped: str = "") -> None:
        """Mark the current exchange resolved (with what it did), one more step of its group."""
        pairing = self._pairing()
        if pairing is None:
            return
        ex = self._ex()
        hurt = [[d["cid"], d["final"]] for d in ex.get("damage", ())]
        outcome: dict[str, Any] = {"hurt": hurt}
        if skipped:
            outcome["skipped"] = skipped
        label = f"{self.group()}: " + ("пропущена" if skipped else "итог")
        enc = self.encounter.mark_resolved(pairing, outcome)

        def saved(step: str) -> None:  # both lines tell of this one step
            if skipped:
                self._log(  # type: ignore[attr-defined]
                    None,
                    f"Схватка пропущена: {skipped}",
                    {"exchange": ex.get("id"), "skipped": True},
                    step=step,
                )
            if not self.encounter.pending():
                self._log(None, self.summary_text(), {"summary": True}, step=step)  # type: ignore[attr-defined]

        self._save(enc, label, then=saved)  # type: ignore[attr-defined]
