"""Russian text for the IDE4™ builder: stepper labels, the status line, the rolled check, the
moves still allowed and the log lines. Pure functions of ``rules.ide4`` objects.

Markup uses theme variables only; every piece of text a GM typed or the rules wrote passes
through ``escape`` so a «[b]» in a modifier's reason stays text. Stepper options are plain
text already (tui.widgets.common.stepper), so they are not escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules import ide4
from tui.sanitize import plain as escape  # every «[» literal, no control code
from tui.store import Character

#: IDE4 outcome ids → theme colours (render.OUTCOME_STYLE covers the other systems).
IDE4_STYLE = {
    "triumph": "$success",
    "success": "$success",
    "middle": "$warning",
    "failure": "$error",
    "tragedy": "$error",
}
LEVEL_HINTS = {
    "quick": "атрибут, модификаторы, сложность",
    "standard": "+ действие и навык",
    "expanded": "все 14 шагов книги",
}
BASE_OPTIONS = [
    ("[0] — автоматический успех", 0),
    ("[1]", 1),
    ("[2]", 2),
    ("[3] — обычная задача", 3),
    ("[4]", 4),
    ("[5]", 5),
    ("[6]", 6),
    ("[7] — Сюжетная броня", 7),
    ("[00] — невозможно", 8),
]
HELP_OPTIONS = [
    ("нет", ""),
    ("снизить сложность на 1", "difficulty"),
    ("+1 переброс", "reroll"),
    ("сделать действие возможным (только для [00])", "possible"),
    ("передать союзнику часть риска", "risk"),
]
#: The difficulty the GM sets when an exception opens [00].
OPEN_OPTIONS = [(f"[{k}]", k) for k in range(1, 8)]
#: The campaign setting that decides whether a [7] reached by modifiers bars mastery bonuses,
#: named as the settings screen names it.
SEVEN_SETTING = "настройка «[7] от модификаторов запрещает бонусы», Ctrl+T → Пороги мастерства"
HIDDEN_OPTIONS = [("нет — автоматический успех", False), ("да — бросок при [1]", True)]


def outcome_markup(outcome: str | None) -> str:
    """Return an outcome name in bold, coloured by the theme."""
    if not outcome:
        return "—"
    return f"[b {IDE4_STYLE[outcome]}]{ide4.OUTCOME_NAMES[outcome]}[/]"


def level_options() -> list[tuple[str, str]]:
    """Return the three levels with the chain each one walks."""
    return [(f"{ide4.LEVEL_NAMES[k]} ({LEVEL_HINTS[k]})", k) for k in ide4.LEVELS]


def attribute_options(c: Character, allowed: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Return the character's attributes (only those an action allows, when it names some)."""
    allowed = tuple(allowed)
    rules = ide4.energy_rules()
    options = []
    for name, level in c.qualities.items():
        if allowed and name not in allowed:
            continue
        try:
            die = f", куб энергии d{rules.nominal(level)}"
        except Exception:  # noqa: BLE001 - a sheet with an odd level still lists it
            die = ""
        options.append((f"{name} — ур. {level}{die}", name))
    return options


def skill_options(c: Character) -> list[tuple[str, str]]:
    """Return «без навыка» and the character's skills with mastery, attribute and distances."""
    options = [("без навыка — бонусов мастерства нет", "")]
    for s in c.skills:
        where = f", дистанции {'/'.join(s.distances)}" if s.distances else ""
        parent = f" ({s.parent})" if s.parent else ""
        options.append((f"{s.name} — мастерство {s.value}{parent}{where}", s.name))
    return options


def action_options() -> list[tuple[str, str]]:
    """Return «без действия» and the campaign's actions with their attributes."""
    options = [("без действия — прямо через атрибут", "")]
    for name, act in ide4.actions().items():
        attrs = f" ({', '.join(act.attributes)})" if act.attributes else ""
        options.append((f"{name}{attrs}", name))
    return options


