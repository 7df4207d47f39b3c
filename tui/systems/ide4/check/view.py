"""What the IDE4™ builder shows, derived from the open check and the current sheets.

Every row's options and value, the check's inputs, the difficulty, the status lines, the live
odds, the rolled check with every step, the moves still allowed with what each is worth: all
computed here from (state, world), so a changed sheet, an undo or another window can never
leave a value on screen that the inputs no longer give. A stored choice the sheet no longer
offers (a skill deleted, an energy count the pool cannot pay) is shown as the value it falls
back to, and :attr:`Ide4View.changes` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from rules import ide4
from rules.errors import RulesError
from rules.modifiers import Modifier, parse_modifiers
from tui.bridge.effects import compared_note, without
from tui.sanitize import plain as escape
from tui.store import Character
from tui.store.history import removed_words
from tui.systems.ide4.check import text as txt
from tui.systems.ide4.check.state import Ide4Check, Inputs, Rolled, replay
from tui.systems.ide4.check.text import chance
from tui.table.check.base import character_gone, no_odds
from tui.table.core import World

#: Rows each level shows; the expanded level shows all of them.
LEVEL_ROWS = {
    "quick": {"character", "level", "attribute", "base", "mods"},
    "standard": {"character", "level", "action", "attribute", "skill", "distance", "base", "mods"},
}
EXPANDED_ONLY = ("intent", "energy", "die", "help", "technique", "circumstances", "risk")
IMPOSSIBLE = 8
#: The steppers of the form, top to bottom (text rows between them: ``ide4.TEXTS``).
STEPPERS = (
    "character",
    "level",
    "action",
    "attribute",
    "skill",
    "distance",
    "base",
    "hidden",
    "open",
    "die",
    "energy",
    "help",
)
KIND = {"pc": "игрок", "npc": "НИП"}
ENTER_TEXT = {"auto": "Записать успех [0]", "impossible": "Записать «невозможно»"}
#: The undo list's names of the steps after the roll.
STEP_NAMES = {
    "roll": "бросок d100",
    "reroll": "переброс d100",
    "energy_after": "энергия после броска",
    "bonus": "бонус мастерства",
    "subroll": "подбросок d6",
    "level": "уровень проверки",
    "demand_expanded": "игрок требует развёрнутую проверку",
    "energy_before": "энергия до броска",
    "conclude": "итог",
}


@dataclass(frozen=True)
class Row:
    """One stepper: its options (label, value), the value shown, whether the level shows it."""

    options: tuple[tuple[str, Any], ...]
    value: Any
    shown: bool = True

    @property
    def label(self) -> str:
        """The option shown."""
        return next((lab for lab, v in self.options if v == self.value), "—")


@dataclass(frozen=True)
class Offer:
    """A move after the roll as the builder offers it: allowed or why not, and its odds."""

    kind: str
    source: str
    name: str
    allowed: bool
    reason: str
    odds: ide4.MoveOdds | None = None

    @property
    def odds_text(self) -> str:
        """«лучше 41 %, хуже 23 %» ("" when the move is refused)."""
        return odds_words(self.odds) if self.odds is not None else ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "source": self.source,
            "name": self.name,
            "allowed": self.allowed,
            "reason": self.reason,
        }
        if self.odds is not None:
            data["odds"] = self.odds.to_dict()
        return data


def odds_words(odds: ide4.MoveOdds) -> str:
    """«лучше 41 %, хуже 23 %» — or «исход не изменится» / «наверняка лучше»."""
    if odds.better == 0 and odds.worse == 0:
        return "исход не изменится"
    if odds.better == 1:
        return "исход наверняка лучше"
    return f"лучше {chance(odds.better)}, хуже {chance(odds.worse)}"


def first_character(world: World) -> Character | None:
    return next(iter(world.characters.values()), None)


def effect_steps(world: World, c: Character) -> tuple[Modifier, ...]:
    """The character's active effects as steps of difficulty (an effect's −1: +1)."""
    return tuple(Modifier(-m.value, m.reason) for m in world.modifiers(c.id))


@dataclass(frozen=True)
class Ide4View:
    """The open check as the builder shows it (everything derived, nothing kept)."""

    state: Ide4Check
    world: World
    character: Character | None
    rows: Mapping[str, Row]
    #: The text rows: name → whether the level shows it (their text is the state's).
    texts: Mapping[str, bool]
    input: ide4.CheckInput | None
    error: str  # why there is no input (no character, a modifier that does not parse)
    difficulty: ide4.Difficulty | None
    changes: tuple[str, ...] = ()
    check: ide4.Check | None = None
    #: The character the rolled check pays from (None: removed in another window).
    payer: Character | None = None
    extras: Mapping[str, Any] = field(default_factory=dict)

    # -- before the roll ----------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def level(self) -> str:
        """The level of the open check, else the form's."""
        return self.check.level if self.check is not None else self.state.inputs.level

    def text(self, name: str) -> str:
        """A text row's text as typed."""
        return str(getattr(self.state.inputs, name))

    @property
    def problem(self) -> str:
        """Why the rules refuse the inputs as they are ("" when they may be rolled)."""
        if self.input is None:
            return self.error
        try:
            ide4.validate(self.input)
        except RulesError as err:
            return str(err)
        return ""

    @property
    def enter_text(self) -> str:
        """What Enter does in the form: at [0] and [00] no d100 is rolled."""
        kind = self.difficulty.kind if self.difficulty is not None else ""
        return ENTER_TEXT.get(kind, "Бросить d100")

    def status_lines(self) -> list[str]:
        """The status under the form: difficulty, effects, the player's right, [7], the
        level of detail, what Enter does (markup)."""
        d, inp = self.difficulty, self.input
        if d is None or inp is None:
            return [f"[$error]{escape(self.error)}[/]"]
        lines = [txt.difficulty_line(d)]
        c = self.character
        note = effects_note(self.world.modifiers(c.id), inp) if c is not None else ""
        lines += [note] if note else []
        level = ide4.LEVEL_NAMES[inp.level]
        if inp.always_expanded and inp.level != "expanded":
            lines.append(f"[$warning]{level} проверка, а игрок всегда требует развёрнутую (p).[/]")
        elif inp.level != "expanded":  # the level of detail the roll goes ahead at, said
            lines.append(
                f"[$text-muted]{level} проверка; право игрока: [b]p[/b] — развёрнутая "
                "по требованию.[/]"
            )
        seven = txt.seven_line(d)
        if seven:
            lines.append(seven)
        inputs = self.state.inputs
        need = ide4.roll_need(inputs.reasons, inputs.player_demand)
        verdict = txt.need_line(need, inputs.checklist_seen)
        problem = self.problem
        if problem:
            lines.append(f"[$error]{escape(problem)}[/]")
        elif d.kind == "auto":
            lines.append(f"{verdict} · [b]Enter[/b] — записать автоматический успех")
        elif d.kind == "impossible":
            lines.append(f"{verdict} · [b]Enter[/b] — записать «невозможно»")
        else:
            lines.append(f"{verdict} · [b]Enter[/b] — бросить d100")
        return lines

    @cached_property
    def odds(self) -> dict[str, Fraction] | None:
        """The exact odds of the five outcomes (None: no roll, or the rules refuse)."""
        d, inp = self.difficulty, self.input
        if d is None or inp is None or d.kind != "roll":
            return None
        try:
            return ide4.check_odds(inp)
        except RulesError:
            return None

    def odds_message(self) -> str:
        """The sentence in place of the odds bars ("" when there are bars)."""
        d, inp = self.difficulty, self.input
        if d is None or inp is None:
            return no_odds(self.state.inputs.mods)
        if d.kind == "auto":
            return (
                "\\[0] — автоматический успех: кубик не бросается. "
                "Скрытый риск (ловушка, засада, яд, давление) оставит \\[1]."
            )
        if d.kind == "impossible":
            return (
                "\\[00] — «этим способом это сейчас невозможно»: броска нет. Открывает его "
                "только исключение: помощь «сделать действие возможным» (развёрнутая "
                "проверка) или особое правило."
            )
        try:
            ide4.check_odds(inp)
        except RulesError as err:
            return f"[$error]{escape(str(err))}[/]"
        return ""

    # -- after the roll -----------------------------------------------------------------------

    def result_lines(self) -> list[str]:
        """The rolled check: every step, then the outcome and the energy left (markup)."""
        return txt.result_lines(self.check) if self.check is not None else []

    def offers(self) -> list[Offer]:
        """Every move after the roll, allowed or with its rule, and what each is worth."""
        return offers_of(self.check, self.gone()) if self.check is not None else []

    def energy_offers(self) -> list[Offer]:
        """Energy after the roll: one choice per count and size, each with its odds."""
        return [o for o in self.offers() if o.kind == "energy_after"]

    def gone(self) -> str:
        """Why the rolled check can no longer pay from its sheet ("" when it can)."""
        if self.check is None or self.payer is not None:
            return ""
        rolled = self.state.rolled
        return no_energy(self.world, rolled.character if rolled else "", self.check.input.actor)

    def move_lines(self) -> list[tuple[int, str]]:
        """The moves per key as ``(indent, markup)``, each allowed one with its odds."""
        check = self.check
        if check is None:
            return []
        return txt.move_lines(check, self.offers())

    def template(self, which: str) -> str:
        """The seed's quick or full template, filled so far."""
        assert self.check is not None
        return (ide4.quick_template if which == "quick" else ide4.full_template)(self.check)


