"""An IDE4™ opposed check on the table engine: the second side, the roll of both, each side's
moves, the GM's choice on a full tie — steps on the open check's :class:`~.ide4.Opposed`.

The first side is the form (the open check's inputs); the second side's choices are derived as
a check of their own against the second character's sheet (another opponent: his own nominal
and energy die; a skill: its attribute), and nobody opposes himself. A choice changes the check
in memory; the roll of both sides, each move and the outcome are written with the check as one
undo step each, so a restart, a crash or Ctrl+Q gives the same two checks with the same dice
back and never rolls them again. A roll or a move made again after an undo takes its dice from
the Журнал (its lines are named by the opposed check's own id).

[seed] «Сравнение: 1. более высокий исход побеждает; 2. при одинаковом исходе побеждает тот,
у кого ниже итоговая сложность; 3. если равенство сохраняется, мастер оставляет положение без
изменения либо назначает цену обеим сторонам.»
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from rules import ide4
from rules.errors import RulesError
from tui.sanitize import plain
from tui.store import Character
from tui.systems.ide4.check import steps
from tui.systems.ide4.check import text as txt
from tui.systems.ide4.check.state import Ide4Check, Inputs, Move, Opposed, Rolled, with_move
from tui.systems.ide4.check.view import (
    Ide4View,
    Offer,
    no_energy,
    offers_of,
    record_check,
    view,
)
from tui.table.check.base import DOC, character_gone, earlier_dice, stamped, swapped_side
from tui.table.core import Line, Outcome, World, refuse

DECIDED = {"outcome": "выше исход", "difficulty": "ниже итоговая сложность"}
#: The second side's rows (the dialog's ``#opp-<name>``).
ROWS = ("character", "attribute", "skill", "base", "die", "energy", "help")
SIDE_HELP = (("нет", ""), ("снизить сложность на 1", "difficulty"), ("+1 переброс", "reroll"))
HIMSELF = "Противоборство — с другим персонажем: сам с собой никто не противоборствует."
ALONE = "Противоборствовать не с кем: в партии один персонаж."
NONE_OPEN = "Противоборства нет: «o» в форме — начать."
ROLLED = "Противоборство уже брошено: бросок не повторяют — только ходы сторон и итог."
OVER = "Противоборство уже завершено: менять его поздно."
MOVES = ("reroll", "energy_after", "bonus")
TIE_UNCHOSEN = (
    "Полное равенство — решает мастер: в строке «При равенстве» ←/→ — положение без "
    "изменений или цена обеим сторонам, затем Enter."
)


# -- words ---------------------------------------------------------------------------------------


def verdict(result: ide4.OpposedResult) -> str:
    """The comparison in words (plain text)."""
    if result.winner is None:
        choice = ide4.TIE_RESOLUTIONS.get(result.resolution)
        if not choice:
            return "равенство — мастер выбирает: без изменений или цена обеим сторонам"
        return f"равенство — {choice}" + (f": {result.price}" if result.price else "")
    side = result.a if result.winner == "a" else result.b
    return f"побеждает {side.input.actor or 'сторона'} ({DECIDED[result.decided_by]})"


def opposed_text(result: ide4.OpposedResult) -> str:
    """The Журнал line: both checks' summaries and the comparison."""
    return f"Противоборство: {ide4.summary(result.a)}; {ide4.summary(result.b)} — {verdict(result)}"


