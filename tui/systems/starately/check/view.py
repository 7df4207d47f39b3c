"""What the Старатели builder shows, derived from the open check and the current sheets.

The rows (a characteristic and a skill the chosen character has — never the last character's),
the check they build, the formula, the exact odds and the Effect distribution, the rolled
result and what Risk is worth now: all from (state, world). A stored choice the sheet no
longer offers falls back to the sheet's first, and :attr:`StaratelyView.changes` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules import starately
from rules.errors import RulesError
from rules.modifiers import Modifier, parse_modifiers
from tui.bridge.effects import compared_note, without
from tui.present.rolls import percent, plain, signed
from tui.sanitize import plain as escape
from tui.store import Character
from tui.systems.ide4.check.text import chance
from tui.systems.starately.check import text as txt
from tui.systems.starately.check.state import Results, StaratelyCheck, results
from tui.table.check.base import character_gone, no_odds
from tui.table.core import World

ROWS = ("character", "characteristic", "skill", "difficulty", "boons", "banes")


@dataclass(frozen=True)
class Row:
    options: tuple[tuple[str, Any], ...]
    value: Any
    shown: bool = True

    @property
    def label(self) -> str:
        return next((lab for lab, v in self.options if v == self.value), "—")


def character_of(state: StaratelyCheck, world: World) -> Character | None:
    return world.characters.get(state.inputs.character) or next(
        iter(world.characters.values()), None
    )


def difficulty_options() -> tuple[tuple[str, int], ...]:
    return tuple((f"{d.name} {d.value}+", d.value) for d in starately.difficulties())


@dataclass(frozen=True)
class StaratelyView:
    """The open check as the builder shows it (everything derived, nothing kept)."""

    state: StaratelyCheck
    world: World
    character: Character | None
    rows: Mapping[str, Row]
    check: starately.Check | None
    error: str
    changes: tuple[str, ...]
    rolled: Results | None

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def tried_shown(self) -> bool:
        """The «Какой навык» field: only without the skill."""
        return self.check is not None and self.check.side.skill is None

    def formula(self) -> str:
        """«2d6 +1 против 8+ · DM +1, навык +2» (or the reason there is no check)."""
        check = self.check
        if check is None:
            return f"[$error]{escape(self.error)}[/]"
        side = check.side
        return (
            f"{plain(txt.dice_note(side))} {signed(side.bonus)} против {check.difficulty}+ · "
            f"DM {signed(side.dm)}, навык {signed(side.skill_modifier)}"
            + (f", мод. {signed(side.modifier_total)}" if side.modifiers else "")
        )

    def odds(self) -> Any:
        """The check's exact odds (None: the form gives no check — :meth:`odds_message`)."""
        return starately.check_odds(self.check) if self.check is not None else None

    def odds_message(self) -> str:
        """The sentence in place of the odds ("" when there are odds)."""
        return "" if self.check is not None else no_odds(self.state.inputs.mods)

    def notes(self) -> str:
        check, odds = self.check, self.odds()
        if check is None or odds is None:
            return ""
        c = self.character
        effects = self.world.modifiers(c.id) if c is not None else ()
        note = effects_note(effects, check)
        return (
            f"{txt.natural_note(check, odds)}\n"
            f"С Риском после провала: успех {percent(odds.with_risk)}"
            + (f"\n{note}" if note else "")
        )

    def effect_rows(self) -> list[Any]:
        check, odds = self.check, self.odds()
        return txt.effect_rows(check, odds) if check is not None and odds is not None else []

    # -- after the roll -----------------------------------------------------------------------

    def risk_refusal(self) -> str | None:
        """Why Risk cannot be declared now (None: it can)."""
        found = self.rolled
        if found is None or found.main is None:
            if self.state.rolled is not None and self.state.rolled.kind == "opposed":
                return "Риск — после провала проверки; у встречного броска его нет."
            return "Сначала бросьте проверку."
        assert self.state.rolled is not None and found.last is not None
        return starately.risk_refusal(found.last, "-", forbidden=self.state.rolled.risk_forbidden)

    def risk_odds(self) -> starately.RiskOdds | None:
        """What Risk is worth now (None when it cannot be declared)."""
        found = self.rolled
        if self.risk_refusal() is not None or found is None or found.main is None:
            return None
        return starately.risk_odds(found.main.check, found.main.effect)

    def risk_words(self) -> str:
        """«Риск: успех 42 %, провал хуже первого 30 %; цена — при любом исходе»."""
        odds = self.risk_odds()
        if odds is None:
            return ""
        main = self.rolled.main if self.rolled is not None else None
        effect = signed(main.effect) if main is not None else ""
        return (
            f"r — Риск: успех {chance(odds.better)}, провал хуже первого (Эффект ниже "
            f"{effect}) {chance(odds.worse)}; цену назначает ведущий, она платится при любом "
            "исходе"
        )

    def result_lines(self) -> list[str]:
        """The rolled record's lines (markup), then what Risk is worth, or the idle hint."""
        found, rolled = self.rolled, self.state.rolled
        if found is None or rolled is None:
            return [txt.IDLE]
        if rolled.kind == "opposed":
            lines = txt.opposed_lines(found.whole)
        elif rolled.kind == "chain":
            lines = txt.chain_lines(found.whole)
        elif rolled.kind == "group":
            lines = txt.group_lines(found.whole)
        else:
            lines = txt.result_lines(found.whole)
        if found.risk is not None and found.main is not None:
            lines = txt.risk_lines(found.main, found.risk)
        if gone := character_gone_of(self.state, self.world):  # a record now
            lines.append(f"[dim]{escape(gone)}[/]")
            return lines
        words = self.risk_words()
        if words:
            lines.append(f"[dim]{escape(words)}[/]")
        return lines