# -- deriving ------------------------------------------------------------------------------------


def offers_of(check: ide4.Check, gone: str = "") -> list[Offer]:
    """Every move after the d100 of ``check`` — each reroll source, energy after for each
    count and size (the nominal and smaller, the largest first), each mastery bonus, the
    sub-roll — allowed with its exact odds and what it costs, or with the rule against it.
    ``gone``: why the check cannot pay energy (its character removed)."""
    if check.status != "rolled":
        return []
    moves = ide4.allowed_moves(check)
    found = []
    for m in moves:
        if m.kind == "reroll":
            odds = ide4.reroll_odds(check) if m.allowed else None
            name = ide4.REROLL_SOURCES[m.source]
            found.append(Offer("reroll", m.source, name, m.allowed, m.reason, odds))
    rules, nominal, pool = ide4.energy_rules(), check.input.nominal, check.pool_after
    for size in sorted((s for s in rules.sizes if s <= nominal), reverse=True):
        for k in range(1, rules.after_max_dice + 1):
            why = gone or ide4.energy_after_refusal(check, k, size)
            does = f"стоит {k * size}, останется {pool - k * size}"
            futile = ide4.energy_after_futile(check, k, size) if why is None else None
            if futile:
                does += f"; ⚠ {futile}"
            odds = ide4.energy_after_odds(check, k, size) if why is None else None
            name = f"{k}×d{size}"
            found.append(Offer("energy_after", f"{k}x{size}", name, why is None, why or does, odds))
    for m in moves:
        if m.kind == "bonus":
            odds = ide4.bonus_odds(check, m.source) if m.allowed else None
            name = ide4.AFTER_BONUSES[m.source]
            found.append(Offer("bonus", m.source, name, m.allowed, m.reason, odds))
    sub = moves[-1]
    same = ide4.MoveOdds({check.outcome or "": Fraction(1)}, Fraction(0), Fraction(0))
    found.append(
        Offer("subroll", "", "подбросок d6", sub.allowed, sub.reason, same if sub.allowed else None)
    )
    return found


