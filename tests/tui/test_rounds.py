"""The Бой tab of IDE4, Старатели and Мир Тьмы (tui/widgets/combat/rounds.py) and effects from the
keyboard: the keys, the forms and prompts, what the screen shows (at 80×24 no cell and no count
cut short). The builders' odds with an
effect's modifier: tests/table/test_check_effects.py. What the steps do (initiative, turns,
harm, effects ticking and expiring, undo, a second window) is tested without Textual in
tests/table/."""

from __future__ import annotations

import io
from dataclasses import replace
from fractions import Fraction

import pytest
from textual.widgets import Input

from rules.effects import EffectSet, EffectSpec, Now
from tests.table.check_helpers import brute_drevo, percent
from tui.bridge.effects import EFFECTS_DOC, odds_note
from tui.store import Store

SYSTEMS = ["ide4", "starately", "wod"]


def put_effect(app, name: str, spec: EffectSpec) -> None:
    """Add an effect through the store, as the pane does (one undo step)."""
    c = next(c for c in app.store.characters() if c.name == name) if name else None
    spec = EffectSpec(**{**vars(spec), "target": c.id if c else ""})
    effects, _ = EffectSet.from_dict(app.store.get_doc(EFFECTS_DOC)).add(spec, Now())
    app.store.put_doc(EFFECTS_DOC, effects.to_dict(), label="test effect")


async def initiative_and_a_round_from_the_keyboard(app, pilot, system: str) -> None:
    """i rolls initiative, n passes the turn; the status line follows: whose turn, the round.
    (Initiative, turns and rounds of every system: tests/table/test_rounds_steps.py.)"""
    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.press("i")
    await pilot.pause()
    t = pane.tracker
    assert t.round == 1 and len(t.order) == 6, "i: round 1, everyone in the order"
    status = pane.query_one("#rounds-status")
    assert f"ходит {app.store.character(t.order[0]).name}" in str(status.render()), "whose turn"
    for _ in range(6):
        await pilot.press("n")
    assert (pane.tracker.round, pane.tracker.actor) == (2, t.order[0]), "n ×6: round 2"
    assert "Раунд 2" in str(status.render()), "the status says the round"
    await app.services.writes_done()
    log = Store.open(app.store.path).log()
    said = [e.text for e in log if e.text.startswith(("Раунд", "Инициатива ("))]
    assert said[0] == "Раунд 2", "the round's line written"


async def effect_added_from_the_keyboard_and_shown(app, pilot, system: str) -> None:
    """«Оглушён на 2 раунда»: e opens the form on the highlighted row (the actor); what is
    typed is the effect stored, shown in the row and the list; Ctrl+Z takes it back.
    (Ticking, expiring and undoing a turn: tests/table/test_effects_steps.py.) A play-test:
    ↓ in «Название» did nothing, so «−1» landed in the name; the focus contract says ↑/↓
    move between a form's rows."""
    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.press("i")
    await pilot.pause()
    actor = pane.tracker.actor
    await pilot.press("e")  # the form, on the highlighted row (the actor)
    await pilot.pause()
    name = app.screen.query_one("#effect-name", Input)
    assert app.focused is name and name.value == "", "the form opens on an empty «Название»"
    name.value = "Оглушён"  # at once: the typing is Input's; ↓ and what follows are the keys
    await pilot.press("down", *"-1")
    await pilot.pause()
    assert app.screen.query_one("#effect-name").value == "Оглушён"
    assert app.focused.id == "effect-mod" and app.focused.value == "-1"
    await pilot.press("up")
    assert app.focused.id == "effect-name"
    await pilot.press("tab", "tab", "tab", "2", "enter")
    await app.services.writes_done()
    await pilot.pause()
    effects = EffectSet.from_dict(app.store.get_doc(EFFECTS_DOC)).effects
    assert [(e.name, e.modifier, e.duration, e.amount, e.target) for e in effects] == [
        ("Оглушён", -1, "rounds", 2, actor)
    ]
    assert "Оглушён −1" in str(pane.query_one("#rounds-effects").render())
    assert pane.shown.row(actor).effects == "Оглушён −1"
    await pilot.press("ctrl+z")
    await pilot.pause()
    assert pane.effects.effects == ()


