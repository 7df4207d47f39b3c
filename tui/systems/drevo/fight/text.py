"""What a Древо fight says, as markup lines (the Бой tab) and plain text (the Журнал,
``kubik fight``): the exchange on turn, its damage prompt, the round's summary, the status."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules import drevo
from rules.encounter import ACTION_NAMES, Declaration, Encounter
from tui import words
from tui.present.markup import plain_text
from tui.present.rolls import fudge_dice, plain, signed
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.view import ExchangeView, earlier_initiative
from tui.systems.drevo.present import declaration_text, plan_lines, result_lines
from tui.systems.drevo.sheet import wounds_text
from tui.table.core import World


def names_of(enc: Encounter) -> dict[str, str]:
    """The fighters' names by character id."""
    return {c.character_id: c.name for c in enc.combatants}


def header(view: ExchangeView, enc: Encounter) -> str:
    """«Схватка 1 из 3: Ближний бой → Волк, … (Горан); ответ: Уклонение»."""
    names = names_of(enc)
    attack, answer = view.pairing.attack, view.pairing.answer
    text = (
        f"[b]Схватка {view.number} из {view.total}:[/b] "
        f"{plain(declaration_text(attack, names))} ({plain(names.get(attack.actor, '?'))})"
    )
    if answer is not None:
        text += f"; ответ: {plain(declaration_text(answer, names))}"
    return text


def exchange_lines(view: ExchangeView, *, keys: bool = True, tie: str = " ") -> list[str]:
    """The lines under the header: the plan, Судьба, the dice, the damage, the final wounds.

    ``keys``: with the Бой tab's key hints (the command line says its own commands);
    ``tie``: what joins the words of a side's term (see ``present.side_text``).
    """
    plan, result, ex = view.plan, view.result, view.exchange
    if view.refusal:
        skip = ["s или Enter — пропустить схватку."] if keys else []
        return [f"[$error]Нельзя: {plain(view.refusal)}[/]", *skip]
    assert plan is not None
    lines = plan_lines(plan, tie)
    lines += [f"[dim]{plain(note)}[/dim]" for note in view.setting_notes]
    if result is None and not view.earlier:
        for role in ("attacker", "defender"):
            cid = view.ids.get(role, "")
            if plan.side(role).rolls and cid in view.round_dice:
                dice = view.round_dice[cid]
                shown = (
                    fudge_dice(tuple(dice), markup=True)
                    if isinstance(dice, list | tuple)
                    else "«+4 без броска»"
                )
                moved = sum(points for points, _who in view.carried_shifts.get(role, ()))
                if moved:  # Судьба moved that roll in an earlier exchange: it counts here too
                    shown += f", {words.signed(moved)} Судьбой"
                lines.append(
                    f"[dim]{plain(plan.side(role).fighter.name)}: один бросок на раунд — "
                    f"тот же, что в этом раунде ({shown}).[/dim]"
                )
    if ex.fate_before:
        who = ", ".join(plain(plan.side(r).fighter.name) for r in sorted(ex.fate_before))
        lines.append(f"[$accent]Судьба до броска: {who} — «+4 без броска».[/]")
    if result is None:
        if view.earlier:
            again = "Enter покажет" if keys else "бросок покажет"
            lines.append(f"[dim]Кубики этой схватки уже брошены — {again} те же.[/dim]")
        return lines
    lines.append("")
    lines += result_lines(result, view.shift_names())
    stage = view.stage
    if stage == "damage":
        lines.append(damage_prompt(view, keys=keys))
    elif stage == "done":
        lines += final_lines(view, keys=keys)
    elif stage == "rolled" and keys:
        hint = "Enter — принять"
        if view.shift_offers():
            hint += ", p — Судьба ±1"
        if result.tie:
            hint += ", r — перебросить ничью"
        lines.append(f"[dim]{hint}.[/dim]")
    return lines