def character_of(inputs: Inputs, world: World) -> Character | None:
    """The chosen character, else the party's first (None: nobody in the party)."""
    return world.characters.get(inputs.character) or first_character(world)


def shown(level: str, row: str) -> bool:
    """Whether ``level`` walks the step of ``row``."""
    return row in LEVEL_ROWS.get(level, {row})


def attribute_default(c: Character, allowed: tuple[str, ...], skill: str) -> str:
    """The attribute a check takes when the GM chose none: the skill's own, else the first
    the action allows, else the sheet's first."""
    s = c.skill(skill) if skill else None
    names = [n for n in c.qualities if not allowed or n in allowed]
    if s is not None and s.parent in names:
        return s.parent
    return names[0] if names else ""


def common_distance(c: Character, skill: str, action: str) -> str:
    """The first distance the skill and the action share ("" when neither lists any)."""
    s = c.skill(skill) if skill else None
    lists = [tuple(s.distances)] if s is not None and s.distances else []
    if action and ide4.action(action).distances:
        lists.append(ide4.action(action).distances)
    if not lists:
        return ""
    common = [d for d in lists[0] if all(d in other for other in lists)] or [lists[0][0]]
    return common[0]


def _action(name: str) -> ide4.Action | None:
    try:
        return ide4.action(name) if name else None
    except RulesError:
        return None


def no_energy(world: World, character_id: str, name: str) -> str:
    """Why a rolled check whose character was removed spends no energy."""
    return f"{world.removed(character_id, name)} — энергию тратить не из чего."


