"""A stored open check that cannot be read (a hand-edited or torn campaign file) is refused in
Russian, saying what to do, and the Проверка tab opens a new form instead of crashing."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from tests.table.check_helpers import ok, table
from tui.store import Store
from tui.systems.drevo.check import steps as drevo_steps
from tui.systems.ide4.check import steps as ide4_steps
from tui.systems.starately.check import steps as starately_steps
from tui.systems.wod.check import steps as wod_steps
from tui.table.check.session import engine_for

STEPS = {"drevo": drevo_steps, "ide4": ide4_steps, "starately": starately_steps, "wod": wod_steps}


@pytest.mark.parametrize("system", sorted(STEPS))
@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda doc: doc.pop("id"), id="no-id"),
        pytest.param(lambda doc: doc.update(rolled={"dice": "ой"}), id="torn-record"),
        pytest.param(lambda doc: doc.update(inputs=[1, 2]), id="form-not-a-table"),
    ],
)
def test_a_damaged_stored_check_is_said_and_a_new_form_opens(tmp_path, system, damage):
    store = Store.open(tmp_path / "c.json", system=system)
    t = table(store)
    ok(t, STEPS[system].roll)
    doc = dict(store.get_doc("check"))
    damage(doc)
    with pytest.raises(RulesError) as refused:
        engine_for(system).from_doc(doc)
    assert "повреждена — начните новую" in str(refused.value)
    store.put_doc("check", doc, label="правка руками")
    reopened = table(store)
    assert reopened.notices == [str(refused.value)]
    assert reopened.state.rolled is None  # a new form: nothing of the torn record is shown
    ok(reopened, STEPS[system].roll)  # and the table goes on
