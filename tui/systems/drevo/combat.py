"""Between the party (store characters) and the Древо combat rules (fighters, wound tracks)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from rules.encounter import Declaration, Pairing
from rules.errors import RulesError
from rules.modifiers import Modifier
from tui.bridge.sheets import track_of as track_of  # re-exported: the sheet needs no combat
from tui.store import Character, Skill, new_id

NO_WEAPON = drevo.BARE_HANDS.name


def with_track(c: Character, track: drevo.WoundTrack) -> Character:
    """Return the character carrying ``track``."""
    return c.edit_sheet(DrevoSheet, wounds=dict(track.counts), dead=track.dead)


def can_act(c: Character | None) -> bool:
    """Whether the character may declare an action (not heavily wounded, not dead)."""
    if c is None:
        return False
    if not c.drevo.dead and not any(c.drevo.wounds.values()):
        return True  # unhurt (no track built: a roster of 5,000 asks for each)
    return track_of(c).can_act


def weapon_names(c: Character) -> list[str]:
    """Return the character's weapons that the catalogue knows, then bare hands."""
    known = drevo.weapons()
    return [w for w in c.weapons if w in known and w != NO_WEAPON] + [NO_WEAPON]


def weapon_of(name: str | None) -> drevo.Weapon:
    """Return a catalogue weapon (bare hands for None)."""
    return drevo.weapon(name) if name else drevo.BARE_HANDS


def fighter(c: Character, modifiers: tuple[Modifier, ...] = ()) -> drevo.Fighter:
    """Return the rules' view of a character in a fight (``modifiers``: its active effects)."""
    return drevo.Fighter(c.name, sheet=c, wounds=track_of(c), modifiers=modifiers)


def action_of(d: Declaration, c: Character | None = None) -> drevo.Action:
    """Return the rules' action for a declaration (parry needs the sheet's ability)."""
    return drevo.Action(
        d.action,
        weapon=weapon_of(d.weapon),
        parry_ability=c is not None and c.drevo.parry_ability,
        gm_exception=bool(d.exception),
    )


def carried(c: Character) -> list[drevo.Weapon]:
    """Return the catalogue weapons on the character's sheet."""
    known = drevo.weapons()
    return [known[w] for w in c.weapons if w in known]


def declaration_problem(d: Declaration, c: Character) -> tuple[str, bool]:
    """Return why the declaration breaks a rule of the seed (and whether the GM may allow it).

    Non-attacks other than the standard defences («Другое действие», «Ничего») are never
    refused. Returns ``("", True)`` for a legal declaration.
    """
    if d.action not in drevo.ACTION_KINDS or d.action == "none":
        return "", True
    return drevo.action_problem(action_of(d, c), d.distance, carried(c))


def roles(pairing: Pairing, characters: dict[str, Character]) -> dict[str, str]:
    """Return the character ids of the exchange's attacker and defender.

    When both attack each other and the attacker fell earlier this round (heavily wounded or
    dead), the other one's attack still lands: the two swap roles.
    """
    attack, answer = pairing.attack, pairing.answer
    ids = {"attacker": attack.actor, "defender": attack.target or ""}
    attacker = characters.get(attack.actor)
    mutual = (
        answer is not None and answer.action in drevo.ATTACK_KINDS and answer.target == attack.actor
    )
    if mutual and attacker is not None and not can_act(attacker) and answer is not None:
        ids = {"attacker": answer.actor, "defender": attack.actor}
    return ids


