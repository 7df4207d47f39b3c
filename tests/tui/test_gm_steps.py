"""The GM's own keys on an open check are undo steps, as a seat's accepted request is (issue
14, issue 20): Ctrl+Z after the key puts the check back (the dice rolled stay), the key's
Журнал line is marked «отменено»; Ctrl+Y brings the same step again (no new dice)."""

from __future__ import annotations

from functools import partial

from tests.tui import builders

open_starately = partial(builders.open_builder, prefix="st")


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.writes_done()
    await pilot.pause()


def newest(app, **data):
    """Return the newest Журнал entry whose data holds ``data``."""
    return next(e for e in app.store.log() if all(e.data.get(k) == v for k, v in data.items()))


class TestStaratelyRisk:
    async def test_ctrl_z_puts_the_failed_check_back_and_ctrl_y_the_same_retry(self, make_test_app):
        """«Игрок может заявить Риск и совершить проверку ещё раз… Вне зависимости от
        результата этой повторной проверки игрок заплатит за это…» — one step, undone whole."""
        app = make_test_app(system="starately")
        async with app.run_test(size=(80, 24)) as pilot:
            await open_starately(pilot, skill="", difficulty=12)  # без навыка (−3), Подвиг 12+
            await pilot.press("enter")
            await settle(pilot)
            b = app.query_one("#check-pane")
            failed, shown = b._last, b._shown
            assert not failed.success
            await pilot.press("r", *"кобура", "enter")
            await settle(pilot)
            retry = b._last
            assert retry.risk and newest(app, kind="risk").undone is False
            assert b.check_action("risk", ()) is False
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert b._last == failed and b._shown == shown  # the first dice, no retry
            assert b.check_action("risk", ()) is True  # Risk may be declared again
            assert newest(app, kind="risk").undone is True
            assert "кобура" not in str(b.query_one("#check-result").render())
            await pilot.press("ctrl+y")
            await settle(pilot)
            assert b._last == retry  # the same retry, not a new roll
            assert newest(app, kind="risk").undone is False
            assert "кобура" in str(b.query_one("#check-result").render())
