"""The steps of an open IDE4™ check: ``step(check, world, …) -> Outcome``.

A step on the form (a choice, the checklist) changes the check in memory only; the roll and
every move after it — and a player's demand or energy before the roll — return Журнал lines,
and whoever made the step writes the new check with them as one undo step
(:class:`~tui.table.check.session.CheckTable`). A roll or a move made again after an undo
takes the dice it had from the Журнал (:func:`~tui.table.check.base.earlier_dice`): the same
check never gets new dice, and a rolled check is never rolled again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rules import ide4
from rules.errors import RulesError
from rules.ide4.sheet import Ide4Sheet
from tui.store import Character
from tui.systems.ide4.check import text as txt
from tui.systems.ide4.check.state import DEMAND, Ide4Check, Inputs, Move, Rolled, fresh, with_move
from tui.systems.ide4.check.view import (
    STEP_NAMES,
    attribute_default,
    character_of,
    common_distance,
    no_energy,
    rolled_check,
    view,
)
from tui.table.check.base import earlier_dice, first_roll, new_check_id, stamped
from tui.table.core import Line, Outcome, World, refuse

ROLLED_TWICE = (
    "Проверка уже брошена: d100 не бросают дважды — заменить его может только переброс (r). "
    "Новая проверка — n."
)
OPPOSED_OPEN = "Противоборство ждёт итога: его ходы и Enter — в его окне (вкладка Проверка)."
DEMAND_LINE = "Требует развёрнутую проверку: мастер обязан её провести"
INPUTS = frozenset(
    (
        "character",
        "level",
        "intent",
        "action",
        "attribute",
        "skill",
        "distance",
        "base",
        "mods",
        "hidden",
        "reason",
        "alternative",
        "special",
        "open",
        "die",
        "energy",
        "help",
        "helpnote",
        "technique",
        "circumstances",
        "risk",
    )
)


def _label(actor: str | None, event: str) -> str:
    return f"Проверка ({actor or 'без имени'}): {STEP_NAMES.get(event, event)}"


# -- the form ------------------------------------------------------------------------------------


def set_input(state: Ide4Check, world: World, name: str, value: Any) -> Outcome[Ide4Check]:
    """Set one choice of the form; what follows from it follows (the action's difficulty,
    skill, attribute and distance; a skill's attribute; another character's sheet).

    Refused once the check is rolled: its inputs are the record of the roll.
    """
    if name not in INPUTS:
        return refuse(state, f"В форме IDE4 нет поля «{name}».")
    if state.rolled is not None:
        return refuse(state, "Проверка уже брошена: её условия не меняются. Новая проверка — n.")
    if state.opposed_open:
        return refuse(state, OPPOSED_OPEN)
    if state.opposed is not None and state.opposed.concluded:
        state = replace(state, opposed=None)  # it is in the Журнал; the form goes on
    inputs = state.inputs
    if getattr(inputs, name) == value:
        return Outcome(state)
    changed = replace(inputs, **{name: value})
    c = character_of(changed, world)
    new_id = state.id
    if name == "character":
        chosen = world.characters.get(str(value))
        if chosen is None:
            return refuse(state, "Такого персонажа нет в партии.")
        new_id = new_check_id()  # another character: another check (and its own dice)
        changed = replace(changed, skill="", attribute="", distance="", die=0, energy=0)
        if chosen.ide4.always_expanded:
            changed = replace(changed, level="expanded")
        if changed.action:
            changed = _follow_action(changed, chosen)
    elif name == "action" and c is not None:
        changed = _follow_action(changed, c)
    elif name == "skill" and c is not None:
        changed = _follow_skill(changed, c)
    return Outcome(replace(state, id=new_id, inputs=changed))


def _follow_action(inputs: Any, c: Character) -> Any:
    """An action chosen: its base difficulty, the same-named skill (none when the sheet has
    none), that skill's attribute (or the first the action allows), the distance both share."""
    act = inputs.action
    base = ide4.action(act).base if act else inputs.base
    skill = act if act and c.skill(act) is not None else ""
    allowed = ide4.action(act).attributes if act else ()
    attribute = attribute_default(c, allowed, skill)
    distance = common_distance(c, skill, act)
    return replace(inputs, base=base, skill=skill, attribute=attribute, distance=distance)


