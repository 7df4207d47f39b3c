"""The steps of a Древо fight: ``step(fight, world, …) -> Outcome``, each one undo step.

A step reads the fight as it stands (:func:`current`: fighters deleted from the party dropped
at setup, the dice phase once everyone left has declared) and the world, and returns the new
fight, the sheets it changed and its Журнал lines, or the rules' refusal. The Бой tab's keys,
an accepted seat request and ``kubik fight`` make these same steps; the store writes each
outcome as one undo step (:func:`tui.table.commit.commit`).

The steps of one exchange are labelled «Раунд N, схватка M: …» (:attr:`ExchangeView.group`):
the app undoes and redoes them together. A roll is named by the fight, the round, the
pairing and the attempt (a tie rerolled is a new attempt); rolling the same attempt again —
after an undo — takes the dice from the Журнал, which is never undone, so the same exchange
never gets new dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules import drevo
from rules.drevo.sheet import DrevoSheet
from rules.effects import Boundary
from rules.encounter import ATTACKS, MAX_NOTE, Combatant, Declaration, Encounter
from rules.errors import RulesError
from rules.initiative import InitiativeRoll, roll_side_initiative
from tui import words
from tui.present.markup import plain_text
from tui.present.rolls import signed
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.exchange import Damage, Exchange, Shift
from tui.systems.drevo.fight.text import names_of, summary_text
from tui.systems.drevo.fight.view import (
    BEFORE_ROLL_ONLY,
    ExchangeView,
    can_act,
    default_encounter,
    earlier_dice,
    earlier_initiative,
    exchange_id,
    exchange_view,
    kept_dice,
    pruned,
    round_key,
    settled,
)
from tui.systems.drevo.present import declaration_text, result_lines
from tui.systems.drevo.sheet import wounds_text
from tui.table.core import Line, Outcome, World, refuse
from tui.table.effects import steps as effect_steps

Fight = Encounter | None
#: The fight document of the campaign.
DOC = "encounter"
NOTHING_TO_ROLL = "Сейчас нечего бросать: все схватки раунда разрешены."
NOT_AT_DICE = "Сейчас не фаза бросков: {now}."
DAMAGED = "Сохранённый бой повреждён — начните новый (x)."
PHASE_WORDS = {"setup": "бой не начат", "declare": "идут заявки", "resolve": "броски"}


def current(stored: Mapping[str, Any] | None, world: World) -> Encounter:
    """The fight as it stands, from its stored document (a fresh setup when there is none).

    Raises:
        RulesError: the stored fight is damaged (its message says to start a new one).
    """
    if not stored:
        return default_encounter(world.characters)
    try:
        enc = Encounter.from_dict(dict(stored))
    except (RulesError, TypeError, KeyError, ValueError, AttributeError) as err:
        raise RulesError(DAMAGED) from err
    return settled(pruned(enc, world), world)


def _line(enc: Encounter, actor: str | None, text: str, **data: Any) -> Line:
    return Line(actor, text, {"round": enc.round, **data})


# -- setup ---------------------------------------------------------------------------------------


def set_side(enc: Encounter, world: World, character_id: str, side: str | None) -> Outcome[Fight]:
    """Put a character on ``side`` (None: out of the fight) while the fight is set up."""
    c = world.characters.get(character_id)
    if c is None:
        return refuse(enc, "Такого персонажа нет в партии.")
    try:
        new = enc.without(character_id)
        if side:
            new = new.with_combatant(Combatant(c.id, c.name, side))
    except RulesError as err:
        return refuse(enc, str(err))
    return Outcome(new, f"Бой: {c.name} — {side or '—'}")


def add_npc(
    enc: Encounter, world: World, npc: Character, side: str = "Противники"
) -> Outcome[Fight]:
    """Add an NPC made on the spot: it joins the party and the side (one step)."""
    try:
        new = enc.with_combatant(Combatant(npc.id, npc.name, side))
    except RulesError as err:
        return refuse(enc, str(err))
    return Outcome(new, f"Бой: новый НИП {npc.name}", sheets=(npc,))


def _sides_that_cannot_fight(enc: Encounter, world: World) -> str:
    """Why the fight cannot start: a side with nobody able to act («тяжело ранен», «погиб»)
    rolls no initiative — it cannot fight at all ("" when every side can)."""
    for side in enc.sides:
        fighters = [c for c in enc.combatants if c.side == side]
        if fighters and not any(
            bridge.can_act(world.characters.get(c.character_id)) for c in fighters
        ):
            names = ", ".join(c.name for c in fighters)
            return (
                f"Сторона «{side}» не может сражаться: {names} — тяжело ранены или погибли. "
                "Уберите их из боя (Пробел)."
            )
    return ""


def roll_initiative(enc: Encounter, world: World) -> Outcome[Fight]:
    """Roll 4dF per side (ties reroll) and start round 1."""
    if why := _sides_that_cannot_fight(enc, world):
        return refuse(enc, why)
    earlier = earlier_initiative(enc.sides, world)
    try:
        if earlier is not None:  # rolled before an undo: the same dice (the Журнал keeps them)
            rolls = tuple(
                InitiativeRoll(str(i["side"]), tuple(_four(d) for d in i["rolls"]))
                for i in earlier["initiative"]
            )
        else:
            rolls = roll_side_initiative(list(enc.sides), world.dice.rng)
        how = [{"side": r.side, "rolls": [list(d) for d in r.rolls]} for r in rolls]
        same_fight = str(earlier.get("fight") or "") if earlier is not None else ""
        new = replace(
            enc.with_initiative([r.side for r in rolls], how), id=same_fight or world.new_id()
        )
    except (RulesError, TypeError, ValueError) as err:
        return refuse(enc, str(err))
    again = " (те же кубики, что до отмены)" if earlier is not None else ""
    text = f"Инициатива{again}: " + ", ".join(f"{r.side} {signed(r.final)}" for r in rolls)
    line = _line(new, None, text, initiative=how, fight=new.id)
    return Outcome(new, "Бой: инициатива", log=(line,))


def _four(dice: object) -> tuple[int, int, int, int]:
    """A 4dF roll as the Журнал keeps it (a list of four faces)."""
    a, b, c, d = kept_dice(dice)  # ValueError when not four
    return a, b, c, d


def ambush(enc: Encounter, world: World, order: Sequence[str]) -> Outcome[Fight]:
    """The GM sets the side order (an ambush) and round 1 starts."""
    if why := _sides_that_cannot_fight(enc, world):
        return refuse(enc, why)
    how = [{"side": s} for s in order]
    try:
        new = enc.with_initiative(list(order), how)
    except RulesError as err:
        return refuse(enc, str(err))
    # Set again after an undo: the same fight (its exchanges' dice are named by its id)
    earlier = earlier_initiative(enc.sides, world, ambush=True)
    same_fight = str(earlier.get("fight") or "") if earlier is not None else ""
    new = replace(new, id=same_fight or world.new_id())
    text = "Засада: порядок сторон — " + " → ".join(order)
    line = _line(new, None, text, initiative=how, ambush=True, fight=new.id)
    return Outcome(new, "Бой: порядок задан ведущим", log=(line,))


def start(
    enc: Encounter,
    world: World,
    sides: Mapping[str, str],
    order: Sequence[str] | None = None,
) -> Outcome[Fight]:
    """Set up a fight and start round 1 in one step: ``sides`` (character id → side), then
    initiative rolled (4dF a side) or, with ``order``, the GM's order (an ambush)."""
    if enc.phase != "setup":
        return refuse(enc, "Бой уже идёт: сначала завершите его.")
    fresh = Encounter()
    for cid, side in sides.items():
        c = world.characters.get(cid)
        if c is None:
            return refuse(enc, "Такого персонажа нет в партии.")
        if not bridge.can_act(c):
            state = words.wound_state(bridge.track_of(c))
            return refuse(enc, f"{c.name} не может сражаться ({state}).")
        if not side.strip():
            return refuse(enc, f"{c.name}: укажите сторону.")
        fresh = fresh.with_combatant(Combatant(cid, c.name, side.strip()))
    begun = ambush(fresh, world, order) if order is not None else roll_initiative(fresh, world)
    if not begun.ok:
        return refuse(enc, begun.refused)
    return replace(begun, label="Бой: начат")


