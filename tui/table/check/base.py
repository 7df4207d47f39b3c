"""What every system's open check shares: the campaign document it is kept in, the dice a
move rolled before an undo, and the offer the players' seats are shown.

An open check is a frozen state: its id, its inputs (the draft the GM is filling in) and,
once rolled, its record — the dice and every move made, each with the dice it rolled. Every
value a screen shows is derived from the state and the current sheets; the rules' own result
(``rules.ide4.Check`` …) is rebuilt from the record by replaying it with its dice. The state is
written to the campaign (:data:`DOC`) as it is rolled and as each move is made, in the same
undo step as the move's Журнал line, so a restart, a crash or Ctrl+Q loses nothing and an
undo puts the check back exactly as the store has it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from rules.errors import RulesError

T = TypeVar("T")

if TYPE_CHECKING:  # the app's first screen imports SeatLater: no rules tables for it
    from tui.store import LogEntry
    from tui.table.core import World

#: The campaign document holding the open check.
DOC = "check"
#: What a refused write loses.
NOT_SAVED = "шаг проверки не записан"
#: How many of the newest Журнал entries are searched for a move's earlier dice.
JOURNAL_WINDOW = 300

#: The key of a Журнал line's data holding the dice its step rolled (a move made again after
#: an undo takes them back).
DICE = "move_dice"
#: The key of a first roll's line holding its character's id (:func:`earlier_dice`).
ROLLER = "roller"
#: The key of a first roll's line naming the check whose undone dice it took.
DICE_OF = "dice_of"

ROLLED = "Проверка уже брошена: выбор до броска опоздал."
#: A roll of a check that is rolled already (a key, a seat, the CLI): never a second set of
#: dice for one check — a new check is the GM's own «n».
ROLLED_AGAIN = "Проверка уже брошена: второй раз её не бросают. n — новая проверка."
CLOSED = "Эта проверка закрыта: ведущий начал другую."
NOT_ROLLED = "Проверка ещё не брошена: это — после броска."
OVER = "Проверка уже завершена: менять её поздно."

#: In place of the odds while the typed modifiers do not parse, and while the form gives no
#: check for another reason (said above it). The odds of the last inputs that did parse stayed
#: on screen: «Успех 97,5 %» for «+5» after the field read «5.5» (issue 37: no screen shows a
#: value its inputs no longer give).
NO_ODDS_MODS = "Шансы: исправьте модификаторы — пока в них ошибка, шансов нет."
NO_ODDS = "Шансов нет: проверка не собрана — причина выше."


def no_odds(mods: str) -> str:
    """The sentence (markup) a view offers in place of the odds of a form that gives no check:
    :data:`NO_ODDS_MODS` when its typed modifiers ``mods`` are what is wrong."""
    from rules.modifiers import parse_modifiers  # not at the first paint (SeatLater is)

    try:
        parse_modifiers(mods)
    except RulesError:
        return f"[$warning]{NO_ODDS_MODS}[/]"
    return f"[$warning]{NO_ODDS}[/]"


def swapped_side(chosen: str | None, party: Mapping[str, Any], shown: Any, role: str) -> str:
    """Why a dialog's other side may not roll yet: the character chosen as it (``role``,
    «Соперник», «Помощник») is no longer in the ``party`` — removed in another window — and
    the dialog shows ``shown`` in his place. "" when the one chosen is there (or nobody is shown).

    A side is never swapped silently: the GM confirms the one shown (its dialog's Enter) or
    picks another."""
    if not chosen or chosen in party or shown is None:
        return ""
    return (
        f"{role} удалён из партии в другом окне — сейчас выбран {shown.name}. "
        "Enter — подтвердить, ←/→ — выбрать другого."
    )


class SeatLater(RulesError):
    """A player's request fits once the GM adds what only he decides (Risk's price, a shift's
    points): it stays pending with this reason instead of being refused."""


def check_doc(system: str, check: Any, **more: Any) -> dict[str, Any]:
    """The campaign document ``check`` of an open check: its system, id, form and record (and
    ``more`` parts of a system's own, as their dicts)."""
    rolled = check.rolled
    return {
        "system": system,
        "id": check.id,
        "inputs": check.inputs.to_dict(),
        "rolled": rolled.to_dict() if rolled is not None else None,
        **more,
    }


def read_check(
    doc: Mapping[str, Any],
    make: Callable[..., T],
    inputs: Callable[[Any], Any],
    parts: Mapping[str, Callable[[Any], Any]],
    verify: Callable[[T], object],
    damaged: str,
) -> T:
    """Read a stored check: ``make(id=…, inputs=…, **parts)``, its form read by ``inputs`` (from
    an empty dict when missing) and each stored part by its reader in ``parts`` (None when
    missing), then ``verify`` (the record must resolve with its own dice).

    Raises:
        RulesError: the document is damaged (``damaged`` says what to do).
    """
    try:
        read = {
            name: reader(doc[name]) if doc.get(name) else None for name, reader in parts.items()
        }
        form = doc.get("inputs") or {}
        if not isinstance(form, Mapping):
            raise TypeError("the form is not a table")
        made = make(id=str(doc["id"]), inputs=inputs(form), **read)
        verify(made)
    except (KeyError, TypeError, ValueError, AttributeError, RulesError) as err:
        raise RulesError(damaged) from err
    return made


def new_check_id() -> str:
    """A fresh id for a new check (its dice and its seats' requests are named by it)."""
    return uuid.uuid4().hex[:16]


def character_gone(world: World, character_id: str, name: str) -> str:
    """What a rolled check says once its character was removed (in another window, by a
    ``kubik`` command, or here): the result stays as rolled (a record), and the form's rows
    are another character's. (IDE4's words.)"""
    return f"{world.removed(character_id, name)} — проверка больше не меняет лист персонажа."


def earlier_dice(
    world: World, check: str, move: int, event: str, roller: str = "", _hops: int = 0
) -> list[Any] | None:
    """The dice the same move of the same check rolled before it was undone (None: never).

    A roll or a move made again after Ctrl+Z takes the dice it had: the Журнал is never
    undone, and its undone lines of this check's ``move``-th step keep them. A pool rolled
    smaller after an undo (a wound, a boon taken back) threw only the first of them: the
    dice it never threw are an older line's, so the lines are read together (the newest's,
    lengthened by an older one's that begins with them).

    ``roller`` (a first roll's character): a check of his with no dice of its own takes
    those of his last such roll when it was undone — another check made of the same form
    (a row changed, «n», another character and back, a restart) rolls no new dice while
    an undone roll is his last. His last roll standing, it has none to give. A later move
    of a check whose roll took another's dice (:func:`first_roll`) takes that check's
    dice of the same move (Risk, energy after the roll).
    """
    found, last, source = _read(world, check, move, event, roller)
    if found is not None or _hops > HOPS:
        return found
    if last is not None and last.undone:
        return earlier_dice(world, str(last.data.get("check", "")), move, event, "", _hops + 1)
    if move > 0 and source:
        return earlier_dice(world, source, move, event, "", _hops + 1)
    return None


def first_roll(world: World, check: str, event: str, roller: str) -> tuple[list[Any] | None, str]:
    """A first roll's earlier dice (:func:`earlier_dice`) and the check they came from when
    it is another ("": its own, or none) — the roll's line keeps that (``dice_of``) for the
    moves after it. One pass over the Журнал where the dice are the check's own."""
    found, last, _ = _read(world, check, 0, event, roller)
    if found is not None or last is None or not last.undone:
        return found, ""
    source = str(last.data.get("check", ""))
    return earlier_dice(world, source, 0, event, "", 1), source


#: How many checks one roll's dice may be followed through (each took the one before's).
HOPS = 20


def _read(
    world: World, check: str, move: int, event: str, roller: str
) -> tuple[list[Any] | None, LogEntry | None, str]:
    """One pass over the Журнал: ``check``'s undone dice of the move (read together), the
    roller's newest first roll of another check, and whose dice ``check``'s roll took."""
    found: list[Any] | None = None
    last: LogEntry | None = None
    source = ""
    for entry in world.journal(JOURNAL_WINDOW):  # the newest first
        data = entry.data
        if data.get("check") == check and data.get("move") == 0 and data.get(DICE_OF):
            source = source or str(data[DICE_OF])
        if data.get("move") != move or data.get("event") != event:
            continue
        if data.get("check") == check:
            dice = data.get(DICE)
            # a roll that threw none (Судьба's success) has none to give back
            if entry.undone and isinstance(dice, list) and dice:
                found = list(dice) if found is None else _lengthened(found, dice)
        elif roller and last is None and data.get(ROLLER) == roller:
            last = entry
    return found, (last if move == 0 else None), source


def _lengthened(dice: list[Any], older: list[Any]) -> list[Any]:
    """``dice`` with what an older roll of the same move threw beyond them: each pool's faces
    (a list of lists: one per side or throw) or the faces themselves, where the older ones
    begin with these (every roll made again began with the dice before it)."""
    if all(isinstance(d, list) for d in (*dice, *older)):
        pools = [_lengthened(mine, had) for mine, had in zip(dice, older, strict=False)]
        return pools + [list(d) for d in older[len(dice) :]]
    if len(older) > len(dice) and list(older[: len(dice)]) == dice:
        return list(older)
    return dice


def stamped(
    data: Mapping[str, Any],
    check: str,
    move: int,
    dice: Sequence[Any],
    roller: str = "",
    dice_of: str = "",
) -> dict[str, Any]:
    """A Журнал line's data with the check it belongs to, its move number and its dice (and,
    for a first roll, its character: ``roller``, and the check whose undone dice it took:
    ``dice_of``, :func:`earlier_dice`)."""
    found = {**data, "check": check, "move": move, DICE: list(dice)}
    if roller:
        found[ROLLER] = roller
    if dice_of:
        found[DICE_OF] = dice_of
    return found


@dataclass(frozen=True)
class Offer:
    """The open check as its character's seat sees it: what a player may ask now."""

    id: str
    character: str
    stage: str  # "before", "rolled" or "done"
    kinds: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    #: What each choice is worth («лучше 41 %, хуже 23 %»), parallel to ``choices``.
    odds: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The offer as the seats' protocol carries it."""
        return {
            "id": self.id,
            "character": self.character,
            "stage": self.stage,
            "kinds": list(self.kinds),
            "choices": list(self.choices),
        }
