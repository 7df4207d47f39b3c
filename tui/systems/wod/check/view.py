"""What the Мир Тьмы builder shows, derived from the open check and the current sheets.

The rows (an attribute and a skill the chosen character has; a skill brings its usual
attribute — «Огнестрельное оружие» Ловкость, not the sheet's first), the pool, its exact odds
and distribution of successes, and the rolled record: all from (state, world).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules import wod
from rules.errors import RulesError
from rules.modifiers import Modifier
from tui import words
from tui.bridge.effects import compared_note, without
from tui.present.rolls import plain, signed, successes
from tui.sanitize import cell
from tui.sanitize import plain as escape
from tui.store import Character
from tui.systems.wod.check import text as txt
from tui.systems.wod.check.state import WodCheck, extended_of, results
from tui.systems.wod.rounds import ROUNDS
from tui.table.check.base import character_gone, no_odds
from tui.table.core import World

ROWS = ("character", "attribute", "skill", "again", "rote")
AGAIN = {"": None, "10": 10, "9": 9, "8": 8, "none": None}


@dataclass(frozen=True)
class Row:
    options: tuple[tuple[str, Any], ...]
    value: Any
    shown: bool = True

    @property
    def label(self) -> str:
        return next((lab for lab, v in self.options if v == self.value), "—")


def modifiers_of(world: World, c: Character) -> tuple[Modifier, ...]:
    """The active modifiers on ``c``'s pools: its effects, the scene's, its health penalty."""
    mods = tuple(world.modifiers(c.id))
    wound = ROUNDS.penalty(c)
    return (*mods, wound) if wound else mods


def default_attribute(c: Character, skill: str) -> str:
    """The skill's usual attribute when the sheet has it, else the sheet's first."""
    usual = wod.usual_attribute(skill) if skill else None
    if usual and usual in c.qualities:
        return usual
    return next(iter(c.qualities), "")


@dataclass(frozen=True)
class WodView:
    """The open check as the builder shows it (everything derived, nothing kept)."""

    state: WodCheck
    world: World
    character: Character | None
    rows: Mapping[str, Row]
    pool: wod.Pool | None
    error: str
    changes: tuple[str, ...]

    @property
    def phase(self) -> str:
        return self.state.phase

    def formula(self) -> str:
        if self.pool is None:
            return f"[$error]{escape(self.error)}[/]"
        return txt.pool_line(self.pool)

    def odds(self) -> Any:
        """The pool's exact odds (None: the form gives no pool — :meth:`odds_message`)."""
        return wod.pool_odds(self.pool) if self.pool is not None else None

    def odds_message(self) -> str:
        """The sentence in place of the odds ("" when there are odds)."""
        return "" if self.pool is not None else no_odds(self.state.inputs.mods)

    def notes(self) -> str:
        pool = self.pool
        if pool is None:
            return ""
        c = self.character
        note = effects_note(modifiers_of(self.world, c), pool) if c is not None else ""
        head = (
            txt.CHANCE_RULE
            if pool.chance
            else (
                f"Успех на {pool.success_threshold}+; от "
                f"{words.genitive(pool.exceptional, 'успеха', 'успехов')} — исключительный"
            )
        )
        return head + (f"\n{note}" if note else "")

    def result_lines(self) -> list[str]:
        """The rolled record (markup), or the idle hint."""
        rolled = self.state.rolled
        if rolled is None:
            return [txt.IDLE]
        found = results(rolled)
        gone = character_gone_of(self.state, self.world)
        if rolled.kind == "withdrawn":
            lines = ["Игрок отказался от броска на удачу: кубы не брошены (записано в Журнал)."]
        elif rolled.kind == "contest":
            lines = contest_lines(wod.resolve_contested(*found))
        elif rolled.kind == "extended":
            rows = self.character.name if gone and self.character is not None else ""
            lines = extended_lines(rolled, found, gone=bool(gone), rows=rows)
        else:
            lines = txt.result_lines(found[0])
        if gone:  # a record now
            lines.append(f"[dim]{escape(gone)}[/]")
        return lines


def contest_verdict(result: Any) -> str:
    a, b = result.a, result.b
    if result.winner is None:
        tie = successes(a.successes)
        return f"ничья: у обоих {tie} (настройка кампании: равенство — ничья)"
    win = a if result.winner == "a" else b
    how = "" if a.successes != b.successes else " (равенство: побеждает начавший)"
    return f"побеждает {win.pool.name}, перевес {result.margin}{how}"


def contest_lines(result: Any) -> list[str]:
    a, b = result.a, result.b
    lines = [*txt.result_lines(a)[:1], *txt.result_lines(b)[:1]]
    verdict = contest_verdict(result)
    lines.append(f"Успехов: {a.successes} против {b.successes} — [b]{plain(verdict)}[/b]")
    return lines


EXTENDED_STATUS = {
    "done": ("$success", "цель достигнута"),
    "failed": ("$error", "полный провал — действие сорвано, успехи потеряны"),
    "out_of_rolls": ("$warning", "броски кончились (предел кампании)"),
    "going": ("$text-muted", "Enter — следующий бросок · e — стоп"),
}


