"""What the round tracker's Бой tab shows, derived from the tracker, the effects and the
party as they are now (never copied): the status, one row per character, the effects, the
actor's opponents, and which steps apply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import rounds
from rules.effects import EffectSet
from rules.errors import RulesError
from rules.rounds import Tracker
from tui import registry
from tui.store import Character
from tui.table.effects.time import FightTime, of_tracker
from tui.table.effects.view import EffectLine, effect_lines
from tui.table.rounds.steps import OUT, hook

TIE_NAMES = {
    "reroll": "ничья — переброс между равными",
    "pc_first": "ничья — игроки раньше, затем переброс",
    "bonus": "ничья — выше постоянная часть, затем переброс",
}


@dataclass(frozen=True)
class Rule:
    """The line that names the system's initiative and tie rule; ``refused``: the campaign's
    table cannot be used (``text`` says why)."""

    text: str
    refused: bool = False


def initiative_rule(system: str) -> Rule:
    """The system's initiative rule and tie rule, from the campaign's tables."""
    try:
        tie = TIE_NAMES.get(rounds.tie_rule(system), "")
        per = "по сторонам" if rounds.per_side() else "у каждого"
        how = registry.get(system).initiative_text()
    except RulesError as err:
        return Rule(str(err), refused=True)
    return Rule(f"Инициатива {per}: {how}; {tie}.")


def harm_text(system: str, c: Character) -> str:
    """A character's harm as the system has it (its hook): the note (IDE4, Старатели), or the
    health track in a word with its penalty («XXXXX·· −1», Мир Тьмы)."""
    return hook(system).text(c)


@dataclass(frozen=True)
class Row:
    """One character's row: its place in the order («▶ 2» on its turn), its side, name,
    initiative (with the rolls that broke a tie), harm, and the labels of its effects."""

    id: str
    number: str
    side: str
    name: str
    initiative: str
    harm: str
    effects: str


def row_ids(t: Tracker, characters: Mapping[str, Character]) -> list[str]:
    """The rows' order: the turn order once it runs (else the roster), then the others."""
    ids = [i for i in (t.order if t.started else [e.id for e in t.entrants]) if i in characters]
    return ids + [i for i in characters if i not in ids]


def row(t: Tracker, effects: EffectSet, c: Character, n: int, system: str) -> Row:
    """Derive the row of character ``c``, ``n``-th on the screen."""
    entrant = t.entrant(c.id)
    side = entrant.side if entrant else OUT
    roll = t.rolls.get(c.id) or (t.rolls.get(side) if entrant else None)
    number = ("▶ " if c.id == t.actor else "") + (str(n) if c.id in t.order else "")
    shown = roll.text if roll else ""
    if roll and roll.rerolls:  # a tie broken by rolling again: the roll that ordered them
        shown += f" (ничья: {', '.join(str(r) for r in roll.rerolls)})"
    labels = ", ".join(e.label for e in effects.on(c.id))
    return Row(c.id, number, side, c.name, shown, harm_text(system, c), labels)


def opponents(t: Tracker, characters: Mapping[str, Character]) -> tuple[str, ...]:
    """The actor's opponents in the order: the other sides' fighters first, then its own."""
    me = t.entrant(t.actor) if t.started else None
    if me is None:
        return ()
    ids = [i for i in t.order if i != t.actor and i in characters and t.entrant(i)]
    return tuple(sorted(ids, key=lambda i: getattr(t.entrant(i), "side", "") == me.side))


@dataclass(frozen=True)
class RoundsView:
    """The round tracker as the Бой tab shows it now."""

    system: str
    tracker: Tracker
    effects: EffectSet
    rows: tuple[Row, ...]
    effect_lines: tuple[EffectLine, ...]
    opponents: tuple[str, ...]
    rule: Rule
    actor_name: str

    @property
    def system_name(self) -> str:
        return registry.title(self.system)

    @property
    def started(self) -> bool:
        return self.tracker.started

    @property
    def time(self) -> FightTime:
        """Where the fight stands for an effect added now."""
        return of_tracker(self.tracker)

    def row(self, character_id: str) -> Row | None:
        return next((r for r in self.rows if r.id == character_id), None)

    # -- which steps apply now (the keys the footer shows) --------------------------------------

    @property
    def sides_open(self) -> bool:
        """Sides may change (before initiative, with someone to put on one)."""
        return not self.started and bool(self.rows)

    @property
    def can_roll(self) -> bool:
        """Initiative may be rolled (before it, with someone in the fight)."""
        return not self.started and bool(self.tracker.entrants)

    @property
    def heals(self) -> bool:
        """Harm's boxes can be healed (the system marks harm in boxes: Мир Тьмы's health)."""
        return hook(self.system).marked and bool(self.rows)


def rounds_view(
    t: Tracker, effects: EffectSet, characters: Mapping[str, Character], system: str
) -> RoundsView:
    """Derive everything the round tracker shows from the tracker, the effects and the party."""
    names = {cid: c.name for cid, c in characters.items()}
    ids = row_ids(t, characters)
    rows = tuple(row(t, effects, characters[cid], n, system) for n, cid in enumerate(ids, 1))
    actor = characters.get(t.actor)
    return RoundsView(
        system=system,
        tracker=t,
        effects=effects,
        rows=rows,
        effect_lines=effect_lines(effects, t.round, names),
        opponents=opponents(t, characters),
        rule=initiative_rule(system),
        actor_name=actor.name if actor else "?",
    )
