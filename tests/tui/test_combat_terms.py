"""Issue 13, «every term shown»: each number of a rolled exchange traced to a rule or a
named campaign setting, in Russian with its declensions and the minus sign."""

from __future__ import annotations

from rules.drevo import (
    Action,
    Fighter,
    plan_exchange,
    resolve_exchange_with_dice,
    shift_exchange,
    weapon,
)
from tui.systems.drevo.present import result_lines


def test_the_one_sided_bonus_is_named_on_the_damage_line() -> None:
    """RULES.md [default]: «result − difficulty + 1 (one-sided)» — the +1 is shown as the
    campaign's setting, so «разница +4» plus it reads back to the value 7."""
    plan = plan_exchange(
        Fighter("Шкуро", weapon=weapon("Пистолет"), trait=2),
        Action("shoot"),
        Fighter("Ярослав", trait=1),
        Action("shield", weapon("Щит")),
        "near",
    )
    result = resolve_exchange_with_dice(plan, (1, 0, 0, -1))
    lines = result_lines(result)
    assert (
        "Урон — Ярослав: разница +4, +1 (односторонняя, настройка кампании), "
        "МУ (Пистолет) +2 = 7 → Тяжёлая рана" in lines
    )


def test_a_fate_crit_reads_as_fate_and_names_the_crit_floor() -> None:
    """Сид: «Игрок может потратить одно очко Судьбы чтобы с максимальным (критическим)
    успехом пройти одностороннюю проверку»; «максимально успешным» — the floor is named."""
    plan = plan_exchange(
        Fighter("А", weapon=weapon("Нож"), trait=-4),
        Action("melee"),
        Fighter("Б", weapon=weapon("Нож"), trait=4),
        Action("melee"),
        "close",
    )
    result = resolve_exchange_with_dice(plan, None, (1, 1, 1, 0), fate=("attacker",))
    lines = result_lines(result)
    assert lines[0] == "А: Судьба: +4 без броска → [b]0[/b] — критический успех"
    assert "[+][+][+][+]" not in "".join(lines)
    assert lines[-1] == (
        "Урон — Б: разница −7 → 4 (критический успех: не меньше 4, настройка кампании), "
        "МУ (Нож) 0 = 4 → Ранение"
    )


def test_an_opposed_exchange_names_a_crit_and_a_cancelled_one() -> None:
    """Сид: «Если при броске 4dF выпадает «+4» — это критический успех»; «При встречных
    проверках критический успех персонажа аннулируется критическим успехом противника».
    Play-test: a natural [+][+][+][+] in an exchange was not called a crit at all."""
    plan = plan_exchange(
        Fighter("А", weapon=weapon("Нож"), trait=-2),
        Action("melee"),
        Fighter("Б", weapon=weapon("Нож"), trait=3),
        Action("dodge"),
        "close",
    )
    lines = result_lines(resolve_exchange_with_dice(plan, (1, 1, 1, 1), (0, 0, 0, 0)))
    assert lines[0].endswith("→ [b]+2[/b] — критический успех")
    assert "критический" not in lines[1]
    lines = result_lines(resolve_exchange_with_dice(plan, (0, 0, -1, 0), (-1, -1, -1, -1)))
    assert lines[1].endswith(" — критический провал")
    both = result_lines(resolve_exchange_with_dice(plan, (1, 1, 1, 1), (1, 1, 1, 1)))
    assert all(line.endswith("аннулирован таким же у противника") for line in both[:2])


def test_a_fate_shift_reads_plus_one_by_fate() -> None:
    """Сид: «после броска … ±1 к результату за очко» — the result line says «+1 Судьбой»."""
    plan = plan_exchange(
        Fighter("А", weapon=weapon("Меч"), trait=1), Action("melee"), Fighter("Б"), None, "close"
    )
    result = shift_exchange(resolve_exchange_with_dice(plan, (0, 0, -1, -1)), "attacker", 1)
    line = result_lines(result, {"attacker": [(1, "Горан")]})[0]
    assert line == "А: \\[0]\\[0]\\[−]\\[−] → −1, +1 Судьбой (Горан) = [b]0[/b] против −2: Успех"