# -- declarations -------------------------------------------------------------------------------


def declaration_problem(enc: Encounter, world: World, d: Declaration) -> tuple[str, bool]:
    """Why ``d`` breaks a rule of the seed, and whether the GM may allow it (``("", True)``
    for a legal declaration).

    A defence is first checked against the attacks already declared on the fighter this
    round: «Отбить» against a knife blow is refused with the true reason (a blow is not
    parried, a bullet neither), before the special ability is asked about.
    """
    actor = world.characters.get(d.actor)
    if actor is None:
        return "Участника нет в партии.", False
    if len(d.note) > MAX_NOTE:
        return note_too_long(d.note), False
    if d.action == "parry":
        against = [a for a in enc.all_declarations() if a.target == d.actor and a.action in ATTACKS]
        reasons = [_parry_problem(a, world) for a in against]
        if reasons and all(reasons):
            names = names_of(enc)
            pairs = zip(against, reasons, strict=True)
            who = ", ".join(f"{names.get(a.actor, '?')}: {r}" for a, r in pairs)
            return (
                f"отбить нечего: {who} — уклоняйтесь, закрывайтесь щитом или бейтесь в ответ.",
                True,
            )
    return bridge.declaration_problem(d, actor)


def note_too_long(note: str) -> str:
    """Why a declaration's ``note`` is refused: longer than :data:`MAX_NOTE`."""
    limit = words.genitive(MAX_NOTE, "знака", "знаков")
    return f"заметка к заявке — не больше {limit} (в ней {len(note)}): сократите её."


