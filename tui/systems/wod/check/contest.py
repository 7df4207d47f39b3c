"""The opponent of a Мир Тьмы contested roll, on the table engine: chosen in its dialog, derived
as the form is.

The dialog's choices are a state of the open check (``WodCheck.opponent``, the form's own
:class:`~.wod.Inputs`): the opponent's rows — his attributes, his skills, a skill bringing its
usual attribute — his pool with his effects and health, and the exact odds of both sides are
derived from it and the current sheets, so nothing shown can be the last opponent's; nobody
contests himself. A choice changes the check in memory, as a choice of the form does; the roll
(:func:`roll_contest`) is the engine's contest step, written with its line as one undo step —
the record a restart, a crash or Ctrl+Q gives back with the same faces.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules import wod
from tui.present.rolls import percent, plain
from tui.systems.wod.check import steps
from tui.systems.wod.check.state import Inputs, WodCheck
from tui.systems.wod.check.view import WodView, view
from tui.table.check.base import ROLLED_AGAIN, swapped_side
from tui.table.core import Outcome, World, refuse

ROWS = ("character", "attribute", "skill")
ALONE = "Состязаться не с кем: в партии один персонаж."
HIMSELF = "Состязание — с другим персонажем, не с собой."
NONE_OPEN = "Состязания нет: c в форме — выбрать соперника."


@dataclass(frozen=True)
class ContestView:
    """What the contest dialog shows, derived (nothing kept)."""

    main: wod.Pool | None
    side: WodView  # the opponent's rows and pool, as the form derives its own
    error: str
    #: The opponent chosen was removed in another window: whom the dialog shows instead,
    #: and that the roll waits for the GM to confirm him ("" otherwise; also :attr:`error`).
    swapped: str = ""

    @property
    def pool(self) -> wod.Pool | None:
        return self.side.pool if not self.error else None

    def rows(self) -> dict[str, tuple[tuple[tuple[str, Any], ...], Any]]:
        return {name: (self.side.rows[name].options, self.side.rows[name].value) for name in ROWS}

    def lines(self) -> str:
        """The opponent's pool and the exact odds of both sides (markup)."""
        if self.error or self.main is None or self.side.pool is None:
            return f"[$error]{plain(self.error)}[/]"
        main, other = self.main, self.side.pool
        odds = wod.contested_odds(main, other)
        head = "на удачу" if other.chance else f"{other.size}d10"
        return (
            f"{plain(other.name)}: {head}\n"
            f"Точные шансы: [b]{plain(main.name)}[/b] побеждает {percent(odds.a)} · "
            f"ничья {percent(odds.tie)} · [b]{plain(other.name)}[/b] {percent(odds.b)}"
        )


def _others(state: WodCheck, world: World) -> tuple[WodView, World]:
    form = view(state, world)
    me = form.character
    party = {cid: c for cid, c in world.characters.items() if me is None or cid != me.id}
    return form, replace(world, characters=party)


def contest_view(state: WodCheck, world: World) -> ContestView:
    """Derive the open contest's opponent against the current sheets."""
    if state.opponent is None:
        raise ValueError("no contest open")
    form, others = _others(state, world)
    side = view(WodCheck(inputs=state.opponent), others)
    gone = swapped_side(state.opponent.character, world.characters, side.character, "Соперник")
    error = form.error or ("" if others.characters else ALONE) or gone or side.error
    return ContestView(form.pool, side, error, gone)


def open_contest(state: WodCheck, world: World, default: str | None = None) -> Outcome[WodCheck]:
    """Open the contest's dialog: the opponent ``default`` first (else the first other);
    refused on a rolled check (its roll is never made again)."""
    if state.rolled is not None:
        return refuse(state, ROLLED_AGAIN)
    form, others = _others(state, world)
    if form.pool is None:
        return refuse(state, form.error)
    if not others.characters:
        return refuse(state, ALONE)
    chosen = default if default and default in others.characters else next(iter(others.characters))
    return Outcome(replace(state, opponent=Inputs(character=chosen)))


def set_contest(state: WodCheck, world: World, name: str, value: Any) -> Outcome[WodCheck]:
    """Set one choice of the opponent (another character: his own rows; a skill: its usual
    attribute; nobody contests himself)."""
    opponent = state.opponent
    if opponent is None:
        return refuse(state, NONE_OPEN)
    if name not in (*ROWS, "mods"):
        return refuse(state, f"В состязании нет поля «{name}».")
    if name == "character":
        me = view(state, world).character
        if me is not None and value == me.id:
            return refuse(state, HIMSELF)
    made = steps.set_input(WodCheck(inputs=opponent), world, name, value)
    if not made.ok:
        return refuse(state, made.refused)
    return Outcome(replace(state, opponent=made.state.inputs))


def confirm_contest(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """The GM agrees to the opponent the dialog shows in place of one removed elsewhere."""
    if state.opponent is None:
        return refuse(state, NONE_OPEN)
    shown = contest_view(state, world).side.character
    if shown is None:
        return refuse(state, ALONE)
    return set_contest(state, world, "character", shown.id)


def cancel_contest(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """Close the dialog without rolling."""
    return Outcome(replace(state, opponent=None))


def roll_contest(state: WodCheck, world: World) -> Outcome[WodCheck]:
    """Both roll their pools (the engine's contest step, written with its line)."""
    if state.opponent is None:
        return refuse(state, NONE_OPEN)
    shown = contest_view(state, world)
    if shown.error or shown.side.pool is None or shown.side.character is None:
        return refuse(state, shown.error or shown.side.error)
    closed = replace(state, opponent=None)
    return steps.contest(closed, world, shown.side.pool, shown.side.character.id)
