"""An opposed check logs one Журнал entry and counts its dice once in the luck ledger: from the
Бой tab's ``o`` (the actor against the highlighted opponent) and from the Проверка tab, in IDE4
(противоборство), Старатели (встречный бросок) and Мир Тьмы (состязание)."""

from __future__ import annotations

import pytest

from rules.ledger import entry_luck
from tui.store import Store
from tui.systems.ide4.builder.opposed_result import OpposedResultScreen

from .test_luck import settle

SYSTEMS = ["ide4", "starately", "wod"]
WORDS = {"ide4": "Противоборство", "starately": "Встречный", "wod": "Состязание"}


async def finish(pilot, app, system: str) -> None:
    """Enter rolls both sides; IDE4's result screen needs a second Enter (записать итог)."""
    await pilot.press("enter")
    await pilot.pause()
    if system == "ide4":
        assert isinstance(app.screen, OpposedResultScreen)
        if app.screen.result.winner is None:  # a full tie: the GM's choice first
            await pilot.press("right")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, OpposedResultScreen)
    await settle(pilot, app)


def opposed_entries(app, system: str, since: int = 0) -> list:
    """The opposed check's entries among the Журнал's ``since`` onwards (oldest first)."""
    entries = list(reversed(Store.open(app.store.path).log()))[since:]
    return [e for e in entries if e.text.startswith(WORDS[system])]


def rolls_counted(entries) -> int:
    """How many fresh rolls the luck ledger counts in ``entries``."""
    counted = 0
    for e in entries:
        luck = entry_luck(e.kind, e.actor, e.data)
        counted += len(luck.rolls) if luck else 0
    return counted


def check_logged_once(app, system: str, since: int = 0) -> None:
    """One entry of the roll (among the Журнал's entries ``since`` onwards); a second only to
    record a full tie's decision (IDE4), never the same line again; the ledger counts each
    side's roll once."""
    entries = opposed_entries(app, system, since)
    texts = [e.text for e in entries]
    rolls = [e for e in entries if e.data.get("event") != "conclude"]
    assert len(rolls) == 1, texts
    assert len(set(texts)) == len(texts), texts
    if rolls[0].data.get("winner") is not None:
        assert len(entries) == 1, texts
    assert rolls_counted(entries) == 2


@pytest.mark.parametrize("system", SYSTEMS)
async def test_opposed_check_from_the_fight_and_from_the_check_tab_is_logged_once(
    make_test_app, system
):
    """The play-tester's flow: i, Down, o, Enter (and Enter in IDE4): one entry, not two
    identical ones, and the ledger counts the two sides' rolls once; then the same check
    opened in the Проверка tab (outside a fight): one entry again."""
    app = make_test_app(seed=3, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("i")
        await pilot.pause()
        await pilot.press("down", "o")
        await pilot.pause()
        await finish(pilot, app, system)
        check_logged_once(app, system)
        since = len(app.store.log())
        await pilot.press("3")
        builder = await app.ensure_pane("check")
        await pilot.pause()
        action = {"ide4": "opposed", "starately": "opposed", "wod": "contest"}[system]
        await builder.run_action(action)
        await pilot.pause()
        await finish(pilot, app, system)
    check_logged_once(app, system, since)
