"""The other side of a Старатели roll, on the table engine: a task chain's helper, a group
check's helpers, an встречный бросок's opponent — chosen in a dialog, derived like the form.

The dialog's choices are a state of the open check (:class:`Other`): every row (the helper's
or the opponent's characteristic and skill — his own, never the last one's), the side they
build and the exact odds shown are derived from it and the current sheets, so a sheet edited
in another window or another opponent chosen can never leave a stale row; nobody helps or
opposes himself. A choice changes the check in memory, as a choice of the form does; the roll
(:func:`roll_other`) is the engine's chain, group or opposed step, written with its line as
one undo step — the record a restart, a crash or Ctrl+Q gives back with the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules import starately
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tui.present.rolls import percent, plain, signed
from tui.store import Character
from tui.systems.starately.check import steps
from tui.systems.starately.check.state import Other, StaratelyCheck
from tui.systems.starately.check.text import (
    TIE_WINNERS,
    UNSKILLED,
    characteristic_options,
    side_for,
    skill_options,
)
from tui.systems.starately.check.view import view
from tui.table.check.base import ROLLED_AGAIN, swapped_side
from tui.table.core import Outcome, World, refuse

KINDS = ("chain", "group", "opposed")
ALONE = {
    "chain": "Помочь некому: в партии один персонаж.",
    "group": "Помочь некому: в партии нет других персонажей.",
    "opposed": "Состязаться не с кем: в партии один персонаж.",
}
HIMSELF = "Это другой персонаж: сам себе никто не помогает и сам с собой не состязается."
NONE_OPEN = "Второй стороны нет: h, g или o в форме — выбрать."
#: The rows of each kind's dialog (the group's: one per helper, ``help:<id>``).
ROWS = {
    "chain": ("character", "characteristic", "skill"),
    "opposed": ("character", "characteristic", "skill", "boons", "banes", "initiator"),
    "group": (),
}
COUNTS = tuple((str(k), k) for k in range(4))
INPUTS = frozenset(("character", "characteristic", "skill", "boons", "banes", "mods"))


@dataclass(frozen=True)
class OtherView:
    """What a dialog shows of the other side, derived (nothing kept)."""

    other: Other
    main: starately.Check | None
    character: Character | None
    rows: dict[str, tuple[tuple[tuple[str, Any], ...], Any]]
    side: starately.Side | None
    error: str
    #: The group: each possible helper's side and id, whether he helps; why others may not.
    helpers: tuple[tuple[starately.Side, str, bool], ...] = ()
    refused: tuple[str, ...] = ()
    #: The helper or opponent chosen was removed in another window: whom the dialog shows
    #: instead, and that the roll waits for the GM to confirm him ("" otherwise; also
    #: :attr:`error`).
    swapped: str = ""

    def sides(self) -> list[tuple[starately.Side, str]]:
        """The group's helpers who help (their sides and ids)."""
        return [(s, cid) for s, cid, helps in self.helpers if helps]

    def opposed(self) -> starately.Opposed:
        """The встречный бросок the rows describe (raises RulesError)."""
        if self.side is None or self.main is None:
            raise RulesError(self.error)
        return starately.Opposed(self.main.side, self.side, self.other.initiator)

    def lines(self) -> list[str]:
        """The exact odds (markup) — or the reason there are none."""
        if self.error or self.main is None:
            return [f"[$error]{plain(self.error)}[/]"]
        main = self.main
        alone = starately.check_odds(main).outcomes["success"]
        try:
            if self.other.kind == "chain":
                assert self.side is not None
                chain = starately.TaskChain(self.side, main)
                helper = starately.check_odds(chain.helper_check).outcomes["success"]
                helped = starately.chain_odds(chain).outcomes["success"]
                return [
                    f"Помощник: успех {percent(helper)} на {chain.helper_check.difficulty}+",
                    f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью "
                    f"(без неё {percent(alone)})",
                ]
            if self.other.kind == "group":
                group = starately.GroupCheck(main, tuple(s for s, _ in self.sides()))
                helped = starately.group_odds(group).outcomes["success"]
                return [
                    f"Основной бросок: успех [b]{percent(helped)}[/b] с помощью "
                    f"(без неё {percent(alone)})"
                ]
            check = self.opposed()
        except RulesError as err:
            return [f"[$error]{plain(str(err))}[/]"]
        a, b = check.a, check.b
        odds = starately.opposed_odds(check)
        rule = TIE_WINNERS.get(check.tie_rule, "персонаж игрока")
        winner = (a if check.tie_winner == "a" else b).name
        naturals = "решают" if starately.settings().naturals_decide else "ничего не решают"
        return [
            f"{plain(a.name)} {signed(a.bonus)} — {plain(b.name)} {signed(b.bonus)} · "
            f"кубы соперника: +d6 ×{b.boons}, −d6 ×{b.banes}",
            f"[dim]Ничья {percent(odds.tie)} — побеждает {rule}: {plain(winner)}. "
            f"Натуральные 12 и 2 {naturals} (настройка кампании).[/]",
        ]


