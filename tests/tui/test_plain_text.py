"""Text the GM types is shown as typed, wherever it lands in markup."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from textual.content import Content

from tests.tui.test_combat import blows
from tui.present.rolls import plain
from tui.sanitize import _INVISIBLE, clean
from tui.store import Character, Store

MARKUPISH = st.text(alphabet=st.sampled_from(list("[]/\\$ab@#=x ")), max_size=30)
#: What a GM can type into a field: no control characters.
TYPED = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)


def edit_party(
    path: Path, system: str, change: Callable[[Character], Character | None]
) -> Character:
    """Create the demo campaign at ``path``, apply ``change`` to each character (None: keep
    it as it is) and return the first character as it was."""
    store = Store.open(path, system=system)
    first = store.characters()[0]
    for c in store.characters():
        changed = change(c)
        if changed is not None:
            store.upsert_character(changed)
    store.close()
    return first


def shown(markup: str) -> str:
    """The text a markup string shows, without the zero-width spaces ``plain`` may add."""
    return Content.from_markup(markup).plain.replace("\u200b", "")


@given(st.one_of(MARKUPISH, TYPED))
@example("\u061c")  # an Arabic letter mark: one of the invisible marks clean() drops
def test_plain_text_survives_markup(text: str) -> None:
    """Shown as typed, markup and all; only the invisible marks that reorder or hide text
    go (tui/sanitize.py: clean)."""
    assert shown(plain(text)) == clean(text)
    assert all(_INVISIBLE.fullmatch(ch) for ch in set(text) - set(clean(text)))


@given(MARKUPISH, MARKUPISH)
def test_plain_text_inside_a_tag_keeps_the_tag(before: str, inside: str) -> None:
    markup = f"{plain(before)}[b]{plain(inside)}[/b]"
    assert shown(markup) == before + inside


def tag_skills(c: Character) -> Character:
    """Every skill's name ends in a closing tag."""
    return dataclasses.replace(
        c, skills=tuple(dataclasses.replace(s, name=f"{s.name} [/i]") for s in c.skills)
    )


async def a_fight_between_tag_named_characters(app, pilot, system: str) -> None:
    """Every name and skill reads as a tag; a whole round is declared and resolved."""
    await pilot.press("2", "i")  # the Бой tab; side initiative
    await pilot.pause()
    pane = await app.ensure_pane("combat")
    if system != "drevo":  # the round tracker (issue 17): turns and an effect by name
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#effect-name").value = "Горит [/i]"  # the name, not typing
        await pilot.press("enter", "n", "n", "d", "enter")
        await pilot.pause()
    declaring = pane.encounter if system == "drevo" else None
    for _ in range(40 if system == "drevo" else 0):  # declare, then resolve each exchange
        if pane.encounter.phase == "resolve" and not pane.encounter.pending():
            break
        await pilot.press("enter")
        await pilot.pause()
        if declaring is not None and pane.encounter.phase == "resolve":
            # Enter on each form: what tests/tui/test_keybar.py writes at once instead.
            assert app.store.get_doc("encounter") == blows(app, declaring).to_dict()
            declaring = None
    assert app.is_running
    fights = [e for e in app.store.log() if e.kind == "combat"]
    assert fights and any("[/b]" in (e.actor or "") + e.text for e in fights), "the fight"


