"""Мир Тьмы contested and extended rolls — [default] (RULES.md §3: «contested — both roll their
pools, more successes wins, equal is a tie; extended — successes accumulate over rolls toward a
target the GM sets»); the seed has only the chance-die chapter."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules import data, wod
from rules.errors import RulesError
from tests.every_case import assert_every_case


def pool(size: int, **kw) -> wod.Pool:
    return wod.Pool(size, 0, again=None, **kw)


def brute_contest(a: int, b: int) -> tuple[Fraction, Fraction, Fraction]:
    """Enumerate every face of every die (no n-again, no rote): successes are faces ≥ 8."""
    wins = ties = losses = 0
    for faces in itertools.product(range(1, 11), repeat=a + b):
        sa = sum(f >= 8 for f in faces[:a])
        sb = sum(f >= 8 for f in faces[a:])
        wins += sa > sb
        ties += sa == sb
        losses += sa < sb
    whole = 10 ** (a + b)
    return Fraction(wins, whole), Fraction(ties, whole), Fraction(losses, whole)


CONTESTED_ODDS_EQUAL_BRUTE_FORCE = [(1, 1), (2, 1), (1, 3), (2, 2)]


def test_contested_odds_equal_brute_force() -> None:
    """[default] «contested — both roll their pools, more successes wins, equal is a tie»."""

    def check(a, b) -> None:
        odds = wod.contested_odds(pool(a), pool(b))
        assert (odds.a, odds.tie, odds.b) == brute_contest(a, b)
        assert odds.truncated == 0

    assert_every_case(CONTESTED_ODDS_EQUAL_BRUTE_FORCE, check)


def test_contested_roll_more_successes_wins_equal_is_a_tie() -> None:
    """[default] data/wod/pool.toml [contested] tie = "tie"."""
    a = wod.resolve_pool(pool(2), [8, 9])
    b = wod.resolve_pool(pool(2), [8, 1])
    assert wod.resolve_contested(a, b).winner == "a"
    assert wod.resolve_contested(b, a).winner == "b"
    tie = wod.resolve_contested(b, wod.resolve_pool(pool(1), [10]))
    assert (tie.winner, tie.tie_rule, tie.margin) == (None, "tie", 0)
    result = wod.roll_contested(pool(3), pool(3), random.Random(4))
    assert result.to_dict()["kind"] == "contested" and len(result.a.dice) == 3


def override(section: str, **values) -> None:
    table = {k: dict(v) for k, v in data.packaged_table("wod/pool.toml").items()}
    table[section].update(values)
    data.set_overrides({"wod/pool.toml": table})


def test_the_campaign_may_give_ties_to_the_initiator() -> None:
    """[default] «tie — "tie" … "initiator" — the side that started the contest wins»."""
    try:
        override("contested", tie="initiator")
        a, b = wod.resolve_pool(pool(1), [8]), wod.resolve_pool(pool(1), [9])
        assert wod.resolve_contested(a, b).winner == "a"
        odds = wod.contested_odds(pool(1), pool(1))
        assert odds.tie == 0 and odds.a == Fraction(79, 100)  # 1 − 0.7·0.3
        override("contested", tie="coin")
        with pytest.raises(RulesError, match="tie"):
            wod.contest_rules()
    finally:
        data.set_overrides(None)


def test_extended_successes_accumulate_to_the_target_each_roll_kept() -> None:
    """[default] «extended — successes accumulate over rolls toward a target the GM sets»."""
    ext = wod.Extended(pool(2), target=3)
    ext = wod.add_roll(ext, wod.resolve_pool(pool(2), [8, 1]))
    assert (ext.successes, ext.status) == (1, "going")
    ext = wod.add_roll(ext, wod.resolve_pool(pool(2), [9, 10]))
    assert (ext.successes, ext.status, len(ext.rolls)) == (3, "done", 2)
    with pytest.raises(RulesError, match="Цель достигнута"):
        wod.roll_extended(ext, random.Random(1))
    with pytest.raises(RulesError, match="хотя бы 1"):
        wod.Extended(pool(2), target=0)
    assert [r["successes"] for r in ext.to_dict()["rolls"]] == [1, 2]


def test_extended_dramatic_failure_ends_and_the_roll_limit() -> None:
    """[default] [extended] dramatic_failure_ends = true; max_rolls (0: no limit)."""
    chance = wod.Pool(0, 0)
    ext = wod.add_roll(wod.Extended(chance, 2), wod.resolve_pool(chance, [1]))
    assert (ext.status, ext.successes) == ("failed", 0)
    with pytest.raises(RulesError, match="Полный провал"):
        wod.add_roll(ext, wod.resolve_pool(chance, [10, 3]))
    try:
        override("extended", max_rolls=1, dramatic_failure_ends=False)
        ext = wod.add_roll(wod.Extended(pool(1), 5), wod.resolve_pool(pool(1), [2]))
        assert ext.status == "out_of_rolls"
        with pytest.raises(RulesError, match="предел кампании — 1"):
            wod.roll_extended(ext, random.Random(1))
        override("extended", max_rolls=-1)
        with pytest.raises(RulesError, match="max_rolls"):
            wod.contest_rules()
        override("extended", dramatic_failure_ends="да")
        with pytest.raises(RulesError, match="dramatic_failure_ends"):
            wod.contest_rules()
    finally:
        data.set_overrides(None)


def test_a_campaign_table_without_the_new_sections_falls_back_and_a_bad_one_is_named() -> None:
    """[default] a campaign that saved wod/pool.toml before [contested]/[extended] existed keeps
    the packaged values; a section of the wrong kind is refused with the file named."""
    table = {k: v for k, v in data.packaged_table("wod/pool.toml").items()}
    try:
        data.set_overrides({"wod/pool.toml": {k: table[k] for k in ("pool", "chance")}})
        assert wod.contest_rules().tie == "tie"
        data.set_overrides({"wod/pool.toml": {**table, "contested": 5}})
        with pytest.raises(RulesError, match=r"wod/pool.toml: \[contested\] должна быть таблицей"):
            wod.contest_rules()
    finally:
        data.set_overrides(None)
