"""The whole fight as data and as plain text: phase, round, order, declarations, every
exchange of the round with each side's dice, each fighter's wounds and Судьба
(``kubik fight show``, and after every ``kubik fight`` step)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from rules import drevo
from rules.encounter import Declaration, Encounter
from tui import words
from tui.present.markup import plain_text
from tui.present.rolls import percent
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.text import (
    exchange_lines,
    header,
    names_of,
    round_summary,
    status_lines,
)
from tui.systems.drevo.fight.view import (
    ExchangeView,
    can_act,
    default_encounter,
    earlier_initiative,
    exchange_view,
)
from tui.systems.drevo.present import declaration_text
from tui.systems.drevo.sheet import wounds_text
from tui.table.core import World

PHASE_NAMES = {"setup": "подготовка", "declare": "заявки", "resolve": "броски"}


def next_commands(view: ExchangeView) -> list[tuple[str, str]]:
    """What ``kubik fight`` takes next at the exchange on turn: ``(command, what it does)``,
    the one to go on with first. Asked of the view, as the Бой tab's key bar asks it, so a
    command is offered only where its step applies (a reroll only of a tie, Судьба only of
    whoever may spend it)."""
    stage = view.stage
    if stage == "refused":
        return [("skip", "пропустить схватку")]
    if stage == "plan":
        found = [("roll", "бросить")]
        if view.may_fate_before():
            for o in view.fate_before_offers():
                c = view.character(str(o.value))
                if not o.refused and c is not None:
                    found.append((f'fate "{c.name}" --before', "Судьба до броска"))
        return [*found, ("skip", "пропустить")]
    if stage == "rolled":
        found = [("accept", "принять")]
        if view.may_shift():
            offered = (cast("tuple[str, int]", o.value) for o in view.shift_offers())
            for role in dict.fromkeys(role for role, _points in offered):
                c = view.character(role)
                if c is not None:
                    found.append((f'fate "{c.name}" --shift ±N', "Судьба"))
        if view.may_reroll():
            found.append(("roll --reroll", "перебросить ничью"))
        return found
    if stage == "damage":
        lethal = " --yes" if view.unspent_fate_warning() else ""
        found = [(f"damage{lethal}", "записать урон")]
        if view.may_reduce():
            costs = ", ".join(str(cost) for _level, cost in view.reduce_options())
            found.append(("damage --reduce N", f"снять N уровней Судьбой, N: {costs}"))
        return found
    return [("next", "следующая схватка")]


def next_line(view: ExchangeView) -> str:
    """«Дальше: kubik fight roll — бросить (kubik fight skip — пропустить).»"""
    (first, what), *more = next_commands(view)
    text = f"Дальше: kubik fight {first} — {what}"
    if more:
        text += " (" + "; ".join(f"kubik fight {c} — {w}" for c, w in more) + ")"
    return text + "."


def _declaration(d: Declaration | None) -> dict[str, Any] | None:
    return dict(vars(d)) if d is not None else None


def fighters(enc: Encounter, world: World) -> list[dict[str, Any]]:
    """Each fighter: side, wounds, state, Судьба, whether they can act, what they declared."""
    declared = {d.actor: d for d in enc.all_declarations()}
    found = []
    order = {s: i for i, s in enumerate(enc.side_order() if enc.phase != "setup" else enc.sides)}
    for f in sorted(enc.combatants, key=lambda f: order.get(f.side, len(order))):
        c = world.characters.get(f.character_id)
        track = bridge.track_of(c) if c is not None else None
        found.append(
            {
                "id": f.character_id,
                "name": c.name if c is not None else f.name,
                "side": f.side,
                "kind": c.kind if c is not None else None,
                "in_party": c is not None,
                "wounds": dict(c.drevo.wounds) if c is not None else {},
                "dead": bool(track and track.dead),
                "state": words.wound_state(track) if track is not None else "нет в партии",
                "can_act": bridge.can_act(c),
                "fate": c.drevo.fate if c is not None else None,  # no sheet: none known
                "modifiers": [[m.value, m.reason] for m in world.modifiers(f.character_id)],
                "declaration": _declaration(declared.get(f.character_id)),
            }
        )
    return found


def odds_of(view: ExchangeView) -> dict[str, Fraction]:
    """The exact odds of the exchange's outcomes before its roll (empty after it)."""
    return view.odds()


def odds_line(view: ExchangeView) -> str:
    """«Шансы: Победа нападающего 41.2 %, …» in the plan's order of outcomes."""
    odds = odds_of(view)
    if not odds or view.plan is None:
        return ""
    order = drevo.EXCHANGE_OUTCOMES[view.plan.kind]
    parts = [
        f"{drevo.EXCHANGE_OUTCOME_NAMES[k]} {percent(odds.get(k, Fraction(0)))}" for k in order
    ]
    return "Шансы: " + ", ".join(parts)