# -- the view ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpposedView:
    """Everything the opposed dialogs show, derived from the open check and the sheets."""

    state: Ide4Check
    world: World
    first: ide4.CheckInput | None
    side: Ide4View  # the second side's form, derived against its own sheet
    error: str
    #: Once rolled: each side's check as its record gives it against the sheet now.
    checks: dict[str, ide4.Check]
    payers: dict[str, Character | None]
    changes: tuple[str, ...] = ()
    #: The second side chosen was removed in another window: whom the dialog shows instead,
    #: and that the roll waits for the GM to confirm him ("" otherwise; also :attr:`error`).
    swapped: str = ""

    @property
    def opposed(self) -> Opposed:
        assert self.state.opposed is not None
        return self.state.opposed

    @property
    def stage(self) -> str:
        """``setup`` (the second side), ``result`` (rolled, moves open), ``done``."""
        opp = self.opposed
        if not opp.rolled:
            return "setup"
        return "done" if opp.concluded else "result"

    def rows(self) -> dict[str, tuple[tuple[tuple[str, Any], ...], Any]]:
        """Each of the second side's rows: its options and its value."""
        found = {}
        for name in ROWS:
            row = self.side.rows[name]
            options = row.options
            if name == "base":
                options = tuple(txt.BASE_OPTIONS[:-1])
            elif name == "help":
                options = SIDE_HELP
            found[name] = (options, row.value)
        return found

    @cached_property
    def second(self) -> ide4.CheckInput | None:
        """The second side's inputs, at the first side's level (None: :attr:`error`)."""
        inp, first = self.side.input, self.first
        if inp is None or first is None:
            return None
        return replace(inp, level=first.level, intent="", impossible_reason="")

    @cached_property
    def refusal(self) -> str:
        """Why the two sides cannot be rolled now ("" when they can)."""
        if self.error:
            return self.error
        assert self.first is not None and self.second is not None
        try:
            ide4.validate(self.first)
            ide4.validate(self.second)
            ide4.opposed_odds(self.first, self.second)  # refuses [00]
        except RulesError as err:
            return str(err)
        return ""

    def odds(self) -> dict[str, Fraction] | None:
        """The exact chances of win / tie / lose from the first side's view."""
        if self.refusal:
            return None
        assert self.first is not None and self.second is not None
        return ide4.opposed_odds(self.first, self.second)

    def formula(self) -> str:
        """The second side's difficulty and who a same outcome favours (markup)."""
        if self.refusal:
            return f"[$error]{txt.escape(self.refusal)}[/]"
        assert self.first is not None and self.second is not None
        da, db = ide4.resolve_difficulty(self.first), ide4.resolve_difficulty(self.second)
        if da.final == db.final:
            same = "одинаковый исход при равной сложности — равенство, решает мастер"
        else:
            lower = self.first.actor if da.final < db.final else self.second.actor
            same = f"одинаковый исход — побеждает {lower}: ниже итоговая сложность"
        return f"{txt.difficulty_line(db)}\n[dim]{txt.escape(same)}[/]"

    @property
    def result(self) -> ide4.OpposedResult:
        """The comparison of the two checks now (with the GM's tie choice once concluded)."""
        found = ide4.opposed(self.checks["a"], self.checks["b"])
        opp = self.opposed
        if opp.concluded and found.winner is None and opp.resolution:
            found = found.resolve_tie(opp.resolution, opp.price)
        return found

    def result_lines(self) -> list[str]:
        """Both checks, every step (markup); and, for a side whose character was removed
        since, that its check no longer changes a sheet (the dialog said nothing of it)."""
        lines = [line for key in "ab" for line in txt.result_lines(self.checks[key])]
        opp = self.state.opposed
        for key in "ab":
            record = getattr(opp, key, None) if opp is not None else None
            if record is not None and key in self.checks and self.payers.get(key) is None:
                gone = character_gone(self.world, record.character, record.input.actor)
                lines.append(f"[dim]{plain(gone)}[/]")
        return lines

    def gone(self, key: str) -> str:
        """Why side ``key`` cannot spend energy: its character was removed ("" if not)."""
        if self.payers.get(key) is not None:
            return ""
        opp = self.state.opposed
        record = getattr(opp, key, None) if opp is not None else None
        who = self.checks[key].input.actor or key
        return no_energy(self.world, record.character if record is not None else "", who)

    def offers(self, kind: str) -> list[tuple[str, Offer]]:
        """Each side's moves of ``kind`` (``reroll``, ``energy_after``, ``bonus``): allowed
        with what each is worth to that side, or the rule against it; a bonus's skill
        reroll last."""
        found: list[tuple[str, Offer]] = []
        for key in "ab":
            check = self.checks[key]
            offers = offers_of(check, self.gone(key))
            if kind == "energy_after":
                refusal = ide4.energy_after_refusal(check) or self.gone(key)
                if refusal:
                    found.append((key, Offer("energy_after", "", "энергия после", False, refusal)))
                    continue
            picked = [o for o in offers if o.kind == kind]
            if kind == "bonus":
                picked += [
                    replace(o, kind="bonus", source="reroll", name="переброс от навыка")
                    for o in offers
                    if o.kind == "reroll" and o.source == "skill"
                ]
            found += [(key, o) for o in picked]
        return found