def _parry_problem(attack: Declaration, world: World) -> str:
    """Why a parry cannot meet ``attack`` (seed: «Отбить пулю, естественно, нельзя»; a blow
    in melee is answered by fighting back), else ""."""
    if attack.action == "melee":
        return "удар в ближнем бою не отбивают"
    weapon = drevo.weapons().get(attack.weapon or "")
    if weapon is not None and weapon.kind == "firearm":
        return "пулю отбить нельзя"
    return ""


def declare(
    enc: Encounter, world: World, declaration: Declaration, *, allow: bool = False
) -> Outcome[Fight]:
    """Record the next declarer's action; the last one moves the fight to the dice (one step).

    ``allow``: the GM's exception («!») for what the rules leave to the GM.
    """
    act = can_act(world)
    current_ = enc.next_declarer(act) if enc.phase == "declare" else None
    if current_ is None:
        if enc.phase == "declare":
            return refuse(enc, "Все уже объявили действия — переходите к броскам.")
        return refuse(enc, f"Сейчас нельзя объявлять действия: {PHASE_WORDS[enc.phase]}.")
    actor = world.characters.get(declaration.actor)
    if actor is not None and declaration.weapon and declaration.weapon not in actor.weapons:
        held = ", ".join(actor.weapons) or "нет оружия"
        return refuse(enc, f"У {actor.name} нет оружия «{declaration.weapon}» (на листе: {held}).")
    problem, may_allow = declaration_problem(enc, world, declaration)
    if problem and not (allow and may_allow):
        return refuse(enc, problem)
    if problem:
        declaration = replace(declaration, exception=problem)
    if declaration.action in ATTACKS and not declaration.others:
        declaration = replace(declaration, others=drevo.fight_settings().others)
    try:
        new = enc.declare(declaration, act)
        if new.next_declarer(act) is None:  # the last declaration and the dice: one step
            new = new.start_resolution(act)
    except RulesError as err:
        return refuse(enc, str(err))
    names = names_of(enc)
    text = "Заявка: " + declaration_text(declaration, names)
    if problem:
        text = f"Заявка (исключение ведущего: {problem}) " + declaration_text(declaration, names)
    line = _line(new, current_.name, text, declaration=vars(declaration))
    return Outcome(new, f"Бой: заявка {current_.name}", log=(line,))


