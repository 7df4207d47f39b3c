"""The IDE4™ check builder: pilot tests on state (store, check, rows) and snapshots at 80×24."""

from __future__ import annotations

import dataclasses

import pytest
from textual.widgets import Input


def builder(app):
    """Return the IDE4 builder of the Проверка tab."""
    return app.query_one("#check-pane")


def capture_notes(app) -> list[tuple[str, str]]:
    """Record every notification as ``(message, severity)``."""
    notes: list[tuple[str, str]] = []

    def notify(message, *, severity="information", **_):
        notes.append((str(message), severity))

    app.notify = notify
    return notes


async def choose(pilot, stepper_id: str, value) -> None:
    """Focus a stepper and press → until it shows ``value`` (fails after a full turn)."""
    stepper = pilot.app.query_one(f"#{stepper_id}")
    stepper.focus()
    if not stepper.wrap:  # a scale stops at its ends: start from the first rung
        await pilot.press("home")
    for _ in range(len(stepper._options) + 1):
        if stepper.value == value:
            return
        await pilot.press("right")
    raise AssertionError(f"{stepper_id}: no option {value!r}")


def energy(app, name: str) -> int:
    """Return a character's energy as the store has it."""
    c = next(c for c in app.store.characters() if c.name == name)
    return c.ide4.energy


