"""Names, campaign names and typed rolls are never read as Rich markup (issue 15)."""

from __future__ import annotations

import dataclasses

from textual import events
from textual.widgets import DataTable, Input, Static

from rules.errors import RulesError
from tui.store import Store


def rename_first(path, name: str) -> str:
    """Create the demo campaign at ``path`` and give its first character ``name``."""
    store = Store.open(path)
    first = store.characters()[0]
    store.upsert_character(dataclasses.replace(first, name=name))
    store.close()
    return first.id


async def test_hostile_names_and_typed_text_are_shown_as_typed(
    make_test_app, campaign_path, monkeypatch
):
    """One app (the Древо demo campaign named «[reverse]Кам[/reverse]», its first character
    «[/]», a second campaign «Вторая [/]» beside it), each fact in turn:

    - a character named «[/]» stopped the app (MarkupError) on «e» and on «c»;
    - «[reverse]Кам[/reverse]» showed reversed in Ctrl+O; a name ending in «[/]» crashed it;
    - the quick roll's error put «[/]» into its markup unescaped (an error quoting the typed
      text, such as a refusal naming an unknown word, then stopped the app);
    - Textual's Input inserted a bracketed paste as it came, ESC included, and drew it;
    - the settings error quotes the GM's TOML: a key «[/]» was read as a closing tag.

    Merges the pilot tests `test_a_character_named_closing_tag_opens_the_edit_and_copy_forms`,
    `test_campaign_names_in_the_picker_are_text`, `test_the_quick_rolls_error_shows_a_tag_as_
    typed`, `test_a_paste_with_escape_codes_reaches_no_field_raw` and `test_a_settings_error_
    quoting_a_tag_is_shown_as_typed`: five apps of the same campaign become one."""
    import rules.dice
    from rules import data

    rename_first(campaign_path, "[/]")
    store = Store.open(campaign_path)
    store.rename("[reverse]Кам[/reverse]")
    store.close()
    other = Store.open(campaign_path.with_name("other.json"))
    other.rename("Вторая [/]")
    other.close()
    app = make_test_app(path=campaign_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in ("e", "c"):
            await pilot.press(key)
            await pilot.pause()
            title = str(app.screen.query_one("#form-title", Static).render())
            assert app.is_running and "[/]" in title, f"«{key}»: the form's title"
            await pilot.press("escape")
            await pilot.pause()

        await pilot.press("ctrl+o")
        await pilot.pause()
        table = app.screen.query_one("#campaigns-table", DataTable)
        names = [table.get_row_at(i)[1] for i in range(table.row_count)]
        assert {str(n) for n in names} == {"[reverse]Кам[/reverse]", "Вторая [/]"}, "picker"
        assert all(not n.spans and not n.style for n in names), "picker: shown, not obeyed"
        assert app.is_running
        await pilot.press("escape")
        await pilot.pause()

        def refuse(text, rng):
            raise RulesError(f"не понимаю «{text}»: напишите, например, 2d6")

        monkeypatch.setattr(rules.dice, "roll", refuse)
        await pilot.press("slash")
        app.query_one("#quick-input", Input).value = "[b]2d6[/]"  # the error, not typing
        await pilot.press("enter")
        await pilot.pause()
        shown = app.query_one("#quick-output", Static).render()
        assert app.is_running and "не понимаю «[b]2d6[/]»" in str(shown), "the quick roll error"
        monkeypatch.undo()

        field = app.query_one("#quick-input", Input)
        field.value = ""
        app.post_message(events.Paste("2d6\x1b]52;c;cm0gLXJmIH4=\x07\x1b]2;x\x07"))
        await pilot.pause()
        assert field.value == "2d6␛]52;c;cm0gLXJmIH4=␇␛]2;x␇", "a paste's escape codes"

        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+t")
        text = data.packaged_text("drevo/ladder.toml") + '\n"[/]" = 1\n'
        app.screen.query_one("#settings-editor").text = text
        await pilot.pause()
        await pilot.press("ctrl+s")  # refused: the unknown key is named
        await pilot.pause()
        error = str(app.screen.query_one("#settings-error").render())
        assert app.is_running and "«[/]»" in error, "the settings error"


async def test_the_views_title_shows_a_name_with_a_backslash_and_brackets(tmp_path):
    """Textual's own ``escape`` let «…␛\\�31m» followed by «[/b]» show the closing tag."""
    from tui.view import make_view

    path = tmp_path / "c.json"
    store = Store.open(path)
    store.rename("Кампания\x1b[2J\x1b[6n\x1bP+q544e\x1b\\\x9b31m")
    store.close()
    view = make_view(path)
    async with view.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = str(view.query_one("#view-title", Static).render())
        assert title.startswith("Кампания␛[2J␛[6n␛P+q544e␛\\�31m · вид для игроков"), title