async def effect_removed_and_hidden_from_the_keyboard(app, pilot, system: str) -> None:
    """d removes an effect the GM picks; h hides one from the players. «Keys in the footer
    and in `?`»: the help lists the tracker's keys for these systems."""
    from rich.console import Console

    await pilot.press("2")
    await pilot.pause()
    footer = str(app.query_one("KeyBar").render())
    # At 80 columns the bar drops the least important keys first and keeps «?».
    assert "+Эффект" in footer and "? Клавиши" in footer
    await pilot.press("question_mark")
    await pilot.pause()
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#keys-table").content)
    listed = console.export_text()
    assert "минут" in listed and "Эффект" in listed  # the keys m and e, by their tooltips
    await pilot.press("escape")
    await pilot.pause()
    put_effect(app, "Глеб Орлов", EffectSpec("Горит", modifier=-1))
    put_effect(app, "", EffectSpec("Темнота", modifier=-2))
    pane = await app.ensure_pane("combat")
    await pilot.pause()
    await pilot.press("h", "enter")  # hide the first one
    await pilot.pause()
    assert [e.hidden for e in pane.effects.effects] == [True, False]
    await pilot.press("d", "down", "enter")  # remove the second one
    await pilot.pause()
    assert [e.name for e in pane.effects.effects] == ["Горит"]
    assert app.store.log(limit=1)[0].text == "Эффект «Темнота» снят"


async def scene_clock_from_the_keyboard_and_the_patrol_told(app, pilot, system: str) -> None:
    """m asks for minutes (empty: one); a bad number is refused in the prompt, which stays
    open with the text to fix; a repeat that comes due is told to the GM. Then a bad field in
    the effect form (e) is named and nothing is saved.
    (The clock's steps: tests/table/test_effects_steps.py.)"""
    put_effect(
        app,
        "",
        EffectSpec("Патруль", repeat_every=3, repeat_unit="minute", repeat_text="патруль"),
    )
    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.press("m", "2", "enter")
    await app.services.writes_done()
    await pilot.pause()
    assert pane.effects.minute == 2
    await pilot.press("m", "enter")  # empty: one minute
    await app.services.writes_done()
    await pilot.pause()
    assert pane.effects.minute == 3
    told = [n.message for n in app._notifications]
    assert "Пора: патруль (эффект «Патруль») (сцена)" in told, told
    await pilot.press("m", *"abc", "enter")  # refused in the prompt, which stays open
    await pilot.pause()
    assert pane.effects.minute == 3
    error = app.screen.query_one("#prompt-error")
    assert "целое число минут" in str(error.render())
    await pilot.press("backspace", "backspace", "backspace", "4", "enter")
    await app.services.writes_done()
    await pilot.pause()
    assert pane.effects.minute == 7
    # A bad field in the effect form is named; nothing is saved.
    before = app.store.get_doc(EFFECTS_DOC)
    await pilot.press("e", "enter")
    await pilot.pause()
    assert "Назовите эффект" in str(app.screen.query_one("#effect-error").render())
    await pilot.press(*"Яд", "tab", *"x1", "enter")
    await pilot.pause()
    assert "Модификатор" in str(app.screen.query_one("#effect-error").render())
    await pilot.press("escape")
    await app.services.writes_done()
    assert app.store.get_doc(EFFECTS_DOC) == before


async def wod_health_from_the_keyboard_enters_the_builders_pool(app, pilot, system: str) -> None:
    """Мир Тьмы: w asks for the kind of damage and marks a box, u heals one, Enter opens the
    character's check with the health penalty in the pool. (The track, its penalty and its
    words: tests/table/test_rounds_steps.py.)"""
    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.pause()
    first = pane.highlighted_id()
    c = app.store.character(first)  # four marks as the store keeps them (w's own: below)
    app.store.upsert_character(replace(c, extra={**c.extra, "health": ["lethal"] * 4}))
    await pilot.pause()
    await pilot.press("w", "down", "enter")  # lethal: the fifth mark is −1
    await app.services.writes_done()
    await pilot.pause()
    assert app.store.character(first).wod.health == ("lethal",) * 5
    assert "XXXXX·· −1" in str(pane.query_one("#rounds-table").get_row(first)[4])
    await pilot.press("u")
    await app.services.writes_done()
    await pilot.pause()
    assert app.store.character(first).wod.health == ("lethal",) * 4
    await pilot.press("w", "enter")
    await pilot.press("enter")  # Enter: this character's check in the builder
    await pilot.pause()
    builder = await app.ensure_pane("check")
    assert builder.character.id == first
    pool = builder.current_pool()
    assert ("здоровье", -1) in [(m.reason, m.value) for m in pool.modifiers]