class TestProcedure:
    """A GM and a player walk the procedure; the log and the sheet follow."""

    async def test_roll_reroll_energy_after_conclude(self, make_test_app):
        """The keys of the whole procedure at the expanded level: «l», the energy row, Enter
        (energy before, the d100), «r» Enter (the chooser's first allowed source: «еда»), «e»
        ↓ Enter (2 dice of the nominal), Enter and the conclusion dialog's two fields; the
        sheet shows what was paid. What the procedure writes (its four Журнал lines, the
        energy each step spent): tests/table/test_check_ide4_paid.py::
        test_roll_reroll_energy_after_conclude_leaves_four_lines_and_pays_the_sheet, which
        replaces this test's Журнал part; the two texts are put in the fields in one go (the
        typing is not the subject).

        Before concluding, Ctrl+Z three times undoes the moves and the roll: the tab shows
        the form again and the sheet is at 100; Ctrl+Y three times shows the rolled check
        again with the energy it paid. That replaces the screen part of the pilot tests
        `tests/tui/test_ide4_dialogs_follow.py::
        test_two_undos_under_an_open_check_stay_followed_on_the_next_change` and
        `tests/tui/test_ide4_log_links.py::test_the_energy_before_rolls_line_follows_its_undo_and_redo`
        (on the same campaign and check: one app; what they paid and marked, and the next
        store change leaving the undo alone: tests/table/test_check_ide4_paid.py)."""
        from tui.systems.ide4.builder.dialogs import ConcludeScreen

        async def keys(*pressed: str) -> None:
            await pilot.press(*pressed)
            await app.services.writes_done()
            await pilot.pause()

        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("3", "l")  # the builder; standard → expanded
            b = builder(app)
            assert b.form.level == "expanded"
            await choose(pilot, "ide4-energy", 2)  # energy before: 2×d6 (Сила ур. 2)
            await keys("enter")  # energy before, then the d100
            assert b.phase == "result" and b.check.status == "rolled"
            first = b.check.natural
            await keys("r")  # reroll chooser: «навык» is refused, «еда» is first allowed
            await keys("enter")
            assert b.check.rerolls == ("food",)
            assert b.check.steps[-1].replaced == first
            assert b.check.outcome not in ("tragedy", "triumph"), "seed: energy after must apply"
            await keys("e", "down", "enter")  # energy after: 2×d6
            assert len(b.check.after_dice) == 2
            assert energy(app, "Вера Стрижова") == 100 - 12 - 12
            done = b.check
            for _ in range(3):  # the energy after, the reroll, the roll (with its energy)
                await keys("ctrl+z")
            assert energy(app, "Вера Стрижова") == 100 and b.phase == "setup"
            assert b.query_one("#ide4-form").display, "the form shown again"
            assert not b.query_one("#ide4-after").display, "the result hidden"
            for _ in range(3):
                await keys("ctrl+y")
            assert b.phase == "result" and b.query_one("#ide4-after").display
            assert b.check == done, "the same check again"
            paid = f"энергия {done.pool_after}/100"
            assert paid in str(b.query_one("#ide4-steps").render()), "the energy it paid shown"
            await keys("enter")  # conclude: meaning, consequence
            dialog = app.screen
            assert isinstance(dialog, ConcludeScreen)
            assert app.focused is dialog.query_one("#ide4-meaning"), "the meaning first"
            app.focused.insert_text_at_cursor("дверь поддалась")
            await pilot.press("enter")
            assert app.focused is dialog.query_one("#ide4-consequence"), "Enter: the next field"
            app.focused.insert_text_at_cursor("патруль далеко")
            await keys("enter")
            assert b.phase == "done"
            assert (b.check.meaning, b.check.consequence) == ("дверь поддалась", "патруль далеко")
            assert energy(app, "Вера Стрижова") == 100 - 12 - 12

    async def test_level_switch_impossible_hidden_risk_forbidden_move_templates_new_day(
        self, make_test_app
    ):
        """One app on the IDE4 demo campaign's Проверка tab, each part in turn (each part
        begins with a new check, `n`, at the standard level):

        1. «l» cycles the level and keeps what was chosen and typed (a skill hidden at the
           quick level is not in the check, and back at standard it is). The expanded level's
           text rows are not built at the standard level (the tab's first build is cheaper),
           are built when shown, and keep what was typed through a switch; a new check clears
           a built row and skips the others.
        2. [00]: Enter is refused until the reason is typed (the focus goes to its field),
           then the check is recorded as impossible. A new check (`n`) at [0]: the
           hidden-risk row is shown with «автоматический успех»; a trap kept at [1] rolls with
           Триумф in the odds.
        3. A second sub-roll and energy after the sub-roll are refused (nothing changes,
           nothing is logged); the sub-roll raised the standard check to expanded, on record;
           «t» «y» copies the quick template, then the full one; «d» (a new game day) gives
           Успех → Триумф back to everyone (the step: tests/table/test_check_ide4.py).

        Merges the pilot tests `test_a_level_switch_keeps_the_inputs_and_builds_text_rows_
        when_shown`, `test_impossible_needs_a_reason_and_automatic_success_offers_hidden_risk`
        and `test_forbidden_move_refused_then_templates_copied` of this class: the same
        campaign and tab, three apps become one."""
        app = make_test_app(system="ide4")
        async with app.run_test(size=(80, 24)) as pilot:
            notes = capture_notes(app)
            # 1. The level switch (first: the tab's first build is its subject).
            await pilot.press("3")
            b = builder(app)
            assert [i.id for i in b.form.query(Input)] == ["ide4-mods"], "standard: mods only"
            await choose(pilot, "ide4-skill", "Взлом")
            assert b.form.value("attribute") == "Мелкая моторика", "the skill's attribute"
            app.query_one("#ide4-mods", Input).value = "+1 темнота"
            b.query_one("#ide4-skill").focus()
            await pilot.press("l")  # → expanded
            intent = app.query_one("#ide4-intent", Input)
            assert intent.display and app.query_one("#ide4-row-intent").display, "intent shown"
            intent.value = "  открыть сейф  "
            await pilot.press("l")  # → quick
            assert b.form.level == "quick"
            assert not app.query_one("#ide4-skill").display, "quick: the skill hidden"
            assert b.current_input().skill == "", "hidden: not in the check"
            await pilot.press("l")  # → standard: the intent hidden, its text kept
            assert b.current_input().skill == "Взлом", "back at standard: the skill again"
            assert b.current_input().modifiers[0].reason == "темнота", "the mods kept"
            assert not app.query_one("#ide4-row-intent").display, "standard: intent hidden"
            assert app.query_one("#ide4-intent", Input) is intent, "the built row kept"
            assert b.current_input().intent == "открыть сейф", "the intent's text kept"
            b.action_new_check()  # a new check clears a built row and skips the others
            await pilot.pause()
            assert intent.value == "" and b.current_input().intent == "", "new: intent cleared"
            assert b.current_input().impossible_reason == "" and not b.form.query("#ide4-reason")
            # 2. [00] needs a reason; [0] offers the hidden risk.
            await choose(pilot, "ide4-base", 8)  # [00]
            assert app.query_one("#ide4-row-reason").display, "[00] asks for the reason"
            told = len(notes)
            await pilot.press("enter")
            await pilot.pause()
            assert b.phase == "setup" and b.check is None, "[00]: Enter refused"
            assert app.store.log() == [], "[00]: nothing logged"
            assert len(notes) == told + 1, notes
            assert "[00]" in notes[-1][0] and notes[-1][1] == "error", notes[-1]
            assert app.focused is app.query_one("#ide4-reason", Input), "type the reason now"
            app.focused.insert_text_at_cursor("стена без дверей")  # (in one go: not the subject)
            await pilot.press("enter")
            await pilot.pause()
            assert b.check.status == "impossible", "recorded as impossible"
            assert "Невозможно: стена без дверей" in app.store.log()[0].text
            await pilot.press("n")  # a new check: automatic success and the hidden risk
            await pilot.pause()
            assert b.phase == "setup"
            await choose(pilot, "ide4-base", 0)
            assert app.query_one("#ide4-hidden").display, "[0] offers the hidden risk"
            assert "автоматический успех" in str(app.query_one("#ide4-odds").render())
            await choose(pilot, "ide4-hidden", True)  # a trap: keep [1] and roll
            assert b.current_input().hidden_risk
            assert "Триумф" in str(app.query_one("#ide4-odds").render()), "[1]'s odds shown"
            await pilot.press("enter")
            await pilot.pause()
            assert b.check.status == "rolled" and b.check.difficulty.final == 1, "[1] rolled"
            # 3. A forbidden move refused, then the templates, then a new game day.
            await pilot.press("n")
            await pilot.pause()
            await choose(pilot, "ide4-base", 3)
            assert b.form.level == "standard" and not b.current_input().hidden_risk
            told = len(notes)
            await pilot.press("enter", "s")  # roll, then the sub-roll
            await pilot.pause()
            before, logged = b.check, len(app.store.log())
            assert before.subroll_value is not None, "the sub-roll made"
            await pilot.press("s")  # a second sub-roll: the rules refuse it
            await pilot.press("e")  # energy after the sub-roll: refused too
            await pilot.pause()
            assert b.check is before, "the refused moves changed nothing"
            assert len(app.store.log()) == logged, "the refused moves logged nothing"
            # the sub-roll raised the standard check to expanded, on record (never silently)
            said = notes[told:]
            assert [s for _, s in said] == ["information", "error", "error"], said
            assert said[0][0].startswith("Уровень проверки: Стандартная → Развёрнутая")
            assert any(s.kind == "level" for s in before.steps), "the level change a step"
            assert "Подбросок делается один раз" in said[1][0]
            await pilot.press("t", "y")  # the quick template, copied
            await pilot.pause()
            assert app.clipboard.startswith("1. Что ты хочешь сделать?")
            assert len(app.clipboard.splitlines()) == 10, "the quick template"
            await pilot.press("t", "y")  # the full template
            assert len(app.clipboard.splitlines()) == 16, "the full template"
            assert "Подбросок: " in app.clipboard and notes[-1][0].startswith("Шаблон скопирован")
            # «d»: a new game day gives Успех → Триумф back to everyone (the step:
            # tests/table/test_check_ide4.py)
            olga = next(c for c in app.store.characters() if c.name == "Ольга Ренн")
            extra = {**olga.extra, "daily_triumph_used": True}
            app.store.upsert_character(dataclasses.replace(olga, extra=extra))
            await pilot.press("d")
            await pilot.pause()
            assert not any(c.ide4.daily_triumph_used for c in app.store.characters()), "«d»"


