"""The Проверка tab's odds while the modifier field does not parse (issue 37: no screen shows a
value its inputs no longer give). The engine's view offers no odds then
(tests/table/test_check_bad_mods.py); this is the builder drawing that."""

from __future__ import annotations

import pytest

from tests.tui.builders import errors
from tui.widgets.common.oddsbars import OddsBars

#: Each builder's modifier field and odds bars.
FIELDS = {
    "drevo": ("#check-mods", "#check-odds"),
    "ide4": ("#ide4-mods", "#ide4-odds"),
    "starately": ("#check-mods", "#check-odds"),
    "wod": ("#check-mods", "#check-odds"),
}


@pytest.mark.parametrize("system", list(FIELDS))
async def test_the_odds_give_way_to_a_sentence_while_the_modifiers_are_wrong(
    make_test_app, system
) -> None:
    """Play-test (Древо): «+5» typed, then «5.5» over it — the error «нужно целое число»
    showed, and under it the odds of «+5», «Успех 97,5 %». Enter rolls nothing and says why."""
    field, bars = FIELDS[system]
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        app.query_one(field).focus()
        await pilot.press(*"+1")
        await pilot.pause()
        odds = str(app.query_one(bars, OddsBars).render())
        assert "%" in odds, odds
        await pilot.press("ctrl+u", *"5.5")
        await pilot.pause()
        odds = str(app.query_one(bars, OddsBars).render())
        assert "%" not in odds, f"odds of «+1» under «5.5»: {odds}"
        assert "исправьте модификаторы" in odds, odds
        await pilot.press("enter")
        await pilot.pause()
        assert app.store.log() == [], "«5.5» rolled"
        said = errors(app)
        assert said and "нужно целое число" in said[-1], said
