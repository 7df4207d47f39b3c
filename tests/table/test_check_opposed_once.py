"""An opposed check logs one Журнал entry and counts its dice once in the luck ledger, through
the engine alone: IDE4 (противоборство), Старатели (встречный бросок) and Мир Тьмы
(состязание), against the opponent a fight's turn names and against the form's default one.
Which key opens it from the Бой tab and that the turn's target is the other side:
tests/tui/test_rounds.py::test_the_turns_check_is_prefilled_with_its_actor_and_target."""

from __future__ import annotations

import pytest

from rules import ide4
from rules.ledger import entry_luck
from tests.table.check_helpers import ok, table
from tui.store import Store
from tui.systems.ide4.check import opposed as ide4_opposed
from tui.systems.ide4.check import steps as ide4_steps
from tui.systems.starately.check import other as starately_other
from tui.systems.starately.check import steps as starately_steps
from tui.systems.wod.check import contest as wod_contest
from tui.systems.wod.check import steps as wod_steps

WORDS = {"ide4": "Противоборство", "starately": "Встречный", "wod": "Состязание"}


def play_ide4(t, target: str | None) -> None:
    """«o», Enter (both roll), Enter (записать итог; on a full tie the first choice, «→»)."""
    ok(t, ide4_opposed.open_opposed, target)
    ok(t, ide4_opposed.roll_opposed)
    result = ide4_opposed.opposed_view(t.state, t.world()).result
    tie = next(iter(ide4.TIE_RESOLUTIONS)) if result.winner is None else ""
    ok(t, ide4_opposed.conclude_opposed, tie, "")


def play_starately(t, target: str | None) -> None:
    """«o», Enter: the dialog's roll."""
    ok(t, starately_other.open_other, "opposed", target)
    ok(t, starately_other.roll_other)


def play_wod(t, target: str | None) -> None:
    """«c», Enter: the contest's roll."""
    ok(t, wod_contest.open_contest, target)
    ok(t, wod_contest.roll_contest)


PLAY = {"ide4": play_ide4, "starately": play_starately, "wod": play_wod}
STEPS = {"ide4": ide4_steps, "starately": starately_steps, "wod": wod_steps}


def opposed_entries(store: Store, system: str, since: int = 0) -> list:
    """The opposed check's entries among the Журнал's ``since`` onwards (oldest first)."""
    entries = list(reversed(store.log()))[since:]
    return [e for e in entries if e.text.startswith(WORDS[system])]


def rolls_counted(entries) -> int:
    """How many fresh rolls the luck ledger counts in ``entries``."""
    counted = 0
    for e in entries:
        luck = entry_luck(e.kind, e.actor, e.data)
        counted += len(luck.rolls) if luck else 0
    return counted


def check_logged_once(store: Store, system: str, since: int = 0) -> None:
    """One entry of the roll (among the Журнал's entries ``since`` onwards); a second only to
    record a full tie's decision (IDE4), never the same line again; the ledger counts each
    side's roll once."""
    entries = opposed_entries(store, system, since)
    texts = [e.text for e in entries]
    rolls = [e for e in entries if e.data.get("event") != "conclude"]
    assert len(rolls) == 1, texts
    assert len(set(texts)) == len(texts), texts
    if rolls[0].data.get("winner") is not None:
        assert len(entries) == 1, texts
    assert rolls_counted(entries) == 2


@pytest.mark.parametrize("system", sorted(PLAY))
def test_an_opposed_check_is_logged_once(tmp_path, system):
    """The actor against the opponent a fight's turn names (the Бой tab's «o» hands the
    builder that pair), then a check against the form's default opponent (the Проверка
    tab's own key): each one entry, not two identical ones, and the ledger counts the two
    sides' rolls once. Replaces the pilot test `tests/tui/test_opposed_logged_once.py::
    test_opposed_check_from_the_fight_and_from_the_check_tab_is_logged_once` (its three
    systems; the fight's key opening the check: tests/tui/test_rounds.py)."""
    store = Store.open(tmp_path / "c.json", system=system)
    t = table(store, seed=3)
    party = [c.id for c in store.characters()]
    actor, target = party[0], party[-1]  # not the form's first other character
    ok(t, STEPS[system].set_input, "character", actor)
    PLAY[system](t, target)
    check_logged_once(store, system)
    assert opposed_entries(store, system)[0].actor == store.character(actor).name
    since = len(store.log())
    if t.state.rolled is not None:
        ok(t, STEPS[system].new_check)  # «n»: the next check
    PLAY[system](t, None)
    check_logged_once(store, system, since)