def _follow_skill(inputs: Any, c: Character) -> Any:
    """A skill chosen: its main attribute (when the action allows it), the first distance
    the skill and the action share."""
    s = c.skill(inputs.skill) if inputs.skill else None
    allowed = ide4.action(inputs.action).attributes if inputs.action else ()
    attribute = inputs.attribute
    if s is not None and s.parent and (not allowed or s.parent in allowed):
        attribute = s.parent
    distance = common_distance(c, inputs.skill, inputs.action) or inputs.distance
    return replace(inputs, attribute=attribute, distance=distance)


def checklist(
    state: Ide4Check, world: World, reasons: tuple[str, ...], demand: bool
) -> Outcome[Ide4Check]:
    """The eight conditions ticked (and the player's demand): a demand newly made is the
    player's step (:func:`demand_expanded`), one undo step with its line."""
    inputs = replace(state.inputs, reasons=tuple(reasons), checklist_seen=True)
    ticked = replace(state, inputs=inputs)
    if demand and not state.inputs.player_demand:
        return demand_expanded(ticked, world)
    if not demand and state.rolled is None:
        ticked = replace(ticked, inputs=replace(inputs, player_demand=False))
    return Outcome(ticked)


def new_check(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """A new check for the same character: who and how stay, the situation is cleared."""
    return Outcome(fresh(state))


def repeat_last(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """The character's last check of the same kind (the same action, when one is chosen),
    its inputs in the form again: one key instead of the whole form."""
    if state.rolled is not None:
        return refuse(state, "Проверка уже брошена: сначала новая проверка (n).")
    c = character_of(state.inputs, world)
    if c is None:
        return refuse(state, "Выберите персонажа: в партии пока никого нет.")
    act = state.inputs.action
    for entry in world.journal(500):
        data = entry.data
        if (
            entry.undone
            or data.get("system") != "ide4"
            or data.get("event") != "roll"
            or not isinstance(data.get("form"), dict)
            or data["form"].get("character") != c.id
        ):
            continue
        if act and data["form"].get("action") != act:
            continue
        inputs = Inputs.from_dict(data["form"])
        inp = data.get("input") or {}
        label = (data.get("difficulty") or {}).get("label", "")
        said = " · ".join(str(p) for p in (inp.get("action"), inp.get("skill"), label) if p)
        return Outcome(
            replace(
                state,
                id=new_check_id(),
                inputs=replace(inputs, reasons=(), player_demand=False, checklist_seen=False),
                opposed=None,
            ),
            notices=(f"Как в прошлый раз ({c.name}): {said or 'те же условия'}.",),
        )
    what = f"«{act}» " if act else ""
    return refuse(state, f"У {c.name} ещё не было проверки {what}в этом Журнале.")


# -- the roll --------------------------------------------------------------------------------


def _paid(c: Character | None, check: ide4.Check) -> tuple[Character, ...]:
    """The sheet once ``check`` has paid (energy, the day's Успех → Триумф); () if unchanged."""
    if c is None:
        return ()
    sheet = c.ide4
    paid = c.with_sheet(
        replace(
            sheet,
            energy=check.pool_after if check.energy_spent else sheet.energy,
            daily_triumph_used=sheet.daily_triumph_used or check.daily_triumph_spent,
        )
    )
    return (paid,) if paid is not c else ()


def roll(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """Open the check: spend energy before, roll the d100 (or record [0] / [00]).

    Refused when the check is rolled already (never twice) or the rules refuse the inputs.
    """
    if state.rolled is not None:
        return refuse(state, ROLLED_TWICE)
    if state.opposed_open:
        return refuse(state, OPPOSED_OPEN)
    state = replace(state, opposed=None)  # a concluded opposed check is in the Журнал
    shown = view(state, world)
    inp, c = shown.input, shown.character
    if inp is None or c is None:
        return refuse(state, shown.error)
    try:
        check = ide4.start(inp)
        earlier, source = first_roll(world, state.id, "roll", c.id)
        if check.status == "ready":
            if earlier:
                energy = earlier[1:] if len(earlier) - 1 == inp.energy_dice else None
                if energy is None:
                    first = ide4.roll(check, world.dice.rng)  # new energy dice, the same d100
                    energy = list(first.before_dice)
                check = ide4.roll(check, natural=int(earlier[0]), energy=[int(d) for d in energy])
            else:
                check = ide4.roll(check, world.dice.rng)
    except RulesError as err:
        return refuse(state, str(err))
    rolled = Rolled(c.id, inp, check.natural, check.before_dice)
    inputs = replace(state.inputs, character=c.id)
    new = replace(state, inputs=inputs, rolled=rolled)
    dice = [check.natural, *check.before_dice] if check.natural is not None else []
    data = stamped(
        {**check.to_dict(), "event": "roll", "form": inputs.to_dict()},
        state.id,
        0,
        dice,
        c.id,
        source,  # whose undone dice it took, for the moves after it
    )
    line = Line(inp.actor or None, txt.log_text(check, "roll"), data, kind="check")
    label = _label(inp.actor, "roll")
    return Outcome(new, label, sheets=_paid(c, check), log=(line,))


# -- after the roll ------------------------------------------------------------------------------


def _rolled(
    state: Ide4Check, world: World, done_too: bool = False
) -> tuple[ide4.Check, Character | None] | str:
    if state.rolled is None:
        return "Проверка ещё не брошена: это — после d100."
    if state.rolled.concluded and not done_too:
        return "Проверка уже завершена: менять её поздно. Новая проверка — n."
    check, c, _ = rolled_check(state, world)
    return check, c


def _move(
    state: Ide4Check,
    world: World,
    event: str,
    make: Callable[[ide4.Check, list[Any] | None], tuple[ide4.Check, Move]],
    line_text: str = "",
    done_too: bool = False,
) -> Outcome[Ide4Check]:
    """Make one move on the rolled check: its dice (the Журнал's after an undo), its line
    (and a line for the level it raised on the way), the sheet it pays."""
    found = _rolled(state, world, done_too)
    if isinstance(found, str):
        return refuse(state, found)
    check, c = found
    assert state.rolled is not None
    number = len(state.rolled.moves) + 1
    try:
        after, move = make(check, earlier_dice(world, state.id, number, event))
    except RulesError as err:
        return refuse(state, str(err))
    actor = after.input.actor or None
    lines = []
    notices = []
    for step in after.steps[len(check.steps) : -1]:
        if step.kind == "level":  # a level raised on the way: on record, never silently
            data = stamped({**after.to_dict(), "event": "level"}, state.id, number, [])
            lines.append(Line(actor, txt.log_text(after, "level", step), data, kind="check"))
            notices.append(f"Уровень проверки: {step.note}.")
    data = stamped({**after.to_dict(), "event": event}, state.id, number, list(move.dice))
    text = line_text or txt.log_text(after, event)
    lines.append(Line(actor, text, data, kind="check"))
    rolled = with_move(state.rolled, check, move)
    new = replace(state, rolled=rolled)
    return Outcome(
        new,
        _label(actor, event),
        sheets=_paid(c, after) if c is not None else (),
        log=tuple(lines),
        notices=tuple(notices),
    )


def reroll(state: Ide4Check, world: World, source: str) -> Outcome[Ide4Check]:
    """Reroll the d100 from ``source`` (the rules' caps and order refuse the rest)."""

    def make(check: ide4.Check, earlier: list[Any] | None) -> tuple[ide4.Check, Move]:
        why = ide4.reroll_refusal(check, source)
        if why:
            raise RulesError(why)
        natural = int(earlier[0]) if earlier else world.dice.rng.randint(1, 100)
        return ide4.reroll(check, source, natural=natural), Move("reroll", source, dice=(natural,))

    return _move(state, world, "reroll", make)


def energy_after(state: Ide4Check, world: World, count: int, die: int = 0) -> Outcome[Ide4Check]:
    """Spend ``count`` energy dice of size ``die`` (0: the nominal) after the roll."""

    def make(check: ide4.Check, earlier: list[Any] | None) -> tuple[ide4.Check, Move]:
        why = ide4.energy_after_refusal(check, count, die)
        if why:
            raise RulesError(why)
        size = die or check.input.nominal
        # the dice it had before an undo, as far as they go (one more chosen: it is rolled)
        fits = earlier is not None and all(1 <= int(d) <= size for d in earlier)
        had = [int(d) for d in earlier or []][:count] if fits else []
        fresh = (world.dice.rng.randint(1, size) for _ in range(count - len(had)))
        dice = (*had, *fresh)
        after = ide4.energy_after(check, count, size, dice=dice)
        return after, Move("energy_after", count=count, die=size, dice=dice)

    found = _rolled(state, world)
    if not isinstance(found, str) and found[1] is None:
        assert state.rolled is not None  # found is the rolled check
        return refuse(state, no_energy(world, state.rolled.character, found[0].input.actor))
    return _move(state, world, "energy_after", make)


def bonus(state: Ide4Check, world: World, kind: str) -> Outcome[Ide4Check]:
    """Apply a mastery bonus (``reroll``: a skill reroll)."""
    if kind == "reroll":
        return reroll(state, world, "skill")

    def make(check: ide4.Check, earlier: list[Any] | None) -> tuple[ide4.Check, Move]:
        return ide4.bonus(check, kind), Move("bonus", kind)

    return _move(state, world, "bonus", make)


def subroll(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """Roll the sub-roll d6: the consequence's strength, never the outcome."""

    def make(check: ide4.Check, earlier: list[Any] | None) -> tuple[ide4.Check, Move]:
        why = ide4.subroll_refusal(check)
        if why:
            raise RulesError(why)
        value = int(earlier[0]) if earlier else world.dice.rng.randint(1, 6)
        return ide4.subroll(check, value=value), Move("subroll", dice=(value,))

    return _move(state, world, "subroll", make)


def set_level(
    state: Ide4Check, world: World, level: str, why: str = "мастер сменил уровень"
) -> Outcome[Ide4Check]:
    """The level of detail: the form's before the roll; on a rolled check a recorded step
    (a check that has expanded-only steps stays expanded, and says so)."""
    if level not in ide4.LEVELS:
        return refuse(state, f"Уровень проверки — одно из: {', '.join(ide4.LEVELS)}.")
    if state.rolled is None:
        return set_input(state, world, "level", level)
    check = rolled_check(state, world)[0]
    after = ide4.set_level(check, level, why)
    inputs = replace(state.inputs, level=level)
    notices: tuple[str, ...] = ()
    if after.level != level:
        notices = (
            "Эта проверка остаётся развёрнутой: в ней уже есть шаги развёрнутой проверки или "
            "игрок всегда её требует.",
        )
    if after.steps == check.steps:  # nothing the record shows: nothing changes
        return Outcome(state, notices=notices)
    made = _move(
        state,
        world,
        "level",
        lambda c, _e: (ide4.set_level(c, level, why), Move("level", level, note=why)),
        done_too=True,
    )
    if not made.ok:
        return made
    return replace(made, state=replace(made.state, inputs=inputs), notices=notices + made.notices)


def demand_expanded(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """The player demands the expanded check (their right at any level, in any phase): one
    undo step with its line, whether the GM's «p» or a seat's accepted request."""
    inputs = state.inputs
    level = state.rolled and rolled_check(state, world)[0].level
    if inputs.player_demand and (level or inputs.level) == "expanded":
        return refuse(state, "Развёрнутая проверка уже идёт по требованию игрока.")
    demanded = replace(inputs, player_demand=True, level="expanded")
    notice = ("Игрок требует развёрнутую проверку: мастер обязан её провести.",)
    if state.rolled is None:
        c = character_of(inputs, world)
        actor = c.name if c is not None else None
        new = replace(state, inputs=demanded)
        data = stamped({"system": "ide4", "event": "demand_expanded"}, state.id, 0, [])
        line = Line(actor, DEMAND_LINE, data, kind="check")
        return Outcome(new, _label(actor, "demand_expanded"), log=(line,), notices=notice)
    found = _rolled(state, world)
    if isinstance(found, str):
        return refuse(state, found)
    check = found[0]
    after = ide4.set_level(check, "expanded", DEMAND)
    demand = Move("demand")
    if after.steps != check.steps:
        made = _move(
            state, world, "level", lambda c, _e: (ide4.set_level(c, "expanded", DEMAND), demand)
        )
    else:
        made = _move(
            state, world, "demand_expanded", lambda c, _e: (c, demand), line_text=DEMAND_LINE
        )
    if not made.ok:
        return made
    return replace(made, state=replace(made.state, inputs=demanded), notices=notice + made.notices)


def energy_before(state: Ide4Check, world: World, count: int, die: int = 0) -> Outcome[Ide4Check]:
    """A player's energy before the roll (from a seat): the form's energy row, one undo step
    with its line; the energy is spent when the d100 is rolled."""
    if state.rolled is not None:
        return refuse(
            state, "Проверка уже брошена: выбор до броска опоздал. После броска — «Энергия после»."
        )
    if state.inputs.level != "expanded":
        return refuse(
            state, "Энергия до броска — шаг развёрнутой проверки: сначала потребуйте её («x»)."
        )
    shown = view(state, world)
    if shown.input is None:
        return refuse(state, shown.error)
    inp = replace(shown.input, energy_dice=count, energy_die=die)
    try:
        ide4.validate(inp)
    except RulesError as err:
        return refuse(state, str(err))
    nominal = inp.nominal
    inputs = replace(
        state.inputs, energy=count, die=0 if inp.before_die == nominal else inp.before_die
    )
    new = replace(state, inputs=inputs)
    text = (
        f"Энергия до броска {count}×d{inp.before_die} "
        f"(стоит {count * inp.before_die}; тратится при броске)"
    )
    data = stamped({"system": "ide4", "event": "energy_before"}, state.id, 0, [])
    line = Line(inp.actor or None, text, data, kind="check")
    return Outcome(new, _label(inp.actor, "energy_before"), log=(line,))


def conclude(state: Ide4Check, world: World, meaning: str, consequence: str) -> Outcome[Ide4Check]:
    """Steps 13–14: the meaning of the outcome and its consequences; the check is done."""
    if state.rolled is None:
        return refuse(state, "Проверка ещё не брошена.")
    if state.rolled.concluded:
        return refuse(state, "Итог этой проверки уже записан.")
    rolled = replace(
        state.rolled, concluded=True, meaning=meaning.strip(), consequence=consequence.strip()
    )
    new = replace(state, rolled=rolled)
    check = rolled_check(new, world)[0]
    data = stamped({**check.to_dict(), "event": "conclude"}, state.id, len(rolled.moves) + 1, [])
    actor = check.input.actor or None
    line = Line(actor, txt.log_text(check, "conclude"), data, kind="check")
    return Outcome(new, _label(actor, "conclude"), log=(line,))


def new_day(state: Ide4Check, world: World) -> Outcome[Ide4Check]:
    """A new game day: every character may raise Успех → Триумф once again (one undo step)."""
    sheets = tuple(
        c.edit_sheet(Ide4Sheet, daily_triumph_used=False)
        for c in world.characters.values()
        if c.ide4.daily_triumph_used
    )
    notice = "Новый игровой день: Успех → Триумф от навыков снова доступен всем."
    return Outcome(state, "Новый игровой день", sheets=sheets, notices=(notice,))
