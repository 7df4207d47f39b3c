"""Snapshot tests: one class per screen, seeded dice, frozen clock, temporary campaign."""

from __future__ import annotations

import pytest

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


class TestTabs:
    """Each of the four tabs, as the GM first sees it."""

    @pytest.mark.parametrize("key", ["1", "2", "3", "4"])
    def test_tab_80x24(self, snap_compare, make_test_app, key):
        async def run_before(pilot):
            await pilot.press(key)  # switch to the tab
            await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_party_wide(self, snap_compare, make_test_app):
        assert snap_compare(make_test_app(), terminal_size=SIZES["120x40"])


class TestCheck:
    """The Древо builder after a roll, and the log that records it."""

    @pytest.mark.parametrize("size", list(SIZES))
    def test_rolled_check(self, snap_compare, make_test_app, size):
        async def run_before(pilot):
            await pilot.press("3")  # the check builder
            await pilot.press("down", "right")  # next trait of the first character
            await pilot.press("down", "right")  # difficulty one rung up: Выше среднего
            await pilot.press("down", *"+1 высота", "enter")  # a modifier, then roll
            await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=SIZES[size], run_before=run_before)

    def test_quick_roll_and_log(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("slash", *"3d6!+2 vs 12", "enter")  # quick roll
            await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_keys_screen(self, snap_compare, make_test_app):
        assert snap_compare(make_test_app(), terminal_size=(80, 24), press=["question_mark"])


class TestCombat:
    """The Бой tab after side initiative and one round."""

    def test_initiative_rolled(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("2", "i")  # roll side initiative
            await pilot.press("n")  # round 2: the order reverses
            await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)
