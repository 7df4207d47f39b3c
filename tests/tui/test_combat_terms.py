"""Issue 13, «every term shown»: each number of a rolled exchange traced to a rule or a
named campaign setting, in Russian with its declensions and the minus sign."""

from __future__ import annotations

import random
from dataclasses import replace

from rules.drevo import (
    Action,
    Fighter,
    plan_exchange,
    resolve_exchange_with_dice,
    shift_exchange,
    weapon,
)
from rules.encounter import Combatant, Declaration, Encounter
from tests.tui.test_combat_machine import DOC, Driver, _App
from tui.present.combat import result_lines
from tui.store import Store


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


def _driver(tmp_path, wounds_of_target=None, fate=3):
    store = Store.open(tmp_path / "c.json", system="drevo")
    people = {c.name: c for c in store.characters()}
    attacker, target = people["Атаман Шкуро"], people["Горан Рябой"]
    target = replace(target, fate=fate, wounds={**target.wounds, **(wounds_of_target or {})})
    store.upsert_character(target)
    enc = Encounter()
    enc = enc.with_combatant(Combatant(attacker.id, attacker.name, "Противники"))
    enc = enc.with_combatant(Combatant(target.id, target.name, "Отряд"))
    enc = replace(enc.with_initiative(["Противники", "Отряд"]), id="fight")
    enc = enc.declare(Declaration(attacker.id, "melee", target.id, "Сабля"), lambda cid: True)
    enc = enc.declare(Declaration(target.id, "dodge"), lambda cid: True)
    enc = enc.start_resolution(lambda cid: True)
    store.put_doc(DOC, enc.to_dict(), label="Бой")
    return Driver(store, _App(random.Random(3), lambda choices: choices[0])), store, target


def test_the_fate_offer_says_which_reduction_still_saves(tmp_path) -> None:
    """Сид: «Тяжелораненого … можно добить, нанеся ему любое повреждение уровнем выше
    Царапины»: for a heavily wounded character only a Царапина saves — the offer says so."""
    fight, _, target = _driver(tmp_path, {"heavy": 1})
    c = fight.characters[target.id]
    labels = [
        fight._reduce_label(c, "wound", level, cost)
        for level, cost in (("light", 1), ("scratch", 2))
    ]
    assert labels == [
        "1 — до лёгкой раны (всё равно смерть)",
        "2 — до царапины (спасает жизнь, но тяжело ранен)",
    ]
    fresh = replace(c, wounds={k: 0 for k in c.wounds})
    assert fight._reduce_label(fresh, "death", "heavy", 1) == (
        "1 — до тяжёлой раны (спасает жизнь, но тяжело ранен)"
    )
    assert fight._reduce_label(fresh, "heavy", "wound", 1) == "1 — до ранения (остаётся в строю)"


def test_the_log_names_who_spent_fate_and_the_final_wound(tmp_path) -> None:
    """The Журнал's «Кто» of a Судьба line is whoever spent it; the damage line declines the
    wound («получает лёгкую рану»); the exchange shows the final wound before the next one."""
    fight, store, target = _driver(tmp_path)
    fight.roll_exchange()
    while True:  # seeded: reroll ties until someone wins
        _, _, result = fight._derive()
        if not result.tie:
            break
        fight.roll_exchange(int(fight._ex().get("attempt", 1)) + 1)
    fight.action_fate_shift()  # the first choice: the attacker +1
    shift = next(e for e in store.log() if e.text.startswith("Судьба:"))
    assert shift.actor == "Атаман Шкуро"
    _, _, result = fight._derive()
    assert result.winner == "attacker" and result.hits  # the seeded dice: Шкуро hits
    fight.accept_exchange()
    if fight._exchange_stage() == "damage":
        fight.take_damage(0)
    assert fight._exchange_stage() == "done"
    lines, _, _ = fight.exchange_lines()
    assert any(line.startswith("[b]Итог:[/b] Горан Рябой получает ") for line in lines)
    damage = next(e for e in store.log() if e.text.startswith("Урон:"))
    assert damage.actor == target.name and " получает " in damage.text
    assert not any(name in damage.text for name in ("получает Лёгкая", "получает Ранение"))


def test_an_attack_on_the_dead_is_refused_and_skipped_on_the_record(tmp_path) -> None:
    """Сид: «Смерть» — a blow at the dead needs the GM's skip, which the log records."""
    fight, store, target = _driver(tmp_path)
    store.upsert_character(replace(target, extra={**target.extra, "dead": True}))
    fight.reload()
    _, refusal, _ = fight._derive()
    assert refusal == "Горан Рябой уже мёртв — s: пропустить схватку."
    assert fight._exchange_stage() == "refused"
    fight.finish_exchange(skipped=refusal)
    assert fight.encounter.pending() == []
    assert store.log()[1].text == f"Схватка пропущена: {refusal}"