def _label(c: Character) -> str:
    return f"{c.name} ({'игрок' if c.kind == 'pc' else 'НИП'})"


def _party(state: StaratelyCheck, world: World) -> tuple[Any, dict[str, Character]]:
    """The form's view and everyone else in the party."""
    shown = view(state, world)
    me = shown.character
    return shown, {cid: c for cid, c in world.characters.items() if me is None or cid != me.id}


def other_view(state: StaratelyCheck, world: World) -> OtherView:
    """Derive the open dialog's side against the current sheets."""
    other = state.other
    if other is None:
        raise ValueError("no other side open")
    shown, others = _party(state, world)
    main = shown.check
    if main is None:
        return OtherView(other, None, None, {}, None, shown.error)
    if other.kind == "group":
        return _group(other, main, others, world)
    c = others.get(other.character) or next(iter(others.values()), None)
    if c is None:
        return OtherView(other, main, None, {}, None, ALONE[other.kind])
    chars = tuple(characteristic_options(c))
    wanted = other.characteristic
    if not wanted and other.kind == "opposed" and main.side.characteristic in c.qualities:
        wanted = main.side.characteristic
    characteristic = wanted if wanted in c.qualities else (chars[0][1] if chars else "")
    skills = tuple(skill_options(c))
    names = [v for _, v in skills]
    skill = other.skill if other.skill in names else names[0]
    rows: dict[str, tuple[tuple[tuple[str, Any], ...], Any]] = {
        "character": (tuple((_label(x), x.id) for x in others.values()), c.id),
        "characteristic": (chars, characteristic),
        "skill": (skills, skill),
    }
    error, side = "", None
    try:
        if other.kind == "chain":
            side = side_for(c, characteristic, skill or UNSKILLED)
        else:
            typed = parse_modifiers(other.mods)
            side = side_for(
                c,
                characteristic,
                skill or UNSKILLED,
                boons=other.boons,
                banes=other.banes,
                # the opponent's active effects, as the form adds the actor's (issue 17)
                modifiers=tuple(starately.Modifier(m.value, m.reason) for m in typed)
                + tuple(world.modifiers(c.id)),
            )
            if side.name == main.side.name:
                side = replace(side, name=f"{side.name} (соперник)")
            rows["boons"] = (COUNTS, other.boons)
            rows["banes"] = (COUNTS, other.banes)
            rows["initiator"] = (
                (
                    (f"{main.side.name} (первая сторона)", "a"),
                    (f"{c.name} (соперник)", "b"),
                    ("не определить — тогда персонаж игрока", None),
                ),
                other.initiator,
            )
    except RulesError as err:
        error = str(err)
    role = "Помощник" if other.kind == "chain" else "Соперник"
    gone = swapped_side(other.character, world.characters, c, role)
    return OtherView(other, main, c, rows, side, gone or error, swapped=gone)


