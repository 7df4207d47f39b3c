"""Counts in the rules' Russian messages: «из 21 куба», «из 111 кубов»."""

from __future__ import annotations

from rules.counts import genitive
from tests.every_case import assert_every_case

GENITIVE_AFTER_IZ_AND_DO = [
    (0, "0 кубов"),
    (1, "1 куба"),
    (2, "2 кубов"),
    (5, "5 кубов"),
    (10, "10 кубов"),
    (11, "11 кубов"),
    (12, "12 кубов"),
    (21, "21 куба"),
    (31, "31 куба"),
    (101, "101 куба"),
    (111, "111 кубов"),
    (121, "121 куба"),
    (211, "211 кубов"),
    (1001, "1001 куба"),
    (-1, "-1 куба"),
    (-21, "-21 куба"),
    (-11, "-11 кубов"),
]


def test_genitive_after_iz_and_do() -> None:
    """After «из», «до», «больше» a count ending in 1 takes the genitive singular (1, 21, 101,
    121), except those ending in 11 (11, 111, 211), which take the plural like every other
    count. Counts where both forms would agree (2, 5) cannot tell a wrong rule apart; 21 and
    111 can."""

    def check(count: int, text: str) -> None:
        assert genitive(count, "куба", "кубов") == text

    assert_every_case(GENITIVE_AFTER_IZ_AND_DO, check)