def start_resolution(enc: Encounter, world: World) -> Outcome[Fight]:
    """Close the declarations and move on to the dice."""
    try:
        new = enc.start_resolution(can_act(world))
    except RulesError as err:
        return refuse(enc, str(err))
    return Outcome(new, "Бой: к броскам")


# -- the exchange -------------------------------------------------------------------------------


def _view(enc: Encounter, world: World) -> ExchangeView | None:
    return exchange_view(enc, world)


def not_at_dice(enc: Encounter) -> Outcome[Fight]:
    if enc.phase == "resolve":
        return refuse(enc, NOTHING_TO_ROLL)
    return refuse(enc, NOT_AT_DICE.format(now=PHASE_WORDS[enc.phase]))


def _with_exchange(enc: Encounter, ex: Exchange) -> Encounter:
    return enc.with_exchange(ex.to_dict())


def roll(enc: Encounter, world: World, *, attempt: int | None = None) -> Outcome[Fight]:
    """Roll the exchange on turn and keep the dice (``attempt``: a tie rolled again).

    One roll per fighter a round (seed: «каждый участник делает один бросок 4dF. Потом
    сравниваются результаты»): a fighter who already rolled this round meets this opponent
    with the same dice (or the same Судьба «+4 без броска»). A tie rolled again is a new
    check of these two: fresh dice for both.
    """
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    plan, ex = view.plan, view.exchange
    if plan is None:
        return refuse(enc, view.refusal)
    if view.result is not None and attempt is None:
        return refuse(enc, "Кости этой схватки уже брошены.")
    fate = set(ex.fate_before)
    if attempt is None:
        attempt = ex.attempt
    else:
        fate = set()  # a reroll is a new check; Судьба before it is declared anew
    if not enc.id:  # a fight saved by an older kubik: named now, so its rolls are apart
        enc = replace(enc, id=world.new_id())
    if not enc.round_wounds:  # the round's first roll: the wounds it began with
        enc = replace(
            enc,
            round_wounds={
                c.character_id: bridge.wounds_now(world.characters[c.character_id])
                for c in enc.combatants
                if c.character_id in world.characters
            },
        )
    name = exchange_id(enc, view.pairing.key, attempt)
    earlier = view.earlier if attempt == ex.attempt else None
    if earlier is None:
        earlier = earlier_dice(world, name)
    earlier = earlier or {}
    ids = dict(view.ids)  # the roles as the plan reads them
    first = attempt == 1
    before = view.round_dice if first else {}
    dice: dict[str, tuple[int, ...] | None] = {}
    fresh: dict[str, list[int] | None] = {}
    same: list[str] = []
    for side in (plan.attacker, plan.defender):
        cid = ids.get(side.role, "")
        earlier_side = earlier.get(side.role)
        if not side.rolls:
            dice[side.role] = None
            continue
        if cid in before:
            kept = before[cid]
            if kept is None:  # his «+4 без броска» holds for the round
                fate.add(side.role)
                dice[side.role] = None
            else:
                dice[side.role] = kept_dice(kept)
            same.append(side.fighter.name)
            continue
        if side.role in fate:
            dice[side.role] = None
        elif isinstance(earlier_side, list | tuple):
            dice[side.role] = tuple(int(x) for x in earlier_side)
        else:
            dice[side.role] = world.dice.four_df()
        if first and cid:
            got = dice[side.role]
            fresh[cid] = list(got) if got is not None else None
    if fresh:
        enc = replace(enc, rolled={**enc.rolled, **fresh})
    stored = Exchange(
        key=view.pairing.key,
        attempt=attempt,
        id=name,
        ids=ids,
        fate_before=tuple(sorted(fate)),
        dice=dice,
        wounds=_wounds_at_roll(enc, world, ids.values()),
        effects=world.effect_modifiers(ids.values()),
    )
    new = _with_exchange(enc, stored)
    rolled = _view(new, world)
    if rolled is None or rolled.result is None:
        return refuse(enc, rolled.refusal if rolled else NOTHING_TO_ROLL)
    text = " / ".join(plain_text(line) for line in result_lines(rolled.result))
    again = " (те же кубики, что до отмены)" if earlier else ""
    if same:
        again += f" ({', '.join(same)}: тот же бросок раунда)"
    data: dict[str, Any] = {
        "exchange": name,
        "dice": stored.to_dict()["dice"],
        "ids": dict(ids),
        **rolled.result.to_dict(),
    }
    if fresh:
        data |= {"round_roll": round_key(enc), "round_dice": fresh}
    what = "бросок" if attempt == 1 else f"переброс ничьей ({attempt})"
    line = _line(new, plan.attacker.fighter.name, f"Схватка{again}: {text}", **data)
    return Outcome(new, f"{view.group}: {what}", log=(line,))