def energy_options(pool: int, die: int) -> list[tuple[str, int]]:
    """Return 0…10 dice of size ``die`` that the pool can pay for."""
    rules = ide4.energy_rules()
    top = min(rules.before_max_dice, pool // die)
    options = [(f"нет (запас {pool}/{rules.pool_max}, куб d{die})", 0)]
    options += [
        (f"{k}×d{die} — стоит {k * die}, останется {pool - k * die}", k) for k in range(1, top + 1)
    ]
    return options


def die_options(nominal: int) -> list[tuple[str, int]]:
    """Return the energy die sizes up to the nominal, the nominal first."""
    sizes = [s for s in ide4.energy_rules().sizes if s <= nominal]
    return [(f"d{nominal} — номинал", nominal)] + [
        (f"d{s} — меньше номинала", s) for s in reversed(sizes) if s != nominal
    ]


def distance_options() -> list[tuple[str, str]]:
    """Return «не указана» and the four combat distances."""
    return [("не указана", ""), *((d, d) for d in ide4.DISTANCES)]


def difficulty_line(d: ide4.Difficulty) -> str:
    """Return «Сложность: [3] + темнота +1 → [4]» with the seed's name of the level."""
    mods = ""
    if d.modifiers:
        mods = f", {escape(ide4.modifiers_text(d.modifiers))}"
        if d.pinned:
            mods += " (не действуют против \\[7])"
        elif d.made_possible:
            mods += " (не действуют: после исключения сложность назначает мастер)"
        elif d.base_impossible:
            mods += " (не действуют против \\[00])"
    final = escape(d.label)
    if d.hidden_risk:
        note = " — скрытый риск: бросок при \\[1]"
    elif d.made_possible:
        note = f" — \\[00] открыто: {escape(d.opened_by)}"
    elif d.name:
        note = f" — {d.name}"
    else:
        note = ""
    return f"Сложность: база {escape(ide4.difficulty_label(d.base))}{mods} → [b]{final}[/b]{note}"


def seven_line(d: ide4.Difficulty) -> str:
    """Say which [7] the check faces and whether mastery bonuses act against it."""
    if not d.seven:
        return ""
    if d.seven == "pinned":
        return (
            "[$warning]\\[7] — Сюжетная броня, назначена мастером: модификаторы её не двигают, "
            "бонусы мастерства не действуют.[/]"
        )
    if d.seven == "opened":
        who = "назначена мастером после исключения из \\[00]"
    else:
        who = "до неё дошли модификаторы"
    if ide4.modified_seven_bars_mastery():
        return (
            f"[$warning]\\[7]: {who} — не Сюжетная броня, но бонусы мастерства не действуют "
            f"(«Бонусы не действуют против \\[7] и \\[00]»; {escape(SEVEN_SETTING)} — да).[/]"
        )
    return (
        f"[$text-muted]\\[7]: {who} — не Сюжетная броня; бонусы мастерства действуют "
        f"({escape(SEVEN_SETTING)} — нет).[/]"
    )


def need_line(need: ide4.RollNeed, reviewed: bool) -> str:
    """Return the checklist verdict («нужна проверка» / «проверка не нужна»)."""
    if need.reasons:
        return f"[$success]Нужна проверка[/]: {', '.join(need.reason_names)}"
    if need.player_demand:
        return "[$success]Нужна проверка[/]: игрок требует"
    if reviewed:
        return (
            "[$warning]Проверка не нужна[/]: ни одно условие не отмечено (игрок может потребовать)"
        )
    return "[$text-muted]Нужна ли проверка? c — восемь условий[/]"


def _dice(dice: tuple[int, ...]) -> str:
    return "+".join(str(d) for d in dice)


def step_line(check: ide4.Check, step: ide4.Step) -> str:
    """Return one recorded step as a line with markup."""
    after = f" → {outcome_markup(step.outcome)}" if step.outcome else ""
    if step.kind == "auto":
        return f"\\[0]: кубик не бросается → {outcome_markup('success')}"
    if step.kind == "impossible":
        reason = escape(check.input.impossible_reason.strip())
        alt = escape(check.input.alternative.strip())
        return "\\[00]: невозможно — " + reason + (f"; другой путь: {alt}" if alt else "")
    if step.kind == "energy_before":
        return (
            f"Энергия до броска: {len(step.dice)}×d{step.die}: {_dice(step.dice)} = "
            f"{sum(step.dice)} (−{step.energy_spent}, осталось {step.pool})"
        )
    if step.kind == "d100":
        energy = f" + энергия {check.before_sum} = {step.total}" if check.before_sum else ""
        return f"d100: [b]{step.dice[0]}[/b]{energy}{after}"
    if step.kind == "reroll":
        source = ide4.REROLL_SOURCES[step.source]
        new = f"[b]{step.dice[0]}[/b]"
        return f"Переброс ({source}): {step.replaced} → {new}, сумма {step.total}{after}"
    if step.kind == "energy_after":
        return (
            f"Энергия после: {len(step.dice)}×d{step.die}: {_dice(step.dice)} = {sum(step.dice)}, "
            f"сумма {step.total} (−{step.energy_spent}, осталось {step.pool}){after}"
        )
    if step.kind == "bonus":
        name = ide4.AFTER_BONUSES[step.source]
        if step.source == "technique":
            name += f" «{escape(check.input.technique)}»"
        if step.source == "triumph":  # the name already says «→ Триумф»
            return f"Бонус мастерства: Успех → {outcome_markup(step.outcome or 'triumph')}"
        return f"Бонус мастерства: {name}{after}"
    if step.kind == "subroll":
        return f"Подбросок d6: [b]{step.dice[0]}[/b] — {check.subroll_name}"
    if step.kind == "level":
        return f"[$warning]Уровень: {escape(step.note)}[/]"
    return step.kind


def head_line(check: ide4.Check) -> str:
    """Return who, through what, at which difficulty and level."""
    inp = check.input
    parts = [inp.actor or "—"]
    if inp.action:
        parts.append(inp.action)
    parts.append(f"{inp.attribute} ур. {inp.attribute_level}")
    if inp.skill:
        parts.append(f"{inp.skill} {inp.mastery}")
    d = check.difficulty
    parts.append(f"{d.label} {d.name}".strip())
    parts.append(ide4.LEVEL_NAMES[check.level])
    return "[b]" + escape(" · ".join(parts)) + "[/b]"


def band_line(final: int) -> str:
    """Return the outcome bands of a rolled difficulty, so the table can check the book."""
    band = ide4.band_for(final)
    natural = f"d100 ≤ {band.tragedy_max} Трагедия"
    if band.triumph_min:
        natural += f", ≥ {band.triumph_min} Триумф"
    if band.success_natural:
        natural += f", = {band.success_min} Успех"
    total = f"сумма ≥ {band.middle_min} Средне"
    if not band.success_natural:
        total += f", ≥ {band.success_min} Успех"
    return f"[$text-muted]Полосы \\[{final}]: {natural}; {total}[/]"


def result_lines(check: ide4.Check) -> list[str]:
    """Return the rolled check: every step, then the outcome and the energy left."""
    lines = [head_line(check)]
    if check.status == "rolled":
        lines.append(band_line(check.difficulty.final))
    lines += [step_line(check, s) for s in check.steps]
    if check.status == "impossible":
        lines.append("Итог: [b]Невозможно[/b]")
    else:
        energy = f" · энергия {check.pool_after}/{ide4.energy_rules().pool_max}"
        lines.append(f"Итог: {outcome_markup(check.outcome)}{energy}")
    return lines


def chance(p: Any) -> str:
    """A chance as whole per cent: «41 %», «<1 %» and «>99 %» near the ends (a no-break
    space: the number and its sign never part at a line end)."""
    value = float(p) * 100
    if 0 < value < 1:
        return "<1\u00a0%"
    if 99 < value < 100:
        return ">99\u00a0%"
    return f"{round(value)}\u00a0%"


def _refused(offers: list[Any]) -> list[str]:
    """Group refused moves by their reason: «навык, помощь союзника — reason»."""
    by_reason: dict[str, list[str]] = {}
    for o in offers:
        if not o.allowed:
            by_reason.setdefault(o.reason, []).append(o.name)
    return [f"{', '.join(n)} — {escape(r)}" for r, n in by_reason.items()]


def _worth(offers: list[Any]) -> list[str]:
    """«навык, еда: лучше 41 %, хуже 23 %» — the allowed moves grouped by what they are worth."""
    by_odds: dict[str, list[str]] = {}
    for o in offers:
        if o.allowed:
            by_odds.setdefault(o.odds_text, []).append(o.name)
    return [f"{', '.join(n)}: {w}" if len(by_odds) > 1 else w for w, n in by_odds.items()]


def move_lines(check: ide4.Check, offers: list[Any]) -> list[tuple[int, str]]:
    """Return the moves per key as ``(indent, markup)``: what is allowed and what each is
    worth (the exact chance to improve and to worsen the outcome), then why not the rest."""
    if check.status != "rolled":
        reason = ide4.allowed_moves(check)[1].reason
        return [(0, f"[$text-muted]{escape(reason)}[/]"), (0, "Enter — итог проверки")]
    yes, no = "[$success]✓[/]", "[$error]✗[/]"
    lines = [(0, "[b]Что ещё можно[/b] (шанс исхода лучше / хуже), по порядку книги:")]

    def why(texts: list[str]) -> None:
        lines.extend((1, f"{no} [$text-muted]{t}[/]") for t in texts)

    def kind(k: str) -> list[Any]:
        return [o for o in offers if o.kind == k]

    rerolls = kind("reroll")
    allowed = [o.name for o in rerolls if o.allowed]
    left = max(check.input.cap - len(check.rerolls), 0)
    head = f"{yes} {', '.join(allowed)} (осталось {left})" if allowed else no
    lines.append((0, f"[b]r[/b] Переброс: {head}"))
    lines.extend((1, w) for w in _worth(rerolls))
    why(_refused(rerolls))
    energy = kind("energy_after")
    nominal = check.input.nominal
    top = [o for o in energy if o.allowed and o.source.endswith(f"x{nominal}")]
    if top:
        lines.append((0, f"[b]e[/b] Энергия после броска: {yes} в запасе {check.pool_after}"))
        worth = " · ".join(f"{o.name} — лучше {chance(o.odds.better)}" for o in top)
        lines.append((1, f"{worth} (хуже — никогда)"))
    else:
        lines.append((0, f"[b]e[/b] Энергия после броска: {no}"))
        reasons = _refused(energy)
        why(reasons[:1])
    bonuses = kind("bonus")
    allowed = [o.name for o in bonuses if o.allowed]
    head = f"{yes} {', '.join(allowed)}" if allowed else no
    lines.append((0, f"[b]b[/b] Бонусы мастерства: {head}"))
    lines.extend((1, f"{o.name}: {o.odds_text}") for o in bonuses if o.allowed)
    why(_refused(bonuses))
    sub = kind("subroll")[0]
    text = f"{yes} d6 — сила последствия, исход не меняет" if sub.allowed else no
    lines.append((0, f"[b]s[/b] Подбросок: {text}"))
    if not sub.allowed:
        why([escape(sub.reason)])
    lines.append((0, "[b]Enter[/b] — итог: смысл и последствия · [b]t[/b] — шаблоны"))
    if check.level != "expanded":
        lines.append((0, "[$text-muted]Право игрока: [b]p[/b] — развёрнутая проверка.[/]"))
    return lines


def conclusion_text(check: ide4.Check) -> str:
    """The line that closes a check (steps 13–14): its outcome, the meaning the GM gave it
    and the consequences in the scene — not the roll again (that is the roll's own line)."""
    parts = [f"Итог проверки: {check.outcome_name or '—'}"]
    if check.meaning:
        parts.append(f"смысл исхода: {check.meaning}")
    if check.consequence:
        parts.append(f"последствия: {check.consequence}")
    if len(parts) == 1:
        parts.append("смысл и последствия не записаны")
    return "; ".join(parts)


def log_text(check: ide4.Check, event: str, step: ide4.Step | None = None) -> str:
    """Return the Журнал line of a step (the last one unless given): what just happened, then
    the check's summary."""
    summary = ide4.summary(check)
    actor = check.input.actor
    if actor and summary.startswith(f"{actor}: "):  # the entry names its actor already
        summary = summary[len(actor) + 2 :]
    if step is None:
        step = check.steps[-1] if check.steps else None
    if event == "conclude":
        return conclusion_text(check)
    if event == "roll" or step is None:
        return summary
    if step.kind == "reroll":
        what = f"переброс — {ide4.REROLL_SOURCES[step.source]}: {step.replaced} → {step.dice[0]}"
    elif step.kind == "energy_after":
        what = f"энергия после {len(step.dice)}×d{step.die} = {sum(step.dice)}"
    elif step.kind == "bonus":
        what = f"бонус: {ide4.AFTER_BONUSES[step.source]}"
    elif step.kind == "level":
        what = f"уровень: {step.note}"
    else:
        what = f"подбросок {step.dice[0]} — {check.subroll_name}"
    return f"{summary} · {what}"  # the summary may end in brackets of its own
