"""A rule system is one package and one registry line (docs/architecture.md, «A system»).

A fake fifth system is written to disk here as a real one would be — its rules package
``rules/fifth/`` (Журнал reader, initiative) and its app package ``tui/systems/fifth/``
(``SYSTEM``, ``check/engine.py``, ``builder/builder.py``, ``cli.py``, ``rounds.py``) in a
temporary folder that joins ``rules.__path__`` and ``tui.systems.__path__`` as if it sat in
the repository — and registered by ONE line in ``rules.systems.SYSTEMS``. Every place that
used to name the four systems by a switch or a registry of its own finds it: the campaign
picker, the campaign schema, the Проверка builder, the check engine, the Бой pane and the
round tracker's harm, the ``kubik odds|check`` dispatch, the sheet, the seats, the settings,
the luck ledger.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
import tui.systems
from rules import data
from rules import systems as rules_systems
from rules.errors import RulesError
from rules.systems import RulesSystem
from tui import registry

FIFTH = "fifth"

#: The fifth system's files, as its author would write them (path → source).
PACKAGES: dict[str, str] = {
    "rules/fifth/__init__.py": '"""Пятая: a fair d2 whose total is the check."""\n',
    "rules/fifth/ledger.py": '''"""The fifth system's Журнал reader: its «total» on a fair d2."""

from fractions import Fraction

from rules.ledger.percentile import total_luck


def read(data, previous, luck):
    luck.roll(data.get("who"), total_luck({1: Fraction(1, 2), 2: Fraction(1, 2)}, data["total"]))


def initiative(data, tally):
    """Its initiative rolls are not priced."""
''',
    "rules/fifth/initiative.py": '''"""Its initiative in the round tracker: d2 + 1."""

TIE_FACES = 2


def roll(f, rng):
    return rng.randint(1, 2) + bonus(f)


def bonus(f):
    return 1


def check_setting():
    """Its initiative has no table of its own to check."""
''',
    "tui/systems/fifth/__init__.py": '''"""Пятая: the defaults, its own words, tables, seats."""

from tui.registry.base import BaseSystem
from tui.registry.tables import Table


class Fifth(BaseSystem):
    name = "fifth"
    title = "Пятая"
    stat_label = "Свойства"
    check_engine = "tui.systems.fifth.check.engine"
    builder = "tui.systems.fifth.builder.builder:FifthBuilder"
    cli = "tui.systems.fifth.cli"
    rounds = "tui.systems.fifth.rounds:ROUNDS"
    seat_kinds = ("reroll", "note")
    check_kinds = ("reroll",)
    tables = (Table("ledger/sessions.toml", "Таблица Пятой"),)  # a packaged table no system lists


SYSTEM = Fifth()
''',
    "tui/systems/fifth/check/__init__.py": "",
    "tui/systems/fifth/check/engine.py": '''"""The fifth system's open check on the table engine."""


def new(world, character_id):
    return None
''',
    "tui/systems/fifth/builder/__init__.py": "",
    "tui/systems/fifth/builder/builder.py": '''"""The fifth system's Проверка builder."""


class FifthBuilder:
    BINDINGS = []
''',
    "tui/systems/fifth/rounds.py": '''"""Its part of the round tracker: harm a note in extra."""

from dataclasses import replace

from tui.registry.rounds import NoteHarm


class FifthRounds(NoteHarm):
    def harm(self, c):
        return c.extra.get("fifth_harm", "")

    def with_harm(self, c, note):
        return replace(c, extra={**c.extra, "fifth_harm": note})


ROUNDS = FifthRounds()
''',
    "tui/systems/fifth/cli.py": '''"""``kubik odds|check fifth …``: each call noted in CALLS."""

CALLS = []


def odds(argv):
    CALLS.append(("odds", argv))
    return 0


def check(argv):
    CALLS.append(("check", argv))
    return 3