def _group(
    other: Other, main: starately.Check, others: dict[str, Character], world: World
) -> OtherView:
    """The group check: everyone else with the skill at level 1+, whether each helps."""
    if main.side.skill is None:
        return OtherView(other, main, None, {}, None, "Групповая проверка — с навыком.")
    helpers, refused = [], []
    for c in others.values():
        has = c.skill(main.side.skill_name) is not None
        try:
            helper = side_for(
                c, main.side.characteristic, main.side.skill_name if has else UNSKILLED
            )
        except RulesError as err:
            refused.append(str(err))
            continue
        why = starately.helper_refusal(helper, main.side)
        if why is None:
            helpers.append((helper, c.id, c.id not in other.left_out))
        else:
            refused.append(why)
    error = "" if helpers else "Помочь некому: " + (" ".join(refused) or ALONE["group"])
    return OtherView(other, main, None, {}, None, error, tuple(helpers), tuple(refused))


# -- the steps -----------------------------------------------------------------------------------


def open_other(
    state: StaratelyCheck, world: World, kind: str, default: str | None = None
) -> Outcome[StaratelyCheck]:
    """Open the dialog of ``kind`` on the form's check: the helper or opponent ``default``
    first (else the first of the others); refused when the form builds no check, nobody
    else is in the party, or the check is rolled (its roll is never made again)."""
    if kind not in KINDS:
        return refuse(state, f"Нет такого броска: «{kind}».")
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    shown, others = _party(state, world)
    if shown.check is None:
        return refuse(state, shown.error)
    if not others:
        return refuse(state, ALONE[kind])
    chosen = default if default and default in others else next(iter(others))
    opened = replace(state, other=Other(kind, character=chosen if kind != "group" else ""))
    found = other_view(opened, world)
    if kind == "group" and found.error:
        return refuse(state, found.error)
    return Outcome(opened)


def set_other(
    state: StaratelyCheck, world: World, name: str, value: Any
) -> Outcome[StaratelyCheck]:
    """Set one choice of the dialog (another character: his own sheet's rows); ``help:<id>``
    — whether that helper joins the group."""
    other = state.other
    if other is None:
        return refuse(state, NONE_OPEN)
    if name.startswith("help:"):
        cid = name.removeprefix("help:")
        left = tuple(x for x in other.left_out if x != cid) + (() if value else (cid,))
        return Outcome(replace(state, other=replace(other, left_out=left)))
    if name == "initiator":
        return Outcome(replace(state, other=replace(other, initiator=value)))
    if name not in INPUTS:
        return refuse(state, f"В этом окне нет поля «{name}».")
    if name == "character":
        me = view(state, world).character
        if me is not None and value == me.id:
            return refuse(state, HIMSELF)
        if value not in world.characters:
            return refuse(state, "Такого персонажа нет в партии.")
        changed = replace(other, character=str(value), characteristic="", skill=None)
    else:
        changed = replace(other, **{name: value})
    return Outcome(replace(state, other=changed))


def confirm_other(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """The GM agrees to the helper or opponent the dialog shows in place of one removed
    elsewhere (his own sheet's rows, as choosing him does)."""
    if state.other is None:
        return refuse(state, NONE_OPEN)
    shown = other_view(state, world).character
    if shown is None:
        return refuse(state, ALONE[state.other.kind])
    return set_other(state, world, "character", shown.id)


def cancel_other(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """Close the dialog without rolling."""
    return Outcome(replace(state, other=None))


def roll_other(state: StaratelyCheck, world: World) -> Outcome[StaratelyCheck]:
    """Roll what the dialog describes: the chain, the group or the встречный бросок (the
    engine's step, written with its line; the dialog's choices are then closed)."""
    other = state.other
    if other is None:
        return refuse(state, NONE_OPEN)
    shown = other_view(state, world)
    if shown.error:
        return refuse(state, shown.error)
    closed = replace(state, other=None)
    if other.kind == "group":
        return steps.group(closed, world, shown.sides())
    assert shown.side is not None and shown.character is not None
    if other.kind == "chain":
        return steps.chain(closed, world, shown.side, shown.character.id)
    return steps.opposed(closed, world, shown.side, shown.character.id, other.initiator)
