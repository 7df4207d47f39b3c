"""Declarations at the table's pace: where each fighter's form starts, a round declared as
the last one in one step («как в прошлом раунде»), one declaration changed in place.

A fighter's form starts on his own last declaration (the previous round's, while its target
is still in the fight and alive), else on his weapon against the first opponent able to
fight — never on whoever declared before him.
"""

from __future__ import annotations

from dataclasses import replace

from rules import drevo
from rules.encounter import ATTACKS, Declaration, Encounter
from rules.errors import RulesError
from tui import words
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.steps import Fight, _line, declaration_problem, declare
from tui.systems.drevo.fight.text import names_of
from tui.systems.drevo.fight.view import can_act
from tui.systems.drevo.present import declaration_text
from tui.table.core import Line, Outcome, World, refuse


def opponents(enc: Encounter, world: World, character_id: str) -> list[str]:
    """The fighters ``character_id`` may strike: the other sides', alive and in the party,
    in the order of the round (those who can still fight first)."""
    me = enc.combatant(character_id)
    if me is None:
        return []
    found = [
        c.character_id
        for c in enc.combatants
        if c.side != me.side
        and c.character_id in world.characters
        and not bridge.is_dead(world.characters[c.character_id])
    ]
    able = [cid for cid in found if bridge.can_act(world.characters[cid])]
    return able + [cid for cid in found if cid not in able]


def _still_valid(enc: Encounter, world: World, d: Declaration) -> bool:
    actor = world.characters.get(d.actor)
    if actor is None or (d.weapon and d.weapon not in actor.weapons):
        return False
    if d.target is not None and d.target not in opponents(enc, world, d.actor):
        return False
    return True


def last_declaration(enc: Encounter, world: World, character_id: str) -> Declaration | None:
    """The fighter's own declaration of the last round, while it still applies."""
    for d in enc.previous:
        if d.actor == character_id and d.turns == 1 and _still_valid(enc, world, d):
            return replace(d, note="", exception="")
    return None


def suggestion(enc: Encounter, world: World, character_id: str) -> Declaration:
    """What the fighter's form starts on: his own last declaration, else his weapon against
    the first opponent (a melee weapon; bare hands without one)."""
    last = last_declaration(enc, world, character_id)
    if last is not None:
        return last
    actor = world.characters.get(character_id)
    foes = opponents(enc, world, character_id)
    if actor is None or not foes:
        return Declaration(character_id, "dodge")
    melee = [w for w in bridge.weapon_names(actor) if drevo.weapon(w).kind == "melee"]
    weapon = next((w for w in melee if w != bridge.NO_WEAPON), None)
    return Declaration(character_id, "melee", foes[0], weapon, others=drevo.fight_settings().others)


def why_not_repeated(enc: Encounter, world: World, character_id: str) -> str:
    """Why the fighter's declaration of the last round cannot be made again now."""
    last = next((d for d in enc.previous if d.actor == character_id), None)
    actor = world.characters.get(character_id)
    if last is None or actor is None:
        return "в прошлом раунде заявки не было"
    if last.turns != 1:
        return "прошлая заявка ещё идёт"
    if last.weapon and last.weapon not in actor.weapons:
        return f"оружия «{last.weapon}» больше нет на листе"
    if last.target is not None and last.target not in opponents(enc, world, character_id):
        target = world.characters.get(last.target)
        name = target.name if target is not None else names_of(enc).get(last.target, "?")
        if target is None:
            shown = declaration_text(last, names_of(enc))
            where = world.removed_where(last.target)
            return f"цель {name} удалена из партии{' ' + where if where else ''} («{shown}»)"
        state = words.wound_state(bridge.track_of(target)) if target is not None else ""
        return f"цель выбыла ({name}{', ' + state if state else ''})"
    problem = declaration_problem(enc, world, replace(last, note="", exception=""))[0]
    return problem or "она больше не подходит"


def repeat_round(enc: Encounter, world: World) -> Outcome[Fight]:
    """Declare, in one step, every fighter left to declare as in the last round («как в
    прошлом раунде»), in the order of the round; stops at the first who has no such
    declaration now (his target fell, he had none) — his form is next."""
    if enc.phase != "declare":
        return refuse(enc, "«Как в прошлом раунде» — во время заявок.")
    act = can_act(world)
    new = enc
    lines: list[Line] = []
    names: list[str] = []
    while (current := new.next_declarer(act)) is not None:
        last = last_declaration(new, world, current.character_id)
        if last is None or declaration_problem(new, world, last)[0]:
            break
        made = declare(new, world, last)
        if not made.ok or made.state is None:
            break
        new, lines = made.state, [*lines, *made.log]
        names.append(current.name)
        if new.phase != "declare":
            break
    if not names:
        who = enc.next_declarer(act)
        if who is None:
            return refuse(enc, "Все уже объявили действия — переходите к броскам.")
        if not any(d.actor == who.character_id for d in enc.previous):
            return refuse(enc, f"{who.name}: в прошлом раунде нет заявки, которую можно повторить.")
        why = why_not_repeated(enc, world, who.character_id)
        return refuse(enc, f"{who.name}: прошлую заявку не повторить — {why}.")
    left = new.next_declarer(act) if new.phase == "declare" else None
    notices: tuple[str, ...] = ()
    if left is not None:
        why = why_not_repeated(new, world, left.character_id)
        notices = (f"Дальше заявляет {left.name}: прошлую заявку не повторить — {why}.",)
    label = "Бой: заявки как в прошлом раунде (" + ", ".join(names) + ")"
    return Outcome(new, label, log=tuple(lines), notices=notices)


def redeclare(
    enc: Encounter, world: World, declaration: Declaration, *, allow: bool = False
) -> Outcome[Fight]:
    """Change one fighter's declaration of this round in place; the later ones stay (the GM
    corrects one). Only before the round's first dice."""
    actor = world.characters.get(declaration.actor)
    if actor is None:
        return refuse(enc, "Участника нет в партии.")
    if declaration.weapon and declaration.weapon not in actor.weapons:
        held = ", ".join(actor.weapons) or "нет оружия"
        return refuse(enc, f"У {actor.name} нет оружия «{declaration.weapon}» (на листе: {held}).")
    problem, may_allow = declaration_problem(enc, world, declaration)
    if problem and not (allow and may_allow):
        return refuse(enc, problem)
    declaration = replace(declaration, exception=problem)
    if declaration.action in ATTACKS and not declaration.others:
        declaration = replace(declaration, others=drevo.fight_settings().others)
    try:
        new = enc.redeclare(declaration)
    except RulesError as err:
        return refuse(enc, str(err))
    text = "Заявка изменена: " + declaration_text(declaration, names_of(enc))
    line = _line(new, actor.name, text, declaration=vars(declaration))
    return Outcome(new, f"Бой: заявка {actor.name} изменена", log=(line,))