def view(state: StaratelyCheck, world: World) -> StaratelyView:
    """Derive everything the builder shows of ``state`` against the current sheets."""
    inputs = state.inputs
    c = character_of(state, world)
    changes: list[str] = []
    rows: dict[str, Row] = {}
    party = tuple(
        (f"{x.name} ({'игрок' if x.kind == 'pc' else 'НИП'})", x.id)
        for x in world.characters.values()
    )
    rows["character"] = Row(party, c.id if c is not None else None)
    characteristics = tuple(txt.characteristic_options(c)) if c is not None else ()
    names = [v for _, v in characteristics]
    characteristic = inputs.characteristic if inputs.characteristic in names else ""
    if inputs.characteristic and not characteristic and c is not None and state.rolled is None:
        changes.append(f"Характеристики «{inputs.characteristic}» нет у {c.name}.")
    rows["characteristic"] = Row(characteristics, characteristic or (names[0] if names else None))
    skills = tuple(txt.skill_options(c)) if c is not None else ()
    skill_values = [v for _, v in skills]
    if inputs.skill is None:
        skill = skill_values[0] if skill_values else txt.UNSKILLED
    elif inputs.skill in skill_values:
        skill = inputs.skill
    else:
        skill = txt.UNSKILLED
        if c is not None:
            changes.append(f"Навыка «{inputs.skill}» больше нет у {c.name} — без навыка.")
    rows["skill"] = Row(skills, skill)
    difficulty = inputs.difficulty or starately.default_difficulty()
    options = difficulty_options()
    if difficulty not in [v for _, v in options]:
        difficulty = starately.default_difficulty()
    rows["difficulty"] = Row(options, difficulty)
    counts = tuple(txt.COUNT_OPTIONS)
    rows["boons"] = Row(counts, min(max(inputs.boons, 0), 3))
    rows["banes"] = Row(counts, min(max(inputs.banes, 0), 3))
    check, error = None, ""
    if c is None:
        error = "Выберите персонажа: в партии пока никого нет."
    else:
        try:
            typed = parse_modifiers(inputs.mods)
            side = txt.side_for(
                c,
                rows["characteristic"].value,
                skill,
                boons=rows["boons"].value,
                banes=rows["banes"].value,
                modifiers=tuple(starately.Modifier(m.value, m.reason) for m in typed)
                + tuple(Modifier(m.value, m.reason) for m in world.modifiers(c.id)),
            )
            if skill == txt.UNSKILLED and inputs.tried.strip():
                side = replace(side, skill_name=inputs.tried.strip())
            check = starately.Check(side, difficulty)
        except RulesError as err:
            error = str(err)
    found = results(state.rolled) if state.rolled is not None else None
    if gone := character_gone_of(state, world):
        changes.append(gone)
    return StaratelyView(state, world, c, rows, check, error, tuple(changes), found)


def character_gone_of(state: StaratelyCheck, world: World) -> str:
    """What the rolled check says once another window removed its main roller's character
    ("" while he is in the party, or before a roll)."""
    rolled = state.rolled
    if rolled is None:
        return ""
    main = rolled.main
    if not main.character or main.character in world.characters:
        return ""
    return character_gone(world, main.character, main.side.name)


def effects_note(mods: Sequence[Modifier], check: Any) -> str:
    """«с эффектом …: P(успех) без → с» for a Старатели check and its roller's active
    modifiers ``mods`` (the table engine's: it reads them from its world)."""

    def success(c: Any) -> Fraction:
        return starately.check_odds(c).outcomes["success"]

    def bare(c: Any) -> Any:
        side = c.side
        return replace(c, side=replace(side, modifiers=without(side.modifiers, mods)))

    return compared_note(mods, check, bare, success)