def test_odds_note_words() -> None:
    """The line names every effect with its sign «−» and rounds to whole percents."""
    from rules.modifiers import Modifier

    assert odds_note((), 1, 0) == ""
    one = odds_note((Modifier(-1, "эффект «Оглушён»"),), Fraction(38, 100), Fraction(27, 100))
    assert one == "с эффектом «Оглушён −1»: 38 % → 27 %"
    two = odds_note((Modifier(1, "эффект «A»"), Modifier(-2, "эффект «B»")), 0.5, 0.25)
    assert two == "с эффектами «A +1», «B −2»: 50 % → 25 %"
    health = odds_note((Modifier(-1, "здоровье"),), 0.5, 0.25)
    assert health == "с учётом «здоровье −1»: 50 % → 25 %"


class TestRoundsSnapshots:
    """The Бой tab of each non-Древо system after initiative, with an effect on the actor."""

    @pytest.mark.parametrize("system", SYSTEMS)
    def test_after_initiative(self, snap_compare, make_test_app, system):
        async def run_before(pilot):
            app = pilot.app
            await pilot.press("2")  # the Бой tab
            await pilot.press("i")  # initiative the system's way
            await pilot.pause()
            pane = app.query_one("#combat-pane")
            actor = app.store.character(pane.tracker.actor).name
            put_effect(
                app,
                actor,
                EffectSpec("Оглушён", modifier=-1, duration="turn_end", anchor=pane.tracker.actor),
            )
            put_effect(
                app,
                "",
                EffectSpec("Патруль", repeat_every=3, repeat_unit="minute", repeat_text="патруль"),
            )

        app = make_test_app(seed=3, system=system)
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_drevo_effect_from_the_party_tab_enters_the_check(make_test_app):
    """Древо too: «+» on the Партия tab adds an effect; the sheet lists it; the builder's
    odds include it, both figures equal to a 4dF enumeration; «−» removes it. First a
    20-digit modifier: it was taken and the check read «4dF +12345678901234567893»
    (playbook); the form bounds its numbers as the command line does (±9999), nothing saved.
    The form's fields are filled at once (its keys: `test_the_tabs_keys`); the check's logic
    (the effect among its modifiers, the odds against 4dF) is also tested without Textual:
    tests/table/test_check_effect_drevo.py."""

    async def fill(modifier: str) -> None:
        await pilot.press("plus")
        await pilot.pause()
        app.screen.query_one("#effect-name", Input).value = "Оглушён"
        app.screen.query_one("#effect-mod", Input).value = modifier
        app.screen.query_one("#effect-duration").select("removed")  # until removed
        await pilot.press("enter")
        await pilot.pause()

    app = make_test_app(system="drevo")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        party = app.query_one("#party-pane")
        cid = party.highlighted_id()
        await fill("12345678901234567890")
        error = str(app.screen.query_one("#effect-error").render())
        assert "Модификатор" in error and "9999" in error, error
        await pilot.press("escape")
        await app.services.writes_done()
        assert app.store.get_doc(EFFECTS_DOC) is None
        await fill("-1")
        effects = EffectSet.from_dict(app.store.get_doc(EFFECTS_DOC)).effects
        assert [(e.target, e.modifier, e.duration) for e in effects] == [(cid, -1, "removed")]
        assert "Эффекты: Оглушён −1 (пока не снимут)" in str(
            party.query_one("#party-sheet").render()
        )
        await pilot.press("enter")  # this character's check
        await pilot.pause()
        builder = await app.ensure_pane("check")
        check = builder.current_check()
        assert ("эффект «Оглушён»", -1) in [(m.reason, m.value) for m in check.side.modifiers]
        bonus = check.side.trait + check.side.modifier_total
        p = [percent(brute_drevo(b, check.difficulty)) for b in (bonus + 1, bonus)]
        formula = str(builder.query_one("#check-formula").render())
        assert f"с эффектом «Оглушён −1»: {p[0]} → {p[1]}" in formula
        await pilot.press("1", "minus", "enter")  # back to the party; remove it
        await pilot.pause()
        assert EffectSet.from_dict(app.store.get_doc(EFFECTS_DOC)).effects == ()


