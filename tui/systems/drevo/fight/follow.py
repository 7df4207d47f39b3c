"""What changed under a fight: its inputs read anew (a sheet edited in Партия or by ``kubik``,
an undo in another window) and what that did to the exchange on turn.

The fight keeps no copy of a sheet: every plan and result is derived from the sheets as they
are (:mod:`.view`), so a changed sheet changes what the Бой tab shows at once. :func:`changes`
says so in words — who, which of his numbers, and the exchange on turn before and after — for
the GM's notice (issue 37: «a state whose inputs changed … is re-derived and says what
changed»).
"""

from __future__ import annotations

from rules import drevo
from rules.encounter import Encounter
from tui.present.markup import plain_text
from tui.store import Character
from tui.systems.drevo import combat as bridge
from tui.systems.drevo.fight.view import ExchangeView, exchange_view
from tui.systems.drevo.present import side_text
from tui.systems.drevo.sheet import wounds_text
from tui.table.core import World


def sheet_changes(was: Character, now: Character) -> list[str]:
    """What of a fighter's sheet the fight reads changed: skills, qualities, weapons, wounds,
    Судьба (each «old → new»)."""
    said = []
    old = {s.name: s.value for s in was.skills}
    new = {s.name: s.value for s in now.skills}
    for name in dict.fromkeys([*old, *new]):
        if name not in new:
            said.append(f"навыка «{name}» больше нет (был {old[name]})")
        elif name not in old:
            said.append(f"новый навык {name} {new[name]}")
        elif old[name] != new[name]:
            said.append(f"{name} {old[name]} → {new[name]}")
    for name in dict.fromkeys([*was.qualities, *now.qualities]):
        a, b = was.qualities.get(name), now.qualities.get(name)
        if a != b:
            said.append(f"{name} {a if a is not None else '—'} → {b if b is not None else '—'}")
    gone = [w for w in was.weapons if w not in now.weapons]
    added = [w for w in now.weapons if w not in was.weapons]
    if gone or added:
        parts = [f"убрано «{w}»" for w in gone] + [f"добавлено «{w}»" for w in added]
        said.append("оружие: " + ", ".join(parts))
    track_was, track_now = bridge.track_of(was), bridge.track_of(now)
    if track_was != track_now:
        said.append(f"раны {_wounds(track_was, was)} → {_wounds(track_now, now)}")
    if was.drevo.fate != now.drevo.fate:
        said.append(f"Судьба {was.drevo.fate} → {now.drevo.fate}")
    return said


def _wounds(track: drevo.WoundTrack, c: Character) -> str:
    return "погиб" if track.dead else wounds_text(c.drevo.wounds)


def verdict(view: ExchangeView) -> str:
    """The exchange on turn in a few words: refused, planned (each side's numbers) or its
    result."""
    if view.refusal:
        return f"нельзя: {view.refusal}"
    if view.result is not None:
        result = view.result
        text = drevo.EXCHANGE_OUTCOME_NAMES[result.outcome]
        if result.winner and result.plan.kind == "opposed":
            text += f" — {result.plan.side(result.winner).fighter.name}"
        hits = ", ".join(
            f"{_name(view, h.target)}: {drevo.level_name(h.level).lower()}" for h in result.hits
        )
        return f"{text} ({hits})" if hits else text
    assert view.plan is not None
    return "; ".join(plain_text(side_text(s)) for s in (view.plan.attacker, view.plan.defender))


def _name(view: ExchangeView, role: str) -> str:
    c = view.character(role)
    return c.name if c is not None else "?"


def changes(before: Encounter, after: Encounter, was: World, now: World) -> tuple[str, ...]:
    """What changed under the fight between two readings: a line per fighter whose sheet
    changed, and a line for the exchange on turn when it reads otherwise now.

    ``before``/``was``: the fight and the world as last shown; ``after``/``now``: as read now.
    A fighter removed from the party is said elsewhere (``text.departures``)."""
    if after.phase not in ("declare", "resolve"):
        return ()
    said = []
    for c in after.combatants:
        cid = c.character_id
        old, new = was.characters.get(cid), now.characters.get(cid)
        if old is None or new is None or old == new:
            continue
        if items := sheet_changes(old, new):
            said.append(f"{new.name}: лист изменён вне боя — {', '.join(items)}.")
    if not said:
        return ()
    view_was, view_now = exchange_view(before, was), exchange_view(after, now)
    if (
        view_was is not None
        and view_now is not None
        and view_was.pairing.key == view_now.pairing.key
        and view_was.exchange.dice == view_now.exchange.dice
    ):
        a, b = verdict(view_was), verdict(view_now)
        if a != b:
            said.append(f"Схватка {view_now.number} пересчитана: было «{a}», стало «{b}».")
    return tuple(said)
