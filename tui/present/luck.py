"""Renderings of the luck ledger: plain-text lines, the ``kubik stats --json`` dict, Markdown.

Numbers are Russian: a decimal comma, «%» after a space, a no-break space between thousands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.ledger import Sample, Summary, Verdict, summarise
from rules.ledger.stats import settings
from tui.bridge.luck import UNKNOWN_FATE, Roll, Session

SPARKS = "▁▂▃▄▅▆▇█"
SPENT_NAMES = {"fate": "Судьба", "energy": "энергия", "rerolls": "перебросы"}
DIRECTION_WORDS = {
    "lucky": ("намного удачнее ожидаемого", "удачнее ожидаемого", "чуть удачнее ожидаемого"),
    "unlucky": ("намного хуже ожидаемого", "хуже ожидаемого", "чуть хуже ожидаемого"),
}


def number(value: float, digits: int = 2) -> str:
    """Return ``value`` with a decimal comma."""
    return f"{value:.{digits}f}".replace(".", ",")


def share(value: float) -> str:
    """Return a share as a whole percentage: «12 %»."""
    return f"{round(value * 100)} %"


def plural(n: int, one: str, few: str, many: str) -> str:
    """Return the Russian form of a noun for ``n`` (1 бросок, 2 броска, 5 бросков)."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def rolls_text(n: int) -> str:
    """Return «1 бросок», «3 броска», «11 бросков»."""
    return f"{n} {plural(n, 'бросок', 'броска', 'бросков')}"


def one_in(tail: float) -> str:
    """Return how rare a tail is as «1 … из K»'s K, with no-break spaces between thousands."""
    if tail <= 1e-6:
        return "миллиона и больше"
    return f"{round(1 / tail):,}".replace(",", "\u00a0")


def verdict_text(verdict: Verdict | None, unit: str = "вечере") -> str:
    """Return the plain-words verdict: «удачнее ожидаемого: так бывает в 1 вечере из 12».

    Args:
        verdict: the verdict of a set of rolls, or ``None`` (no rolls).
        unit: «вечере» for a session; «случае» across sessions.
    """
    if verdict is None:
        return "бросков нет"
    how = "точный расчёт" if verdict.exact else "нормальное приближение"
    if verdict.direction == "even" or verdict.tail > 0.5:
        return f"как и ожидалось: обычный результат ({how})"
    strong, plain, slight = DIRECTION_WORDS[verdict.direction]
    tail = verdict.tail
    words = strong if tail <= 0.01 else plain if tail <= 0.1 else slight if tail <= 0.25 else None
    if words is None:
        words = "в пределах ожидаемого"
    return f"{words}: так бывает в 1 {unit} из {one_in(tail)} ({how})"


def sparkline(samples: Sequence[Sample], width: int) -> str:
    """Return the run of percentiles as one line of eighth-blocks (the newest ``width``)."""
    shown = samples[-width:] if width > 0 else []
    return "".join(SPARKS[min(len(SPARKS) - 1, int(s.percentile * len(SPARKS)))] for s in shown)


def histogram_rows(histogram: Sequence[int], height: int = 4, cell: int = 4) -> list[str]:
    """Return a vertical bar chart of the decile counts, ``height`` rows, then the axis."""
    top = max(histogram) if histogram and max(histogram) else 1
    rows = []
    for level in range(height, 0, -1):
        row = ""
        for count in histogram:
            eighths = round(count / top * height * 8) - (level - 1) * 8
            block = "█" if eighths >= 8 else SPARKS[eighths - 1] if eighths > 0 else " "
            row += (block * (cell - 1)).ljust(cell)
        rows.append(row.rstrip())
    rows.append("".join(str(c).center(cell - 1).ljust(cell) for c in histogram).rstrip())
    rows.append("".join(f"{d}0".ljust(cell) if d else "0 ".ljust(cell) for d in range(10)) + "100")
    return rows


def spent_text(spent: dict[str, int]) -> str:
    """Return «Судьба 2, энергия 16, перебросы 1» (what was spent, not luck).

    Судьба spent by an entry of an older version that did not keep the amount
    (``fate_unknown``: how many such spendings) is said as such, not guessed.
    """
    unknown = spent.get(UNKNOWN_FATE, 0)
    parts = []
    for kind, amount in spent.items():
        if kind == "fate" and amount and unknown:
            parts.append(f"Судьба {amount} и ещё {_unknown_text(unknown)}")
        elif amount and kind != UNKNOWN_FATE:
            parts.append(f"{SPENT_NAMES.get(kind, kind)} {amount}")
    if unknown and not spent.get("fate"):
        parts.append(f"Судьба: {_unknown_text(unknown)}")
    return ", ".join(parts)


