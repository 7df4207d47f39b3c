"""The reason a fight step gives when the shell (``kubik party remove``, ``kubik fight``) or
another window changed things under an open dialog: the real one — who is gone, what is
already written — before the phase's or the stage's (nothing stale was ever written; the
words were wrong)."""

from __future__ import annotations

from tests.table.helpers import Table, skirmish
from tui.store import Store
from tui.systems.drevo.fight import steps
from tui.systems.drevo.fight.declare import repeat_round

SIDES = {"Атаман Шкуро": "Противники", "Горан Рябой": "Отряд"}
BLOWS = [
    ("Атаман Шкуро", "melee", "Горан Рябой", "Сабля"),
    ("Горан Рябой", "melee", "Атаман Шкуро", "Топор"),
]


def _shell(store: Store) -> Table:
    """``kubik …`` on the same file: its own store and dice."""
    return Table(Store.open(store.path), seed=11)


def test_fate_of_a_fighter_removed_in_another_window_says_so(tmp_path) -> None:
    """Play-test: the `p` dialog open, ``kubik party remove "Атаман Шкуро"``, Enter on his
    line: «Сдвиг Судьбой — после броска: кости этой схватки ещё не брошены.» The dice were
    thrown; the reason is that he left the party."""
    table, store, people = skirmish(tmp_path, SIDES, BLOWS)
    role = table.view().role_of(people["Атаман Шкуро"].id)
    before = table.run(steps.fate_before, role)  # the `f` dialog before the roll, the same
    table.ok(steps.roll)
    shell = Store.open(store.path, window="cli")  # `kubik party remove` is a command's store
    shell.delete_character(people["Атаман Шкуро"].id)
    shell.close()
    store.refresh()
    for step, args in ((steps.fate_shift, (role, 1)), (steps.fate_before, (role,))):
        refused = table.run(step, *args).refused
        assert refused.startswith("Персонаж Атаман Шкуро удалён командой kubik —"), refused
    assert before.ok
    other = table.view().role_of(people["Горан Рябой"].id)  # his opponent's line: the real
    assert table.run(steps.fate_shift, other, 1).refused == "Участник схватки больше не в партии."
    assert table.run(steps.accept).refused == "Участник схватки больше не в партии."


def test_damage_written_by_the_shell_meanwhile_says_so(tmp_path) -> None:
    """Play-test: the «снизить урон» dialog open, ``kubik fight damage --reduce 1`` ran; Enter
    said «Сейчас некому записывать урон.» The damage is written: the refusal says so, and a
    step meant for that hit never lands on the next one."""
    table, store, people = skirmish(tmp_path, SIDES, BLOWS, seed=1)
    table.ok(steps.roll)
    while table.view().result.tie:
        table.ok(steps.reroll_tie)
    table.ok(steps.accept)
    view = table.view()
    assert view.stage == "damage" and view.reduce_options(), "the seeded dice no longer hit"
    hit = len(view.exchange.damage)
    _shell(store).ok(steps.damage, 1)
    store.refresh()
    refused = table.run(steps.damage, 1, hit=hit).refused
    assert refused.startswith("Урон уже записан в другом окне или командой kubik"), refused
    assert "некому" not in table.run(steps.damage, 1).refused


def test_repeat_names_a_target_removed_from_the_party(tmp_path) -> None:
    """Play-test: ``kubik fight repeat`` in round 2 said «Горан Рябой: в прошлом раунде нет
    заявки, которую можно повторить.» Горан did declare «Топор → Атаман Шкуро»; that target
    was removed. The reason names him."""
    table, store, people = skirmish(
        tmp_path,
        {**SIDES, "Лыко": "Противники"},
        [*BLOWS[:1], ("Лыко", "dodge", None, None), BLOWS[1]],
    )
    for _ in range(20):
        view = table.view()
        if view is None:
            break
        table.ok(steps.skip)
    table.ok(steps.next_round)
    shell = Store.open(store.path, window="cli")  # `kubik party remove`
    shell.delete_character(people["Атаман Шкуро"].id)
    shell.close()
    store.refresh()
    refused = table.run(repeat_round).refused
    assert refused.startswith("Горан Рябой: прошлую заявку не повторить"), refused
    assert "цель Атаман Шкуро удалена из партии командой kubik («" in refused, refused


def test_ending_a_fight_the_shell_ended_meanwhile_says_there_is_none(tmp_path) -> None:
    """Play-test: «Завершить бой?» open, ``kubik fight end``, Enter on «Да»: «Бой ещё не
    начат.» — the fight had been fought and ended. The reason covers both: no fight to end."""
    table, store, _people = skirmish(tmp_path, SIDES, BLOWS)
    _shell(store).ok(steps.end)
    store.refresh()
    refused = table.run(steps.end).refused
    assert refused == steps.NO_FIGHT and "уже завершён" in refused, refused
    assert len([e for e in store.log() if e.text.startswith("Бой завершён")]) == 1