def damage_prompt(view: ExchangeView, *, keys: bool = True) -> str:
    """«Урон: Волк — Лёгкая. Судьба (2 очка): 1 — до царапины; Enter — принять урон.»"""
    hit = view.hit
    assert hit is not None
    c = view.character(hit.target)
    name = plain(c.name) if c else "?"
    text = f"[b]Урон: {name} — {words.wound(hit.level)}.[/b] "
    options = view.reduce_options()
    if options:
        fate = c.drevo.fate if c else 0
        text += f"Судьба ({words.points(fate)}): "
        text += ", ".join(reduce_label(c, hit.level, lvl, cost) for lvl, cost in options)
        text += "; f — снизить Судьбой, Enter — принять урон." if keys else "."
    elif keys:
        text += "Enter — записать урон."
    return text.rstrip()


def reduce_label(c: Character | None, rolled: str, level: str, cost: int) -> str:
    """One Судьба option, saying whether it still saves the character."""
    label = f"−{cost} — до {words.wound(level, 'gen')}"
    if c is None:
        return label
    track = bridge.track_of(c)
    after, unreduced = track.take(level), track.take(rolled)
    if after.dead:
        return label + " (всё равно смерть)"
    if not after.can_act:
        return label + (" (спасает жизнь, но тяжело ранен)" if unreduced.dead else "")
    if not unreduced.can_act:
        return label + " (остаётся в строю)"
    return label


def final_lines(view: ExchangeView, *, keys: bool = True) -> list[str]:
    """«Итог: Волк получает лёгкую рану. Раны: …» for every hit written."""
    lines = []
    for d in view.exchange.damage:
        c = view.characters.get(d.cid)
        if c is None:
            continue
        note = f" (Судьба −{d.reduced}: было «{words.wound(d.level)}»)" if d.reduced else ""
        state = words.wound_state(bridge.track_of(c))
        lines.append(
            f"[b]Итог:[/b] {plain(c.name)} получает {words.wound(d.final, 'acc')}{note}. "
            f"Раны: {wounds_text(c.drevo.wounds)}" + (f" — [b]{state}[/b]" if state else "")
        )
    if keys:
        lines.append("[dim]Enter — следующая схватка.[/dim]")
    return lines


def round_summary(enc: Encounter, characters: Mapping[str, Character]) -> list[str]:
    """«Раунд N разрешён»: who was hurt how, which exchanges were skipped."""
    hurt: dict[str, list[str]] = {}
    skipped = 0
    for outcome in enc.outcomes:
        if outcome.get("skipped"):
            skipped += 1
        for cid, level in outcome.get("hurt", ()):
            hurt.setdefault(cid, []).append(level)
    lines = [f"[b]Раунд {enc.round} разрешён.[/b]"]
    for cid, levels in hurt.items():
        c = characters.get(cid)
        name = plain(c.name) if c else "?"
        taken = ", ".join(words.wound(level, "acc") for level in levels)
        track = bridge.track_of(c) if c else None
        # What the cascade made of it («получил лёгкую рану — теперь Ранение»), not only
        # what was taken.
        state = words.wound_state(track) if track is not None else ""
        penalty = f" {signed(track.penalty)}" if track is not None and track.penalty else ""
        if not state and track is not None and track.worst not in (None, levels[-1]):
            state = "теперь " + words.wound(track.worst or "") + penalty
        elif not state and penalty:
            taken += f" ({penalty.strip()})"
        lines.append(f"{name}: получает {taken}" + (f" — [b]{state}[/b]" if state else ""))
    if not hurt:
        lines.append("Никто не ранен.")
    if skipped:
        lines.append(f"Пропущено схваток: {skipped}.")
    return lines


def summary_text(enc: Encounter, characters: Mapping[str, Character]) -> str:
    """The round's summary as one plain line, for the Журнал."""
    return " / ".join(plain_text(line) for line in round_summary(enc, characters))