def _others(state: Ide4Check, world: World) -> World:
    """The world the second side is chosen in: the party without the first side."""
    first = view(state, world).character
    party = {cid: c for cid, c in world.characters.items() if first is None or cid != first.id}
    return replace(world, characters=party)


def opposed_view(state: Ide4Check, world: World) -> OpposedView:
    """Derive the opposed check of ``state`` against the current sheets."""
    opp = state.opposed
    if opp is None:
        raise ValueError("no opposed check open")
    form = view(state, world)
    side_world = _others(state, world)
    side = view(Ide4Check(inputs=opp.inputs), side_world)
    gone = ""
    if not opp.rolled:
        gone = swapped_side(opp.inputs.character, world.characters, side.character, "Соперник")
    error = form.error or gone or side.error
    if not error and not side_world.characters:
        error = ALONE
    checks: dict[str, ide4.Check] = {}
    payers: dict[str, Character | None] = {}
    changes: list[str] = []
    for key, record in (("a", opp.a), ("b", opp.b)):
        if record is not None:
            checks[key], payers[key], more = record_check(record, world)
            changes += more
    return OpposedView(state, world, form.input, side, error, checks, payers, tuple(changes), gone)


# -- the steps -----------------------------------------------------------------------------------


def _side(inputs: Inputs, world: World, name: str, value: Any) -> Outcome[Ide4Check]:
    """A choice of the second side, made as the form makes it (an action its skill, a skill
    its attribute, another character his own sheet)."""
    return steps.set_input(Ide4Check(inputs=inputs), world, name, value)


def open_opposed(state: Ide4Check, world: World, default: str | None = None) -> Outcome[Ide4Check]:
    """Start an opposed check on the form: the second side is ``default`` (else the first of
    the others), derived from his own sheet. Refused once the form's check is rolled."""
    if state.rolled is not None:
        return refuse(state, "Противоборство — вместо броска одной стороны: сначала n.")
    if state.opposed_open:
        return Outcome(state)  # the open one is shown again, never rolled again
    form = view(state, world)
    if form.input is None:
        return refuse(state, form.error)
    try:
        ide4.validate(form.input)
    except RulesError as err:
        return refuse(state, str(err))
    others = _others(state, world).characters
    if not others:
        return refuse(state, ALONE)
    chosen = default if default and default in others else next(iter(others))
    made = _side(Inputs(level="expanded"), world, "character", chosen)
    return Outcome(replace(state, opposed=Opposed(inputs=made.state.inputs)))


def set_opposed(state: Ide4Check, world: World, name: str, value: Any) -> Outcome[Ide4Check]:
    """Set one choice of the second side (refused once rolled; nobody opposes himself)."""
    opp = state.opposed
    if opp is None:
        return refuse(state, NONE_OPEN)
    if opp.rolled:
        return refuse(state, ROLLED)
    if name == "character":
        first = view(state, world).character
        if first is not None and value == first.id:
            return refuse(state, HIMSELF)
    made = _side(opp.inputs, world, name, value)
    if not made.ok:
        return refuse(state, made.refused)
    return Outcome(replace(state, opposed=replace(opp, inputs=made.state.inputs)))