def _wounds_at_roll(enc: Encounter, world: World, ids: Any) -> dict[str, dict[str, int]]:
    """The wounds an exchange is rolled with: the round's start with simultaneous rounds
    (a wound taken in this round weighs from the next), else as they are now."""
    simultaneous = drevo.fight_settings().simultaneous
    found = {}
    for cid in ids:
        if cid not in world.characters:
            continue
        start = enc.round_wounds.get(cid)
        found[cid] = (
            dict(start)
            if simultaneous and start is not None
            else (bridge.wounds_now(world.characters[cid]))
        )
    return found


def reroll_tie(enc: Encounter, world: World) -> Outcome[Fight]:
    """Roll a tied exchange again (the conflict is still open): a new attempt."""
    view = _view(enc, world)
    if view is None or view.result is None or not view.result.tie:
        return refuse(enc, "Перебросить можно только ничью, пока она не принята.")
    if view.exchange.accepted:
        return refuse(enc, "Результат схватки уже принят.")
    return roll(enc, world, attempt=view.exchange.attempt + 1)


def _asked(by: str, text: str) -> str:
    """The Журнал line of a step a player asked for from their seat."""
    return f"Заявка игрока {by}: {text}" if by else text


def _gone(enc: Encounter, world: World, view: ExchangeView, role: str, what: str) -> str:
    """Why ``role``'s fighter cannot act in the exchange: removed from the party (in another
    window, by ``kubik party remove``) — said before any phase or stage ("" when he is here)."""
    cid = view.ids.get(role, "")
    if not cid or cid in world.characters:
        return ""
    name = names_of(enc).get(cid, "участника")
    return f"{world.removed(cid, name)} — {what}."


