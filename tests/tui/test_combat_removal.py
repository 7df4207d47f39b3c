"""The Бой tab re-derives the moment a fighter is removed (here or in another window): the
declaration form moves on to the next declarer, and when everyone left has declared the
fight shows the dice at once — not «заявки» with no form until the next key.

«Another window» is a second :class:`Store` on the same file (what ``kubik party remove`` does).
"""

from __future__ import annotations

from tui.store import Store
from tui.systems.drevo.fight_pane.forms import DeclarationForm


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


async def test_removals_during_declarations_are_said_hand_the_form_on_and_bring_the_dice(
    make_test_app, campaign_path
):
    """The default fight (everyone), this window's declarations made with Enter until three
    are left to declare; then three removals:

    - Issue 30: «A CLI removal during declarations … say who left and why». One of the three
      removed in another window is said, though this window's declaration was the fight's
      last step (the fight document was still the one it wrote: it said nothing before).
    - The current declarer removed here (as Партия's x does): the form moves on to the next
      one at once.
    - That one — the last — removed in another window: the dice come up at once (no key
      pressed), the focus on the exchange, and Enter rolls.

    One app for what were three pilot tests on the same fight,
    ``test_a_removal_elsewhere_after_this_windows_declaration_is_said``,
    ``test_the_current_declarer_removed_here_hands_the_form_on`` and
    ``test_the_last_declarer_removed_elsewhere_brings_the_dice_at_once`` (the fight read
    back at the dice after the removal, on the engine: tests/table/test_fight_from_the_tab.py::
    test_the_last_declarer_removed_elsewhere_brings_the_dice)."""
    app = make_test_app(seed=11)
    notices = []
    async with app.run_test(size=(80, 24)) as pilot:
        await declare_until(pilot, app, 3)  # this window's own declarations
        app.notify = lambda text, **kw: notices.append(text)  # type: ignore[method-assign]
        p = pane(app)
        declared = {d.actor for d in p.encounter.declarations}
        gone = next(c for c in p.encounter.combatants if c.character_id not in declared)
        remove_elsewhere(app, campaign_path, gone.character_id)
        await pilot.pause()
        assert f"{gone.name} выбывает: персонажа удалили из партии в другом окне." in notices, (
            notices
        )
        act = p._can_act()
        assert len(p.encounter.declaring_order(act)) - len(p.encounter.declarations) == 2
        current = p.encounter.next_declarer(act)
        app.store.delete_character(current.character_id)  # this window (as Партия's x does)
        await pilot.pause()
        last = p.encounter.next_declarer(p._can_act())
        assert last is not None and last.character_id != current.character_id, "no next"
        form = app.query_one(DeclarationForm)
        assert form.display and form._actor.id == last.character_id, "the form not handed on"
        assert p.encounter.phase == "declare", "the dice before the last declared"
        assert f"{current.name} выбывает: персонажа удалили из партии." in notices, (
            "here: no «where»"
        )
        remove_elsewhere(app, campaign_path, last.character_id)
        await pilot.pause()
        # what the pane's steps read (a Судьба dialog's refusal names who removed him)
        assert p.world().removed_where(last.character_id) == "в другом окне"
        assert p.world().removed_where(current.character_id) == ""
        assert p.encounter.phase == "resolve", "no dice after the last left"  # no key pressed
        assert app.query_one("#combat-resolve").display, "the exchange not shown"
        assert not app.query_one("#combat-declare").display, "the declarations still shown"
        status = str(app.query_one("#combat-status").render())
        assert "броски" in status and "заявки" not in status, status
        assert app.focused is app.query_one("#combat-exchange"), "the focus not on the dice"
        waiting = len(p.encounter.pending())
        assert waiting, "no exchange of those who declared"
        # Enter on the first exchange: rolled, or skipped when its target has left (the
        # removals here took targets): the keys work on it.
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        rolled = p.stage() in ("rolled", "damage", "done")
        assert rolled or len(p.encounter.pending()) < waiting, "Enter did not act"
    saved = Store.open(campaign_path).get_doc("encounter")
    assert saved["phase"] == "resolve"


async def test_a_fighters_sheet_edited_elsewhere_is_named_and_the_exchange_rederived(
    make_test_app, campaign_path
):
    """Issue 37 (item 1) for the fight: a rolled exchange whose fighter's skill is raised by
    ``kubik`` in another shell is shown anew at once, and the GM is told who changed, how,
    and what it did to the exchange; this window's own step says nothing of the kind."""
    from dataclasses import replace

    from tests.tui.test_combat import declare_blows

    app = make_test_app(seed=3)
    notices = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify = lambda text, **kw: notices.append(text)  # type: ignore[method-assign]
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("i")
        await declare_blows(pilot, app)
        await pilot.press("enter")  # the roll: this window's own step
        await app.workers.wait_for_complete()
        await pilot.pause()
        p = pane(app)
        view = p.view()
        assert view.result is not None and not [n for n in notices if "изменён" in n]
        role = view.role_of(view.ids["attacker"])
        skill = view.plan.side(role).trait.name
        other = Store.open(campaign_path)
        c = other.character(view.ids["attacker"])
        other.upsert_character(
            replace(
                c,
                skills=tuple(
                    replace(s, value=s.value + 3) if s.name == skill else s for s in c.skills
                ),
            )
        )
        other.close()
        app._refresh_store()  # what the file watch does
        await pilot.pause()
        said = [n for n in notices if "лист изменён вне боя" in n]
        assert said and c.name in said[0] and skill in said[0], notices
        trait = p.view().plan.side(role).trait
        assert trait.value == view.plan.side(role).trait.value + 3  # derived anew
        assert any(n.startswith("Схватка 1 пересчитана") for n in notices), notices
        notices.clear()  # a fight step from the shell: its Судьба is the step's, not an edit
        import random

        from tui.systems.drevo.fight import steps
        from tui.systems.drevo.fight.session import FightSession
        from tui.table.core import Dice

        with Store.open(campaign_path) as shell:
            assert FightSession(shell, Dice(random.Random(1))).run(steps.fate_shift, role, 1).ok
        app._refresh_store()
        await pilot.pause()
        assert p.view().exchange.shifts and not [n for n in notices if "изменён" in n], notices
