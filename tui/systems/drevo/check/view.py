"""What the Древо builder shows, derived from the open check and the current sheets: the trait
the rules rank first for the action (with the reason), the wound and effect modifiers as the
sheet has them now, the odds, the rolled result, and what each point of Судьба would do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules import drevo
from rules.errors import RulesError
from rules.modifiers import Modifier, parse_modifiers
from tui.bridge.effects import odds_note, without
from tui.present.rolls import signed
from tui.sanitize import plain as escape
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.check import text as txt
from tui.systems.drevo.check.state import DrevoCheck, result_of
from tui.table.check.base import character_gone, no_odds
from tui.table.core import World

ROWS = ("character", "action", "trait", "difficulty")


@dataclass(frozen=True)
class Row:
    options: tuple[tuple[str, Any], ...]
    value: Any
    shown: bool = True


@dataclass(frozen=True)
class DrevoView:
    """The open check as the builder shows it (everything derived, nothing kept)."""

    state: DrevoCheck
    world: World
    character: Character | None
    rows: Mapping[str, Row]
    check: drevo.OneSidedCheck | None
    reason: str
    error: str
    result: drevo.OneSidedResult | None
    payer: Character | None
    changes: tuple[str, ...] = ()

    @property
    def phase(self) -> str:
        return self.state.phase

    def gone_words(self) -> str:
        """What the rolled check says once its character was removed (its payer is gone)."""
        rolled = self.state.rolled
        assert rolled is not None and self.result is not None
        return character_gone(self.world, rolled.character, self.result.check.side.name)

    def formula(self) -> str:
        check, c = self.check, self.character
        if check is None:
            return f"[$error]{escape(self.error)}[/]"
        can_act = c is None or bridge.track_of(c).can_act
        mods = self.world.modifiers(c.id) if c is not None else ()
        note = effects_note(mods, check)
        rolled = self.state.rolled is not None
        lines = txt.formula_lines(check, self.reason, can_act=can_act, note=note, rolled=rolled)
        return "\n".join(lines)

    def odds(self) -> Any:
        """The check's exact odds (None: the form gives no check — :meth:`odds_message`)."""
        return drevo.one_sided_odds(self.check) if self.check is not None else None

    def odds_message(self) -> str:
        """The sentence in place of the odds ("" when there are odds)."""
        return "" if self.check is not None else no_odds(self.state.inputs.mods)

    def fate_offers(self) -> list[tuple[int, str, bool]]:
        """What each point of Судьба after the roll would do: ``(points, outcome, changes)``,
        for +1 … +N and −1 … −N (N: the points the character has, at most 4)."""
        result, c = self.result, self.payer
        if result is None or c is None or not drevo.fate_rules().allows("shift"):
            return []
        if result.fate_auto:  # Судьба before the roll: no dice thrown, nothing to move
            return []
        found = []
        for points in [
            *range(1, min(c.drevo.fate, 4) + 1),
            *range(-1, -min(c.drevo.fate, 4) - 1, -1),
        ]:
            after = drevo.shift_one_sided(result, points)
            found.append((points, after.outcome, after.outcome != result.outcome))
        return found

    def fate_words(self) -> str:
        """«+/−: Судьба после броска — +1 → Успех (наверняка лучше); −1 — исход не изменится»."""
        if self.result is not None and self.result.fate_auto:
            return "Кубики не бросались: очки Судьбы после броска исход не сдвигают"
        offers = self.fate_offers()
        if not offers:
            return ""
        rank = {k: i for i, k in enumerate(reversed(drevo.OUTCOMES))}
        now = self.result.outcome if self.result is not None else ""
        parts, seen = [], set()
        for points, outcome, changes in offers:  # the fewest points that reach each outcome
            if not changes or (points > 0, outcome) in seen:
                continue
            seen.add((points > 0, outcome))
            better = rank.get(outcome, 0) > rank.get(now, 0)
            word = "наверняка лучше" if better else "наверняка хуже"
            parts.append(f"{signed(points)} → {drevo.OUTCOME_NAMES[outcome]} ({word})")
        if not parts:
            return "+/− очки Судьбы исход не изменят (крит решают кубики, другой исход далеко)"
        return "+/− очко Судьбы за ±1: " + "; ".join(parts)

    def result_lines(self) -> list[str]:
        if self.result is None:
            return [txt.IDLE]
        lines = txt.result_lines(self.result)
        if self.payer is None:  # its character removed in another window: a record now
            lines.append(f"[dim]{escape(self.gone_words())}[/]")
            return lines
        words = self.fate_words()
        if words:
            lines.append(f"[dim]{escape(words)}[/]")
        return lines


