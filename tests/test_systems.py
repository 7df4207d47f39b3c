"""A rule system is one package and one registry line (docs/architecture.md, «A system»).

A fake fifth system — its rules line in ``rules.systems.SYSTEMS`` and its package
``tui.systems.fifth`` — is registered here the way a real one would be, and every place that
used to name the four systems by a switch or a registry of its own finds it: the campaign
picker, the campaign schema, the Проверка builder, the check engine, the Бой pane, the
``kubik odds|check`` dispatch, the sheet, the seats, the settings, the luck ledger.
"""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from rules import data
from rules import systems as rules_systems
from rules.errors import RulesError
from rules.ledger.percentile import total_luck
from rules.systems import RulesSystem
from tui import registry
from tui.registry.base import BaseSystem
from tui.registry.tables import Table

FIFTH = "fifth"
#: What the fake CLI module was called with.
CALLS: list[tuple[str, list[str]]] = []


def read(data: Mapping[str, Any], previous: Sequence[Mapping[str, Any]], luck: Any) -> None:
    """The fifth system's Журнал reader: its «total» on a fair d2."""
    luck.roll(data.get("who"), total_luck({1: Fraction(1, 2), 2: Fraction(1, 2)}, data["total"]))


def odds(argv: list[str]) -> int:
    """``kubik odds fifth …`` (this module is the fifth system's CLI module)."""
    CALLS.append(("odds", argv))
    return 0


def check(argv: list[str]) -> int:
    """``kubik check fifth …``."""
    CALLS.append(("check", argv))
    return 3


class FakeBuilder:
    """The fifth system's Проверка builder."""

    BINDINGS: list[Any] = []


#: The fifth system's initiative (``rules/fifth/initiative.py`` of a real one): this module.
TIE_FACES = 2


def check_setting() -> None:
    """The fifth system's initiative table has nothing of its own to check."""


def bonus(f: Any) -> int:
    """The fixed part of a fighter's initiative in the fifth system."""
    return 1


class Fifth(BaseSystem):
    """The fifth system's app part: the defaults, with its own words, tables and seats."""

    name = FIFTH
    title = "Пятая"
    stat_label = "Свойства"
    check_engine = __name__
    builder = f"{__name__}:FakeBuilder"
    cli = __name__
    seat_kinds = ("reroll", "note")
    check_kinds = ("reroll",)
    tables = (Table("ledger/sessions.toml", "Таблица Пятой"),)  # a packaged table no system lists