def confirm_opposed(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """The GM agrees to the second side the dialog shows in place of one removed elsewhere."""
    opp = state.opposed
    if opp is None:
        return refuse(state, NONE_OPEN)
    shown = opposed_view(state, world).side.character
    if shown is None:
        return refuse(state, ALONE)
    return set_opposed(state, world, "character", shown.id)


def cancel_opposed(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """Close the opposed check before its roll (nothing was rolled, nothing is written)."""
    if state.opposed is not None and state.opposed.rolled and not state.opposed.concluded:
        return refuse(state, "Противоборство брошено: Enter — записать итог.")
    return Outcome(replace(state, opposed=None))


def _paid(c: Character | None, check: ide4.Check) -> tuple[Character, ...]:
    return steps._paid(c, check)


def roll_opposed(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """Roll both sides (each after its energy before): one line, both sheets paid, one undo
    step. The same opposed check rolled again after an undo takes the same dice."""
    opp = state.opposed
    if opp is None:
        return refuse(state, NONE_OPEN)
    if opp.rolled:
        return refuse(state, ROLLED)
    shown = opposed_view(state, world)
    if shown.refusal:
        return refuse(state, shown.refusal)
    first, second = shown.first, shown.second
    assert first is not None and second is not None
    a_char, b_char = view(state, world).character, shown.side.character
    assert a_char is not None and b_char is not None
    earlier = earlier_dice(world, opp.id, 0, "roll") or []
    checks, records, dice = [], [], []
    try:
        for i, (inp, c) in enumerate(((first, a_char), (second, b_char))):
            check = ide4.start(inp)
            had = [int(d) for d in earlier[i]] if i < len(earlier) else []
            if check.status == "ready":
                if had and len(had) - 1 == inp.energy_dice:
                    check = ide4.roll(check, natural=had[0], energy=had[1:])
                elif had:  # the same d100, new energy dice (their count changed)
                    energy = list(ide4.roll(check, world.dice.rng).before_dice)
                    check = ide4.roll(check, natural=had[0], energy=energy)
                else:
                    check = ide4.roll(check, world.dice.rng)
            checks.append(check)
            records.append(Rolled(c.id, inp, check.natural, check.before_dice))
            dice.append([check.natural, *check.before_dice] if check.natural is not None else [])
        result = ide4.opposed(checks[0], checks[1])
    except RulesError as err:
        return refuse(state, str(err))
    new = replace(state, opposed=replace(opp, a=records[0], b=records[1]))
    data = stamped({**result.to_dict(), "event": "roll"}, opp.id, 0, dice)
    line = Line(first.actor or None, opposed_text(result), data, kind="check")
    sheets = _paid(a_char, checks[0]) + _paid(b_char, checks[1])
    return Outcome(new, f"Противоборство: {first.actor or 'без имени'}", sheets=sheets, log=(line,))


def _moved(check: ide4.Check, kind: str, source: str, earlier: list[Any] | None, rng: Any) -> Any:
    """The move made on ``check`` with its dice (the Журнал's after an undo): (check, Move)."""
    if kind == "bonus" and source == "reroll":
        kind, source = "reroll", "skill"
    if kind == "reroll":
        if source not in ide4.REROLL_SOURCES:
            raise RulesError(f"Переброс: источника «{source}» нет.")
        why = ide4.reroll_refusal(check, source)
        if why:
            raise RulesError(why)
        natural = int(earlier[0]) if earlier else rng.randint(1, 100)
        return ide4.reroll(check, source, natural=natural), Move("reroll", source, dice=(natural,))
    if kind == "energy_after":
        count, _, size = (int(x) if x.isdigit() else 0 for x in source.partition("x"))
        if count < 1 or size < 1:
            raise RulesError(f"Энергия после: «{source}» — это не «число×куб» (например 2x6).")
        why = ide4.energy_after_refusal(check, count, size)
        if why:
            raise RulesError(why)
        if earlier and len(earlier) == count and all(1 <= int(d) <= size for d in earlier):
            dice = tuple(int(d) for d in earlier)
        else:
            dice = tuple(rng.randint(1, size) for _ in range(count))
        after = ide4.energy_after(check, count, size, dice=dice)
        return after, Move("energy_after", count=count, die=size, dice=dice)
    if kind == "bonus":
        if source not in ide4.AFTER_BONUSES:
            raise RulesError(f"Бонуса мастерства «{source}» нет.")
        return ide4.bonus(check, source), Move("bonus", source)
    raise RulesError(f"В противоборстве нет хода «{kind}».")


def opposed_move(
    state: Ide4Check, world: World, key: str, kind: str, source: str
) -> Outcome[Ide4Check]:
    """A move of side ``key`` («a» the form's, «b» the second): a reroll from ``source``,
    energy after (``source`` «2x6»: two d6), a mastery bonus — the rules' order and caps
    refuse the rest; its line, the sheet it pays, one undo step."""
    opp = state.opposed
    if opp is None or not opp.rolled:
        return refuse(state, NONE_OPEN)
    if opp.concluded:
        return refuse(state, OVER)
    if key not in ("a", "b") or kind not in MOVES:
        return refuse(state, f"В противоборстве нет хода «{key}:{kind}».")
    shown = opposed_view(state, world)
    check, c = shown.checks[key], shown.payers[key]
    if kind == "energy_after" and c is None:
        return refuse(state, shown.gone(key))
    number = opp.moves + 1
    event = "reroll" if kind == "bonus" and source == "reroll" else kind
    try:
        earlier = earlier_dice(world, opp.id, number, event)
        after, move = _moved(check, kind, source, earlier, world.dice.rng)
    except RulesError as err:
        return refuse(state, str(err))
    assert opp.a is not None and opp.b is not None  # rolled: both sides have a record
    if key == "a":
        grown = replace(opp, a=with_move(opp.a, check, move))
    else:
        grown = replace(opp, b=with_move(opp.b, check, move))
    new = replace(state, opposed=grown)
    text = f"Противоборство, ход: {txt.log_text(after, event, after.steps[-1])}"
    data = stamped({**after.to_dict(), "event": event}, opp.id, number, list(move.dice))
    actor = after.input.actor or None
    line = Line(actor, text, data, kind="check")
    label = f"Противоборство, ход: {actor or 'сторона'}"
    return Outcome(new, label, sheets=_paid(c, after), log=(line,))


def conclude_opposed(
    state: Ide4Check, world: World, resolution: str = "", price: str = ""
) -> Outcome[Ide4Check]:
    """Record the comparison (on a full tie the GM's choice: as it was, or a price to both):
    the opposed check is done. A line only when moves or a tie changed what the roll's line
    said; the check's document is written either way (a restart does not reopen it)."""
    opp = state.opposed
    if opp is None or not opp.rolled:
        return refuse(state, NONE_OPEN)
    if opp.concluded:
        return refuse(state, OVER)
    shown = opposed_view(state, world)
    result = shown.result
    if result.winner is None:
        if resolution not in ide4.TIE_RESOLUTIONS:
            return refuse(state, TIE_UNCHOSEN)
        try:
            result = result.resolve_tie(resolution, price.strip())
        except RulesError as err:
            return refuse(state, str(err))
    else:
        resolution, price = "", ""
    done = replace(opp, resolution=resolution, price=price.strip(), concluded=True)
    new = replace(state, opposed=done)
    lines: tuple[Line, ...] = ()
    first = result.a.input.actor or None
    if opp.moves or result.winner is None:  # the roll's line no longer says it all
        data = stamped({**result.to_dict(), "event": "conclude"}, opp.id, opp.moves + 1, [])
        lines = (Line(first, opposed_text(result), data, kind="check"),)
    return Outcome(
        new,
        f"Противоборство: итог ({first or 'без имени'})",
        docs={DOC: new.to_doc()},
        log=lines,
        notices=(opposed_text(result),),
    )