''',
}


#: Its line, as it would stand in ``SYSTEMS`` of rules/systems.py.
LINE = RulesSystem(
    FIFTH,
    "rounds",
    "rules.fifth.ledger:read",
    "rules.fifth.ledger:initiative",
    initiative="rules.fifth.initiative",
)


@pytest.fixture(scope="module")
def fifth_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fifth system's two packages on disk (written once for the module)."""
    root = tmp_path_factory.mktemp("fifth")
    for relative, source in PACKAGES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return root


@pytest.fixture
def fifth(fifth_tree: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Put the fifth system's packages where Python finds ``rules.fifth`` and
    ``tui.systems.fifth`` (as if they sat in the repository), then register it: one line."""
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(fifth_tree / "rules")])
    monkeypatch.setattr(
        tui.systems, "__path__", [*tui.systems.__path__, str(fifth_tree / "tui" / "systems")]
    )
    monkeypatch.setitem(rules_systems.SYSTEMS, FIFTH, LINE)  # the one registry line
    yield
    rules_systems._load.cache_clear()
    for name in [n for n in sys.modules if n.startswith(("rules.fifth", "tui.systems.fifth"))]:
        del sys.modules[name]
    for package in (rules, tui.systems):
        if hasattr(package, FIFTH):
            delattr(package, FIFTH)


def test_its_packages_are_files_and_nothing_else_is_made_here(fifth: None) -> None:
    """The fifth system is what a real one is: modules imported from files, not built in the
    test (no module object made by hand, no attribute set on one)."""
    system = registry.get(FIFTH)
    module = sys.modules["tui.systems.fifth"]
    assert module.__file__ is not None and Path(module.__file__).name == "__init__.py"
    assert system is module.SYSTEM
    for part in (system.check_engine, system.cli, system.builder.partition(":")[0]):
        assert Path(registry.load(part).__file__).is_file()
    reader = rules_systems.get(FIFTH).ledger_reader()
    assert Path(sys.modules[reader.__module__].__file__ or "").is_file()


def test_the_registry_finds_it_and_only_what_is_registered(fifth: None) -> None:
    assert registry.names()[-1] == FIFTH
    assert registry.get(FIFTH).title == "Пятая"
    assert registry.title(FIFTH) == "Пятая"
    assert registry.get(FIFTH).rules.fight == "rounds"
    assert FIFTH in rules_systems.round_systems() and not rules_systems.exchanges(FIFTH)
    with pytest.raises(RulesError, match="неизвестная система «sixth»"):
        registry.get("sixth")


def test_without_its_line_it_is_unknown(fifth_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its packages on disk are not enough: the registry's line is what makes it a system."""
    from tui.screens.settings_tables import usable_tables

    monkeypatch.setattr(
        tui.systems, "__path__", [*tui.systems.__path__, str(fifth_tree / "tui" / "systems")]
    )
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

    assert builder_class(FIFTH).__name__ == "FifthBuilder"
    assert builder_module(FIFTH) == "tui.systems.fifth.builder.builder"
    assert engine_for(FIFTH) is sys.modules["tui.systems.fifth.check.engine"]
    assert combat_class(FIFTH) is RoundsPane  # a system of rounds takes the round tracker


def test_the_round_tracker_keeps_its_harm_through_its_hook(fifth: None) -> None:
    from tui.bridge.effects import harm_modifier
    from tui.store.demo import demo_campaign
    from tui.table.rounds import steps
    from tui.table.rounds.view import harm_text

    c = demo_campaign("starately")[2][0]  # any sheet: its hook keeps harm its own way
    hook = steps.hook(FIFTH)
    harmed = hook.note(c, "ожог")
    assert harmed.character.extra["fifth_harm"] == "ожог" and harmed.text == "Вред: ожог"
    assert harm_text(FIFTH, harmed.character) == "ожог" and hook.column == "Вред"
    assert harm_modifier(FIFTH, harmed.character) is None


def test_kubik_odds_and_check_dispatch_to_its_module(fifth: None) -> None:
    from tui.cli.kubik import main, system_help

    assert main(["check", FIFTH, "--x", "1"]) == 3
    assert main(["odds", FIFTH]) == 0
    calls = sys.modules["tui.systems.fifth.cli"].CALLS
    assert calls == [("check", ["--x", "1"]), ("odds", [])]
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
    assert (registry.rounds_hook(name) is not None) == line.rounds  # the tracker's harm
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
