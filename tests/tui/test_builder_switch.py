"""In the opposed pop-ups a name the GM typed stays text. (After switching character the previous
character's result leaves the screen: Древо in tests/tui/test_plain_text.py::test_names_and_
notes_with_tags_are_shown_as_typed, IDE4 by Enter on the party tab in tests/tui/
test_builder_words.py::test_the_ide4_form_words_examples_scales_and_checklist_boxes, Старатели
and Мир Тьмы in their builders' key tests.)"""

from __future__ import annotations

import dataclasses

import pytest

from tests.tui.test_plain_text import edit_party


@pytest.mark.parametrize("system", ["ide4", "starately", "wod"])
async def test_a_name_with_markup_in_the_opposed_screens_is_shown_not_obeyed(
    make_test_app, campaign_path, system
):
    """A character called «[/b]Злодей[b]» in the opposed/contested pop-ups: shown as typed."""
    name = "[/b]Злодей[b]"
    edit_party(
        campaign_path,
        system,
        lambda c: (
            # each its own name (the store refuses a taken one), every one with the markup
            dataclasses.replace(c, name=f"{name} {c.name}")
            if c.kind != "pc" or c.name[0] in "ЛГД"
            else None
        ),
    )
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        await pilot.press("c" if system == "wod" else "o")
        await pilot.pause()
        screen = app.screen
        rows = {
            "ide4": "#opp-character",
            "starately": "#opp-character",
            "wod": "#contest-character",
        }
        stepper = screen.query_one(rows[system])
        target = next(v for label, v in stepper._options if name in label)
        stepper.select(target)
        await pilot.pause()
        text = " ".join(str(w.render()) for w in screen.query("Static"))
        assert name in text
        assert "[$" not in text  # no line fell back to raw markup (colours lost, tags shown)
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running