def plan_for(
    pairing: Pairing,
    characters: dict[str, Character],
    wounds: dict[str, dict[str, int]] | None = None,
    effects: dict[str, list[list[Any]]] | None = None,
    engaged: Declaration | None = None,
) -> drevo.ExchangePlan:
    """Plan the exchange of a pairing; raises RulesError when the rules refuse the attack.

    A defence that does not work never raises: the plan is then one-sided (rules.drevo).
    ``wounds`` (id → counts) replaces the tracks: a rolled exchange is planned with the wounds
    its fighters had at the roll, so its dice mean the same after the damage is written.
    ``effects`` (id → ``[[value, reason], …]``, see :func:`effects_now`) are the fighters'
    active effect modifiers, next to the wound penalty. ``engaged``: the defender's own
    attack on someone else this round, when it does not answer this one (he fights «беззащитен
    против остальных»): the plan says so.

    Several opponents (seed: «он может сражаться одним из двух способов»): a defender whose
    answer is his attack on a third fighter meets this attack with his one roll — it defends
    and deals this attacker no damage; at range it cannot hinder a shot or a throw, so the
    attack is one-sided.
    """
    if wounds:  # the roles too: this exchange's own damage must not swap a mutual attack's
        characters = {cid: _as_at(c, wounds.get(cid)) for cid, c in characters.items()}
    ids = roles(pairing, characters)
    attacker = characters.get(ids["attacker"])
    defender = characters.get(ids["defender"])
    if attacker is None or defender is None:
        raise RulesError("Участник схватки больше не в партии.")  # the screen names the key
    if track_of(defender).dead:
        raise RulesError(f"{defender.name} уже мёртв.")
    by_actor = {d.actor: d for d in (pairing.attack, pairing.answer) if d is not None}
    attack = by_actor[attacker.id]
    answer = by_actor.get(defender.id)
    elsewhere = answer is not None and answer.action in drevo.ATTACK_KINDS
    elsewhere = elsewhere and answer is not None and answer.target != attacker.id
    if elsewhere and pairing.attack.distance != "close":
        answer = None  # at range his blow or shot elsewhere cannot hinder this one
    defence = action_of(answer, defender) if answer is not None else None
    mods = effects or {}
    plan = drevo.plan_exchange(
        fighter(attacker, _modifiers(mods.get(attacker.id))),
        action_of(attack, attacker),
        fighter(defender, _modifiers(mods.get(defender.id))),
        defence,
        pairing.attack.distance,
    )
    other = by_actor.get(defender.id) if elsewhere else engaged
    if other is None or other.target is None:
        return plan
    foe = characters.get(other.target)
    foe_name = foe.name if foe is not None else "?"
    if plan.kind == "opposed" and elsewhere:
        note = (
            f"{defender.name} бьётся с другим противником ({foe_name}): тот же один бросок "
            "встречает и эту атаку (способ «бросок встречает и остальных»), но урона здесь "
            "не наносит."
        )
        only = (
            "Встречная проверка: урон может нанести только нападающий; "
            "победа в защите урона не наносит."
        )
        notes = tuple(only if n.startswith("Встречная проверка:") else n for n in plan.notes)
        return replace(
            plan, defender=replace(plan.defender, deals_damage=False), notes=(note, *notes)
        )
    how = "бросок встречает и остальных" if elsewhere else "беззащитен против остальных"
    note = (
        f"{defender.name} бьётся с другим противником ({foe_name}) — против этой атаки "
        f"({attacker.name}) защиты нет ({how})."
    )
    if elsewhere:
        note = (
            f"{defender.name} бьётся с другим противником ({foe_name}): на дистанции это "
            f"действие не мешает этой атаке ({attacker.name}) — односторонняя проверка."
        )
    plain = "не защищается — односторонняя проверка."
    notes = tuple(n for n in plan.notes if not n.endswith(plain))
    return replace(plan, notes=(note, *notes))


def effects_now(store: Any, ids: Any) -> dict[str, list[list[Any]]]:
    """Return the active effect modifiers of the characters ``ids`` (id → ``[[value,
    reason], …]``), as an exchange stores them at its roll (tui.bridge.effects)."""
    from tui.bridge.effects import character_modifiers

    by_id = {c.id: c for c in store.characters()}
    found = {cid: character_modifiers(store, by_id.get(cid)) for cid in ids}
    return {cid: [[m.value, m.reason] for m in mods] for cid, mods in found.items() if mods}


def _modifiers(stored: Any) -> tuple[Modifier, ...]:
    try:
        return tuple(Modifier(int(v), str(r)) for v, r in stored or ())
    except (TypeError, ValueError):
        return ()


def wounds_now(c: Character) -> dict[str, int]:
    """Return the character's wound counts with the death flag (``"dead"``: 0 or 1)."""
    return {**c.drevo.wounds, "dead": int(c.drevo.dead)}


def as_at(
    characters: dict[str, Character], wounds: dict[str, dict[str, int]] | None
) -> dict[str, Character]:
    """The characters as they were with ``wounds`` (id → counts; None: as they are)."""
    if not wounds:
        return characters
    return {cid: _as_at(c, wounds.get(cid)) for cid, c in characters.items()}


def _as_at(c: Character, wounds: dict[str, int] | None) -> Character:
    """Return the character with the wounds of ``wounds_now`` taken earlier."""
    if wounds is None:
        return c
    counts = {k: v for k, v in wounds.items() if k != "dead"}
    return with_track(c, drevo.WoundTrack.from_dict({**counts, "dead": bool(wounds.get("dead"))}))


def is_dead(c: Character | None) -> bool:
    """Whether the character is dead (Смерть on the track)."""
    return c is not None and track_of(c).dead


_SKILL = re.compile(r"^\s*(.+?)\s+([+\-−]?[0-9]{1,2})\s*$")  # not «\d»: it reads «٢» as 2


def parse_skills(text: str) -> tuple[Skill, ...]:
    """Parse ``"Драка 2, Уклонение 1"`` into skills; raises RulesError naming a bad item."""
    skills = []
    for index, raw in enumerate(filter(str.strip, re.split(r"[,;]", text)), start=1):
        match = _SKILL.match(raw)
        if match is None:
            raise RulesError(
                f"Навык {index} («{raw.strip()}»): нужно «название число», например «Драка 2»."
            )
        name, value = match.groups()
        skills.append(Skill(name.strip(), int(value.replace("−", "-"))))
    return tuple(skills)


def adhoc_npc(name: str, skills_text: str, weapon_name: str) -> Character:
    """Build an NPC added on the spot (it joins the party as an NPC)."""
    if not name.strip():
        raise RulesError("Введите имя НИП.")
    skills = parse_skills(skills_text)
    weapons = () if weapon_name == NO_WEAPON else (weapon_name,)
    return Character(
        id=new_id(),
        name=name.strip(),
        kind="npc",
        qualities={},
        skills=skills,
        weapons=weapons,
        notes="Добавлен в бою.",
    )