def test_players_view_lists_visible_effects_only(campaign_path):
    """«show in … the players' view (the GM can hide one)»; a hidden NPC stays «???»."""
    from dataclasses import replace

    from tui.bridge.public import public_effects, public_rounds

    store = Store.open(campaign_path, system="wod")
    chars = store.characters()
    npc = next(c for c in chars if c.kind == "npc")
    store.upsert_character(replace(npc, extra={**npc.extra, "hidden": True}))
    chars = store.characters()
    e = EffectSet()
    e = e.add(EffectSpec("Горит", target=npc.id, modifier=-1), Now())[0]
    e = e.add(EffectSpec("Тайна", hidden=True), Now())[0]
    lines = public_effects(e.to_dict(), chars)
    assert lines == ["Горит −1 (???) — пока не снимут"]
    assert public_rounds(None, chars) == ["Боя сейчас нет."]


def chosen_id(builder) -> str:
    """The builder's chosen character (IDE4's form keeps it in its own stepper)."""
    row = "#ide4-character" if type(builder).__name__ == "Ide4Builder" else "#check-character"
    return builder.query_one(row).value


def row_ids(pane) -> list[str]:
    """The ids of the Бой tab's rows, top to bottom."""
    return [r.id for r in pane.shown.rows]


OPPONENT_STEP = {"ide4": 1, "starately": -1, "wod": -1}


def opponent_modifiers(screen) -> list[tuple[str, int]]:
    """The modifiers of the other side an opposed check's screen would roll."""
    name = type(screen).__name__
    if name == "OpposedSetupScreen":  # IDE4
        mods = screen.second().modifiers
    elif name == "OpposedScreen":  # Старатели
        mods = screen.opposed().b.modifiers
    else:  # Мир Тьмы
        mods = screen.opponent().modifiers
    return [(m.reason, m.value) for m in mods]


OPPONENT_ROW = {
    "ide4": "#opp-character",
    "starately": "#opp-character",
    "wod": "#contest-character",
}


async def the_turns_check_is_prefilled_with_its_actor_and_target(app, pilot, system: str) -> None:
    """«on each turn the actor's check opens in that system's builder, prefilled with the
    actor, the target and the opposed check of that system»: o on the actor's turn with the
    cursor on an opponent opens the actor's opposed check against that one; Enter on the
    actor keeps the first opponent as the opposed check's other side."""
    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.press("i")
    await pilot.pause()
    actor, opponents = pane.tracker.actor, list(pane.shown.opponents)
    side = pane.tracker.entrant(actor).side
    others = [i for i in opponents if pane.tracker.entrant(i).side != side]
    assert others and opponents[: len(others)] == others  # the other sides first
    target = others[-1]  # not the party's first other character
    put_effect(app, app.store.character(target).name, EffectSpec("Оглушён", modifier=-1))
    await pilot.pause()
    table = pane.query_one("#rounds-table")
    table.move_cursor(row=row_ids(pane).index(target))
    await pilot.press("o")
    await pilot.pause()
    builder = await app.ensure_pane("check")
    assert chosen_id(builder) == actor
    assert app.screen.query_one(OPPONENT_ROW[system]).value == target
    # the target's effect is in its side of the opposed check («−1» harder in IDE4: +1)
    assert ("эффект «Оглушён»", OPPONENT_STEP[system]) in opponent_modifiers(app.screen)
    await pilot.press("escape", "2")
    await pilot.pause()
    table.move_cursor(row=row_ids(pane).index(actor))
    await pilot.press("enter")
    await pilot.pause()
    assert app.query_one("#tabs").active == "check" and chosen_id(builder) == actor
    from tui import registry
    from tui.widgets.builders.base import turn_opponent

    assert builder.turn.target == opponents[0]
    assert (
        turn_opponent(builder, actor, [app.store.character(i) for i in opponents]) == (opponents[0])
    )
    assert registry.get(system).opposed_action


