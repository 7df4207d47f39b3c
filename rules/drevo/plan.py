"""Plan a Древо combat exchange: which check, which traits, which modifiers, who can hurt whom.

One exchange is one attacker's action against one defender's answer at a distance. The plan
decides, per the seed's «Бой» sections, between an opposed check (melee, point-blank shots,
a defence against a ranged attack), a one-sided check (a defenceless target) and two
one-sided checks (two shooters at range), or refuses with a Russian message that says what
to do. What an exchange is made of (distances, actions, fighters, the plan's sides) is
``rules.drevo.exchange``; resolution lives in ``rules.drevo.resolve``.

Choices where the seed is silent:

* «вплотную» (close) is melee range; a shot there is point-blank; «близко» (near) is the
  close ranged distance; both take the −2 (Легко) of a defenceless target.
* At point blank any answer is an opposed check (the seed: «в ближнем бою каждый участник
  имеет возможность помешать выстрелу»), a shield against a firearm included; parrying
  stays only against thrown weapons and arrows (never bullets, never a melee blow, which is
  answered by fighting back).
* A bare-handed fighter against a melee weapon gets only the bare-hands penalty (−1 / −2),
  not the МУ comparison on top: the specific rule replaces the general one.
* A defender who cannot act (heavily wounded, dead) is defenceless whatever was declared.
* A defence that does not work against the attack it meets (a shield against a bullet at
  range, a parry against a blow or a bullet, a shield without a shield, a counter-blow that
  does not reach) never cancels the attack: the target «не может … защищаться», so the
  attack is the one-sided check of «Нападение на беззащитного», and the plan's first note
  says why. Only the attack itself can be refused (``action_problem``), and the GM may set
  aside what the seed rules out «как правило» (``Action.gm_exception``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from rules.drevo.check import Modifier
from rules.drevo.exchange import (
    ACTION_KINDS,
    ATTACK_KINDS,
    DISTANCES,
    Action,
    ExchangePlan,
    Fighter,
    PlanSide,
    defenceless_melee_difficulty,
    distances,
)
from rules.drevo.ladder import difficulty_name
from rules.drevo.odds import one_sided_odds, opposed_odds
from rules.drevo.settings import DrevoSettings
from rules.drevo.traits import TraitChoice, choose_trait
from rules.drevo.weapons import BARE_HANDS, Weapon
from rules.drevo.wounds import level_name
from rules.errors import RulesError
from rules.modifiers import signed


def exchange_odds(plan: ExchangePlan, fate: frozenset[str] = frozenset()) -> dict[str, Fraction]:
    """Return the exact chance of each outcome of ``plan`` (``fate``: roles using Судьба).

    Keys are ``EXCHANGE_OUTCOMES[plan.kind]``; the values sum to exactly 1.
    """
    if plan.kind == "opposed":
        odds = opposed_odds(plan.opposed_check(fate))
        return {"attacker_wins": odds["win"], "tie": odds["tie"], "defender_wins": odds["lose"]}
    hits = []
    for check in plan.one_sided_checks(fate):
        odds = one_sided_odds(check)
        hits.append(odds["crit_success"] + odds["success"])
    if plan.kind == "one_sided":
        return {"hit": hits[0], "miss": 1 - hits[0]}
    a, d = hits
    return {
        "attacker_hits": a * (1 - d),
        "both_hit": a * d,
        "neither": (1 - a) * (1 - d),
        "defender_hits": (1 - a) * d,
    }


def _hard_problem(kind: str, chosen: Weapon | None, held: Weapon | None) -> str:
    """Return why the weapon makes the action impossible (no GM exception helps), or ""."""
    if kind == "melee" and chosen is not None and chosen.kind != "melee":
        return f"«{chosen.name}» — не оружие ближнего боя; выберите другое или бейтесь без оружия."
    if kind == "shoot" and (held is None or held.kind not in ("bow", "firearm")):
        return "для стрельбы выберите лук, арбалет или огнестрел."
    if kind == "throw" and (
        held is None or held.kind not in ("thrown", "melee") or held.bare_hands
    ):
        return "выберите, что метать (дротик, нож, топор…)."
    return ""


def action_problem(
    action: Action, distance: str, carried: Sequence[Weapon] | None = None
) -> tuple[str, bool]:
    """Return why ``action`` cannot be declared at ``distance``, and whether the GM may allow it.

    Checked when the action is declared, not at the dice (seed, «Стандартные действия в бою»).

    Args:
        action: the declared action with its chosen weapon (``None``: the fighter's own).
        distance: one of ``DISTANCES``.
        carried: the weapons on the fighter's sheet (a shield needs one of kind ``shield``);
            ``None`` counts only the action's weapon.

    Returns:
        ``("", True)`` when the action is fine; else a Russian reason and ``True`` when it is
        a rule the seed leaves to the GM («исключения определяет ведущий»): melee beyond
        «вплотную», throwing far, a shield without a shield, parrying without the ability or
        without a melee weapon. A missing weapon to shoot or throw is ``False``.

    Raises:
        RulesError: an unknown distance.
    """
    if distance not in DISTANCES:
        raise RulesError(f"Неизвестная дистанция {distance!r}: одна из {', '.join(DISTANCES)}.")
    kind, chosen = action.kind, action.weapon
    kit = tuple(carried) if carried is not None else ((chosen,) if chosen else ())
    hard = _hard_problem(kind, chosen, chosen or next(iter(kit), None))
    if hard:
        return hard, False
    dist = distances()[distance]
    if kind == "melee" and distance != "close":
        return "ближний бой только вплотную — подойдите или стреляйте/метайте.", True
    if kind == "throw" and not dist.throw:
        return (
            f"метание на дистанцию «{dist.name}», как правило, невозможно "
            "(исключения — на усмотрение ведущего).",
            True,
        )
    if kind == "shield" and not any(w.kind == "shield" for w in (*kit, chosen) if w):
        return "нет щита — закрыться нечем; уклоняйтесь.", True
    if kind == "parry":
        held = chosen if chosen is not None else next((w for w in kit if w.kind == "melee"), None)
        if held is None or held.kind != "melee" or held.bare_hands:
            return "отбить летящее оружие можно только оружием ближнего боя.", True
        if not action.parry_ability:
            return (
                "чтобы отбивать летящее оружие, нужно особое умение (отметьте его на листе "
                "персонажа, если ведущий его признаёт) — иначе уклоняйтесь или закрывайтесь "
                "щитом.",
                True,
            )
    return "", True


def _resolve_weapon(fighter: Fighter, action: Action) -> Action:
    """Fill in the weapon an action uses, or refuse one that cannot be used at all."""
    kind, chosen = action.kind, action.weapon
    held = chosen or fighter.weapon
    hard = _hard_problem(kind, chosen, held)
    if hard:
        raise RulesError(f"{fighter.name}: {hard}")
    if kind == "melee":
        weapon = held if held is not None and held.kind == "melee" else BARE_HANDS
        return replace(action, weapon=weapon)
    if kind in ("shoot", "throw"):
        return replace(action, weapon=held)
    if kind == "parry":
        usable = held is not None and held.kind == "melee" and not held.bare_hands
        return replace(action, weapon=held if usable else BARE_HANDS)
    if kind == "shield":
        return replace(action, weapon=held if held is not None and held.kind == "shield" else None)
    return replace(action, weapon=None)


def _trait(fighter: Fighter, action: Action, campaign: DrevoSettings | None) -> TraitChoice:
    if fighter.trait_choice is not None:
        return fighter.trait_choice
    if fighter.trait is not None:
        return TraitChoice(
            fighter.trait_name or "черта", fighter.trait, "skill", "значение задал ведущий"
        )
    if fighter.sheet is None:
        raise RulesError(f"{fighter.name}: нет листа персонажа — задайте значение черты вручную.")
    return choose_trait(fighter.sheet, action.kind, action.weapon, campaign=campaign)


def _wound_modifier(fighter: Fighter) -> tuple[Modifier, ...]:
    track = fighter.wounds
    if track.penalty == 0 or track.worst is None:
        return ()
    return (Modifier(track.penalty, f"рана: {level_name(track.worst)}"),)


def _melee_modifiers(mine: Weapon, theirs: Weapon) -> tuple[Modifier, ...]:
    """Weapon modifiers for one side of melee against melee (seed: «Бой. Нюансы»)."""
    if mine.bare_hands:
        if theirs.bare_hands or theirs.damage_mod < 1:
            return ()
        penalty = -1 if theirs.damage_mod == 1 else -2
        return (Modifier(penalty, f"без оружия против оружия с МУ {theirs.damage_mod}"),)
    if theirs.bare_hands:
        return ()
    if theirs.damage_mod - mine.damage_mod >= 2:
        text = f"противник вооружён лучше: МУ {theirs.damage_mod} против {mine.damage_mod}"
        return (Modifier(-1, text),)
    return ()


def _answer_problem(defence: Action, attack: Action, distance: str) -> str:
    """Return why ``defence`` does not work against ``attack`` (seed, «В дистанционном бою»)."""
    ranged = distance != "close"
    weapon = attack.weapon
    if defence.kind == "parry":
        if attack.kind == "melee":
            return "отбивают только летящее оружие, а не удар в ближнем бою"
        if weapon is not None and weapon.kind == "firearm":
            return "пулю отбить нельзя"
    if defence.kind == "shield" and ranged and weapon is not None and weapon.kind == "firearm":
        return "щит, как правило, не останавливает пулю"
    if defence.kind == "melee" and ranged:
        return f"ударом в ближнем бою не достать на дистанции «{distances()[distance].name}»"
    if defence.kind == "throw" and not distances()[distance].throw:
        return f"метнуть на дистанцию «{distances()[distance].name}», как правило, нельзя"
    return ""


def plan_exchange(
    attacker: Fighter,
    attack: Action,
    defender: Fighter,
    defence: Action | None,
    distance: str,
    *,
    campaign: DrevoSettings | None = None,
) -> ExchangePlan:
    """Plan one exchange per the seed's standard combat actions.

    Args:
        attacker: who attacks.
        attack: melee, throw or shoot.
        defender: who is attacked.
        defence: the defender's answer; ``None`` or kind ``"none"``: no defence.
        distance: one of ``DISTANCES``.
        campaign: the campaign's settings (absent skill) for the automatic trait choice.

    Returns:
        The plan: check kind, traits, modifiers, who may deal damage, exact odds.

    Raises:
        RulesError: an attack that cannot be made (melee beyond «вплотную» or a throw far
            away without the GM's exception, nothing to shoot or throw with, an attacker who
            cannot act, …); the message says what to choose instead. A defence that does not
            work against this attack (a shield against a bullet, a parry against a blow, a
            shield without a shield) never raises: the attack is then a one-sided check
            against a defenceless target («Нападение на беззащитного»), and the plan's first
            note says why.
    """
    if distance not in DISTANCES:
        raise RulesError(f"Неизвестная дистанция {distance!r}: одна из {', '.join(DISTANCES)}.")
    defence = defence or Action("none")
    if attack.kind not in ATTACK_KINDS:
        raise RulesError(
            f"{attacker.name}: нападающий должен атаковать — ближний бой, метание или стрельба."
        )
    if defence.kind not in ACTION_KINDS:
        raise RulesError(
            f"{defender.name}: нестандартное действие решает ведущий — назначьте проверку вручную."
        )
    if not attacker.wounds.can_act:
        state = level_name(attacker.wounds.worst or "heavy")
        raise RulesError(f"{attacker.name} не может ничего делать ({state}): выберите другого.")
    dist = distances()[distance]
    notes: list[str] = []
    problem, may_allow = action_problem(attack, distance, _kit(attacker, attack))
    if problem and not (may_allow and attack.gm_exception):
        raise RulesError(f"{attacker.name}: {problem}")
    if problem:
        notes.append(f"Исключение ведущего: {attacker.name} — {problem}")
    attack = _resolve_weapon(attacker, attack)
    helpless = ""
    if defence.kind == "none":
        helpless = f"{defender.name} не защищается — односторонняя проверка."
    elif not defender.wounds.can_act:
        state = level_name(defender.wounds.worst or "heavy")
        helpless = f"{defender.name} не может защищаться ({state}) — беззащитен."
    else:
        problem, may_allow = action_problem(defence, distance, _kit(defender, defence))
        if problem and not (may_allow and defence.gm_exception):
            helpless = f"Нападение на беззащитного: {defender.name} — {problem.rstrip('.')}."
        else:
            if problem:
                notes.append(f"Исключение ведущего: {defender.name} — {problem}")
            defence = _resolve_weapon(defender, defence)
            answer = _answer_problem(defence, attack, distance)
            if answer:
                helpless = f"Нападение на беззащитного: {defender.name} — {answer}."
    if helpless:
        difficulty = (
            defenceless_melee_difficulty() if attack.kind == "melee" else dist.ranged_difficulty
        )
        att = PlanSide(
            "attacker",
            attacker,
            attack,
            _trait(attacker, attack, campaign),
            _wound_modifier(attacker) + attacker.modifiers,
            True,
            True,
            difficulty,
        )
        dfn = PlanSide("defender", defender, Action("none"), None, (), False, False)
        notes.insert(0, helpless)
        notes.append(f"Сложность {signed(difficulty)} ({difficulty_name(difficulty)}).")
        return _plan("one_sided", distance, att, dfn, notes)
    ranged = distance != "close"
    att_mods = _wound_modifier(attacker)
    def_mods = _wound_modifier(defender)
    if attack.kind == "melee" and defence.kind == "melee":
        a_weapon, d_weapon = attack.weapon or BARE_HANDS, defence.weapon or BARE_HANDS
        att_mods += _melee_modifiers(a_weapon, d_weapon)
        def_mods += _melee_modifiers(d_weapon, a_weapon)
    att_mods += attacker.modifiers
    def_mods += defender.modifiers
    att_trait = _trait(attacker, attack, campaign)
    def_trait = _trait(defender, defence, campaign)
    both_attack = defence.kind in ATTACK_KINDS
    if ranged and both_attack:
        diff = dist.ranged_difficulty
        notes.append(
            "Оба стреляют/метают на расстоянии: помешать друг другу нельзя — "
            f"две односторонние проверки, сложность {signed(diff)} ({difficulty_name(diff)})."
        )
        att = PlanSide("attacker", attacker, attack, att_trait, att_mods, True, True, diff)
        dfn = PlanSide("defender", defender, defence, def_trait, def_mods, True, True, diff)
        return _plan("two_one_sided", distance, att, dfn, notes)
    if both_attack:
        notes.append("Встречная проверка: победитель наносит урон, ничья — никто не пострадал.")
    else:
        notes.append(
            "Встречная проверка: урон может нанести только нападающий; "
            "победа в защите урона не наносит."
        )
    att = PlanSide("attacker", attacker, attack, att_trait, att_mods, True, True)
    dfn = PlanSide("defender", defender, defence, def_trait, def_mods, True, both_attack)
    return _plan("opposed", distance, att, dfn, notes)


def _kit(fighter: Fighter, action: Action) -> tuple[Weapon, ...]:
    """The weapons a fighter has for an action: the chosen one, else the one in hand."""
    held = action.weapon or fighter.weapon
    return (held,) if held is not None else ()


def _plan(kind: str, distance: str, att: PlanSide, dfn: PlanSide, notes: list[str]) -> ExchangePlan:
    plan = ExchangePlan(kind, distance, att, dfn, tuple(notes), {})
    return replace(plan, odds=exchange_odds(plan))
