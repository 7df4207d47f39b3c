"""The Древо builder's text (tui/systems/drevo/builder/parts.py): the formula line and the
rolled check, as pure functions of the rules objects."""

from __future__ import annotations

from rules import drevo
from rules.rng import make_rng
from tui.systems.drevo.builder.parts import formula_lines, result_lines


def check(*, fate_auto: bool = False) -> drevo.OneSidedCheck:
    side = drevo.Side(
        trait=2,
        modifiers=(drevo.Modifier(-1, "Лёгкая рана"), drevo.Modifier(1, "[b]высота[/b]")),
        name="Богдан",
        trait_name="Врачевание",
    )
    return drevo.OneSidedCheck(side, 1, fate_auto=fate_auto)


def test_the_formula_names_the_roll_every_modifier_and_escapes_the_gms_text():
    lines = formula_lines(check(), "[i]ближний бой[/i]", can_act=True, note=None)
    assert lines[0] == "[dim]Черта: \\[i]ближний бой\\[/i][/dim]"
    assert lines[1].startswith("Бросок: 4dF +2 против +1 (")
    assert "; Лёгкая рана −1, \\[b]высота\\[/b] +1 · Enter — бросить" in lines[1]
    assert len(lines) == 2


def test_the_formula_says_a_wound_forbids_acting_and_fate_before_the_roll_then_the_note():
    lines = formula_lines(check(fate_auto=True), "", can_act=False, note="Эффект: +1")
    assert lines[0].startswith("Бросок: ")
    assert lines[1:] == [
        "[$error]Тяжело ранен: персонаж не может действовать.[/]",
        "[$accent]Судьба: автоматический критический успех, кубики не бросаются.[/]",
        "Эффект: +1",
    ]


def test_the_result_says_fates_shift_only_when_there_is_one():
    rolled = drevo.roll_one_sided(check(), make_rng(3))
    assert not any(line.startswith("Судьба:") for line in result_lines(rolled))
    shifted = drevo.shift_one_sided(rolled, 1)
    assert result_lines(shifted)[-1] == "Судьба: +1 к результату"
