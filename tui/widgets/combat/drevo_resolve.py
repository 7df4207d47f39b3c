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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import drevo
from rules.data import on_change
from rules.encounter import Pairing
from rules.errors import RulesError
from tui import words
from tui.bridge import combat as bridge
from tui.bridge.sheets import wounds_text
from tui.present.combat import damage_text, result_lines
from tui.present.rolls import plain
from tui.store import Character, new_id
from tui.widgets.common.choice import Choice, ChoiceScreen


class ExchangeMixin:
    """Resolution of the current Древо exchange (mixed into ``CombatPane``)."""

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

    # -- drawing --------------------------------------------------------------------------------

    def exchange_lines(self) -> tuple[list[str], drevo.ExchangePlan | None, frozenset[str]]:
        """Return the lines under the header, the plan (for the odds) and the Судьба roles."""
        plan, refusal, result = self._derive()
        ex = self._ex()
        if refusal:
            return (
                [f"[$error]Нельзя: {plain(refusal)}[/]", "s или Enter — пропустить схватку."],
                None,
                frozenset(),
            )
        assert plan is not None
        lines = plan_lines_of(plan)
        fate = frozenset(ex.get("fate_before", ()))
        if fate:
            who = ", ".join(plain(plan.side(r).fighter.name) for r in sorted(fate))
            lines.append(f"[$accent]Судьба до броска: {who} — «+4 без броска».[/]")
        if result is None:
            if self._earlier_dice(self._exchange_id(ex.get("attempt", 1))):
                lines.append("[dim]Кубики этой схватки уже брошены — Enter покажет те же.[/dim]")
            return lines, plan, fate
        lines.append("")
        lines += result_lines(result, self._shift_names(ex))
        stage = self._exchange_stage()
        if stage == "damage":
            lines.append(self._damage_prompt(result, ex))
        elif stage == "done":
            lines += self._final_lines(ex)
        elif stage == "rolled":
            keys = "Enter — принять"
            if self._shift_choices():
                keys += ", p — Судьба ±1"
            if result.tie:
                keys += ", r — перебросить ничью"
            lines.append(f"[dim]{keys}.[/dim]")
        return lines, None, fate

    def _shift_names(self, ex: dict[str, Any]) -> dict[str, list[tuple[int, str]]]:
        names: dict[str, list[tuple[int, str]]] = {}
        for role, points, who in ex.get("shifts", ()):
            c = self.characters.get(who)
            names.setdefault(role, []).append((points, c.name if c else "?"))
        return names

    def _damage_prompt(self, result: drevo.ExchangeResult, ex: dict[str, Any]) -> str:
        hit = result.hits[len(ex.get("damage", ()))]
        c = self._character_of(hit.target)
        name = plain(c.name) if c else "?"
        text = f"[b]Урон: {name} — {words.wound(hit.level)}.[/b] "
        options = self._reduce_options()
        if options:
            fate = c.fate if c else 0
            text += f"Судьба ({words.points(fate)}): "
            text += ", ".join(self._reduce_label(c, hit.level, lvl, cost) for lvl, cost in options)
            text += "; Enter — принять урон."
        else:
            text += "Enter — записать урон."
        return text

    def _reduce_label(self, c: Character | None, rolled: str, level: str, cost: int) -> str:
        """One Судьба option, saying whether it still saves the character."""
        label = f"{cost} — до {words.wound(level, 'gen')}"
        if c is None:
            return label
        track = bridge.track_of(c)
        after, unreduced = track.take(level), track.take(rolled)
        if after.dead:
            return label + " (всё равно смерть)"
        if not after.can_act:
            return label + (" (спасает жизнь, но тяжело ранен)" if unreduced.dead else "")
        if not unreduced.can_act:
            return label + " (остаётся в строю)"
        return label

    def _final_lines(self, ex: dict[str, Any]) -> list[str]:
        lines = []
        for d in ex.get("damage", ()):
            c = self.characters.get(d.get("cid", ""))
            if c is None:
                continue
            note = ""
            if d.get("reduced"):
                note = f" (Судьба −{d['reduced']}: было «{words.wound(d['level'])}»)"
            state = words.wound_state(bridge.track_of(c))
            lines.append(
                f"[b]Итог:[/b] {plain(c.name)} получает {words.wound(d['final'], 'acc')}{note}. "
                f"Раны: {wounds_text(c.wounds)}" + (f" — [b]{state}[/b]" if state else "")
            )
        lines.append("[dim]Enter — следующая схватка.[/dim]")
        return lines

    def round_summary(self) -> list[str]:
        """«Раунд N разрешён»: who was hurt how, which exchanges were skipped."""
        hurt: dict[str, list[str]] = {}
        skipped = 0
        for outcome in self.encounter.outcomes:
            if outcome.get("skipped"):
                skipped += 1
            for cid, level in outcome.get("hurt", ()):
                hurt.setdefault(cid, []).append(level)
        lines = [f"[b]Раунд {self.encounter.round} разрешён.[/b]"]
        for cid, levels in hurt.items():
            c = self.characters.get(cid)
            name = plain(c.name) if c else "?"
            taken = ", ".join(words.wound(level).lower() for level in levels)
            state = words.wound_state(bridge.track_of(c)) if c else ""
            lines.append(f"{name}: {taken}" + (f" — [b]{state}[/b]" if state else ""))
        if not hurt:
            lines.append("Никто не ранен.")
        if skipped:
            lines.append(f"Пропущено схваток: {skipped}.")
        return lines

    def summary_text(self) -> str:
        """The round's summary as one plain line, for the Журнал."""
        return " / ".join(_plain(line) for line in self.round_summary())

    # -- writing ----------------------------------------------------------------------------------

    def _store_exchange(
        self,
        ex: dict[str, Any] | None,
        what: str,
        upsert: tuple[Character, ...] = (),
        then: Callable[[str], object] | None = None,
    ) -> bool:
        """Save the exchange in the app's writer; ``then(step)`` runs once it is saved (the
        pane then shows the stored exchange), never when the write fails."""
        enc = self.encounter.with_exchange(ex)
        return self._save(enc, f"{self.group()}: {what}", upsert, then=then)  # type: ignore[attr-defined]

    def _with_fight_id(self) -> None:
        """Give a fight saved by an older kubik (no id) one, so its rolls are named apart."""
        if not self.encounter.id:
            self.encounter = replace(self.encounter, id=new_id())

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
            text = " / ".join(_plain(line) for line in result_lines(result))
            again = " (те же кубики, что до отмены)" if earlier else ""
            self._log(  # type: ignore[attr-defined]
                plan.attacker.fighter.name,
                f"Схватка{again}: {text}",
                {"exchange": exchange_id, "dice": dice, **result.to_dict()},
                step=step,
            )

        self._store_exchange(stored, what, then=saved)

    # -- Судьба ---------------------------------------------------------------------------------

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
                text = " / ".join(_plain(line) for line in result_lines(shifted, names))
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

    # -- accepting ------------------------------------------------------------------------------

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


def drevo_tables_version() -> int:
    """A number that changes whenever the campaign's rules tables change."""
    return _TABLES[0]


_TABLES = [0]


def _tables_changed() -> None:
    _TABLES[0] += 1


def plan_lines_of(plan: drevo.ExchangePlan) -> list[str]:
    from tui.present.combat import plan_lines

    return plan_lines(plan)


def _plain(markup: str) -> str:
    """Strip Textual markup for the log's plain text."""
    from textual.markup import to_content

    return to_content(markup).plain


__all__ = ["ExchangeMixin", "damage_text"]

on_change(_tables_changed)