#: An extended action going on whose character another window removed: «e» stops it, and
#: Enter, refused, is not offered.
GONE_KEYS = "e — стоп"


def gone_keys(rows: str) -> str:
    """The keys of an extended action going on whose character was removed: «e» stops it;
    with ``rows``, the character the form's rows above are now (they read as if Enter rolled
    him into her action), how his check is made: a new one, «n» once it stopped."""
    who = plain(cell(rows))  # a 10,000-letter name pushed the rest below the screen
    return GONE_KEYS + (f", затем n — новая проверка ({who}, строки выше)" if rows else "")


def extended_lines(
    rolled: Any, found: list[Any], *, gone: bool = False, rows: str = ""
) -> list[str]:
    ext = extended_of(rolled)
    target = words.genitive(ext.target, "успеха", "успехов")
    if rolled.stopped:
        return [
            f"Продолжительное действие остановлено: {ext.successes} из "
            f"{words.genitive(ext.target, 'успеха', 'успехов')} за "
            f"{words.plural(len(ext.rolls), 'бросок', 'броска', 'бросков')}"
        ]
    if not found:
        keys = gone_keys(rows) if gone else "Enter — бросок · e — стоп"
        return [f"[b]Продолжительное[/b]: 0 из {target} · {keys}"]
    style, said = EXTENDED_STATUS[ext.status]
    if gone and ext.status == "going":
        said = gone_keys(rows)
    return [
        *txt.result_lines(found[-1]),
        f"[b]Продолжительное[/b]: {ext.successes} из {target}, бросок {len(found)} — "
        f"[{style}]{said}[/]",
    ]


def character_gone_of(state: WodCheck, world: World) -> str:
    """What the rolled check (an extended action too) says once another window removed its
    character ("" while he is in the party, or before a roll)."""
    rolled = state.rolled
    if rolled is None:
        return ""
    who = rolled.throws[0].character if rolled.throws else state.inputs.character
    if not who or who in world.characters:
        return ""
    if rolled.throws:
        return character_gone(world, who, rolled.throws[0].pool.name)
    # no roll of it stands (an extended action's first one undone): its first line names him
    lines = (e for e in world.journal(500) if e.data.get("check") == state.id and e.actor)
    return character_gone(world, who, next((e.actor for e in lines), None) or "этой проверки")


def view(state: WodCheck, world: World) -> WodView:
    """Derive everything the builder shows of ``state`` against the current sheets."""
    inputs = state.inputs
    c = world.characters.get(inputs.character) or next(iter(world.characters.values()), None)
    changes: list[str] = []
    if gone := character_gone_of(state, world):
        changes.append(gone)
    rows: dict[str, Row] = {}
    party = tuple(
        (f"{x.name} ({'игрок' if x.kind == 'pc' else 'НИП'})", x.id)
        for x in world.characters.values()
    )
    rows["character"] = Row(party, c.id if c is not None else None)
    skills = tuple(txt.skill_options(c)) if c is not None else ()
    values = [v for _, v in skills]
    if inputs.skill is None:
        skill = values[0] if values else txt.NO_SKILL
    elif inputs.skill in values:
        skill = inputs.skill
    else:
        skill = txt.NO_SKILL
        if c is not None:
            changes.append(f"Навыка «{inputs.skill}» больше нет у {c.name} — без навыка.")
    rows["skill"] = Row(skills, skill)
    attributes = tuple(txt.attribute_options(c)) if c is not None else ()
    names = [v for _, v in attributes]
    attribute = inputs.attribute if inputs.attribute in names else ""
    if not attribute and c is not None:
        attribute = default_attribute(c, skill)
    rows["attribute"] = Row(attributes, attribute or None)
    again = AGAIN.get(inputs.again, None) if inputs.again else wod.settings().again
    rows["again"] = Row(tuple(txt.AGAIN_OPTIONS), again)
    rows["rote"] = Row(tuple(txt.ROTE_OPTIONS), inputs.rote)
    pool, error = None, ""
    if c is None:
        error = "Выберите персонажа: в партии пока никого нет."
    else:
        try:
            made = txt.pool_for(c, attribute, skill, inputs.mods)
            pool = replace(
                made,
                modifiers=made.modifiers + modifiers_of(world, c),
                again=again,
                rote=inputs.rote,
            )
        except RulesError as err:
            error = str(err)
    return WodView(state, world, c, rows, pool, error, tuple(changes))


def again_text(value: Any) -> str:
    """The form's n-again as the state keeps it («» for the campaign's)."""
    return "none" if value is None else str(value)


__all__ = ["ROWS", "WodView", "again_text", "effects_note", "signed", "view"]


def effects_note(mods: Sequence[Modifier], pool: Any) -> str:
    """«с учётом …: P(успех) без → с» for a Мир Тьмы pool and its roller's active modifiers
    ``mods`` (health included; the table engine reads them from its world)."""

    def success(p: Any) -> Fraction:
        o = wod.pool_odds(p).outcomes
        return 1 - o["failure"] - o["dramatic_failure"]

    return compared_note(
        mods, pool, lambda i: replace(i, modifiers=without(i.modifiers, mods)), success
    )
