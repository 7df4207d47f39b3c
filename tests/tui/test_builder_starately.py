"""The Старатели builder: its rows' keys, Risk's question, the task chain's, the group's and the
встречный бросок's dialogs — what is about the screen and its keys.

Behaviour tests drive the app with keys; snapshots pin the look. What a roll, a chain or a group
check computes and records: tests/table/test_check_starately.py (no Textual).
The demo party (data/demo/starately.toml) lists Борис first: Интеллект 11, Медицина-3.
"""

from __future__ import annotations

from functools import partial

from textual.widgets import Input

from tests.tui import builders
from tests.tui.builders import errors
from tui.store import Store
from tui.systems.starately.builder.builder import ChainScreen, GroupScreen, RiskScreen
from tui.systems.starately.builder.opposed import OpposedScreen

# Rows from the character row: 1 Характеристика, 2 Навык, 3 Сложность, (Какой навык — only
# without the skill), 4 +d6, 5 −d6, 6 Модификаторы.


open_builder = partial(builders.open_builder, prefix="st")


async def test_the_rows_keys_and_the_chain_and_group_dialogs(make_test_app, campaign_path):
    """One app, the builder's keys in turn (what the check records: tests/table/
    test_check_starately.py and tests/table/test_check_builder_steps.py).

    The modifier field's example reads as an example and fits at 80 columns. A bad modifier
    and Enter: the refusal is shown as an error, nothing logged. The rows'
    keys (↓ to a row, → to its next value) make the check that is rolled; the previous
    character's roll must not stay on screen under another name. «h» opens the task chain's
    dialog and Enter rolls it with the first other character; «g» is not offered on the rolled
    check, and after «n» (a new check) opens the group check's: it
    says why Дарина is left out («Снайперша Дарина, не владеющая навыком Медицина, не может
    помочь») and shows each helper's characteristic; Enter rolls it.

    Merges the pilot tests `test_bad_modifier_is_refused_and_nothing_is_logged` (its logic:
    tests/table/test_check_builder_steps.py), `test_the_rows_keys_set_the_check_and_another_
    character_clears_the_result`, `test_h_and_g_open_the_chain_and_the_group_dialogs` and
    `tests/tui/test_builder_words.py::test_each_builders_modifier_example_reads_as_an_example[
    starately-#check-mods]`. Then, in the same app, :func:`risk_and_the_opposed_dialog` (which
    merges three more) and :func:`risk_undone_and_redone` (one more)."""
    app = make_test_app(system="starately")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(pilot)
        mods = app.query_one("#check-mods", Input)
        assert mods.placeholder.startswith("пример: "), "the modifier example reads as one"
        assert len(mods.placeholder) <= mods.content_region.width, "the example is cut"
        mods.focus()
        mods.value = "темно"  # what is typed is not the subject: the refusal shown is
        await pilot.press("enter")
        await pilot.pause()
        assert any("начните с числа" in m for m in errors(app)), "the bad modifier's refusal"
        assert Store.open(campaign_path).log() == [], "a refused roll logs nothing"
        app.query_one("#check-mods").value = ""
        app.query_one("#check-character").focus()
        await pilot.press("down", "right", "right", "right")  # Сила → Ловкость → … → Интеллект
        await pilot.press("down", "down", "right")  # difficulty: Средне → Тяжело
        await pilot.press("down", "right")  # dice: нет → +d6 (3d6, keep the two highest)
        await pilot.press("enter")
        await pilot.pause()
        [entry] = app.store.log()
        side = entry.data["side"]
        assert entry.actor == "Борис" and side["characteristic"] == "Интеллект", "rows' keys"
        assert (side["skill_name"], side["boons"], entry.data["difficulty"]) == ("Медицина", 1, 10)
        assert len(entry.data["dice"]) == 3, "+d6 rolls three dice"
        result = app.query_one("#check-result")
        assert "Эффект" in str(result.render()), "the roll shown"
        app.query_one("#check-character").focus()
        await pilot.press("right")
        await pilot.pause()
        assert "Эффект" not in str(result.render()), "another character: the roll leaves"
        assert app.query_one("#check-pane")._last is None
        await pilot.press("left")  # back to Борис for the chain and the group
        await open_builder(pilot, characteristic="Интеллект", difficulty=12)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, ChainScreen), "«h» opens the chain's dialog"
        await pilot.press("enter")  # the first other character helps
        await pilot.pause()
        assert not isinstance(app.screen, ChainScreen), "Enter rolls the chain"
        chain = app.store.log()[0]
        assert chain.data["kind"] == "chain" and chain.data["helper"]["difficulty"] == 10
        await pilot.press("g")  # not on the rolled check: nothing opens
        await pilot.pause()
        assert not isinstance(app.screen, GroupScreen), "«g» on a rolled check"
        await pilot.press("n", "g")  # a new check, then its group
        await pilot.pause()
        assert isinstance(app.screen, GroupScreen), "«g» opens the group's dialog"
        refused = str(app.screen.query_one("#group-refused").render())
        assert "Дарина не может помочь: для помощи нужен навык «Медицина»" in refused
        labels = [str(row.render()) for row in app.screen.query(".-group-row, WideRow")]
        assert any("Медицина-1, Интеллект" in label and "DM" in label for label in labels)
        await pilot.press("enter")  # Сергей and Алик (Медицина-1) both help
        await pilot.pause()
        assert not isinstance(app.screen, GroupScreen), "Enter rolls the group"
        await app.services.writes_done()
        group = Store.open(campaign_path).log()[0]
        assert group.data["kind"] == "group"
        helpers = sorted(h["side"]["name"] for h in group.data["helpers"])
        assert helpers == ["Алик", "Сергей"], "both helpers rolled"
        await risk_and_the_opposed_dialog(app, pilot, campaign_path)
        await risk_undone_and_redone(app, pilot)