# -- snapshots ---------------------------------------------------------------------------------


class TestSnapshots:
    """The builder as the GM sees it at 80×24 (and once wide)."""

    @pytest.mark.parametrize(
        "presses", [["l", "l"], [], ["l"]], ids=["quick", "standard", "expanded"]
    )
    def test_levels_before_roll(self, snap_compare, make_test_app, presses):
        async def run_before(pilot):
            await pilot.press("3", *presses)  # the builder; l cycles the level

        app = make_test_app(system="ide4")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    @pytest.mark.parametrize("view", ["moves", "quick", "full"])
    def test_after_roll(self, snap_compare, make_test_app, view):
        async def run_before(pilot):
            await pilot.press("3", "down", "down", "down", "down", "right")  # skill: Взлом
            await pilot.press("enter")  # roll the d100
            await pilot.press(*{"moves": [], "quick": ["t"], "full": ["t", "t"]}[view])

        app = make_test_app(system="ide4")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    def test_wide(self, snap_compare, make_test_app):
        """The form's rows set on the app's open check as the keys ↓×5 → (skill: Взлом) and
        ↓×3 →→ set them (the energy die row: d8; no energy before, as the snapshot shows),
        and the skill's reroll made as «r» and Enter on its chooser made it. Those keys —
        «l», a row's →, Enter, «r» and its chooser — stay tested in
        :meth:`TestProcedure.test_roll_reroll_energy_after_conclude`."""

        async def run_before(pilot):
            from tui.systems.ide4.check import steps

            table = pilot.app.services.check_table
            await pilot.press("3", "l")  # expanded
            assert table.run(steps.set_input, "skill", "Взлом").ok
            assert table.run(steps.set_input, "die", 8).ok
            await pilot.press("enter")  # roll the d100
            assert table.run(steps.reroll, "skill").ok  # reroll from the skill (mastery 65)

        app = make_test_app(system="ide4")
        assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
