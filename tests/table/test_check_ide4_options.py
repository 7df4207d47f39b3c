"""The IDE4™ form's options through the engine alone: [00] and what may open it, a [7] by
modifiers, the four kinds of an ally's help. What the rows show and what the roll records;
the rows' keys and the dialogs: tests/tui/test_builder_ide4_options.py."""

from __future__ import annotations

from rules import ide4
from tests.table.check_helpers import ok, table
from tui.present.markup import plain_text
from tui.store import Store
from tui.systems.ide4.check import steps


def form(tmp_path, **inputs):
    """The first character's check with ``inputs`` set in the form's order."""
    store = Store.open(tmp_path / "c.json", system="ide4")
    t = table(store)
    for name, value in inputs.items():
        ok(t, steps.set_input, name, value)
    return store, t


def status(t) -> str:
    """The status under the form as the screen shows it (its markup read)."""
    return plain_text("\n".join(t.view().status_lines()))


def test_modifiers_and_help_never_move_impossible(tmp_path):
    """Сид: «[00] означает не «очень трудно», а «этим способом сейчас нельзя»»: base [00] with
    «помощь союзника −1» and «−2 напарник держит фонарь» stays [00]; the roll records it
    unrolled."""
    store, t = form(
        tmp_path,
        level="expanded",
        mods="-2 напарник держит фонарь",
        base=8,
        help="difficulty",
        reason="дверь заварена",
    )
    assert "→ [00]" in status(t) and "не действуют против [00]" in status(t)
    ok(t, steps.roll)
    check = t.view().check
    assert check.status == "impossible" and check.natural is None
    [entry] = store.log()
    assert entry.data["status"] == "impossible" and entry.data["natural"] is None


def test_the_allys_possible_opens_impossible_at_the_gms_difficulty(tmp_path):
    """Сид: «• сделать действие возможным» — the row of the difficulty it opens at is asked
    for only then; the record names the exception."""
    _store, t = form(tmp_path, level="expanded", base=8)
    assert not t.view().rows["open"].shown
    ok(t, steps.set_input, "help", "possible")
    assert t.view().rows["open"].shown
    ok(t, steps.set_input, "open", 6)
    assert "[00] открыто: помощь союзника" in status(t)
    ok(t, steps.roll)
    d = t.view().check.difficulty
    assert (d.final, d.opened_by) == (6, "помощь союзника «сделать действие возможным»")


def test_a_named_special_rule_opens_impossible(tmp_path):
    """Сид: «…если специальное правило прямо не предусматривает исключение»."""
    _store, t = form(tmp_path, base=8)
    assert t.view().texts["special"]  # the row is asked for at [00]
    ok(t, steps.set_input, "special", "Ключ от Архива")
    ok(t, steps.set_input, "open", 4)
    ok(t, steps.roll)
    d = t.view().check.difficulty
    assert (d.final, d.opened_by) == (4, "особое правило «Ключ от Архива»")


def test_a_seven_by_modifiers_is_named_and_bars_mastery(tmp_path):
    """Сид: «Бонусы не действуют против [7] и [00]», and plot armour is the GM's («мастер может
    назначить [7]»): base [6] + «шум» +1 is a [7] that is not Сюжетная броня, named so."""
    _store, t = form(tmp_path, mods="+1 шум", base=6, skill="Взлом")
    assert "по модификаторам, не Сюжетная броня" in status(t)
    assert "бонусы мастерства не действуют" in status(t)
    ok(t, steps.roll)
    moves = " ".join(plain_text(text) for _indent, text in t.view().move_lines())
    assert "до неё дошли модификаторы; это не Сюжетная броня" in moves


def test_all_four_kinds_of_help_and_the_risk_note(tmp_path):
    """Сид: «Если союзник помогает, мастер может применить один из вариантов: • снизить
    сложность на 1; • предоставить +1 переброс; • сделать действие возможным; • передать союзнику
    часть риска»: all four offered; the risk taken is asked for and named in the record."""
    _store, t = form(tmp_path, level="expanded")
    assert [v for _, v in t.view().rows["help"].options] == [
        "",
        "difficulty",
        "reroll",
        "possible",
        "risk",
    ]
    assert not t.view().texts["helpnote"]
    ok(t, steps.set_input, "help", "risk")
    assert t.view().texts["helpnote"]
    ok(t, steps.set_input, "helpnote", "падение с лестницы")
    ok(t, steps.roll)
    check = t.view().check
    assert check.input.help_note == "падение с лестницы"
    assert "союзник берёт на себя: падение с лестницы" in ide4.full_template(check)