async def risk_and_the_opposed_dialog(app, pilot, campaign_path) -> None:
    """Risk's dialog, then the встречный бросок's (what they record: tests/table/
    test_check_builder_steps.py); the log counted from where this part starts.

    Without a skill the form asks which one is tried. After a failure «r» opens Risk's
    dialog; Enter without a price is refused with the reason there and the dialog stays; a
    price and Enter roll it, and «r» is off (once only). After another failure «Запретить»
    closes it with nothing rolled and «r» off. «o» opens the встречный бросок: Борис
    against the first other, the exact odds shown; no initiator between two player
    characters is said in the formula; Enter rolls it and the result names the winner.

    Merges the pilot tests `test_risk_needs_a_price_then_rolls_again_and_logs_both`,
    `test_forbidden_risk_rolls_nothing` and `test_opposed_roll_outside_a_fight`, whose
    records moved to tests/table/test_check_builder_steps.py (same names)."""
    from rules import starately

    logged = len(Store.open(campaign_path).log())
    # Борис again on his sheet's first characteristic, без навыка (−3), Подвиг 12+
    await open_builder(pilot, characteristic="Сила", skill="", difficulty=12)
    assert app.query_one("#st-tried-row").display, "the skill tried is asked"
    app.query_one("#st-tried").value = "Вождение"
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert Store.open(campaign_path).log()[0].data["outcome"] == "failure"
    await pilot.press("r")  # declare Risk
    await pilot.pause()
    assert isinstance(app.screen, RiskScreen), "«r» opens Risk's dialog"
    await pilot.press("enter")  # no price yet: refused
    await pilot.pause()
    assert isinstance(app.screen, RiskScreen), "no price: the dialog stays"
    assert any("цену Риска" in message for message in errors(app)), "the reason shown"
    assert len(Store.open(campaign_path).log()) == logged + 1, "no price: nothing written"
    app.screen.query_one("#risk-price", Input).value = "кобура"
    await pilot.press("enter")
    await pilot.pause()
    assert not isinstance(app.screen, RiskScreen), "a price: Risk rolled"
    pane = app.query_one("#check-pane")
    assert pane.check_action("risk", ()) is False, "Risk once only"
    assert len(Store.open(campaign_path).log()) == logged + 2, "Risk logged"
    await pilot.press("n", "enter", "r")  # a new check, another failure, Risk's dialog again
    await pilot.pause()
    assert Store.open(campaign_path).log()[0].data["outcome"] == "failure"
    await pilot.click("#risk-forbid")
    await pilot.pause()
    assert not isinstance(app.screen, RiskScreen), "«Запретить» closes the dialog"
    assert pane.check_action("risk", ()) is False, "Risk forbidden: «r» is off"
    assert len(Store.open(campaign_path).log()) == logged + 3, "forbidden Risk rolls nothing"
    await open_builder(pilot, skill="Медицина", characteristic="Интеллект")
    await pilot.press("o")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OpposedScreen), "«o» opens the встречный бросок"
    check = screen.opposed()
    assert check.a.name == "Борис" and check.initiator == "a"
    odds = starately.opposed_odds(check)
    shown = str(screen.query_one("#opp-odds").render())
    assert f"{float(odds.a) * 100:.1f}".replace(".", ",") in shown, "the exact odds shown"
    screen.query_one("#opp-initiator").select(None)  # nobody started it: both are PCs
    await pilot.pause()
    assert "укажите инициатора" in str(screen.query_one("#opp-formula").render())
    screen.query_one("#opp-initiator").select("b")
    screen.query_one("#opp-boons").select(2)
    screen.query_one("#opp-banes").select(1)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert not isinstance(app.screen, OpposedScreen), "Enter rolls it"
    assert "Побеждает" in str(app.query_one("#check-result").render()), "the winner shown"
    await app.services.writes_done()
    entry = Store.open(campaign_path).log()[0]
    assert entry.data["kind"] == "opposed" and entry.data["initiator"] == "b"
    assert len(entry.data["b"]["dice"]) == 3, "the rows set in the dialog were rolled"


