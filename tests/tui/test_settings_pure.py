"""The settings screen's logic without the screen (issue 37: widgets render and dispatch).

What Ctrl+S stores, which table is «edited», the list's marks and the table loaders the
checks run are pure functions of ``tui.screens.settings_tables``; the screen calls them. The
screen's keys and what it draws stay pilot tests in ``tests/tui/test_settings*.py``.
"""

from __future__ import annotations

import copy
import tomllib

import pytest

from rules import data
from rules.drevo.ladder import ladder
from tui import registry
from tui.screens.settings_fields import Heading, fields_of
from tui.screens.settings_tables import (
    SETTINGS_DOC,
    TEXT_DOC,
    SettingsError,
    _loaders,
    check_table,
    default_text,
    docs_to_save,
    dump_toml,
    is_edited,
    list_mark,
)

LADDER = "drevo/ladder.toml"
FATE = "drevo/fate.toml"


@pytest.fixture(autouse=True)
def packaged_defaults():
    """Leave the rules on the packaged tables whatever a test did."""
    yield
    data.set_overrides({})


def renamed_ladder() -> tuple[dict, str]:
    """The ladder with «Средне» renamed «Обычно», as a table and as the TOML the GM typed
    (the packaged file's text, comments included)."""
    text = data.packaged_text(LADDER).replace('name = "Средне"', 'name = "Обычно"')
    return check_table(LADDER, text), text


class TestDocsToSave:
    def test_a_table_saved_keeps_the_campaigns_other_tables(self) -> None:
        """Only what this screen changed is applied: another window's settings stay."""
        fate = copy.deepcopy(data.packaged_table(FATE))
        fate["starting_points"] = 5
        saved = {FATE: fate}
        saved_texts = {FATE: dump_toml(fate)}
        table, text = renamed_ladder()
        docs = docs_to_save({LADDER: table}, {LADDER: text}, saved_texts, saved)
        assert docs[SETTINGS_DOC] == {FATE: fate, LADDER: table}
        assert docs[TEXT_DOC] == {FATE: saved_texts[FATE], LADDER: text}, "the TOML as typed"
        assert saved == {FATE: fate} and list(saved_texts) == [FATE], "the inputs unchanged"

    def test_a_table_equal_to_the_default_is_dropped(self) -> None:
        """Ctrl+R (or the default typed back): the campaign's table goes, both documents."""
        table, text = renamed_ladder()
        fate = data.packaged_table(FATE)
        default = data.packaged_table(LADDER)
        docs = docs_to_save(
            {LADDER: default}, {LADDER: default_text(LADDER)}, {LADDER: text}, {LADDER: table}
        )
        assert docs == {SETTINGS_DOC: None, TEXT_DOC: None}, "nothing left: both removed"
        kept = docs_to_save(
            {LADDER: default},
            {LADDER: default_text(LADDER)},
            {LADDER: text, FATE: "x"},
            {LADDER: table, FATE: fate},
        )
        assert kept == {SETTINGS_DOC: {FATE: fate}, TEXT_DOC: {FATE: "x"}}, "the others stay"


class TestIsEdited:
    def test_the_form_writing_the_toml_anew_is_no_edit(self) -> None:
        """The form writes the TOML without the file's comments: the same values, no edit."""
        assert data.packaged_text(LADDER) != default_text(LADDER)
        assert not is_edited(LADDER, {LADDER: data.packaged_text(LADDER)}, {}, {})
        assert not is_edited(LADDER, {}, {}, {}), "a table the screen has not touched"

    def test_another_value_or_not_toml_is_an_edit(self) -> None:
        table, text = renamed_ladder()
        assert is_edited(LADDER, {LADDER: text}, {}, {}), "another value than the default"
        assert not is_edited(LADDER, {LADDER: dump_toml(table)}, {LADDER: text}, {LADDER: table})
        assert is_edited(LADDER, {LADDER: default_text(LADDER)}, {LADDER: text}, {LADDER: table})
        assert is_edited(LADDER, {LADDER: "[[rung"}, {}, {}), "not TOML: an edit"

    def test_a_saved_table_without_its_text_is_judged_by_its_table(self) -> None:
        """A campaign whose settings have no TOML (a file written by hand): its table is
        what the screen shows and compares with."""
        table, _ = renamed_ladder()
        assert not is_edited(LADDER, {LADDER: dump_toml(table)}, {}, {LADDER: table})
        assert is_edited(LADDER, {LADDER: default_text(LADDER)}, {}, {LADDER: table})


@pytest.mark.parametrize(
    ("refused", "edited", "overridden", "mark"),
    [
        (False, False, False, " "),
        (False, False, True, "*"),
        (False, True, False, "●"),
        (False, True, True, "●"),
        (True, False, False, "✗"),
        (True, False, True, "✗"),
        (True, True, False, "✗"),
        (True, True, True, "✗"),
    ],
)
def test_the_lists_mark(refused, edited, overridden, mark) -> None:
    """✗ a refused table first; then ● edited here; then * the campaign's own table."""
    assert list_mark(refused=refused, edited=edited, overridden=overridden) == mark


def test_the_loaders_are_found_once_and_read_the_table_in_place() -> None:
    """The checks run the system's table loaders (the ladder's among them), found once."""
    found = _loaders("drevo")
    assert _loaders("drevo") is found, "found once per system"
    assert ladder in found
    for system in registry.names():
        assert _loaders(system) is _loaders(system)
    table, _ = renamed_ladder()
    data.set_overrides({LADDER: table})
    assert {r.name for r in ladder()} >= {"Обычно"}, "a loader found reads the override"


def test_a_refused_value_is_refused_with_the_loaders_found_once() -> None:
    """The rules' own loader still refuses a table once the loaders are found (two rungs
    with one value), and leaves the rules as they were."""
    _loaders("drevo")
    text = data.packaged_text(LADDER).replace("value = 1\n", "value = 0\n")
    with pytest.raises(SettingsError, match="две ступени"):
        check_table(LADDER, text)
    assert data.overrides() == {}
    assert tomllib.loads(default_text(LADDER)) == data.packaged_table(LADDER)


ALL = sorted({t.relpath for system in registry.all_systems() for t in system.tables})


@pytest.mark.parametrize("relpath", ALL)
def test_the_forms_words_have_no_developer_comment(relpath) -> None:
    """Ctrl+T showed raw TOML with English developer comments («# RULES.md §3 marks …»). The
    form draws, for each row of a table, its heading, or its name and its hint (range and
    whose word): none of them has a comment or a note for developers.

    Replaces the words part of the pilot test
    `tests/tui/test_settings_form.py::test_no_developer_comment_on_the_form_and_ctrl_g_shows_the_toml`
    (the Мир Тьмы pool's form, its Static and Label texts), for every table; the screen part
    (the form drawn, Ctrl+G) stays in
    `tests/tui/test_settings_form.py::test_the_ladders_form_under_fast_keys_and_undo`.
    """
    words = []
    for item in fields_of(relpath, data.packaged_table(relpath)):
        words += [item.text] if isinstance(item, Heading) else [item.label, item.hint]
    shown = " ".join(words)
    assert "RULES.md" not in shown and "#" not in shown, shown
    assert "kubik" in shown, "whose word: kubik's"
    if relpath == "wod/pool.toml":
        assert "Успех от (d10)" in shown