def _unknown_text(n: int) -> str:
    """«1 трата без записанной суммы (старая версия)»: Судьба of entries without the amount."""
    return f"{n} {plural(n, 'трата', 'траты', 'трат')} без записанной суммы (старая версия)"


# -- scopes ------------------------------------------------------------------------------------


def pick(sessions: Sequence[Session], which: int | str | None) -> list[Session]:
    """Return the sessions a scope names: a number, ``"all"``, or ``None`` for the newest.

    Raises:
        ValueError: no session with that number (the message is Russian).
    """
    if which == "all":
        return list(sessions)
    if which is None:
        return list(sessions[-1:])
    chosen = [s for s in sessions if s.number == which]
    if not chosen:
        last = sessions[-1].number if sessions else 0
        raise ValueError(
            f"нет сессии {which}: в журнале сессий {last}" if last else "в журнале нет бросков"
        )
    return chosen


def by_character(rolls: Sequence[Roll]) -> dict[str, list[Sample]]:
    """Group the samples by who rolled them, in the order each first rolled."""
    groups: dict[str, list[Sample]] = {}
    for roll in rolls:
        groups.setdefault(roll.who, []).append(roll.sample)
    return groups


def merged_spent(sessions: Sequence[Session]) -> dict[str, dict[str, int]]:
    """Add up what each character spent across ``sessions``."""
    out: dict[str, dict[str, int]] = {}
    for session in sessions:
        for who, kinds in session.spent.items():
            mine = out.setdefault(who, {})
            for kind, amount in kinds.items():
                mine[kind] = mine.get(kind, 0) + amount
    return out


# -- JSON --------------------------------------------------------------------------------------


def verdict_dict(verdict: Verdict | None, unit: str) -> dict[str, Any] | None:
    if verdict is None:
        return None
    return {
        "direction": verdict.direction,
        "tail": verdict.tail,
        "exact": verdict.exact,
        "text": verdict_text(verdict, unit),
    }


def summary_dict(summary: Summary, unit: str) -> dict[str, Any]:
    """Return the numbers of a summary (``rolls`` and ``mean_percentile`` first)."""
    return {
        "rolls": summary.rolls,
        "mean_percentile": summary.mean,
        "top_share": summary.top,
        "bottom_share": summary.bottom,
        "histogram": list(summary.histogram),
        "verdict": verdict_dict(summary.verdict, unit),
    }


def _characters(rolls: Sequence[Roll], spent: dict[str, dict[str, int]], unit: str) -> dict:
    groups = by_character(rolls)
    out = {who: summary_dict(summarise(samples), unit) for who, samples in groups.items()}
    for who, kinds in spent.items():
        out.setdefault(who, summary_dict(summarise([]), unit))["spent"] = kinds
    return out


def stats_dict(chosen: Sequence[Session]) -> dict[str, Any]:
    """Return ``kubik stats --json``: the scope's totals, per character, and per session."""
    unit = "вечере" if len(chosen) == 1 else "случае"
    rolls = [r for s in chosen for r in s.rolls]
    data = summary_dict(summarise([r.sample for r in rolls]), unit)
    data["by_character"] = _characters(rolls, merged_spent(chosen), unit)
    data["sessions"] = [
        {
            "number": s.number,
            "start": s.start,
            **summary_dict(summarise([r.sample for r in s.rolls]), "вечере"),
            "by_character": _characters(s.rolls, s.spent, "вечере"),
            "run": [r.sample.percentile for r in s.rolls],
        }
        for s in chosen
    ]
    data["edge"] = settings().edge
    return data


# -- text and Markdown -------------------------------------------------------------------------


def scope_title(chosen: Sequence[Session], total: int) -> str:
    """Return «Сессия 3 из 3» or «Все сессии (3)» («бросков пока нет» for an empty log)."""
    if not total:
        return "бросков пока нет"
    if len(chosen) == 1:
        return f"Сессия {chosen[0].number} из {total}"
    return f"Все сессии ({total})"


def table_lines(chosen: Sequence[Session]) -> list[str]:
    """Return the table's numbers in words: rolls, mean, the verdict, the edges."""
    unit = "вечере" if len(chosen) == 1 else "случае"
    samples = [r.sample for s in chosen for r in s.rolls]
    summary = summarise(samples)
    if not summary.rolls:
        return ["Бросков нет: бросьте проверку (3) или быстрый бросок (/)."]
    assert summary.mean is not None and summary.top is not None and summary.bottom is not None
    edge = share(settings().edge)
    return [
        f"За столом: {rolls_text(summary.rolls)}, средний перцентиль "
        f"{number(summary.mean)} (честные кубики — 0,50)",
        verdict_text(summary.verdict, unit),
        f"В верхних {edge}: {share(summary.top)} бросков · в нижних {edge}: "
        f"{share(summary.bottom)}",
    ]


