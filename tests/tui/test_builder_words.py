"""Words the builders left for a GM to misread (issue 16, «Words»): an outcome named twice, a
zero modifier printed as «0», checklist boxes that look ticked either way, an action that does
not preselect its own skill, a difficulty scale that wraps, example modifiers read as applied,
nested brackets in a trait's reason. (The IDE4 form's words on the screen — its example, its
scales, its checklist boxes: tests/tui/test_one_truth.py::TestUndoUnderAnOpenCheck.)"""

from __future__ import annotations

import re
from pathlib import Path

from rules import ide4, starately
from tui.systems.ide4.check import text as ide4_text
from tui.systems.starately import cli as cli_starately
from tui.systems.starately.builder.parts import summary

ROOT = Path(__file__).resolve().parents[2]


def test_triumph_bonus_names_the_outcome_once() -> None:
    """«Бонус мастерства: Успех → Триумф → Триумф» said the new outcome twice."""
    step = ide4.Step(kind="bonus", source="triumph", outcome_before="success", outcome="triumph")
    line = ide4_text.step_line(None, step)  # type: ignore[arg-type]  # unused for this bonus
    assert line.count("Триумф") == 1, line
    assert "Успех" in line


def _zero_bonus_result():
    check = starately.Check(starately.Side(dm=0, skill=0), difficulty=8)
    return starately.resolve(check, (5, 3))


def test_a_zero_bonus_is_not_printed_as_a_lone_zero() -> None:
    """«[5 3] = 8 0 → 8»: a zero modifier read as a number in the sum."""
    result = _zero_bonus_result()
    assert result.check.side.bonus == 0
    for line in (summary(result), cli_starately.result_line(result)):
        assert " 0 →" not in line, line
        assert "= 8 → 8" in line, line


def test_a_nonzero_bonus_is_still_printed() -> None:
    check = starately.Check(starately.Side(dm=1, skill=1), difficulty=8)
    result = starately.resolve(check, (5, 3))
    assert "= 8 +2 → 10" in summary(result)


def test_no_modifier_field_shows_a_bare_example() -> None:
    """The opposed and contested dialogs' fields too: every example goes through mods_hint."""
    bare = re.compile(r'placeholder="[+\-−]\d')
    found = [
        f"{p.name}: {line.strip()}"
        for p in sorted((ROOT / "tui").rglob("*.py"))
        for line in p.read_text(encoding="utf-8").splitlines()
        if bare.search(line)
    ]
    assert not found


def test_an_absent_skill_reason_has_no_brackets_inside_brackets() -> None:
    """«(навыка нет: считается 0 (настройка кампании))» in the Бой tab's side line."""
    from rules.drevo.traits import Sheet, choose_trait

    choice = choose_trait(Sheet({"Ловкость": 2}, ()), "dodge")
    assert "(" not in choice.reason and "по настройке кампании" in choice.reason


def test_an_ide4_log_line_does_not_repeat_its_actor() -> None:
    """`kubik log` and the Журнал showed «Вера: Вера: [3], d100 2 → Трагедия» (the entry's actor,
    then the text's own), and «(переброс (спокойствие) 2 → 32)» nested brackets."""
    inp = ide4.CheckInput(actor="Вера", attribute="Сила", attribute_level=2, base=3)
    rolled = ide4.roll(ide4.start(inp), natural=2)
    assert not ide4_text.log_text(rolled, "roll").startswith("Вера")
    rerolled = ide4.reroll(rolled, "calm", natural=32)
    line = ide4_text.log_text(rerolled, "reroll")
    assert not line.startswith("Вера"), line
    assert "спокойствие" in line and "2 → 32" in line
    assert not re.search(r"\([^)]*\(", line), line  # no brackets inside brackets
    # Without an actor the line still says what rolled.
    anonymous = ide4.roll(ide4.start(ide4.CheckInput(attribute="Сила", base=3)), natural=2)
    assert ide4_text.log_text(anonymous, "roll").startswith("Сила")


def test_the_drevo_sum_line_names_the_судьба_it_adds() -> None:
    """Play-test: after `+` the builder read «Итого: кубики 0, Драка 0 → +1» — a sum that
    does not add up; the Судьба point moved after the roll is a term of the line."""
    from rules import drevo
    from tui.systems.drevo.check.lines import one_sided_lines

    check = drevo.OneSidedCheck(drevo.Side(0, (), "Милава", "Драка"), 0)
    rolled = drevo.resolve_one_sided(check, (0, 1, 0, -1))
    assert one_sided_lines(rolled, markup=False)[1] == "Итого: кубики 0, Драка 0 → 0"
    shifted = drevo.shift_one_sided(rolled, 1)
    assert one_sided_lines(shifted, markup=False)[1] == "Итого: кубики 0, Драка 0, Судьба +1 → +1"
    down = drevo.shift_one_sided(rolled, -2)
    assert one_sided_lines(down, markup=False)[1] == "Итого: кубики 0, Драка 0, Судьба −2 → −2"


def test_a_судьба_crit_does_not_say_the_dice_showed_it() -> None:
    """«Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим) успехом
    пройти одностороннюю проверку» — no dice are rolled, so the line must not read «на
    кубиках +4»."""
    from rules import drevo
    from tui.systems.drevo.check.lines import one_sided_lines

    check = drevo.OneSidedCheck(drevo.Side(0, (), "Милава", "Драка"), 0, fate_auto=True)
    lines = one_sided_lines(drevo.resolve_one_sided(check, None), markup=False)
    assert "на кубиках" not in lines[-1] and "Судьба" in lines[-1]
    rolled = drevo.resolve_one_sided(drevo.OneSidedCheck(check.side, 0), (1, 1, 1, 1))
    assert "на кубиках +4" in one_sided_lines(rolled, markup=False)[-1]
