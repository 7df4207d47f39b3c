"""Text the GM types is shown as typed, wherever it lands in markup."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.content import Content

from tui.render import plain

MARKUPISH = st.text(alphabet=st.sampled_from(list("[]/\\$ab@#=x ")), max_size=30)
#: What a GM can type into a field: no control characters.
TYPED = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)


def shown(markup: str) -> str:
    """The text a markup string shows, without the zero-width spaces ``plain`` may add."""
    return Content.from_markup(markup).plain.replace("\u200b", "")


@given(st.one_of(MARKUPISH, TYPED))
def test_plain_text_survives_markup(text: str) -> None:
    assert shown(plain(text)) == text


@given(MARKUPISH, MARKUPISH)
def test_plain_text_inside_a_tag_keeps_the_tag(before: str, inside: str) -> None:
    markup = f"{plain(before)}[b]{plain(inside)}[/b]"
    assert shown(markup) == before + inside


async def test_names_and_notes_with_tags_are_shown_as_typed(make_test_app, campaign_path):
    """A character «Бо[/b]дан» with a skill «… [/i]» stopped the app at start."""
    import dataclasses

    from tui.store import Store

    store = Store.open(campaign_path)
    first = store.characters()[0]
    skills = tuple(dataclasses.replace(s, name=f"{s.name} [/i]") for s in first.skills)
    store.upsert_character(
        dataclasses.replace(first, name="Бо[/b]дан", notes="[b]заметка", skills=skills)
    )
    store.close()
    app = make_test_app(path=campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert str(app.query_one("#party-table").get_row_at(0)[0]) == "Бо[/b]дан"
        sheet = str(app.query_one("#party-sheet").render())
        assert "Бо[/b]дан" in sheet and "[b]заметка" in sheet and "[/i]" in sheet
        await pilot.press("3")
        await pilot.pause()
        assert "Бо[/b]дан" in str(app.query_one("#check-character").render())
        await pilot.press("enter")  # roll with a «[/i]» skill: the result lines name it
        await pilot.pause()
        assert "[/i]" in str(app.query_one("#check-result").render())


@pytest.mark.parametrize("system", ["drevo", "starately", "wod"])
async def test_a_closing_tag_in_the_modifiers_is_shown_not_obeyed(make_test_app, system):
    app = make_test_app(system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        app.query_one("#check-mods").value = "+1 [/b] x"
        await pilot.pause()
        formula = str(app.query_one("#check-formula").render())
        await pilot.press("enter")  # roll
        await pilot.pause()
        result = str(app.query_one("#check-result").render())
        assert app.is_running and app.store.log(limit=1)  # rolled and logged, nothing stopped
        if system == "drevo":  # the builder that lists the reasons, before and after the roll
            assert "[/b] x +1" in formula and "[/b] x" in result


@pytest.mark.parametrize("system", ["drevo", "wod"])
async def test_a_fight_between_tag_named_characters(make_test_app, campaign_path, system):
    """Every name and skill reads as a tag; a whole round is declared and resolved."""
    import dataclasses

    from tui.store import Store

    store = Store.open(campaign_path, system=system)
    for c in store.characters():
        skills = tuple(dataclasses.replace(s, name=f"{s.name} [/i]") for s in c.skills)
        store.upsert_character(dataclasses.replace(c, name=f"{c.name} [/b]", skills=skills))
    store.close()
    app = make_test_app(path=campaign_path, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "i")  # the Бой tab; side initiative
        await pilot.pause()
        pane = await app.ensure_pane("combat")
        for _ in range(40):  # declare with the defaults, then resolve exchange after exchange
            if pane.encounter.phase == "resolve" and not pane.encounter.pending():
                break
            await pilot.press("enter")
            await pilot.pause()
        assert app.is_running
        fights = [e for e in app.store.log() if e.kind == "combat"]
        assert fights and any("[/b]" in (e.actor or "") + e.text for e in fights)


async def test_dialogs_and_notices_about_a_tag_named_character(make_test_app, campaign_path):
    """The wound dialog's title and the notice after it name the character."""
    import dataclasses

    from tui.store import Store

    store = Store.open(campaign_path)
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, name="Бо[/b]дан"))
    store.close()
    app = make_test_app(path=campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")  # «Рана для Бо[/b]дан»
        await pilot.pause()
        await pilot.press("enter")  # the first level; the notice names the character
        await pilot.pause()
        assert app.is_running
        assert app.store.character(first.id).wounds != first.wounds


async def test_ide4_stepper_options_show_brackets_once(make_test_app, campaign_path):
    """Stepper rows are plain text: an escaped «\\[» would show its backslash."""
    import dataclasses

    from tui.store import Store

    store = Store.open(campaign_path, system="ide4")
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, name="Ли [b]"))
    store.close()
    app = make_test_app(path=campaign_path, system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        shown = str(app.query_one("#ide4-character").render())
        assert "Ли [b]" in shown and "\\" not in shown


@pytest.mark.parametrize("system", ["starately", "wod"])
async def test_a_roll_by_a_tag_named_character_keeps_its_styles(
    make_test_app, campaign_path, system
):
    """The result's head names the character; the rest of its markup still applies."""
    import dataclasses

    from tui.store import Store

    store = Store.open(campaign_path, system=system)
    for c in store.characters():
        store.upsert_character(dataclasses.replace(c, name=f"{c.name} [/b]"))
    store.close()
    app = make_test_app(path=campaign_path, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")
        await pilot.pause()
        result = app.query_one("#check-result").render()
        assert "[/b]" in str(result)
        assert result.spans  # bold and outcome colours: not the fallback to plain text