def view(state: DrevoCheck, world: World) -> DrevoView:
    """Derive everything the builder shows of ``state`` against the current sheets."""
    inputs = state.inputs
    c = world.characters.get(inputs.character) or next(iter(world.characters.values()), None)
    changes: list[str] = []
    rows: dict[str, Row] = {}
    party = tuple(
        (f"{x.name} ({'игрок' if x.kind == 'pc' else 'НИП'})", x.id)
        for x in world.characters.values()
    )
    rows["character"] = Row(party, c.id if c is not None else None)
    actions = tuple(txt.CHECK_ACTIONS)
    action = inputs.action if inputs.action in [v for _, v in actions] else "other"
    rows["action"] = Row(actions, action)
    reason = ""
    trait_options: tuple[tuple[str, Any], ...] = ()
    trait: str | None = None
    if c is not None:
        if action == "other":
            trait_options = tuple(txt.trait_options(c))
            values = [v for _, v in trait_options]
            trait = inputs.trait if inputs.trait in values else (values[0] if values else None)
        else:
            ranked = drevo.rank_traits(c, action, txt.weapon_for(c, action))
            trait_options = tuple((f"{t.name} {signed(t.value)}", t.name) for t in ranked)
            values = [t.name for t in ranked]
            trait = inputs.trait if inputs.trait in values else (values[0] if values else None)
            chosen = next((t for t in ranked if t.name == trait), None)
            reason = chosen.reason if chosen is not None else ""
        if inputs.trait and trait != inputs.trait and state.rolled is None:
            changes.append(f"Черты «{inputs.trait}» нет у {c.name} для этого действия.")
    rows["trait"] = Row(trait_options, trait)
    ladder = tuple((f"{signed(r.value)} {r.name}", r.value) for r in drevo.ladder())
    difficulty = inputs.difficulty if inputs.difficulty in [v for _, v in ladder] else 0
    rows["difficulty"] = Row(ladder, difficulty)
    check, error = None, ""
    if c is None:
        error = "Выберите персонажа: в партии пока никого нет."
    else:
        try:
            value = c.trait(trait) if trait else None
            if value is None:
                value = drevo.settings().absent_skill
            track = bridge.track_of(c)
            automatic = []
            if track.penalty:
                automatic.append(drevo.Modifier(track.penalty, txt.WOUND_REASON[track.penalty]))
            automatic += [drevo.Modifier(m.value, m.reason) for m in world.modifiers(c.id)]
            typed = parse_modifiers(inputs.mods)
            side = drevo.Side(
                trait=value,
                modifiers=(*automatic, *(drevo.Modifier(m.value, m.reason) for m in typed)),
                name=c.name,
                trait_name=trait or "без черты",
            )
            # rolled with Судьба declared: the form's is cleared, the check's odds stay its own
            fate_auto = inputs.fate_auto or (state.rolled is not None and state.rolled.fate_auto)
            check = drevo.OneSidedCheck(side, difficulty, fate_auto=fate_auto)
        except RulesError as err:
            error = str(err)
    result = payer = None
    if state.rolled is not None:
        result = result_of(state.rolled)
        payer = world.characters.get(state.rolled.character)
        if payer is None:
            changes.append(character_gone(world, state.rolled.character, state.rolled.side.name))
    return DrevoView(state, world, c, rows, check, reason, error, result, payer, tuple(changes))


def effects_note(mods: Sequence[Modifier], check: Any) -> str:
    """«с эффектом …: P(успех) без → с» for a Древо check and its roller's active modifiers
    ``mods`` (the table engine's: it reads them from its world)."""
    if not mods:
        return ""

    def success(c: Any) -> Fraction:
        odds = drevo.one_sided_odds(c)
        return odds["crit_success"] + odds["success"]

    side = replace(check.side, modifiers=without(check.side.modifiers, mods))
    return odds_note(mods, success(replace(check, side=side)), success(check))
