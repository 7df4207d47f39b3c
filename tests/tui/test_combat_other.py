"""The Бой tab in campaigns of the other systems: rounds and order, that system's opposed check."""

from __future__ import annotations

import pytest

from tui.store import Store


@pytest.mark.parametrize("system", ["ide4", "starately", "wod"])
async def test_round_resolved_with_the_systems_opposed_check(make_test_app, campaign_path, system):
    """Issue: «In a campaign of another system, the Бой tab still keeps rounds and order,
    resolving exchanges with that system's opposed check and leaving damage to the GM»."""
    app = make_test_app(seed=4, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await app.ensure_pane("combat")
        await pilot.press("2", "i")  # the Бой tab; side initiative
        await pilot.pause()
        assert pane.encounter.phase == "declare"
        for _ in range(12):
            if pane.encounter.phase != "declare":
                break
            await pilot.press("enter")  # everyone: melee at the first target
            await pilot.pause()
        assert pane.encounter.phase == "resolve"
        exchanges = len(pane.encounter.pairings())
        assert exchanges >= 1
        for _ in range(2 * exchanges + 2):
            if not pane.encounter.pending():
                break
            await pilot.press("enter")  # roll, then accept
            await pilot.pause()
        assert pane.encounter.pending() == []
        await pilot.press("n")
        await pilot.pause()
        assert pane.encounter.round == 2
        wounds_before = {c.id: dict(c.wounds) for c in app.store.characters()}

    store = Store.open(campaign_path)
    rolled = [e for e in store.log() if e.text.startswith("Схватка")]
    assert len(rolled) == exchanges
    assert all(e.data.get("system") == system for e in rolled)
    # Damage is left to the GM: no wound changed by itself.
    assert {c.id: c.wounds for c in store.characters()} == wounds_before
