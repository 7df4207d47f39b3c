"""A rolled check is never rolled again by a key (docs/guide/checks.md), as the tester played
it in the demo Древо campaign: Милава, Стрельба, Сложность +3, Enter — then Enter again rolled
a success over the failure, Ctrl+Z of it showed the unrolled form and a second Enter its dice
again, and «f» bought Судьба's critical success once the failure was seen. The key bar after
the roll offered «⏎ Бросить». What the steps refuse, without Textual:
tests/table/test_check_rolled_once.py; here the keys, the bar and the screen."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.tui.builders import errors
from tests.tui.test_focus import bar


async def settle(pilot) -> None:
    await pilot.app.services.writes_done()
    await pilot.pause()


def standing(app) -> list:
    return [e for e in app.store.log() if not e.undone]


async def test_drevo_enter_f_ctrl_z_and_n_after_the_roll(make_test_app) -> None:
    """Сид: Судьба до броска — «он должен объявить об этом до броска кубиков»."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        b = app.query_one("#check-pane")
        milava = next(c for c in app.store.characters() if c.name == "Милава")
        app.query_one("#check-character").select(milava.id)
        app.query_one("#check-action").select("shoot")
        app.query_one("#check-difficulty").select(3)
        await pilot.pause()
        fate = milava.drevo.fate
        await pilot.press("enter")  # roll
        await settle(pilot)
        first = b._result
        assert first is not None and len(standing(app)) == 1
        assert "⏎ Бросить" not in bar(app) and "n Новая" in bar(app), bar(app)
        assert "f Судьба: крит" not in bar(app), "Судьба before the roll offered after it"
        assert "n — новая проверка" in str(app.query_one("#check-formula").render())
        await pilot.press("enter")  # again: refused, the same roll stays
        await settle(pilot)
        assert b._result == first and len(app.store.log()) == 1
        assert any("уже брошена" in m and "n — новая проверка" in m for m in errors(app))
        await pilot.press("f", "enter")  # Судьба after the dice: nothing bought
        await settle(pilot)
        assert b._result == first and len(app.store.log()) == 1
        assert app.store.character(milava.id).drevo.fate == fate
        assert "кубики не бросаются" not in str(app.query_one("#check-formula").render())
        await pilot.press("ctrl+z")  # the roll undone: the form, the same check
        await settle(pilot)
        assert b._result is None
        assert "f Судьба: крит" not in bar(app), "the bar offers Судьба for dice already seen"
        await pilot.press("f")  # its dice were seen: Судьба is refused still
        await settle(pilot)
        assert not b._fate_auto
        await pilot.press("enter")  # rolled again: its own dice
        await settle(pilot)
        assert b._result.dice == first.dice
        await pilot.press("ctrl+z", "ctrl+y")
        await settle(pilot)
        assert b._result.dice == first.dice
        await pilot.press("n")  # the next check: the form kept, the result gone
        await settle(pilot)
        assert b._result is None and "⏎ Бросить" in bar(app) and "n Новая" not in bar(app)
        assert app.query_one("#check-difficulty").value == 3
        await pilot.press("enter")
        await settle(pilot)
        assert b._result is not None and len(standing(app)) == 2


async def test_enter_in_the_modifier_field_leaves_it_once_rolled(make_test_app) -> None:
    """Enter in the modifier field rolls; the focus then leaves the field for the form's
    first row, where «n», «+» and «−» are keys of the rolled check, not letters of the next
    one's modifiers."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        app.query_one("#check-mods").focus()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.focused, Input) and app.focused.id == "check-action"
        await pilot.press("n")
        await settle(pilot)
        assert app.query_one("#check-pane")._result is None
        assert app.query_one("#check-mods", Input).value == ""


@pytest.mark.parametrize(
    ("system", "dialog"), [("starately", "h Помощник"), ("wod", "c Состязание")]
)
async def test_starately_and_wod_enter_twice_roll_once(make_test_app, system, dialog) -> None:
    """Старатели and Мир Тьмы: Enter after a roll rolled a new check; now it is refused, the
    bar offers «n» (not Enter, nor the dialogs that rolled the form again), «n» then Enter
    roll the next check."""
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        assert dialog in bar(app) and "⏎ Бросить" in bar(app), bar(app)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert len(app.store.log()) == 1
        assert any("n — новая проверка" in m for m in errors(app))
        keys = bar(app)
        assert "n Новая" in keys and "⏎ Бросить" not in keys and dialog not in keys, keys
        await pilot.press("n", "enter")
        await settle(pilot)
        assert len(app.store.log()) == 2