def view(state: Ide4Check, world: World) -> Ide4View:
    """Derive everything the builder shows of ``state`` against the current sheets."""
    inputs = state.inputs
    c = character_of(inputs, world)
    changes: list[str] = []
    if inputs.character and inputs.character not in world.characters and state.rolled is None:
        gone = removed_words("проверки", world.removed_where(inputs.character))
        changes.append(gone + (f" — проверка для {c.name}." if c is not None else "."))
    level = inputs.level if inputs.level in ide4.LEVELS else "standard"
    expanded = level == "expanded"
    rows: dict[str, Row] = {}
    options = tuple(
        (f"{x.name} ({KIND.get(x.kind, x.kind)})", x.id) for x in world.characters.values()
    )
    rows["character"] = Row(options, c.id if c is not None else None)
    rows["level"] = Row(tuple(txt.level_options()), level)
    act_shown = shown(level, "action")
    act = _action(inputs.action) if act_shown else None
    rows["action"] = Row(tuple(txt.action_options()), act.name if act else "", act_shown)
    allowed = act.attributes if act else ()
    skill_name = ""
    if c is not None and shown(level, "skill") and inputs.skill:
        if c.skill(inputs.skill) is not None:
            skill_name = inputs.skill
        else:
            changes.append(f"Навыка «{inputs.skill}» больше нет у {c.name} — без навыка.")
    attr_options = tuple(txt.attribute_options(c, allowed)) if c is not None else ()
    attr_values = [v for _, v in attr_options]
    attribute = inputs.attribute if inputs.attribute in attr_values else ""
    if not attribute and c is not None:
        attribute = attribute_default(c, allowed, skill_name)
    rows["attribute"] = Row(attr_options, attribute or None)
    rows["skill"] = Row(
        tuple(txt.skill_options(c)) if c is not None else (), skill_name, shown(level, "skill")
    )
    s = c.skill(skill_name) if c is not None and skill_name else None
    wants_distance = shown(level, "distance") and bool(
        (s and s.distances) or (act and act.distances)
    )
    distance = inputs.distance if wants_distance else ""
    rows["distance"] = Row(tuple(txt.distance_options()), distance, wants_distance)
    rows["base"] = Row(
        tuple(txt.BASE_OPTIONS), inputs.base if 0 <= inputs.base <= IMPOSSIBLE else 3
    )
    level_of = c.qualities.get(attribute, 3) if c is not None else 3
    try:
        nominal = ide4.energy_rules().nominal(level_of)
    except RulesError:
        nominal = 0
    if c is None:
        die_options: tuple[tuple[str, Any], ...] = ()
        energy_options: tuple[tuple[str, Any], ...] = ()
        die = energy = 0
    elif not nominal:
        die_options = ()
        energy_options = (("нет: уровень атрибута вне таблицы номиналов", 0),)
        die = energy = 0
    else:
        die_options = tuple(txt.die_options(nominal))
        die = inputs.die if inputs.die and inputs.die in [v for _, v in die_options] else nominal
        pool = c.ide4.energy
        energy_options = tuple(txt.energy_options(pool, die))
        counts = [v for _, v in energy_options]
        energy = inputs.energy if inputs.energy in counts else 0
        if inputs.energy and energy != inputs.energy and expanded:
            changes.append(
                f"Энергия до броска: {inputs.energy}×d{die} стоят {inputs.energy * die}, "
                f"в запасе {pool} ({c.name}) — проверка пойдёт без неё; выберите в строке "
                "«Энергия до» меньше кубов."
            )
    rows["die"] = Row(die_options, die or None, expanded)
    rows["energy"] = Row(energy_options, energy, expanded)
    help_kind = inputs.help if expanded and inputs.help in ide4.HELP_KINDS else ""
    rows["help"] = Row(tuple(txt.HELP_OPTIONS), help_kind, expanded)
    rows["hidden"] = Row(tuple(txt.HIDDEN_OPTIONS), inputs.hidden, False)
    rows["open"] = Row(tuple(txt.OPEN_OPTIONS), inputs.open if 1 <= inputs.open <= 7 else 5, False)

    inp: ide4.CheckInput | None = None
    error = ""
    difficulty: ide4.Difficulty | None = None
    if c is None:
        error = "Выберите персонажа: в партии пока никого нет."
    else:
        try:
            mods = parse_modifiers(inputs.mods)
            opening = help_kind == "possible" or bool(inputs.special.strip())
            inp = ide4.CheckInput(
                intent=inputs.intent.strip(),  # every level starts with the intent
                actor=c.name,
                action=act.name if act else "",
                attribute=attribute,
                attribute_level=c.qualities.get(attribute, 3),
                skill=s.name if s else "",
                mastery=s.value if s else 0,
                skill_distances=tuple(s.distances) if s else (),
                distance=distance,
                base=rows["base"].value,
                modifiers=tuple(ide4.Modifier(m.value, m.reason) for m in mods)
                + effect_steps(world, c),
                pinned_seven=rows["base"].value == 7,
                hidden_risk=bool(inputs.hidden),
                impossible_reason=inputs.reason.strip(),
                alternative=inputs.alternative.strip(),
                energy_pool=c.ide4.energy,
                energy_dice=energy if expanded else 0,
                energy_die=die if expanded and die != nominal else 0,
                technique=inputs.technique.strip() if expanded else "",
                help=help_kind,
                help_difficulty=rows["open"].value if opening else None,
                help_note=inputs.helpnote.strip() if help_kind == "risk" else "",
                special_rule=inputs.special.strip(),
                level=level,
                always_expanded=c.ide4.always_expanded,
                daily_triumph_used=c.ide4.daily_triumph_used,
                roll_reasons=inputs.reasons,
                player_demand=inputs.player_demand,
                circumstances=inputs.circumstances.strip() if expanded else "",
                risk=inputs.risk.strip() if expanded else "",
            )
            difficulty = ide4.resolve_difficulty(inp)
        except RulesError as err:
            error, inp = str(err), None
    raw = difficulty.raw if difficulty else 3
    impossible = difficulty is not None and difficulty.final >= IMPOSSIBLE
    opened = difficulty is not None and difficulty.made_possible
    exception = help_kind == "possible" or bool(inputs.special.strip())
    rows["hidden"] = replace(
        rows["hidden"], shown=raw <= 0 and not (difficulty and difficulty.pinned)
    )
    rows["open"] = replace(rows["open"], shown=opened or (impossible and exception))
    texts = {name: shown(level, name) for name in ("intent", "technique", "circumstances", "risk")}
    texts["mods"] = True
    texts["reason"] = texts["alternative"] = impossible
    texts["special"] = impossible or opened or bool(inputs.special.strip())
    texts["helpnote"] = expanded and help_kind == "risk"

    check = payer = None
    if state.rolled is not None:
        check, payer, more = rolled_check(state, world)
        changes += more
    return Ide4View(
        state, world, c, rows, texts, inp, error, difficulty, tuple(changes), check, payer
    )


