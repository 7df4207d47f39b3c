"""Who removed a character, as the words that say so (issue 37's leftover: «удалён в другом
окне» was said when a ``kubik`` command had removed him)."""

from __future__ import annotations

from tui.store import Character, Store, new_id
from tui.store.history import BY_COMMAND, ELSEWHERE, removed_words


def _party(tmp_path) -> tuple[Store, str]:
    store = Store.open(tmp_path / "c.json")
    return store, store.characters()[0].id


def test_a_removal_names_the_window_or_the_command_that_made_it(tmp_path) -> None:
    """Another window's removal is «в другом окне», a command's «командой kubik», this
    window's own none at all."""
    here, first = _party(tmp_path)
    second = here.characters()[1].id
    third = here.characters()[2].id
    other = Store.open(here.path)
    other.delete_character(first)
    command = Store.open(here.path, window="cli")
    command.delete_character(second)
    here.refresh()
    here.delete_character(third)
    assert here.removed_where(first) == ELSEWHERE
    assert here.removed_where(second) == BY_COMMAND
    assert here.removed_where(third) == ""
    other.refresh()
    assert other.removed_where(first) == "" and other.removed_where(third) == ELSEWHERE
    assert removed_words("Вера", BY_COMMAND) == "Персонаж Вера удалён командой kubik"
    assert removed_words("Вера", "") == "Персонаж Вера удалён"


def test_an_addition_undone_removes_as_its_window_and_a_removal_undone_is_no_removal(
    tmp_path,
) -> None:
    """Ctrl+Z of an addition takes the character away: the window that pressed it removed
    him. A removal undone and made again is the newest removal's."""
    here, first = _party(tmp_path)
    other = Store.open(here.path)
    added = Character(new_id(), "Новый", "npc", {}, (), ())
    other.upsert_character(added)
    other.undo()
    here.refresh()
    assert here.removed_where(added.id) == ELSEWHERE
    here.delete_character(first)
    here.undo()  # back: nobody removed him now, and a later removal is the other window's
    other.refresh()
    other.delete_character(first)
    here.refresh()
    assert here.removed_where(first) == ELSEWHERE


def test_with_no_step_left_another_window_is_said(tmp_path) -> None:
    """The history keeps the newest steps only (and an import starts it anew): with no step
    that removed him, the words are another window's, as before."""
    here, first = _party(tmp_path)
    assert here.removed_where(first) == ELSEWHERE
    assert here.removed_where("no-such-id") == ELSEWHERE