@pytest.fixture
def fifth(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the fifth system: one registry line and one package."""
    line = RulesSystem(FIFTH, "rounds", f"{__name__}:read", initiative=__name__)
    monkeypatch.setitem(rules_systems.SYSTEMS, FIFTH, line)
    package = types.ModuleType("tui.systems.fifth")
    package.SYSTEM = Fifth()  # type: ignore[attr-defined]  # a module made in the test
    monkeypatch.setitem(sys.modules, "tui.systems.fifth", package)
    CALLS.clear()
    yield
    rules_systems._load.cache_clear()


def test_the_registry_finds_it_and_only_what_is_registered(fifth: None) -> None:
    assert registry.names()[-1] == FIFTH
    assert registry.get(FIFTH).title == "Пятая"
    assert registry.title(FIFTH) == "Пятая"
    assert registry.get(FIFTH).rules.fight == "rounds"
    assert FIFTH in rules_systems.round_systems() and not rules_systems.exchanges(FIFTH)
    with pytest.raises(RulesError, match="неизвестная система «sixth»"):
        registry.get("sixth")


def test_without_its_line_it_is_unknown() -> None:
    from tui.screens.settings_tables import usable_tables

    assert FIFTH not in registry.names()
    _, refused = usable_tables(
        {"ledger/sessions.toml": data.packaged_table("ledger/sessions.toml")}
    )
    assert refused == {"ledger/sessions.toml": "такой таблицы kubik не знает."}
    assert registry.title(FIFTH) == FIFTH
    with pytest.raises(RulesError, match="доступны: drevo, ide4, starately, wod"):
        rules_systems.get(FIFTH)


def test_the_campaign_picker_offers_its_demo_and_an_empty_campaign(fifth: None) -> None:
    from tui.screens.campaigns import new_campaign_choices

    offered = {(c.label, c.value) for c in new_campaign_choices()}
    assert ("Демо: Пятая", ("demo", FIFTH)) in offered
    assert ("Пустая: Пятая", ("empty", FIFTH)) in offered
    assert len(offered) == 2 * len(registry.names())


def test_the_schema_takes_a_campaign_of_it_and_refuses_an_unregistered_one(fifth: None) -> None:
    from tui.store.schema import SchemaError, validate

    validate({"meta": {"1": {"name": "Кампания", "system": FIFTH, "rev": 0}}})
    with pytest.raises(SchemaError, match="нужна одна из: drevo, ide4, starately, wod, fifth"):
        validate({"meta": {"1": {"name": "Кампания", "system": "sixth", "rev": 0}}})


def test_its_builder_engine_and_fight_pane_are_found(fifth: None) -> None:
    from tui.appparts.panes import combat_class
    from tui.table.check.session import engine_for
    from tui.widgets.builders.base import builder_class, builder_module
    from tui.widgets.combat.rounds import RoundsPane

    assert builder_class(FIFTH) is FakeBuilder
    assert builder_module(FIFTH) == __name__
    assert engine_for(FIFTH) is sys.modules[__name__]
    assert combat_class(FIFTH) is RoundsPane  # a system of rounds takes the round tracker


def test_kubik_odds_and_check_dispatch_to_its_module(fifth: None) -> None:
    from tui.cli.kubik import main, system_help

    assert main(["check", FIFTH, "--x", "1"]) == 3
    assert main(["odds", FIFTH]) == 0
    assert CALLS == [("check", ["--x", "1"]), ("odds", [])]
    assert "kubik check fifth -h" in system_help("check")


def test_its_sheet_seats_and_settings(fifth: None) -> None:
    from tui.bridge.sheets import columns, row, sheet_text
    from tui.screens.settings_tables import usable_tables
    from tui.seats.protocol import check_kinds, system_kinds
    from tui.store.demo import demo_campaign

    c = demo_campaign("starately")[2][0]  # any sheet: the fifth system reads it its own way
    top = max(c.skills, key=lambda s: s.value)
    assert columns(FIFTH) == ("Имя", "Кто", "Лучший навык", "Навыков")
    assert row(FIFTH, c)[2:] == (f"{top.name} {top.value}", str(len(c.skills)))
    stat, value = next(iter(c.qualities.items()))
    assert f"[b]Свойства:[/b] {stat} +{value}" in sheet_text(FIFTH, c)
    assert system_kinds(FIFTH) == ("reroll", "note") and check_kinds(FIFTH) == ("reroll",)
    table = data.packaged_table("ledger/sessions.toml")
    accepted, refused = usable_tables({"ledger/sessions.toml": table, "nowhere.toml": {}})
    assert refused == {"nowhere.toml": "такой таблицы kubik не знает."}
    assert accepted == {"ledger/sessions.toml": table}


def test_the_luck_ledger_and_the_initiative_read_it_through_its_line(fifth: None) -> None:
    from rules.ledger import entry_luck
    from rules.rounds.initiative import Fighter, roll_bonus

    luck = entry_luck("check", None, {"system": FIFTH, "total": 2, "who": "Ива"})
    assert luck is not None and len(luck.rolls) == 1
    assert entry_luck("check", None, {"system": "sixth", "total": 2}) is None
    assert roll_bonus(FIFTH, Fighter("x", "Ива")) == 1
    assert roll_bonus("drevo", Fighter("x", "Ива")) == 0
    from rules.rounds.initiative import _tie_roll

    rolled = {_tie_roll(FIFTH, random.Random(seed)) for seed in range(40)}
    assert rolled == {1, 2}


@pytest.mark.parametrize("name", rules_systems.names())
def test_every_registered_system_names_parts_that_exist(name: str) -> None:
    """The registry's strings are imported only on use: each must name what is there."""
    from rules.data import load_table

    line = rules_systems.get(name)
    assert callable(line.ledger_reader())
    if line.rounds:
        assert line.initiative is not None and line.initiative_luck is not None
        rule = rules_systems.load(line.initiative)
        assert callable(rule.roll) and callable(rule.bonus) and rule.TIE_FACES > 1
        rule.check_setting()
        assert callable(rules_systems.load(line.initiative_luck))
    assert line.sheet is not None and rules_systems.load(line.sheet).SYSTEM == name
    system = registry.get(name)
    assert system.name == name
    assert isinstance(registry.load(system.fight_pane), type)
    assert isinstance(registry.load(system.builder), type)
    assert callable(registry.load(system.check_engine).new)
    cli = registry.load(system.cli)
    assert callable(cli.odds) and callable(cli.check)
    if system.opposed_action:
        assert callable(getattr(registry.load(system.builder), f"action_{system.opposed_action}"))
    assert load_table(f"demo/{name}.toml")["campaign"]["system"] == name
    for table in system.tables:
        assert data.packaged_table(table.relpath)