def status_lines(enc: Encounter, world: World | None = None, *, keys: bool = True) -> list[str]:
    """The fight's status: the round, the phase, the side order, how initiative was set.

    ``world``: to say, at the setup, that these sides' initiative was rolled before an undo
    (rolled again, it shows the same dice); ``keys``: with the Бой tab's key hints.
    """
    if enc.phase == "setup":
        lines = [
            "[b]Подготовка боя.[/b] Пробел — сторона участника, a — новый НИП, "
            "l — сцена из бестиария, i — бросить инициативу (4dF за сторону), "
            "z — засада (порядок задаёт ведущий)."
        ]
        if world is not None and earlier_initiative(enc.sides, world) is not None:
            again = "i покажет" if keys else "бросок покажет"
            lines.append(f"[dim]Инициатива уже брошена — {again} ту же.[/dim]")
        return lines
    if enc.initiative and not any(i.get("rolls") for i in enc.initiative):
        # «засада; Отряд: засада» said the same twice: the GM set the order.
        how = "засада, порядок задал ведущий — " + " → ".join(plain(s) for s in enc.sides)
    else:
        how = "; ".join(
            f"{i['side']} {' → '.join(fudge_dice(tuple(d), markup=True) for d in i['rolls'])}"
            f" = {signed(sum(i['rolls'][-1]))}"
            if i.get("rolls")
            else f"{i['side']}: засада"
            for i in enc.initiative
        )
    phase = "заявки" if enc.phase == "declare" else "броски"
    return [
        f"[b]Раунд {enc.round}[/b], {phase}. Порядок: {' → '.join(enc.side_order())}",
        f"[dim]Инициатива: {how}[/dim]",
    ]


def marked(name: str, c: Character | None) -> str:
    """A name with «тяжело ранен» / «погиб» when the character is down."""
    state = words.wound_state(bridge.track_of(c)) if c else ""
    return f"{name} ({state})" if state else name


def fighter_state(c: Character | None, world_modifiers: list[tuple[int, str]]) -> str:
    """«Ранение −2, Оглушён −2, Судьба 3»: what weighs on a fighter now (the order table)."""
    if c is None:
        return "нет в партии"
    track = bridge.track_of(c)
    parts = []
    state = words.wound_state(track)
    if state:
        parts.append(state)
    elif track.worst is not None:
        penalty = f" {signed(track.penalty)}" if track.penalty else ""
        parts.append(words.wound(track.worst) + penalty)
    parts += [f"{reason} {signed(value)}" for value, reason in world_modifiers]
    parts.append(f"Судьба {c.drevo.fate}")
    return ", ".join(parts)


def short_declaration(d: Declaration, names: Mapping[str, str]) -> str:
    """A declaration in the order table's width: «Топор → Атаман Шкуро» for a blow at
    «вплотную», the action's name otherwise (the exchange shows the rest)."""
    target = names.get(d.target or "", "?")
    if d.action == "melee":
        text = f"{d.weapon or 'без оружия'} → {target}"
        if d.distance != "close":
            text += f", {drevo.DISTANCE_NAMES[d.distance]}"
    elif d.target:
        text = f"{ACTION_NAMES[d.action]} ({d.weapon or '—'}) → {target}"
        text += f", {drevo.DISTANCE_NAMES[d.distance]}"
    else:
        text = ACTION_NAMES[d.action]
        if d.weapon and d.action in ("parry", "shield"):
            text += f" ({d.weapon})"
    if d.turns > 1:
        text += f", {words.turns(d.turns)}"
    if d.others == "helpless" and d.target:
        text += " (беззащитен против других)"
    if d.exception:
        text += " [исключение]"
    return text


def departures(
    before: Encounter,
    after: Encounter,
    had: Mapping[str, Character],
    has: Mapping[str, Character],
    removed_where: Callable[[str], str] = lambda _id: "",
) -> list[str]:
    """Who left the round's order between two readings of the fight, and why (a change made
    on another tab, in another window or by ``kubik``; ``removed_where`` says where a fighter
    was removed from the party, as :meth:`tui.store.Store.removed_where`), and where that
    left the fight."""
    if before.phase == "setup" or after.phase == "setup" or before.id != after.id:
        return []
    found = []
    for c in before.combatants:
        cid = c.character_id
        was, now = had.get(cid), has.get(cid)
        if was is None or not bridge.can_act(was):
            continue
        if now is None:
            where = removed_where(cid)
            why = "персонажа удалили из партии" + (f" {where}" if where else "")
        elif after.combatant(cid) is None:
            why = "убрали из боя"
        elif not bridge.can_act(now):
            why = words.wound_state(bridge.track_of(now))
        else:
            continue
        found.append(f"{c.name} выбывает: {why}.")
    if found and before.phase == "declare" and after.phase == "resolve":
        found.append("Все оставшиеся заявили — броски.")
    return found