def rolled_check(state: Ide4Check, world: World) -> tuple[ide4.Check, Character | None, list[str]]:
    """The rolled check as its record gives it, the sheet it pays from, and what changed.

    The sheet's energy and the day's Успех → Триумф are read now: energy changed outside the
    check (Ctrl+Z, another window) re-bases the check on the stored energy, what the check
    spent itself staying spent; a new game day gives the day's Триумф back.
    """
    assert state.rolled is not None
    return record_check(state.rolled, world)


def record_check(rolled: Rolled, world: World) -> tuple[ide4.Check, Character | None, list[str]]:
    """A record's check against the current sheets (:func:`rolled_check`): an opposed
    check's sides are read the same way."""
    base = replay(rolled)
    c = world.characters.get(rolled.character)
    if c is None:
        return (
            base,
            None,
            [character_gone(world, rolled.character, rolled.input.actor)],
        )
    sheet = c.ide4
    pool = sheet.energy + base.energy_spent
    daily = sheet.daily_triumph_used and not base.daily_triumph_spent
    if pool == rolled.input.energy_pool and daily == rolled.input.daily_triumph_used:
        return base, c, []
    inp = replace(rolled.input, energy_pool=pool, daily_triumph_used=daily)
    try:
        check = replay(rolled, inp)
    except RulesError:
        past = _rebased_past_the_maximum(rolled, inp)
        if past is None:
            return base, c, []
        check = past
    said = []
    if pool != rolled.input.energy_pool:
        said.append(
            f"Энергия: {c.name} — теперь {sheet.energy} (изменена вне проверки). "
            "Проверка пересчитана от неё."
        )
    return check, c, said


def _rebased_past_the_maximum(rolled: Rolled, inp: Any) -> ide4.Check | None:
    """The check re-based on a pool past the maximum, else None (it does not replay).

    Energy given back outside the check after it paid (the sheet at 95 after a check that
    spent 6) makes its pool before 101: no pool a check may start from, but the sheet is the
    truth. The check is made again from the maximum and then given that pool, so what it
    says is left is what the sheet has (it showed 94, the sheet 95)."""
    pool_max = ide4.energy_rules().pool_max
    if inp.energy_pool <= pool_max:
        return None
    try:
        check = replay(rolled, replace(inp, energy_pool=pool_max))
    except RulesError:
        return None
    return replace(check, input=replace(check.input, energy_pool=inp.energy_pool))


def effects_note(mods: Sequence[Modifier], inp: Any) -> str:
    """«с эффектом …: P(Успех или Триумф) без → с» for an IDE4 input and its character's
    active modifiers ``mods`` (the table engine's: it reads them from its world)."""

    def success(i: Any) -> Fraction:
        odds = ide4.check_odds(i)
        return odds["triumph"] + odds["success"]

    return compared_note(
        mods, inp, lambda i: replace(i, modifiers=without(i.modifiers, mods)), success
    )