async def test_names_and_notes_with_tags_are_shown_as_typed(make_test_app, campaign_path):
    """A character «Бо[/b]дан» with a skill «… [/i]» stopped the app at start. In the same app
    (the Древо demo party, Богдан renamed so, everyone else «… [/b]», every skill «… [/i]»):
    the wound dialog's title and the notice after
    it name the character; a closing tag in the modifiers is shown, not obeyed, in the
    builder that lists the reasons, before and after the roll; another character chosen, the
    previous character's result leaves the screen; last, a whole fight round.

    Merges the pilot tests `test_dialogs_and_notices_about_a_tag_named_character`,
    `test_a_closing_tag_in_the_modifiers_is_shown_not_obeyed[drevo]`,
    `test_a_fight_between_tag_named_characters[drevo]` and `tests/tui/test_builder_switch.py::
    test_drevo_switch_clears_the_previous_result` into this one."""

    def rename(c: Character) -> Character:
        if c.name == "Богдан Сыч":
            return dataclasses.replace(tag_skills(c), name="Бо[/b]дан", notes="[b]заметка")
        return dataclasses.replace(tag_skills(c), name=f"{c.name} [/b]")

    first = edit_party(campaign_path, "drevo", rename)
    app = make_test_app(path=campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert str(app.query_one("#party-table").get_row_at(0)[0]) == "Бо[/b]дан", "the table"
        sheet = str(app.query_one("#party-sheet").render())
        assert "Бо[/b]дан" in sheet and "[b]заметка" in sheet and "[/i]" in sheet, "the sheet"
        await pilot.press("w")  # «Рана для Бо[/b]дан»
        await pilot.pause()
        await pilot.press("enter")  # the first level; the notice names the character
        await pilot.pause()
        assert app.is_running, "the wound dialog and its notice"
        assert app.store.character(first.id).drevo.wounds != first.drevo.wounds, "written"
        await pilot.press("3")
        await pilot.pause()
        assert "Бо[/b]дан" in str(app.query_one("#check-character").render()), "the builder"
        await pilot.press("enter")  # roll with a «[/i]» skill: the result lines name it
        await pilot.pause()
        assert "[/i]" in str(app.query_one("#check-result").render()), "the result names it"
        app.query_one("#check-mods").value = "+1 [/b] x"
        await pilot.pause()
        formula = str(app.query_one("#check-formula").render())
        logged = len(app.store.log())
        await pilot.press("enter")  # roll
        await pilot.pause()
        result = str(app.query_one("#check-result").render())
        assert app.is_running and len(app.store.log()) == logged + 1, "rolled and logged"
        assert "[/b] x +1" in formula and "[/b] x" in result, "the modifier's reason as typed"
        app.query_one("#check-character").focus()
        await pilot.press("right")  # another character: the previous result leaves
        await pilot.pause()
        shown = app.query_one("#check-result")
        assert str(shown.render()) == "Enter — бросить 4dF.", "the old result left the screen"
        assert app.query_one("#check-pane")._result is None
        await a_fight_between_tag_named_characters(app, pilot, "drevo")


VILLAIN = "[/b]Злодей[b]"
#: Where each system's opposed (contested) dialog chooses the other side.
OPPONENT_ROW = {
    "ide4": "#opp-character",
    "starately": "#opp-character",
    "wod": "#contest-character",
}


def tag_named(c: Character, system: str) -> Character:
    """Every name ends in a tag (IDE4 an opening one, the others a closing one); the NPCs and
    the player characters whose names begin with Л, Г or Д are also called «[/b]Злодей[b] …»
    (each its own name: the store refuses a taken one)."""
    name = f"{c.name} {'[b]' if system == 'ide4' else '[/b]'}"
    if c.kind != "pc" or c.name[0] in "ЛГД":
        name = f"{VILLAIN} {name}"
    return dataclasses.replace(c, name=name)


@pytest.mark.parametrize("system", ["ide4", "starately", "wod"])
async def test_tag_named_characters_in_the_builder_and_its_opposed_dialog(
    make_test_app, campaign_path, system
):
    """One app per system, the party's names all tags (:func:`tag_named`), each fact in turn.

    IDE4: stepper rows are plain text — an escaped «\\[» would show its backslash.
    Старатели and Мир Тьмы: the result's head names the character and the rest of its markup
    still applies; a closing tag in the modifiers is shown, not obeyed (rolled and logged,
    nothing stopped). Every system: a character called «[/b]Злодей[b]» in the opposed /
    contested dialog is shown as typed, no line falls back to raw markup, Enter rolls.

    Merges the pilot tests `test_ide4_stepper_options_show_brackets_once`,
    `test_a_roll_by_a_tag_named_character_keeps_its_styles[starately|wod]`,
    `test_a_closing_tag_in_the_modifiers_is_shown_not_obeyed[starately|wod]` and
    `tests/tui/test_builder_switch.py::test_a_name_with_markup_in_the_opposed_screens_is_shown_
    not_obeyed[ide4|starately|wod]`; Мир Тьмы's run ends with :func:`a_fight_between_tag_
    named_characters` (merges `test_a_fight_between_tag_named_characters[wod]`): seven apps
    become three."""
    # Мир Тьмы's skills are tags too: its run ends with a fight round
    edit_party(campaign_path, system, lambda c: tag_named(tag_skills(c), system))
    app = make_test_app(path=campaign_path, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        if system == "ide4":
            row = app.query_one("#ide4-character")
            shown, name = str(row.render()), app.store.character(row.value).name
            assert f"◀ {name} (игрок) ▶" in shown, f"the stepper row shows {name!r}: {shown}"
            assert shown.count("[b]") == name.count("[b]") and "\\" not in shown, shown
        else:
            await pilot.press("enter")
            await pilot.pause()
            result = app.query_one("#check-result").render()
            assert "[/b]" in str(result), "the tag-named character's result names him"
            assert result.spans  # bold and outcome colours: not the fallback to plain text
            app.query_one("#check-mods").value = "+1 [/b] x"
            await pilot.pause()
            await pilot.press("enter")  # roll
            await pilot.pause()
            assert app.is_running, "a closing tag in the modifiers stopped nothing"
            assert len(app.store.log(limit=5)) == 2, "rolled and logged with that modifier"
            await pilot.press("n")  # a new check for the opposed roll
        await pilot.press("c" if system == "wod" else "o")
        await pilot.pause()
        screen = app.screen
        stepper = screen.query_one(OPPONENT_ROW[system])
        target = next(v for label, v in stepper._options if VILLAIN in label)
        stepper.select(target)
        await pilot.pause()
        text = " ".join(str(w.render()) for w in screen.query("Static"))
        assert VILLAIN in text, "the opposed dialog shows the name as typed"
        assert "[$" not in text  # no line fell back to raw markup (colours lost, tags shown)
        logged = len(app.store.log())
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running and len(app.store.log()) == logged + 1, "Enter rolled it"
        if system == "wod":
            await a_fight_between_tag_named_characters(app, pilot, system)