async def risk_undone_and_redone(app, pilot) -> None:
    """«Игрок может заявить Риск и совершить проверку ещё раз… Вне зависимости от результата
    этой повторной проверки игрок заплатит за это…» — one step, undone whole: a new check by
    Борис on his first characteristic, без навыка (−3), Подвиг 12+, fails; «r» and a price
    retry it; Ctrl+Z puts the failed check back (the first dice, Risk allowed again, its line
    «отменено», the price gone from the screen), Ctrl+Y brings the same retry (not a new roll).

    Replaces the pilot test `tests/tui/test_gm_steps.py::TestStaratelyRisk::
    test_ctrl_z_puts_the_failed_check_back_and_ctrl_y_the_same_retry`: the same campaign and
    the same new check, played at the end of this file's app (one app instead of two)."""
    from tests.tui.test_gm_steps import newest, settle

    await pilot.press("n")  # a new check after the встречный бросок
    await settle(pilot)
    await open_builder(pilot, characteristic="Сила", skill="", difficulty=12)
    await pilot.press("enter")
    await settle(pilot)
    b = app.query_one("#check-pane")
    failed, shown = b._last, b._shown
    assert not failed.success, "the check failed (Risk is offered after a failure)"
    await pilot.press("r")  # the price asked: put in one go (the typing is not the subject)
    await pilot.pause()
    app.focused.insert_text_at_cursor("кобура")
    await pilot.press("enter")
    await settle(pilot)
    retry = b._last
    assert retry.risk and newest(app, kind="risk").undone is False, "Risk retried, logged"
    assert b.check_action("risk", ()) is False, "Risk once only"
    await pilot.press("ctrl+z")
    await settle(pilot)
    assert b._last == failed and b._shown == shown, "Ctrl+Z: the first dice, no retry"
    assert b.check_action("risk", ()) is True, "Risk may be declared again"
    assert newest(app, kind="risk").undone is True, "its line «отменено»"
    assert "кобура" not in str(b.query_one("#check-result").render()), "the price left"
    await pilot.press("ctrl+y")
    await settle(pilot)
    assert b._last == retry, "Ctrl+Y: the same retry, not a new roll"
    assert newest(app, kind="risk").undone is False, "its line no longer «отменено»"
    assert "кобура" in str(b.query_one("#check-result").render()), "the price shown again"


class TestStaratelySnapshots:
    """The builder before and after a roll (a boon: one die dropped), and Risk's question."""

    def test_before_roll(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await pilot.press("3")  # the builder, Борис with Медицина-3 against Средне 8+

        app = make_test_app(system="starately")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    def test_after_roll(self, snap_compare, make_test_app):
        async def run_before(pilot):
            # Rows set directly (their keys are tested above): Интеллект 11, Тяжело 10+, +d6.
            await open_builder(
                pilot,
                mods="-1 темнота",
                characteristic="Интеллект",
                difficulty=10,
                boons=2,
                banes=1,
            )
            await pilot.press("enter")  # roll: one of three dice is dropped

        app = make_test_app(system="starately")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    def test_opposed_screen(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await open_builder(pilot, characteristic="Интеллект")
            await pilot.press("o")  # the opponent, the initiator, the exact odds

        app = make_test_app(system="starately")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)

    def test_risk_question(self, snap_compare, make_test_app):
        async def run_before(pilot):
            await open_builder(pilot, skill="", difficulty=12)  # без навыка, Подвиг 12+
            await pilot.press("enter", "r")  # roll: a failure; Risk asks the GM for a price

        app = make_test_app(system="starately")
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_result_lines_sign_a_negative_total_and_drop_a_zero_bonus() -> None:
    """Play16: the builder said «Натуральные 7 0 = 7» for a zero bonus (the CLI's old
    «= 8 0 → 8») and «= -1» with a hyphen for a total below zero."""
    from rules import starately
    from rules.dice import make_rng
    from tui.systems.starately.builder.parts import result_lines, summary

    zero = starately.roll(starately.Check(starately.Side(dm=0, skill=0)), make_rng(1))
    assert f"Натуральные {zero.natural} = [b]{zero.total}[/b] против" in result_lines(zero)[1]
    low = starately.roll(starately.Check(starately.Side(dm=0, skill=None)), make_rng(2))
    assert low.total == -1
    assert "= [b]−1[/b]" in result_lines(low)[1]
    assert "→ −1 против" in summary(low)