def character_rows(chosen: Sequence[Session]) -> list[tuple[str, str, str, str, str, str]]:
    """Return one row per character: who, rolls, mean, top, bottom, the short verdict."""
    rolls = [r for s in chosen for r in s.rolls]
    spent = merged_spent(chosen)
    rows = []
    groups = by_character(rolls)
    for who in [*groups, *(w for w in spent if w not in groups)]:
        summary = summarise(groups.get(who, []))
        if summary.mean is None:
            rows.append((who, "0", "—", "—", "—", "нет бросков"))
            continue
        assert summary.top is not None and summary.bottom is not None
        rows.append(
            (
                who,
                str(summary.rolls),
                number(summary.mean),
                share(summary.top),
                share(summary.bottom),
                short_verdict(summary.verdict),
            )
        )
    return rows


def short_verdict(verdict: Verdict | None) -> str:
    """Return a table cell's verdict: «чуть удачнее · 1 из 7» («≈»: the normal approximation)."""
    if verdict is None:
        return "—"
    tail = verdict.tail
    if verdict.direction == "even" or tail > 0.25:
        return "как ожидалось"
    strong, plain, slight = DIRECTION_WORDS[verdict.direction]
    words = strong if tail <= 0.01 else plain if tail <= 0.1 else slight
    word = words.removesuffix(" ожидаемого")
    return f"{word} · 1 из {one_in(tail)}" + ("" if verdict.exact else " ≈")


def spent_lines(chosen: Sequence[Session]) -> list[str]:
    """Return «Потрачено: Ярослав — Судьба 2; …», or nothing if nothing was spent."""
    spent = merged_spent(chosen)
    parts = [f"{who} — {spent_text(k)}" for who, k in spent.items() if spent_text(k)]
    return [f"Потрачено (не удача): {'; '.join(parts)}"] if parts else []


def markdown(campaign: str, chosen: Sequence[Session], total: int) -> str:
    """Return the scope's stats as Markdown: numbers, verdicts, histogram, run, spending."""
    from tui.store.transfer import md_escape

    lines = [f"# Удача: {md_escape(campaign)} — {scope_title(chosen, total).lower()}", ""]
    if len(chosen) == 1:
        lines += [f"Начало: {chosen[0].start}", ""]
    lines += [md_escape(line) for line in table_lines(chosen)]
    rows = character_rows(chosen)
    if rows:
        lines += [
            "",
            "| Кто | Бросков | Средний | Верх | Низ | Вердикт |",
            "|---|---|---|---|---|---|",
        ]
        lines += ["| " + " | ".join(md_escape(cell) for cell in row) + " |" for row in rows]
    samples = [r.sample for s in chosen for r in s.rolls]
    if samples:
        summary = summarise(samples)
        lines += ["", "Перцентили по десяткам:", "", "```"]
        lines += histogram_rows(summary.histogram)
        lines += ["```", "", f"Ход: `{sparkline(samples, 200)}`"]
    spent = spent_lines(chosen)
    if spent:
        lines += ["", md_escape(spent[0])]
    return "\n".join(lines) + "\n"


def entry_text(data: dict[str, Any]) -> str:
    """Return where an entry's rolls landed, for the Журнал's detail line (or ``""``).

    «удача: 0,83 (этот исход или лучше — 17 %)»; with several rolls, each named.
    """
    luck = data.get("luck")
    if not isinstance(luck, dict):
        return ""
    rolls = [r for r in luck.get("rolls") or [] if isinstance(r, dict)]
    parts = []
    for roll in rolls:
        try:
            text = f"{number(float(roll['percentile']))} (этот исход или лучше — "
            text += f"{share(float(roll['at_least']))})"
        except (KeyError, TypeError, ValueError):
            continue
        who = roll.get("who")
        parts.append(f"{who} {text}" if who and len(rolls) > 1 else text)
    spent_items = [s for s in luck.get("spent") or [] if isinstance(s, dict)]
    spent = []
    for item in spent_items:
        what = spent_text({k: v for k, v in item.items() if k != "who"})
        who = item.get("who")
        spent.append(f"{who}: {what}" if who and len(spent_items) > 1 else what)
    out = f"удача: {'; '.join(parts)}" if parts else ""
    if spent:
        out += ("; " if out else "") + "потрачено: " + "; ".join(spent)
    return out


def store_markdown(store: Any, *, players: bool = True) -> str:
    """Return the newest session's stats of a campaign as Markdown (for players: no secrets)."""
    from tui.bridge.luck import read_sessions

    entries = list(reversed(store.log()))
    sessions = read_sessions(entries, players=players, characters=store.characters())
    return markdown(store.campaign.name, pick(sessions, None), len(sessions))
