"""The IDE4™ builder has every option the CLI has: energy dice up to the nominal, the player's
right to the expanded check, and the opposed check outside fights. Pilot tests on state; two
snapshots of the opposed screens (the player's right and the opposed check's keys run, as
:func:`the_players_right_then_an_opposed_check_outside_a_fight`, in the app of
tests/tui/test_opposed_undo_keys.py). [00] and its exceptions, which [7], the four kinds of help:
the form's engine, tests/table/test_check_ide4_options.py. Energy dice below the nominal and
the warning on Успех: tests/table/test_check_ide4_paid.py, the chooser saying it:
tests/tui/test_check_issue34.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import ide4
from tui.store import Store
from tui.systems.ide4.builder.opposed import OpposedSetupScreen
from tui.systems.ide4.builder.opposed_result import OpposedResultScreen


def builder(app):
    return app.query_one("#check-pane")


async def open_ide4(pilot, *, level: str = "standard", mods: str = "", **rows) -> None:
    """Open the Проверка tab and set rows ``#ide4-<row>`` directly (their keys: other tests)."""
    await pilot.press("3")
    app = pilot.app
    app.query_one("#ide4-level").select(level)
    await pilot.pause()
    if mods:
        app.query_one("#ide4-mods").value = mods
    for row, value in rows.items():
        widget = app.query_one(f"#ide4-{row}")
        if hasattr(widget, "select"):
            widget.select(value)
        else:
            widget.value = value
    await pilot.pause()


def status(app) -> str:
    return str(app.query_one("#ide4-status").render())


def b_input(app) -> ide4.CheckInput:
    return builder(app).current_input()


async def the_players_right_then_an_opposed_check_outside_a_fight(app, pilot, campaign_path):
    """One app on the IDE4 demo campaign's Проверка tab, two parts in turn.

    1. Сид: «Игрок имеет право потребовать Развёрнутую проверку в любой ситуации»: `p` at
       the quick level, and after the roll the change is a recorded step in the Журнал. Then
       a new check (`n`) at the standard level — Сид: «отсутствие необходимости в проверке
       не запрещает игроку потребовать Развёрнутую проверку»: ticking «игрок требует
       проверку» in the checklist (`c`) switches the level.
    2. Сид: «Если два персонажа непосредственно действуют друг против друга, каждый
       выполняет подходящую проверку» … «3. если равенство сохраняется, мастер оставляет
       положение без изменения либо назначает цену обеим сторонам» — the GM's choice is
       recorded.

    Played on a fresh IDE4 demo campaign by tests/tui/test_opposed_undo_keys.py::
    test_the_opposed_dialogs_follow_ctrl_z_and_ctrl_y_wherever_the_focus, whose app it shares
    (it replaces the pilot tests `test_the_players_right_is_a_key_at_every_level_and_recorded`
    and `test_opposed_check_outside_a_fight` of this file, three apps become one)."""
    # 1. The player's right.
    await open_ide4(pilot, level="quick")
    assert "Быстрая проверка; право игрока: p — развёрнутая по требованию" in status(app)
    await pilot.press("enter")  # roll at the quick level
    await pilot.pause()
    b = builder(app)
    assert b.check.level == "quick"
    await pilot.press("p")
    await pilot.pause()
    assert b.check.level == "expanded", "p raises the level"
    assert b.check.steps[-1].kind == "level"
    assert "игрок требует" in b.check.steps[-1].note
    entry = app.store.log()[0]
    assert entry.data["event"] == "level", "the change recorded"
    assert "уровень: Быстрая → Развёрнутая" in entry.text
    await pilot.press("n")  # a new check: the demand is the situation's, cleared
    await pilot.pause()
    await open_ide4(pilot, level="standard")
    assert b.phase == "setup" and not b.player_demand and b.form.level == "standard"
    await pilot.press("c")
    await pilot.pause()
    await pilot.press("end", "space", "escape")  # the last line: «игрок требует проверку»
    await pilot.pause()
    assert b.player_demand and b.form.level == "expanded", "the checklist's demand"
    # 2. An opposed check outside a fight, on a new check at the standard level («n»
    # waits for a roll; a new check's step clears the demand as on a fresh tab).
    b.action_new_check()
    await pilot.pause()
    await open_ide4(pilot, base=3)
    assert not b.player_demand and b.form.level == "standard", "part 2 starts afresh"
    await pilot.press("o")
    await pilot.pause()
    setup = app.screen
    assert isinstance(setup, OpposedSetupScreen), "«o» opens the second side"
    second = setup.second()
    expected = ide4.opposed_odds(b_input(app), second)
    shown = str(setup.query_one("#opp-odds").render())
    assert f"{float(expected['tie']) * 100:.1f}".replace(".", ",") in shown, "the odds"
    await pilot.press("enter")
    await app.services.writes_done()
    await pilot.pause()
    result = app.screen
    assert isinstance(result, OpposedResultScreen), "Enter rolls both"
    # force a full tie: both Успех at [3] (the stored check rigged, as a restart reads it)
    state = app.services.check_table.state
    o = state.opposed
    tie = replace(o, a=replace(o.a, natural=70), b=replace(o.b, natural=70))
    app.store.put_doc("check", replace(state, opposed=tie).to_doc(), label="тест: d100")
    await app.services.writes_done()
    await pilot.pause()
    assert result.result.winner is None, "the tie"
    assert result.query_one("#opp-tie").display, "the tie chooser shown"
    await pilot.press("enter")  # no choice yet: the GM must choose, nothing is recorded
    await pilot.pause()
    assert isinstance(app.screen, OpposedResultScreen), "no choice: Enter refused"
    result.query_one("#opp-tie").select("price")
    await pilot.pause()
    price = result.query_one("#opp-price")
    assert app.focused is price, "«цена обеим» asks for the price at once"
    price.insert_text_at_cursor("оба в грязи")  # (in one go: the typing is not the subject)
    await pilot.press("enter")
    await app.services.writes_done()
    await pilot.pause()
    assert not isinstance(app.screen, OpposedResultScreen), "recorded and closed"
    entries = Store.open(campaign_path).log()
    final = entries[0].data
    assert final["kind"] == "opposed" and final["event"] == "conclude"
    assert (final["winner"], final["resolution"], final["price"]) == (None, "price", "оба в грязи")
    assert entries[1].data["event"] == "roll"


class TestOpposedSnapshots:
    """The IDE4 opposed check: the second side with exact odds, and both results."""

    @pytest.mark.parametrize("stage", ["setup", "result"])
    def test_opposed(self, snap_compare, make_test_app, stage):
        async def run_before(pilot):
            await pilot.press("3", "o")  # the form is side one; «o» sets the second side
            await pilot.pause()
            if stage == "result":
                await pilot.press("enter")  # both roll (seeded dice)
                await pilot.pause()

        app = make_test_app(system="ide4")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
