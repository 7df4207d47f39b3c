"""Behaviour tests: drive the app with keys and assert on the store, not on pixels."""

from __future__ import annotations

from textual.widgets import DataTable, Static, TabbedContent

from tui.store import Store


async def burst(pilot, *keys: str) -> None:
    """Post keys as a terminal delivers a fast typist's burst: all before any is handled."""
    from textual import events

    for key in keys:
        char = key if len(key) == 1 else None
        pilot.app.post_message(events.Key(key, char))
    await pilot.pause()
    await pilot.pause()


async def test_keys_typed_at_once_after_f_slash_ctrl_u_and_a_tab_switch_keep_their_order(
    make_test_app,
):
    """Keys a terminal delivers all at once, each burst in turn in one app run:

    - «f» then «a e»: the text of the party filter, not the table's «new» and «edit» keys;
    - «/» then «2d6» (the quick bar's first opening): the digits are the roll, not the «2» tab
      key;
    - tmux (tests/e2e/test_tmux_view.py, under load): «/», then «C-u 2d6 Enter» at once left
      the field empty and rolled nothing: «2d6» went in first and Ctrl+U, run after bubbling
      up to the app, deleted it. Every text field edits in the order typed (ReadyInput);
    - «2» then «i» at once rolls the initiative on the Бой tab.

    Replaces the pilot tests `tests/tui/test_pilot.py::
    test_typing_right_after_f_goes_into_the_party_filter`,
    `…::test_typing_right_after_slash_goes_into_the_quick_roll`,
    `…::test_the_quick_rolls_ctrl_u_and_the_roll_typed_after_it_keep_their_order` and
    `…::test_a_key_right_after_a_tab_switch_reaches_the_new_tab` (the same demo campaign, one
    run)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.store.characters()
        await burst(pilot, "f", "a", "e")  # a and e are also the table's «new» and «edit» keys
        assert app.query_one("#party-filter").value == "ae", "«f a e»: not in the filter"
        assert app.store.characters() == before, "«f a e» changed the party"
        assert len(app.screen_stack) == 1, "«f a e» opened a form"
        await pilot.press("escape")  # the filter cleared, back to the table
        await pilot.pause()

        assert not app.query("#quick-input"), "the quick bar was open before «/»"
        await burst(pilot, "slash", "2", "d", "6", "enter")
        assert app.query_one(TabbedContent).active == "party", "«/ 2»: the «2» switched tabs"
        newest = app.store.log(limit=1)
        assert newest and newest[0].text.startswith("2d6"), "«/ 2d6 Enter» rolled no 2d6"

        await pilot.press("escape")
        app.query_one("#quick-input").value = ""  # the bar keeps its text: start it empty
        await pilot.press("slash", "1", "d", "4")
        rolled = len(app.store.log())
        await burst(pilot, "ctrl+u", "2", "d", "6", "enter")
        newest = app.store.log(limit=1)
        assert len(app.store.log()) == rolled + 1, "«C-u 2d6 Enter» rolled nothing"
        assert newest[0].text.startswith("2d6"), f"«C-u 2d6 Enter» rolled {newest[0].text}"

        await pilot.press("escape", "2", "1")  # the bar closed; the Бой tab is built
        await pilot.pause()
        await burst(pilot, "2", "i")
        phase = (await app.ensure_pane("combat")).encounter.phase
        assert phase == "declare", f"«2 i» at once: the fight is at {phase!r}"


async def test_party_enter_opens_the_builder_whose_modifiers_show_a_mistake_as_typed(
    make_test_app, campaign_path
):
    """Enter on a character of the Партия tab opens Проверка for that character. A modifier
    without a number is said under the formula and rolls nothing; a reason or a mistake with
    «[» in it is text, not Textual markup (nothing breaks).

    Then the builder's roll and a quick roll from anywhere reach the Журнал, each logged as
    its kind with its dice.

    Replaces the pilot tests `tests/tui/test_pilot.py::
    test_party_enter_opens_builder_for_that_character`,
    `…::test_the_modifiers_field_shows_a_mistake_or_markup_as_typed` and
    `…::test_builder_roll_and_quick_roll_reach_the_log` (the same demo campaign, one run: the
    builder Enter opened takes the modifiers, then rolls with none; «2d6+1» put in the quick
    bar at once)."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.query_one(TabbedContent).active == "check", "Enter on Партия"
        chosen = app.query_one("#check-character").value
        expected = app.store.characters()[2].id
        assert chosen == expected, "Проверка opened for another character"

        app.query_one("#check-mods").focus()
        app.query_one("#check-mods").value = "темно"  # (the typing is not what is tested)
        await pilot.press("enter")
        await pilot.pause()
        formula = str(app.query_one("#check-formula", Static).render())
        assert "начните с числа" in formula, formula
        assert app.store.log() == [], "a modifier without a number rolled"
        field = app.query_one("#check-mods")
        field.value = "+1 [b]жирно[/b]"
        await pilot.pause()
        formula = str(app.query_one("#check-formula").render())
        assert "[b]жирно[/b] +1" in formula, formula
        field.value = "[b]x"
        await pilot.pause()
        formula = str(app.query_one("#check-formula").render())
        assert "«[b]x»" in formula, formula

        field.value = ""
        await pilot.press("escape")  # out of the field: the tab's first control
        await pilot.press("down", "right")  # the next action
        await pilot.press("enter")  # roll
        await pilot.pause()
        await pilot.press("slash")  # quick-roll bar from anywhere
        app.query_one("#quick-input").value = "2d6+1"  # (the typing is not what is tested)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape", "4")  # close the bar, open the log
        await pilot.pause()
        table = app.query_one("#log-table", DataTable)
        assert table.row_count == 2, f"the Журнал shows {table.row_count} rows"
        newest = table.get_row_at(0)
        assert "2d6" in str(newest[2]), f"the Журнал's newest: {newest}"

    entries = Store.open(campaign_path).log()
    assert [e.kind for e in entries] == ["roll", "check"], [e.kind for e in entries]
    check = entries[1]
    assert check.data["system"] == "drevo", check.data
    assert len(check.data["dice"]) == 4 if "dice" in check.data else True
    roll = entries[0]
    tree = roll.data["rolls"][0]["tree"]  # 2d6 + 1: the pool and the number under a «+»
    assert tree["op"] == "+", tree
    dice = tree["parts"][0]["dice"]
    assert roll.data["total"] == sum(d["value"] for d in dice) + 1, roll.data
    assert all(d["history"][0][0] == "rolled" for d in dice), dice


async def test_the_quick_bar_is_built_when_first_opened_says_a_mistake_and_y_v_copy(
    make_test_app, campaign_path, monkeypatch
):
    """A start builds no field for the quick-roll bar (most never open it); «/» builds it and
    types into it at once, and Esc then «/» finds the same field with the same text. A mistake
    is explained in Russian at its place and logs nothing; issue 31: «`3d6++2` … show the
    normalised expression and say what was read»; a non-whole total shown to the hundredth
    with a comma. What the roll records (criticals, readings):
    test_a_quick_roll_records_what_was_read_and_its_criticals below.

    Then `v` copies a command that starts this Python's kubik, and «Скопировано» claimed a
    copy that tmux may never have passed on: `y` (the newest Журнал entry, the last roll)
    says the text went to the terminal.

    Replaces the pilot tests `tests/tui/test_pilot.py::
    test_the_quick_bar_is_built_when_first_opened_and_keeps_its_text`,
    `…::test_the_quick_bar_says_a_mistake_what_was_read_and_a_fraction`,
    `tests/tui/test_clipboard.py::test_y_says_sent_to_the_terminal_not_copied` and
    `tests/tui/test_clipboard.py::test_v_copies_a_command_that_starts_this_python` (the same
    demo campaign's quick bar, one run; the rolls' texts put in the field at once)."""
    import sys

    from textual.widgets import Input

    from tui.clipboard import SENT

    monkeypatch.delenv("TMUX", raising=False)
    told: list[str] = []
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.query("#quick-input"), "the quick bar's field built at the start"
        assert not app.query_one("#quick").display, "the quick bar shown at the start"
        await pilot.press("slash", *"2d6")
        field = app.query_one("#quick-input", Input)
        assert app.focused is field and field.value == "2d6", "«/» then 2d6: not in the field"
        await pilot.press("escape", "slash")
        assert app.query_one("#quick-input", Input) is field, "«/» again built a new field"
        assert field.value == "2d6", f"Esc then «/»: the text is {field.value!r}"

        for text in ("2d", "3d6++2", "d6/4"):  # (the typing is not what is tested)
            field.value = text
            await pilot.press("enter")
            await pilot.pause()
            output = str(app.query_one("#quick-output", Static).render()).replace("\n", " ")
            if text == "2d":
                assert "позиция" in output, output
                assert app.store.log() == [], "a mistake was logged"
            elif text == "3d6++2":
                assert "Прочитано как «3d6 + 2»: «++» — это «+»." in output, output
            else:
                shown = ("0,25", "0,5", "0,75", "1", "1,25", "1,5")
                assert any(f"Итог {v}" in output for v in shown), output

        await pilot.press("escape", "v")
        copied = app.clipboard
        monkeypatch.setattr(app, "notify", lambda message, **_k: told.append(message))
        await pilot.press("y")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert copied.startswith(f"{sys.executable} -m tui --view"), f"«v» copied {copied!r}"
    assert told and told[-1].startswith(f"{SENT}: "), f"«y» said {told}"
    assert not any("Скопировано" in m for m in told), f"«y» said {told}"
    fraction, read = Store.open(campaign_path).log()
    assert read.data["expression"] == "3d6 + 2" and read.data["readings"][0]["typed"] == "++"
    assert fraction.data["total"] * 4 == int(fraction.data["total"] * 4)


def test_a_quick_roll_records_what_was_read_and_its_criticals() -> None:
    """What the quick bar's roll writes to the Журнал (the app records ``roll_summary`` and
    ``to_dict`` of the roll): issue 31, «criticals marked in the roll, in the Журнал and in
    `--json`», the normalised expression and what was read, a non-whole total."""
    from rules.dice import make_rng, roll
    from tui.present.rolls import roll_summary

    read = roll("3d6++2", make_rng(1)).to_dict()
    assert read["expression"] == "3d6 + 2" and read["readings"][0]["typed"] == "++"
    critical = roll("20d20cs<=20", make_rng(2))
    dice = critical.to_dict()["rolls"][0]["tree"]["dice"]
    assert len(dice) == 20 and all(d["critical_success"] for d in dice)
    assert roll_summary(critical).count("**") == 20  # the Журнал line marks each of them
    totals = {roll("d6/4", make_rng(seed)).to_dict()["total"] for seed in range(12)}
    assert all(t * 4 == int(t * 4) for t in totals) and any(t % 1 for t in totals)
