"""The Бой tab re-derives the moment a fighter is removed (here or in another window): the
declaration form moves on to the next declarer, and when everyone left has declared the
fight shows the dice at once — not «заявки» with no form until the next key.

«Another window» is a second :class:`Store` on the same file (what ``kubik party remove`` does).
"""

from __future__ import annotations

from tui.store import Store
from tui.widgets.combat.drevo_forms import DeclarationForm


def pane(app):
    return app.query_one("#combat-pane")


async def declare_until(pilot, app, left: int) -> None:
    """Start the default fight (everyone) and declare until ``left`` declarers remain."""
    await pilot.press("2", "i")  # the Бой tab, side initiative
    await pilot.pause()
    p = pane(app)
    while len(p.encounter.declaring_order(p._can_act())) - len(p.encounter.declarations) > left:
        await pilot.press("enter")  # Ближний бой, first target, first weapon
        await pilot.pause()
    assert p.encounter.phase == "declare"


def remove_elsewhere(app, campaign_path, character_id: str) -> None:
    Store.open(campaign_path).delete_character(character_id)
    app._refresh_store()  # what the file watch does


async def test_the_last_declarer_removed_elsewhere_brings_the_dice_at_once(
    make_test_app, campaign_path
):
    app = make_test_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await declare_until(pilot, app, 1)
        p = pane(app)
        last = p.encounter.next_declarer(p._can_act())
        remove_elsewhere(app, campaign_path, last.character_id)
        await pilot.pause()
        assert p.encounter.phase == "resolve"  # no key pressed
        assert app.query_one("#combat-resolve").display
        assert not app.query_one("#combat-declare").display
        status = str(app.query_one("#combat-status").render())
        assert "броски" in status and "заявки" not in status
        assert app.focused is app.query_one("#combat-exchange")
        assert p.encounter.pending()  # the exchanges of those who declared
        await pilot.press("enter")  # the first exchange rolls: the keys work on it
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert p.stage() in ("rolled", "damage", "done")
    saved = Store.open(campaign_path).get_doc("encounter")
    assert saved["phase"] == "resolve"


async def test_the_current_declarer_removed_here_hands_the_form_on(make_test_app, campaign_path):
    app = make_test_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        await declare_until(pilot, app, 2)
        p = pane(app)
        current = p.encounter.next_declarer(p._can_act())
        app.store.delete_character(current.character_id)  # this window (as Партия's x does)
        await pilot.pause()
        nxt = p.encounter.next_declarer(p._can_act())
        assert nxt is not None and nxt.character_id != current.character_id
        form = app.query_one(DeclarationForm)
        assert form.display and form._actor.id == nxt.character_id
        assert p.encounter.phase == "declare"
