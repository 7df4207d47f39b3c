"""Snapshot tests: one class per screen, seeded dice, frozen clock, temporary campaign.

Each screen at 80×24, and at a wide size only where its layout changes with the width (the
IDE4 builder's side column: tests/tui/test_builder_ide4.py::TestSnapshots::test_wide). The
screens here, the round trackers' and the other builders' are the same rows and columns at
120×40, only wider; their 120×40 snapshots were dropped on 7 Dec 2026 (~2 CPU-s a run)."""

from __future__ import annotations

import pytest

from tests.tui.test_combat import declare_blows, keep_only


class TestTabs:
    """Each of the four tabs, as the GM first sees it."""

    @pytest.mark.parametrize("key", ["1", "2", "3", "4"])
    def test_tab_80x24(self, snap_compare, make_test_app, key):
        async def run_before(pilot):
            await pilot.press(key)  # switch to the tab

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)


class TestCheck:
    """The Древо builder after a roll, and the log that records it."""

    def test_rolled_check(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("3")  # the check builder, focus on the character row
            await pilot.press("down", "right")  # action: Ближний бой (the trait is preselected)
            await pilot.press("down", "down", "right")  # difficulty one rung up: Выше среднего
            await pilot.press("down")  # the modifiers field, its text set at once: typing
            # is the Input's own (a field read as typed: tests/tui/test_pilot.py)
            pilot.app.query_one("#check-mods").value = "+1 высота"
            await pilot.pause()
            await pilot.press("enter")  # roll

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_quick_roll_and_log(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("slash")  # the quick roll, its expression set at once
            pilot.app.query_one("#quick-input").value = "3d6!+2 vs 12"
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()  # its exact odds, from a worker
            output = pilot.app.query_one("#quick-output")
            for _ in range(100):  # until the worker's line is on screen, however busy the CPU
                if "считаются" not in str(output.render()):
                    break
                await pilot.pause(0.05)

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_keys_screen(self, snap_compare, make_test_app):
        assert snap_compare(make_test_app(), terminal_size=(80, 24), press=["question_mark"])


async def resolve_as_enter(pilot) -> None:
    """Make the steps Enter makes on each exchange until the round is resolved (roll at
    «plan», accept at «rolled»/«damage», next at «done»; Enter through an exchange stays a
    key in tests/tui/test_combat_fight.py, the steps: tests/table/test_fight_from_the_tab.py),
    through the fight's headless session on the app's campaign, dice and Журнал, each step one
    undo step as the tab writes it; the tab then follows the store."""
    from tui.systems.drevo.fight import steps
    from tui.systems.drevo.fight.session import FightSession
    from tui.systems.drevo.fight.view import exchange_view
    from tui.table.core import Dice

    pane = pilot.app.query_one("#combat-pane")
    session = FightSession(pilot.app.store, Dice(pane.rng), pane.journal.entry)
    by_stage = {"plan": steps.roll, "rolled": steps.accept, "damage": steps.accept}
    for _ in range(12):
        _, enc, world = session.read()
        if not enc.pending():
            break
        view = exchange_view(enc, world)
        outcome = session.run(by_stage.get(view.stage, steps.finish))
        assert outcome.ok, outcome.refused
    await pilot.pause()


class TestCombat:
    """The Бой tab at each phase of a fight (Ярослав and Горан against Атаман Шкуро)."""

    @staticmethod
    async def setup(pilot):
        """Leave everyone but Ярослав, Горан and Атаман Шкуро out of the fight: the others but
        the last written through the store as one step (Space cycling a side out is
        ``one_on_one_by_keys``, compared in tests/tui/test_combat.py), the last one, Сотник
        Вышата, by Space on the roster (the undo key's label names that step)."""
        from tests.tui.test_combat import only

        await pilot.press("2")  # the Бой tab, focus on the roster
        app, keep = pilot.app, ("Ярослав Кречет", "Горан Рябой", "Атаман Шкуро")
        pane = app.query_one("#combat-pane")
        enc = only(pane.encounter, (*keep, "Сотник Вышата"))
        app.store.put_doc("encounter", enc.to_dict(), label="Бой: без Богдана, Милавы, Лыко")
        await pilot.pause()
        names = [c.name for c in pane.characters.values()]
        app.query_one("#combat-roster").move_cursor(row=names.index("Сотник Вышата"))
        await pilot.press("space", "space")  # Противники → Третья сторона → out of the fight

    @staticmethod
    async def fight(pilot):
        """The same three left in the fight, all written through the store as one step (Space
        on the roster: ``one_on_one_by_keys``; tests/tui/test_combat.py compares the two)."""
        await keep_only(pilot, pilot.app, ("Ярослав Кречет", "Горан Рябой", "Атаман Шкуро"))

    def test_setup(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.setup(pilot)

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_declarations(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # side initiative
            await pilot.press("enter")  # the first declarer: melee at the first target

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_resolution(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # initiative; the three declarations Enter makes:
            await declare_blows(pilot, pilot.app)

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_after_damage(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # initiative; the three declarations Enter makes:
            await declare_blows(pilot, pilot.app)
            await pilot.press("enter", "enter")  # roll the first exchange, accept it

        assert snap_compare(make_test_app(seed=2), terminal_size=(80, 24), run_before=run_before)

    def test_refused_declaration(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # side initiative
            await pilot.press("down", "down", "down", "right", "right", "right")  # «далеко»
            await pilot.press("enter")  # melee far away: refused in the form, «!» offered

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_shield_against_a_pistol(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("z", "enter")  # ambush: Отряд declares first
            await pilot.pause()
            form = pilot.app.query_one("#combat-form")
            pane = pilot.app.query_one("#combat-pane")
            yaroslav = next(c.id for c in pane.characters.values() if c.name == "Ярослав Кречет")
            for action, weapon, distance in (
                ("dodge", None, "close"),  # Горан Рябой
                ("shield", "Щит", "close"),  # Ярослав Кречет
                ("shoot", "Пистолет", "near"),  # Атаман Шкуро at Ярослав
            ):
                form.query_one("#declare-action").select(action)
                await pilot.pause()
                if weapon:
                    form.query_one("#declare-weapon").select(weapon)
                    form.query_one("#declare-target").select(yaroslav)
                form.query_one("#declare-distance").select(distance)
                await pilot.pause()
                await pilot.press("enter")
                await pilot.pause()

        assert snap_compare(make_test_app(), terminal_size=(80, 24), run_before=run_before)

    def test_round_resolved(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # initiative; the three declarations Enter makes:
            await declare_blows(pilot, pilot.app)
            await resolve_as_enter(pilot)

        assert snap_compare(make_test_app(seed=2), terminal_size=(80, 24), run_before=run_before)

    def test_final_wound(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await self.fight(pilot)
            await pilot.press("i")  # initiative; the three declarations Enter makes:
            await declare_blows(pilot, pilot.app)
            await pilot.press("enter", "enter")  # roll the first exchange, accept it
            await pilot.press("1")  # Судьба lowers the damage; the final wound is shown

        assert snap_compare(make_test_app(seed=2), terminal_size=(80, 24), run_before=run_before)
