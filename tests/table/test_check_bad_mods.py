"""A form whose typed modifiers do not parse, on the table engine of each system (no Textual).

Issue 37: «no screen can show a value that its inputs no longer give». The Проверка tab drew
the odds only when the view had some, so «+5» typed over with «5.5» left «Успех 97,5 %» (the
odds of «+5») under the error. The view of such a form offers no odds and says why in their
place; the roll is refused with a reason short enough to read: 10,000 «5» pasted into the
field were quoted whole, over the whole screen.
"""

from __future__ import annotations

import importlib

import pytest

from tests.table.check_helpers import ok, table
from tui.store import Store
from tui.table.check.base import NO_ODDS_MODS

SYSTEMS = ("drevo", "ide4", "starately", "wod")


def steps_of(system: str):
    return importlib.import_module(f"tui.systems.{system}.check.steps")


def odds_of(view):
    """The view's odds: a method in three systems, a cached property in IDE4."""
    odds = view.odds
    return odds() if callable(odds) else odds


@pytest.fixture(params=SYSTEMS)
def open_check(request, tmp_path):
    system = request.param
    t = table(Store.open(tmp_path / "c.json", system=system))
    return t, steps_of(system)


@pytest.mark.parametrize(
    "bad",
    ["5.5", "+1, 5.5 ветер", "5" * 10_000, "темнота"],
    ids=["fraction", "second-item", "10000-digits", "no-number"],
)
def test_a_form_whose_modifiers_do_not_parse_offers_no_odds(open_check, bad):
    t, steps = open_check
    ok(t, steps.set_input, "mods", "+1")
    assert odds_of(t.view()) is not None and t.view().odds_message() == ""
    ok(t, steps.set_input, "mods", bad)
    shown = t.view()
    assert odds_of(shown) is None, "the odds of «+1» are still offered"
    assert NO_ODDS_MODS in shown.odds_message()
    ok(t, steps.set_input, "mods", "+1")
    assert odds_of(t.view()) is not None, "fixed, the odds come back"


def test_a_10000_character_modifier_is_refused_in_a_few_words(open_check):
    t, steps = open_check
    ok(t, steps.set_input, "mods", "5" * 10_000)
    refused = t.run(steps.roll).refused
    assert refused.startswith("Модификатор 1 («55555555555555555555…»)"), refused[:200]
    assert len(refused) < 160, refused[:200]
    assert t.state.rolled is None
