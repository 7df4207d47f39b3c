"""Effects and the round tracker ↔ the campaign: the store documents, and the one hook every
builder calls for the active modifiers of a character.

* ``effects`` (doc): :class:`rules.effects.EffectSet` — the effects and the scene clock;
* ``rounds`` (doc): :class:`rules.rounds.Tracker` — the IDE4 / Старатели / Мир Тьмы fight
  (the steps on both: :mod:`tui.table.rounds`, :mod:`tui.table.effects`);
* a character's harm, as its system's round-tracker hook keeps it
  (``tui/systems/<name>/rounds.py``: IDE4's and Старатели's note, Мир Тьмы's health track),
  and the dice penalty it gives (:func:`harm_modifier`).

A check's view reads a character's active modifiers from its world (:func:`character_modifiers`
for the store's) and shows :func:`odds_note` under its odds, through its system's own
``effects_note`` (``tui/systems/<name>/check/view.py``: what «success» means is the system's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, TypeVar

from rules.effects import Effect, EffectSet, active_modifiers, remaining_text, rounds_left
from rules.errors import RulesError
from rules.modifiers import Modifier
from rules.systems import exchanges
from tui import registry, words
from tui.store import Character

EFFECTS_DOC = "effects"
ROUNDS_DOC = "rounds"

T = TypeVar("T")


def left_text(effect: Effect, round_now: int, minute_now: int, names: dict[str, str]) -> str:
    """Return what is left of an effect as the screen says it: «ещё 3 раунда» (the rules'
    ``remaining_text`` with the count in words, tui/words.py), «до конца хода: Гриша»."""
    if effect.duration == "rounds" and effect.expires is not None:
        return f"ещё {words.rounds(rounds_left(effect, round_now))}"
    return remaining_text(effect, round_now, minute_now, names)


def load_effects(store: Any) -> EffectSet:
    """Return the campaign's effects (an empty set if the document is missing or damaged)."""
    try:
        return EffectSet.from_dict(store.get_doc(EFFECTS_DOC))
    except RulesError:
        return EffectSet()


def current_round(system: str, get_doc: Any) -> int:
    """Return the fight's round now (0 outside a fight): the tracker's, or the encounter's of a
    fight of exchanges (``rules.encounter``: the fight kind's document, not one system's)."""
    if exchanges(system):
        doc = get_doc("encounter") or {}
        value = doc.get("round", 0) if doc.get("phase", "setup") != "setup" else 0
        if not isinstance(value, int):
            return 0
        if doc.get("phase") == "resolve" and _round_is_over(doc):
            # Between rounds: an effect of «2 раунда» added now must last the next two rounds
            # of play, not end with the round that is already over.
            return value + 1
        return value
    from rules.rounds import Tracker

    try:
        doc = get_doc(ROUNDS_DOC)
        return Tracker.from_dict(doc).round if doc else 0
    except RulesError:
        return 0


def _round_is_over(doc: dict[str, Any]) -> bool:
    """Whether every exchange of the Древо round in ``doc`` is resolved."""
    from rules.encounter import Encounter

    try:
        return not Encounter.from_dict(doc).pending()
    except (RulesError, TypeError, ValueError, KeyError):
        return False


def party_tracker(t: Any, characters: dict[str, Character]) -> Any:
    """Return the round tracker ``t`` as the party stands: entrants whose characters were
    removed dropped, renamed ones under their new names (the GM's Бой tab and the players'
    view show the same order)."""
    for e in t.entrants:
        c = characters.get(e.id)
        if c is None:
            t = t.without(e.id)
        elif c.name != e.name:
            t = t.with_entrant(replace(e, name=c.name))
    return t


def harm_modifier(system: str, c: Character) -> Modifier | None:
    """Return the dice penalty of ``c``'s harm as a modifier (Мир Тьмы's health), or None:
    its system's round-tracker hook says (a system without one: None)."""
    hook = registry.rounds_hook(system)
    return hook.penalty(c) if hook is not None else None


def character_modifiers(store: Any, c: Character | None) -> tuple[Modifier, ...]:
    """Return the active modifiers on ``c``'s checks: its effects, the scene's, and its harm's
    penalty (Мир Тьмы's health) — each with its reason."""
    if c is None:
        return ()
    mods = active_modifiers(load_effects(store), c.id)
    wound = harm_modifier(store.campaign.system, c)
    return (*mods, wound) if wound else mods


def _percent(p: Fraction | float) -> str:
    return f"{round(float(p) * 100)} %"


def odds_note(mods: Sequence[Modifier], before: Fraction | float, after: Fraction | float) -> str:
    """Return «с эффектом «Оглушён −1»: 38 % → 27 %» (``""`` when no modifier applies).

    Args:
        mods: the modifiers :func:`effect_modifiers` returned.
        before: the chance of success without them; after: with them.
    """
    if not mods:
        return ""
    named = ", ".join(f"«{_label(m)}»" for m in mods)
    if all(m.reason.startswith("эффект «") for m in mods):
        words = "с эффектом" if len(mods) == 1 else "с эффектами"
    else:  # the Мир Тьмы health penalty is no effect
        words = "с учётом"
    return f"{words} {named}: {_percent(before)} → {_percent(after)}"


def _label(m: Modifier) -> str:
    reason = m.reason
    if reason.startswith("эффект «") and reason.endswith("»"):
        reason = reason[len("эффект «") : -1]
    value = f"+{m.value}" if m.value > 0 else f"−{-m.value}"
    return f"{reason} {value}"


def compared_note(
    mods: Sequence[Modifier],
    subject: T,
    bare: Callable[[T], T],
    success: Callable[[T], Fraction | float],
) -> str:
    """Return :func:`odds_note` of ``subject`` with its modifiers against ``bare(subject)``
    without ``mods`` (``""``: none apply, or the rules refuse the check without them).

    Args:
        success: the system's chance of success of a check (its rules' odds).
    """
    if not mods:
        return ""
    try:
        return odds_note(mods, success(bare(subject)), success(subject))
    except RulesError:
        return ""


def without(modifiers: Sequence[Modifier], effect: Sequence[Modifier]) -> tuple[Modifier, ...]:
    """Return ``modifiers`` minus one of each modifier in ``effect`` (matched by value and
    reason; IDE4's difficulty steps have the opposite sign, so both are tried)."""
    left = list(modifiers)
    for m in effect:
        for candidate in (m, Modifier(-m.value, m.reason)):
            if candidate in left:
                left.remove(candidate)
                break
    return tuple(left)
