"""The bestiary's variation table (rules/bestiary): kubik's own [default] — the seeds say
nothing of NPCs made alike or apart — checked before the engine applies it."""

from __future__ import annotations

import copy

import pytest

from rules.bestiary import check_variation, variation
from rules.data import packaged_table, set_overrides
from rules.errors import RulesError
from tests.every_case import assert_every_case

TABLE = "bestiary/variation.toml"


def edited(**change) -> dict:
    table = copy.deepcopy(packaged_table(TABLE))
    for path, value in change.items():
        *heads, last = path.split("__")
        where = table
        for head in heads:
            where = where[head]
        where[last] = value
    return table


def test_the_packaged_table_is_usable_and_adds_alike():
    assert variation()["variation"]["mode"] == "none"
    check_variation(packaged_table(TABLE))


A_TABLE_THE_ENGINE_COULD_NOT_APPLY_IS_REFUSED = [
    ({"variation__mode": "wild"}, "variation.mode"),
    ({"spread__wod__skills": "1"}, "spread.wod.skills: нужно целое число"),
    ({"spread__wod__skills": True}, "spread.wod.skills: нужно целое число"),
    ({"spread__ide4__qualities": -1}, "не может быть отрицательным"),
    ({"spread__drevo__quality_min": 9}, "quality_min больше quality_max"),
    ({"spread__starately__skill_min": 9}, "skill_min больше skill_max"),
]


def test_a_table_the_engine_could_not_apply_is_refused():
    def check(change, said) -> None:
        with pytest.raises(RulesError, match=said):
            check_variation(edited(**change))

    assert_every_case(A_TABLE_THE_ENGINE_COULD_NOT_APPLY_IS_REFUSED, check)


def test_the_campaigns_table_is_the_one_read():
    set_overrides({TABLE: edited(variation__mode="spread")})
    try:
        assert variation()["variation"]["mode"] == "spread"
    finally:
        set_overrides({})
    assert variation()["variation"]["mode"] == "none"