def _current(view: ExchangeView) -> dict[str, Any]:
    ex = view.exchange
    return {
        "odds": {k: str(v) for k, v in odds_of(view).items()},
        "number": view.number,
        "key": view.pairing.key,
        "stage": view.stage,
        "attempt": ex.attempt,
        "id": ex.id,
        "ids": dict(view.ids),
        "refusal": view.refusal,
        "plan": view.plan.to_dict() if view.plan is not None else None,
        "fate_before": sorted(ex.fate_before),
        "dice": ex.to_dict().get("dice"),
        "shifts": [[s.role, s.points, s.cid] for s in ex.shifts],
        "carried_shifts": {
            role: [points for points, _who in moved] for role, moved in view.carried_shifts.items()
        },
        "result": view.result.to_dict() if view.result is not None else None,
        "damage": [d.to_dict() for d in ex.damage],
        "reduce_options": [[level, cost] for level, cost in view.reduce_options()],
        "lines": [plain_text(line) for line in exchange_lines(view, keys=False)],
        "next": [command for command, _what in next_commands(view)],
    }


def fight_data(enc: Encounter | None, world: World) -> dict[str, Any] | None:
    """The fight as JSON-ready data (None: no fight stored)."""
    if enc is None:
        return None
    view = exchange_view(enc, world)
    outcomes = {o.get("key"): o for o in enc.outcomes}
    exchanges = []
    if enc.phase == "resolve":
        for number, p in enumerate(enc.pairings(), start=1):
            status = "resolved" if p.key in enc.resolved else "pending"
            if view is not None and p.key == view.pairing.key:
                status = "current"
            exchanges.append(
                {
                    "number": number,
                    "key": p.key,
                    "attack": _declaration(p.attack),
                    "answer": _declaration(p.answer),
                    "status": status,
                    "outcome": outcomes.get(p.key),
                }
            )
    current = enc.next_declarer(can_act(world)) if enc.phase == "declare" else None
    return {
        "id": enc.id,
        "phase": enc.phase,
        "round": enc.round,
        "sides": list(enc.sides),
        "order": enc.side_order() if enc.phase != "setup" else list(enc.sides),
        "initiative": [dict(i) for i in enc.initiative],
        "next_declarer": current.character_id if current is not None else None,
        "fighters": fighters(enc, world),
        "exchanges": exchanges,
        "current": _current(view) if view is not None else None,
    }


def fight_text(enc: Encounter | None, world: World) -> str:
    """The fight as a GM reads it in a terminal (plain text, no markup)."""
    if enc is None or (enc.phase == "setup" and not enc.id):
        text = "Боя нет. kubik fight start --side «Отряд=Имя,Имя» --side «Противники=Имя» — начать."
        sides = (enc or default_encounter(world.characters)).sides
        earlier = earlier_initiative(sides, world)
        if earlier is not None:
            text += (
                f"\nИнициатива сторон {', '.join(sides)} уже брошена (бросок отменён): "
                "бой с этими сторонами начнётся с теми же кубиками."
            )
        return text
    lines = [plain_text(line) for line in status_lines(enc)]
    names = names_of(enc)
    declared = {d.actor: d for d in enc.all_declarations()}
    current = enc.next_declarer(can_act(world)) if enc.phase == "declare" else None
    lines.append("")
    for f in fighters(enc, world):
        state = f" ({f['state']})" if f["state"] else ""
        mods = "".join(f", {reason} {words.signed(v)}" for v, reason in f["modifiers"])
        d = declared.get(f["id"])
        did = declaration_text(d, names) if d is not None else "…"
        mark = "→ " if current is not None and current.character_id == f["id"] else "  "
        sheet = (  # a fighter no longer in the party has no sheet: no wounds, no Судьба
            f" — раны: {wounds_text(f['wounds'])}, Судьба {f['fate']}{mods}"
            if f["in_party"]
            else ""
        )
        lines.append(
            f"{mark}{f['side']}: {f['name']}{state}{sheet}"
            + (f"; заявка: {did}" if enc.phase != "setup" else "")
        )
    if current is not None:
        lines += ["", f'Заявляет {current.name}: kubik fight declare "{current.name}" ДЕЙСТВИЕ …']
    view = exchange_view(enc, world)
    if enc.phase == "resolve":
        lines.append("")
        if view is None:
            lines += [plain_text(line) for line in round_summary(enc, world.characters)]
            lines.append("kubik fight round — следующий раунд, kubik fight end — завершить бой.")
        else:
            lines.append(plain_text(header(view, enc)))
            lines += [plain_text(line) for line in exchange_lines(view, keys=False)]
            if odds := odds_line(view):
                lines.append(odds)
            lines.append(next_line(view))
    return "\n".join(lines)