def fate_before(
    enc: Encounter,
    world: World,
    role: str,
    *,
    by: str = "",
    data: Mapping[str, Any] | None = None,
) -> Outcome[Fight]:
    """Spend Судьба «+4 без броска» for ``role`` of the exchange on turn (uses 1 and 3).

    ``by``: the player who asked from their seat (the line says so); ``data``: added to the
    line's data.
    """
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    if gone := _gone(enc, world, view, role, "Судьбу тратить не из кого"):
        return refuse(enc, gone)
    plan, ex = view.plan, view.exchange
    if plan is None:
        return refuse(enc, view.refusal)
    if view.result is not None or view.earlier:
        return refuse(enc, BEFORE_ROLL_ONLY)
    c = view.character(role)
    if c is None or not plan.side(role).rolls:
        return refuse(enc, "В этой схватке персонаж не бросает кости.")
    if role in ex.fate_before:
        return refuse(enc, "Судьба до броска в этой схватке уже потрачена.")
    if c.id in view.round_dice:
        return refuse(
            enc,
            f"{c.name}: бросок этого раунда уже сделан — один бросок на раунд сравнивается "
            "с каждым противником, а «+4 без броска» объявляют до него.",
        )
    try:
        left = drevo.spend_fate(plan.fate_use_before_roll, c.drevo.fate)
    except RulesError as err:
        return refuse(enc, str(err))
    stored = replace(ex, fate_before=tuple(sorted({*ex.fate_before, role})))
    new = _with_exchange(enc, stored)
    text = _asked(by, "Судьба до броска: «+4 без броска»")
    line = _line(new, c.name, text, fate="before", **dict(data or {}))
    label = f"{view.group}: Судьба до броска ({c.name})"
    return Outcome(new, label, sheets=(c.edit_sheet(DrevoSheet, fate=left),), log=(line,))


def fate_shift(
    enc: Encounter,
    world: World,
    role: str,
    points: int,
    *,
    by: str = "",
    data: Mapping[str, Any] | None = None,
) -> Outcome[Fight]:
    """Move ``role``'s rolled total by ``points`` of its Судьба (use 2), before the result is
    accepted (see :func:`fate_before` for ``by`` and ``data``)."""
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    if gone := _gone(enc, world, view, role, "Судьбу тратить не из кого"):
        return refuse(enc, gone)
    plan, result, ex = view.plan, view.result, view.exchange
    if plan is None:
        return refuse(enc, view.refusal)
    if result is None:
        return refuse(enc, "Сдвиг Судьбой — после броска: кости этой схватки ещё не брошены.")
    if ex.accepted:
        return refuse(enc, "Результат схватки уже принят: сдвигать Судьбой поздно.")
    c = view.character(role)
    if c is None or not plan.side(role).rolls:
        return refuse(enc, "В этой схватке персонаж не бросает кости.")
    if not points:
        return refuse(enc, "Сколько очков Судьбы? Например +1 или −2.")
    try:
        left = drevo.spend_fate("shift", c.drevo.fate, cost=abs(points))
        drevo.shift_exchange(result, role, points)
    except RulesError as err:
        return refuse(enc, str(err))
    stored = replace(ex, shifts=(*ex.shifts, Shift(role, points, c.id)))
    new = _with_exchange(enc, stored)
    shifted = _view(new, world)
    assert shifted is not None and shifted.result is not None
    lines = " / ".join(plain_text(t) for t in result_lines(shifted.result, shifted.shift_names()))
    text = _asked(
        by,
        f"Судьба: {words.signed(points)} к результату ({words.points(abs(points))}): {lines}",
    )
    line = _line(new, c.name, text, exchange=ex.id, fate="shift", points=points, **dict(data or {}))
    label = f"{view.group}: Судьба {words.signed(points)} ({c.name})"
    return Outcome(new, label, sheets=(c.edit_sheet(DrevoSheet, fate=left),), log=(line,))


def _damage(enc: Encounter, world: World, view: ExchangeView, reduce_by: int) -> Outcome[Fight]:
    """Write the hit on turn into its target's track, lowered by ``reduce_by`` Судьбы."""
    hit = view.hit
    assert hit is not None
    c = view.character(hit.target)
    if c is None:
        return refuse(enc, "Раненый больше не в партии: схватку можно только пропустить.")
    level, fate = hit.level, c.drevo.fate
    if reduce_by:
        try:
            fate = drevo.spend_fate("reduce_damage", c.drevo.fate, cost=reduce_by)
            level = drevo.reduce_damage(hit.level, reduce_by)
        except RulesError as err:
            return refuse(enc, str(err))
    track = bridge.track_of(c).take(level)
    updated = bridge.with_track(c, track).edit_sheet(DrevoSheet, fate=fate)
    ex = view.exchange
    done = Damage(hit.target, c.id, hit.level, level, reduce_by)
    new = _with_exchange(enc, replace(ex, accepted=True, damage=(*ex.damage, done)))
    note = f" (Судьба −{reduce_by}: было «{words.wound(hit.level)}»)" if reduce_by else ""
    state = words.wound_state(track)
    text = (
        f"Урон: {c.name} получает {words.wound(level, 'acc')}{note}. "
        f"Раны: {wounds_text(track.counts)}" + (f" — {state}" if state else "")
    )
    spent = {"fate_spent": reduce_by} if reduce_by else {}  # the ledger counts it
    line = _line(new, c.name, text, exchange=ex.id, damage=level, wounds=track.to_dict(), **spent)
    return Outcome(new, f"{view.group}: урон {c.name}", sheets=(updated,), log=(line,))


