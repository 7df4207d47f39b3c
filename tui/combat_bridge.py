"""Between the party (store characters) and the Древо combat rules (fighters, wound tracks)."""

from __future__ import annotations

import re
from dataclasses import replace

from rules import drevo
from rules.encounter import Declaration, Pairing
from rules.errors import RulesError
from tui.sheets import track_of as track_of  # re-exported: the sheet needs no combat
from tui.store import Character, Skill, new_id

NO_WEAPON = drevo.BARE_HANDS.name


def with_track(c: Character, track: drevo.WoundTrack) -> Character:
    """Return the character carrying ``track``."""
    extra = {k: v for k, v in c.extra.items() if k != "dead"}
    if track.dead:
        extra["dead"] = True
    return replace(c, wounds=dict(track.counts), extra=extra)


def can_act(c: Character | None) -> bool:
    """Whether the character may declare an action (not heavily wounded, not dead)."""
    return c is not None and track_of(c).can_act


def weapon_names(c: Character) -> list[str]:
    """Return the character's weapons that the catalogue knows, then bare hands."""
    known = drevo.weapons()
    return [w for w in c.weapons if w in known and w != NO_WEAPON] + [NO_WEAPON]


def weapon_of(name: str | None) -> drevo.Weapon:
    """Return a catalogue weapon (bare hands for None)."""
    return drevo.weapon(name) if name else drevo.BARE_HANDS


def fighter(c: Character) -> drevo.Fighter:
    """Return the rules' view of a character in a fight."""
    return drevo.Fighter(c.name, sheet=c, wounds=track_of(c))


def action_of(d: Declaration, c: Character | None = None) -> drevo.Action:
    """Return the rules' action for a declaration (parry needs the sheet's ability)."""
    return drevo.Action(
        d.action,
        weapon=weapon_of(d.weapon),
        parry_ability=bool(c is not None and c.extra.get("parry_ability")),
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


def plan_for(pairing: Pairing, characters: dict[str, Character]) -> drevo.ExchangePlan:
    """Plan the exchange of a pairing; raises RulesError when the rules refuse the attack.

    A defence that does not work never raises: the plan is then one-sided (rules.drevo).
    """
    attack, answer = pairing.attack, pairing.answer
    attacker = characters.get(attack.actor)
    defender = characters.get(attack.target or "")
    if attacker is None or defender is None:
        raise RulesError("Участник схватки больше не в партии — пропустите схватку (s).")
    if answer is not None and not track_of(attacker).can_act and answer.target == attacker.id:
        # The attacker fell earlier this round; the counter-attack still lands on him.
        attack, answer, attacker, defender = answer, attack, defender, attacker
    defence = action_of(answer, defender) if answer is not None else None
    return drevo.plan_exchange(
        fighter(attacker),
        action_of(attack, attacker),
        fighter(defender),
        defence,
        attack.distance,
    )


_SKILL = re.compile(r"^\s*(.+?)\s+([+\-−]?\d{1,2})\s*$")


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
        fate=0,
        notes="Добавлен в бою.",
    )