NOTE = "сломана левая рука и треснуло ребро после падения с лестницы"


async def a_long_harm_note_wraps_and_the_effects_column_stays_on_screen(
    app, pilot, system: str
) -> None:
    """The round tracker at 80×24: no cell and no count cut short. Play-test: «сломана левая
    рука и треснуло р» — the harm note ran past the table's edge behind a horizontal
    scrollbar, and the Эффекты column with it; the effects list said «— ещё 3 р.» for three
    rounds. The note and the effect are put into their fields at once (this part is about the
    table's width, not typing; the prompt's and the effect form's keys: the other parts)."""
    from textual.widgets import DataTable, Static

    await pilot.press("2")
    pane = await app.ensure_pane("combat")
    await pilot.pause()
    await pilot.press("w")
    await pilot.pause()
    app.screen.query_one(Input).value = NOTE
    await pilot.press("enter")
    await app.services.writes_done()
    await pilot.pause()
    await pilot.press("e")
    await pilot.pause()
    app.screen.query_one("#effect-name", Input).value = "Оглушён"
    app.screen.query_one("#effect-amount", Input).value = "3"  # three rounds
    await pilot.press("enter")
    await app.services.writes_done()
    await pilot.pause()
    await pilot.pause()
    table = pane.query_one("#rounds-table", DataTable)
    assert table.virtual_size.width <= table.size.width, table.virtual_size
    lines = [s.text for s in table.render_lines(table.region.reset_offset)]
    shown = " ".join(" ".join(line.split()) for line in lines)
    assert all(word in shown.split() for word in NOTE.split()), lines  # wrapped, whole
    assert "Эффекты" in shown and "Оглушён" in shown, lines
    effects = str(pane.query_one("#rounds-effects", Static).render())
    assert "ещё 3 раунда" in effects and " р." not in effects, effects


#: Each system's Бой tab keys, one app per system: the parts run in this order, each from
#: the Бой tab as the one before left it (an effect list of its own first: the parts that
#: count the effects come before those that add more).
PARTS = {
    "ide4": (
        a_long_harm_note_wraps_and_the_effects_column_stays_on_screen,
        scene_clock_from_the_keyboard_and_the_patrol_told,
        the_turns_check_is_prefilled_with_its_actor_and_target,
        initiative_and_a_round_from_the_keyboard,
    ),
    "starately": (
        effect_added_from_the_keyboard_and_shown,
        the_turns_check_is_prefilled_with_its_actor_and_target,
    ),
    "wod": (
        effect_removed_and_hidden_from_the_keyboard,
        wod_health_from_the_keyboard_enters_the_builders_pool,
        the_turns_check_is_prefilled_with_its_actor_and_target,
    ),
}


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_tabs_keys(make_test_app, system):
    """The Бой tab's keys of one system in one app (the parts above, in :data:`PARTS`'s
    order; each asserts its own facts).

    Merges the pilot tests `test_initiative_and_a_round_from_the_keyboard`,
    `test_effect_added_from_the_keyboard_and_shown`, `test_effect_removed_and_hidden_from_the_
    keyboard`, `test_scene_clock_from_the_keyboard_and_the_patrol_told`, `test_wod_health_
    from_the_keyboard_enters_the_builders_pool` and `test_the_turns_check_is_prefilled_with_
    its_actor_and_target[ide4|starately|wod]`, and `tests/tui/test_rounds_no_cut.py::test_a_
    long_harm_note_wraps_and_the_effects_column_stays_on_screen`: one app per system instead
    of ten."""
    app = make_test_app(seed=5, system=system)
    async with app.run_test(size=(80, 24)) as pilot:
        for part in PARTS[system]:
            await part(app, pilot, system)