def _already_written(world: World, done: Damage) -> str:
    """The refusal of a hit written meanwhile, saying what was written."""
    c = world.characters.get(done.cid)
    who = c.name if c is not None else "раненый"
    note = f" (Судьба −{done.reduced})" if done.reduced else ""
    return (
        f"Урон уже записан в другом окне или командой kubik: {who} получает "
        f"{words.wound(done.final, 'acc')}{note}."
    )


def accept(enc: Encounter, world: World) -> Outcome[Fight]:
    """Accept the roll. No hit: the exchange is done. A hit that Судьба cannot lower is
    written at once, in the same step."""
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    stage = view.stage
    if stage == "damage":
        return damage(enc, world, 0)
    if stage == "done":
        return finish(enc, world)
    if stage == "refused":
        return refuse(enc, view.refusal)
    if stage != "rolled":
        return refuse(enc, "Сначала бросьте кости схватки.")
    assert view.result is not None
    if not view.result.hits:
        return finish(enc, world)
    new = _with_exchange(enc, replace(view.exchange, accepted=True))
    accepted = _view(new, world)
    assert accepted is not None
    if accepted.reduce_options():
        return Outcome(new, f"{view.group}: принято")
    hurt = _damage(new, world, accepted, 0)
    if not hurt.ok:
        return Outcome(new, f"{view.group}: принято", notices=(hurt.refused,))
    return replace(hurt, label=f"{view.group}: принято, {hurt.label.split(': ', 1)[1]}")


def damage(
    enc: Encounter, world: World, reduce_by: int = 0, *, hit: int | None = None
) -> Outcome[Fight]:
    """Write the hit on turn, lowered by ``reduce_by`` points of Судьба (use 4).

    ``hit``: which hit of the exchange the GM's dialog was for (how many were written when it
    opened): when another window or ``kubik fight`` wrote it meanwhile, the step is refused
    with that reason and never lands on the next hit.
    """
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    written = view.exchange.damage
    if hit is not None and len(written) > hit:
        return refuse(enc, _already_written(world, written[hit]))
    if view.stage == "rolled":
        return refuse(enc, "Сначала примите результат схватки.")
    if view.stage == "done" and written:
        return refuse(enc, _already_written(world, written[-1]))
    if view.stage != "damage":
        return refuse(enc, "Сейчас некому записывать урон.")
    if reduce_by and all(cost != reduce_by for _, cost in view.reduce_options()):
        return refuse(enc, f"Судьбой нельзя снять {reduce_by} ур. с этой раны.")
    return _damage(enc, world, view, reduce_by)


