"""Древо wounds: table 4, the cascade, penalties that do not add up, killing the heavily
wounded, healing needs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.drevo import LEVELS, WoundTrack, level_name, wound_levels
from rules.errors import RulesError
from tests.every_case import assert_every_case

WEIGHT = {"scratch": 1, "light": 4, "wound": 8, "heavy": 16}


def track(*levels: str) -> WoundTrack:
    result = WoundTrack()
    for level in levels:
        result = result.take(level)
    return result


def test_names_are_the_books() -> None:
    """Сид, таблица 4: «Царапина … Лёгкая рана … Ранение … Тяжёлая рана … Смерть»."""
    assert [level_name(k) for k in LEVELS] == [
        "Царапина",
        "Лёгкая рана",
        "Ранение",
        "Тяжёлая рана",
        "Смерть",
    ]


def test_empty_track() -> None:
    """Сид: «Царапина … Никак не влияет на результативность действий персонажа.»"""
    empty = WoundTrack()
    assert empty.counts == {"scratch": 0, "light": 0, "wound": 0, "heavy": 0}
    assert (empty.penalty, empty.can_act, empty.dead, empty.worst) == (0, True, False, None)
    assert track("scratch").penalty == 0


def test_four_scratches_make_a_light_wound() -> None:
    """Сид: «Четыре царапины становятся лёгкой раной»."""
    three = track("scratch", "scratch", "scratch")
    assert three.counts["scratch"] == 3 and three.worst == "scratch"
    four = three.take("scratch")
    assert four.counts == {"scratch": 0, "light": 1, "wound": 0, "heavy": 0}
    assert four.penalty == -1


def test_two_light_wounds_make_a_wound() -> None:
    """Сид: «две лёгких раны — ранением»."""
    assert track("light", "light").counts == {"scratch": 0, "light": 0, "wound": 1, "heavy": 0}


def test_two_wounds_make_a_heavy_wound() -> None:
    """Сид: «два ранения — тяжёлой раной»."""
    heavy = track("wound", "wound")
    assert heavy.counts == {"scratch": 0, "light": 0, "wound": 0, "heavy": 1}
    assert heavy.can_act is False and heavy.dead is False


def test_cascade_runs_through_every_level() -> None:
    """Сид: «По мере накопления более лёгких повреждений они переходят в более тяжёлые.»"""
    ready = track("wound", "light", "scratch", "scratch", "scratch")
    last = ready.take("scratch")
    assert last.counts == {"scratch": 0, "light": 0, "wound": 0, "heavy": 1}
    assert last.worst == "heavy"


def test_the_seeds_example() -> None:
    """Сид: «штраф к проверкам у персонажа с Ранением, получившего Лёгкую рану …, будет
    по-прежнему «-2», а не «-3», но вторая полученная им Лёгкая рана … будет означать второе
    Ранение — и он перейдёт в состояние тяжелораненого.»"""
    hurt = track("wound", "light")
    assert hurt.penalty == -2
    assert hurt.can_act
    after = hurt.take("light")
    assert after.counts["heavy"] == 1 and not after.can_act and not after.dead


def test_four_scratches_count_as_the_light_wound_in_the_example() -> None:
    """Сид: «получившего Лёгкую рану (или четыре Царапины), будет по-прежнему «-2»»."""
    hurt = track("wound", *["scratch"] * 4)
    assert hurt.penalty == -2 and hurt.counts["light"] == 1


PENALTIES_DO_NOT_ADD_UP = [
    (("scratch", "scratch"), 0),
    (("light",), -1),
    (("light", "scratch", "scratch"), -1),
    (("wound",), -2),
    (("wound", "light", "scratch"), -2),
]


def test_penalties_do_not_add_up() -> None:
    """Сид: «Модификаторы от ранений не складываются»."""

    def check(levels: tuple[str, ...], penalty: int) -> None:
        assert track(*levels).penalty == penalty

    assert_every_case(PENALTIES_DO_NOT_ADD_UP, check)


HEAVILY_WOUNDED_DIES_FROM_ANY_DAMAGE_ABOVE_A_SCRATCH = ["light", "wound", "heavy", "death"]


def test_heavily_wounded_dies_from_any_damage_above_a_scratch() -> None:
    """Сид: «Его можно добить, нанеся ему любое повреждение уровнем выше Царапины.»"""

    def check(level: str) -> None:
        heavy = track("heavy")
        assert heavy.take(level).dead

    assert_every_case(HEAVILY_WOUNDED_DIES_FROM_ANY_DAMAGE_ABOVE_A_SCRATCH, check, star=False)


def test_heavily_wounded_survives_scratches_until_they_make_a_light_wound() -> None:
    """Сид: «Его можно добить, нанеся ему любое повреждение уровнем выше Царапины»; четыре
    Царапины — это Лёгкая рана («Лёгкую рану (или четыре Царапины)»)."""
    three = track("heavy", "scratch", "scratch", "scratch")
    assert not three.dead and three.counts["scratch"] == 3
    assert three.take("scratch").dead


def test_death_level_kills_and_nothing_changes_after() -> None:
    """Сид: «Смерть — Мгновенная смерть либо состояние при смерти»."""
    dead = WoundTrack().take("death")
    assert dead.dead and dead.worst == "death" and not dead.can_act
    assert dead.take("light") == dead


def test_take_returns_a_new_track() -> None:
    """Сид: «То же самое касается и получаемых им ранений» (отмечается в листе): старая
    запись не меняется, новая — это новый лист."""
    before = WoundTrack()
    after = before.take("light")
    assert before.counts["light"] == 0 and after.counts["light"] == 1


@given(st.lists(st.sampled_from(["scratch", "light", "wound", "heavy"]), max_size=12))
def test_cascade_matches_a_points_model(levels: list[str]) -> None:
    """Сид: «Четыре царапины становятся лёгкой раной, две лёгких раны — ранением, два
    ранения — тяжёлой раной» — счёт в «царапинах»: 1, 4, 8, 16; тяжелораненого убивает
    повреждение выше Царапины."""
    points, dead = 0, False
    result = WoundTrack()
    for level in levels:
        result = result.take(level)
        if dead:
            continue
        w = WEIGHT[level]
        if points >= 16 and (w >= 4 or points % 4 + w >= 4):
            dead = True
        else:
            points += w
        assert result.dead == dead
        if not dead:
            counts = result.counts
            assert sum(WEIGHT[k] * counts[k] for k in WEIGHT) == points
            assert counts["scratch"] < 4 and counts["light"] < 2 and counts["wound"] < 2


def test_heal_removes_one_wound() -> None:
    """Сид: «Модификаторы от ранений действуют до тех пор, пока ранение не будет полностью
    вылечено.»"""
    hurt = track("wound", "light")
    healed = hurt.heal("wound")
    assert healed.counts["wound"] == 0 and healed.penalty == -1
    assert healed.heal("light").penalty == 0


def test_heal_missing_wound_is_an_error() -> None:
    """Сид: «Если персонаж страдает от … — это отмечается в листе персонажа» — лечить можно
    только отмеченную рану."""
    with pytest.raises(RulesError, match="нет раны «Ранение»"):
        track("light").heal("wound")
    with pytest.raises(RulesError, match="Неизвестный уровень"):
        WoundTrack().take("bruise")


def test_healing_death_leaves_a_heavy_wound() -> None:
    """Сид: «Смерть — … либо состояние при смерти (потеря сознания, хотя сердце ещё бьётся) —
    по усмотрению ведущего.»"""
    saved = WoundTrack().take("death").heal("death")
    assert not saved.dead and saved.counts["heavy"] == 1
    with pytest.raises(RulesError):
        WoundTrack().heal("death")


def test_change_turns_one_wound_into_another() -> None:
    """Сид: «Лёгкая рана … Если не перевязать — может через некоторое время перейти в
    Ранение.»"""
    worse = track("light").change("light", "wound")
    assert worse.counts == {"scratch": 0, "light": 0, "wound": 1, "heavy": 0}


def test_needs_list_the_seeds_healing_worst_first() -> None:
    """Сид: «Царапины со временем … проходят сами»; «Лёгкая рана требует простой перевязки»;
    «Ранение требует более серьёзного медицинского вмешательства»; «Тяжёлая рана требует
    обязательного длительного … лечения»."""
    needs = track("light", "scratch").needs()
    assert [level for level, _ in needs] == ["light", "scratch"]
    assert "перевязка" in needs[0][1]
    assert "сама" in needs[1][1]
    assert "травами" in track("wound").needs()[0][1]
    assert "длительное" in track("heavy").needs()[0][1]
    assert WoundTrack().needs() == []
    assert set(wound_levels()) == set(LEVELS)


def test_dict_round_trip_and_store_counts() -> None:
    """Сид: «получаемых им ранений» отмечаются в листе — запись переживает сохранение."""
    hurt = track("wound", "light", "scratch")
    assert WoundTrack.from_dict(hurt.to_dict()) == hurt
    store = {"scratch": 1, "light": 0, "wound": 1, "heavy": 0}
    assert WoundTrack.from_dict(store).penalty == -2
    assert WoundTrack.from_dict({**store, "dead": True}).dead
    with pytest.raises(RulesError):
        WoundTrack.from_dict({"bruise": 1})