def finish(enc: Encounter, world: World, *, skipped: str = "") -> Outcome[Fight]:
    """Close the exchange on turn with what it did (``skipped``: why it was skipped)."""
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    stage = view.stage
    no_hits = view.result is not None and not view.result.hits
    if not skipped and not (stage == "done" or (stage == "rolled" and no_hits)):
        if stage in ("plan", "refused"):
            return refuse(enc, "Сначала бросьте кости схватки (Enter) или пропустите её (s).")
        return refuse(enc, "Сначала примите результат и запишите урон схватки.")
    ex = view.exchange
    outcome: dict[str, Any] = {"hurt": [[d.cid, d.final] for d in ex.damage]}
    if ex.attempt == 1 and ex.shifts:  # they move the fighter's one roll in his next exchanges
        outcome["round_shifts"] = [
            [s.cid, s.points] for s in ex.shifts if enc.rolled.get(s.cid) is not None
        ]
    if skipped:
        outcome["skipped"] = skipped
    try:
        new = enc.mark_resolved(view.pairing, outcome)
    except RulesError as err:
        return refuse(enc, str(err))
    lines: list[Line] = []
    if skipped:
        lines.append(
            _line(new, None, f"Схватка пропущена: {skipped}", exchange=ex.id, skipped=True)
        )
    if not new.pending():
        lines.append(_line(new, None, summary_text(new, world.characters), summary=True))
    label = f"{view.group}: " + ("пропущена" if skipped else "итог")
    return Outcome(new, label, log=tuple(lines))


def skip(enc: Encounter, world: World, reason: str = "") -> Outcome[Fight]:
    """Skip the exchange on turn: the rules refuse it, or the GM decides otherwise."""
    view = _view(enc, world)
    if view is None:
        return not_at_dice(enc)
    if view.stage not in ("plan", "refused"):
        return refuse(enc, "Кости этой схватки уже брошены: пропустить её нельзя.")
    return finish(enc, world, skipped=reason or public_reason(view.refusal) or "решение ведущего")


def public_reason(reason: str) -> str:
    """A refusal as the Журнал (and the players) read it: without the GM's key hints."""
    return reason.replace(": выберите другого.", ".").strip()


# -- rounds and the end -------------------------------------------------------------------------


def next_round(enc: Encounter, world: World) -> Outcome[Fight]:
    """Start the next round: the declaration order reverses; effects tick with the round."""
    if enc.phase == "resolve" and enc.pending():
        return refuse(enc, "Не все схватки раунда разрешены.")
    try:
        new = enc.next_round()
    except RulesError as err:
        return refuse(enc, str(err))
    events = [Boundary("round_end", enc.round), Boundary("round_start", enc.round + 1)]
    line = _line(new, None, f"Раунд {new.round}: заявляют " + " → ".join(new.side_order()))
    begun: Outcome[Fight] = Outcome(new, f"Бой: раунд {new.round}", log=(line,))
    return effect_steps.folded(
        begun, effect_steps.tick(world.effects, world, events), world.effects
    )


#: Why there is nothing to end (a fight not begun, or ended in another window or by ``kubik``).
NO_FIGHT = "Боя нет: он ещё не начат или уже завершён."


def end(enc: Encounter, world: World) -> Outcome[Fight]:
    """End the fight; wounds stay on the characters."""
    if enc.phase == "setup":
        return refuse(enc, NO_FIGHT)
    text = f"Бой завершён после {words.rounds(enc.round, 'gen')}"
    return Outcome(None, "Бой завершён", log=(_line(enc, None, text),))


def remove_fallen(enc: Encounter, world: World, character_id: str) -> Outcome[Fight]:
    """Take a heavily wounded or dead fighter out of the order (the GM's choice)."""
    c = enc.combatant(character_id)
    if c is None:
        return refuse(enc, "Такого участника в бою нет.")
    if bridge.can_act(world.characters.get(character_id)):
        return refuse(enc, f"{c.name} ещё в строю: убрать можно тяжелораненого или павшего.")
    state = (
        words.wound_state(bridge.track_of(world.characters[character_id]))
        if (character_id in world.characters)
        else "нет в партии"
    )
    try:
        new = enc.remove_fallen(character_id, f"{state}, решение ведущего")
    except RulesError as err:
        return refuse(enc, str(err))
    text = f"{c.name} выбывает из боя (решение ведущего)"
    return Outcome(new, f"Бой: {c.name} выбывает", log=(_line(new, None, text),))
