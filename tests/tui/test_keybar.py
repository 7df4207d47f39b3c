"""The key bar: it follows the focus as Textual's Footer did, and builds no widgets per key."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from textual.widget import Widget

from tests.tui.test_combat import declare_blows
from tui.widgets.common.keybar import KeyBar


class WidgetsKept:
    """Which widgets the app keeps that it no longer shows, counted without a full collection.

    ``with WidgetsKept(app) as kept:`` watches the widgets built inside the block and those
    the app had registered (mounted) when it began; on leaving, ``kept.left`` is those of
    them alive but no longer mounted. A full ``gc.collect()`` runs only if there are any (to
    tell garbage in a reference cycle from a widget really kept), so a run that builds and
    drops none costs no collection: counting every live widget after two full collections
    cost ~0.3 CPU-s each in the suite. A widget kept by a switch is either built by it
    (Footer's per-key widgets, Textual #6666) or one it unmounted: both are watched."""

    def __init__(self, app) -> None:
        self.app = app
        self.left: list[str] = []
        #: How many more widgets are mounted on leaving than on entering (a widget mounted on
        #: each switch and never removed is kept too, though still registered).
        self.more_mounted = 0

    def __enter__(self) -> WidgetsKept:
        self.built: list[weakref.ref[Widget]] = []
        self.mounted = [weakref.ref(w) for w in self.app._registry if isinstance(w, Widget)]
        self._init = init = Widget.__init__
        built = self.built

        def watched(widget: Widget, *args: Any, **kwargs: Any) -> None:
            built.append(weakref.ref(widget))
            init(widget, *args, **kwargs)

        Widget.__init__ = watched  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        Widget.__init__ = self._init  # type: ignore[method-assign]

        def left() -> list[str]:
            alive = (ref() for ref in self.built + self.mounted)
            return [repr(w) for w in alive if w is not None and w not in self.app._registry]

        if left():
            gc.collect()  # a dropped widget in a reference cycle is not kept
        self.left = left()
        self.more_mounted = self._mounted_count() - len(self.mounted)

    def _mounted_count(self) -> int:
        return sum(isinstance(w, Widget) for w in self.app._registry)


def descriptions(app) -> list[str]:
    return [description for _key, description, _enabled in app.query_one(KeyBar)._keys]


async def test_the_bar_follows_the_focus_and_names_keys_and_enter_as_the_help_does(
    make_test_app,
) -> None:
    """The bar follows the focused tab; under a dialog the keys that act on the main screen
    (/, ?) leave it. «/» showed «esc Закрыть  tab Дополнить  ^q Выход»: nothing said Enter
    rolls. The bar said «esc Закрыть», «tab Дополнить», «space Сторона» while `?` said «Esc»,
    «Tab», «Пробел»: both now name a key with one function (the bar's «⏎», «^Q» are short).
    The new NPC dialog's bar says what its Enter does. Footer built a widget per key on each
    focus change and kept them (Textual #6666): the bar builds none.

    Also replaces the pilot test `tests/tui/test_keybar.py::test_keys_add_no_widgets` (the
    same demo campaign: its tab visits open this run; 4 tab switches counted, not 10). The
    widgets kept are those built or unmounted by the switches and still alive
    (:class:`WidgetsKept`), where it counted every live widget after a full collection."""
    from tui.screens.keys import key_label

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "2341":  # every tab once: each builds its panes on its first visit
            await pilot.press(key)
            await pilot.pause()
        with WidgetsKept(app) as kept:
            for key in "1313":  # (was 10 switches: a widget kept per switch shows after one)
                await pilot.press(key)
                await pilot.pause()
        assert kept.left == [], "switching tabs left widgets behind"
        assert kept.more_mounted == 0, "switching tabs mounted widgets it never removed"
        assert not app.query_one(KeyBar).children, "the key bar built widgets"
        await pilot.press("1")  # back to Партия
        await pilot.pause()
        party = descriptions(app)
        assert "Рана" in party and "Выход" in party and "Клавиши" in party, f"Партия: {party}"
        await pilot.press("3")
        await pilot.pause()
        check = descriptions(app)
        assert "Рана" not in check and "Бросить" in check, f"Проверка: {check}"
        await pilot.press("1")
        await pilot.pause()
        assert descriptions(app) == party, "back on Партия: not its bar"
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Клавиши" not in descriptions(app), f"under «?»: {descriptions(app)}"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("slash")
        await pilot.pause()
        assert bar(app)[0] == ("⏎", "Бросить"), f"«/»: {bar(app)}"
        keys = dict(bar(app))
        assert keys.get("Esc") == "Закрыть" and keys.get("Tab") == "Дополнить", keys
        assert keys.get("^Q") == "Выход" and keys.get("⏎") == "Бросить", keys
        assert not {"esc", "tab", "^q"} & set(keys), keys
        app.query_one("#quick-input").value = "2d6"  # (the typing is not what is tested)
        await pilot.press("enter")
        await pilot.pause()
        assert "2d6" in str(app.query_one("#quick-output").render()), "«/» 2d6 rolled nothing"
        await pilot.press("escape", "2")
        await app.ensure_pane("combat")
        await pilot.pause()
        assert dict(bar(app)).get("Пробел") == "Сторона", bar(app)
        shown = dict((d, k) for k, d in bar(app))
        for active in app.screen.active_bindings.values():  # each key, as `?` spells it
            binding = active.binding
            if binding.show and binding.description in shown and binding.key != "enter":
                assert shown[binding.description] == key_label(binding.key, short=True), binding
                assert key_label(binding.key, short=True) in (
                    key_label(binding.key),
                    key_label(binding.key).replace("Ctrl+", "^"),
                ), binding
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.is_modal, "«a» on Бой opened no dialog"
        assert bar(app)[0] == ("⏎", "Добавить"), f"the new NPC dialog: {bar(app)}"


def bar(app) -> list[tuple[str, str]]:
    return [(key, description) for key, description, _enabled in app.query_one(KeyBar)._keys]


async def test_ide4_prompts_the_bar_and_a_key_with_no_focus(
    make_test_app,
) -> None:
    """At [0] and [00] no d100 is rolled, yet the bar said «⏎ Бросить d100». «p Развёрнутая»
    stood on the bar at the expanded level already: there «p» records the player's demand,
    and once made it is not offered again. IDE4's «n» after a roll hid the focused result
    box: the keys typed right after it, before the queued focus moved, went to the app's keys
    (`4` switched tabs); a key while nothing has the focus goes to the tab. First, what misled
    a GM reading the screen: «Оглушён, Горит, Патруль…», «раундов или минут: 2» in grey read
    as values already typed; each empty field of the effect form starts «например:», fits
    its field and the field stays empty. Play-test, plain terminal: `m` showed «3 (пусто — 1
    минута)» and the Бой tab's `w` «сломана рука» in an empty field — as if typed (an empty
    `w` removes the harm).

    Replaces the pilot tests `tests/tui/test_keybar.py::
    test_ide4_enter_says_what_it_does_at_each_difficulty`,
    `…::test_ide4_bar_does_not_offer_the_expanded_level_it_is_at` and
    `tests/tui/test_focus.py::test_a_key_while_nothing_has_the_focus_goes_to_the_tab`,
    `tests/tui/test_misled.py::test_the_effect_form_placeholders_read_as_hints` and
    `tests/tui/test_misled.py::test_the_clock_and_harm_prompts_read_as_examples` (the same
    IDE4 demo campaign, one run: the prompts first; the difficulty back at its start before
    the level is changed; the roll last)."""
    from textual import events
    from textual.widgets import Input

    from tests.tui.test_builder_ide4 import choose

    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")  # first the prompts and the effect form: what misled
        await pilot.pause()
        clock = app.screen.query_one("#prompt-input", Input)
        assert clock.value == "", f"«m» holds {clock.value!r}"
        assert clock.placeholder.startswith("например: 3"), clock.placeholder
        await pilot.press("escape", "2")
        await app.ensure_pane("combat")
        await pilot.press("w")
        await pilot.pause()
        harm = app.screen.query_one("#prompt-input", Input)
        assert harm.value == "", f"«w» holds {harm.value!r}"
        assert harm.placeholder.startswith("например: "), harm.placeholder
        await pilot.press("escape", "e")
        await pilot.pause()
        fields = list(app.screen.query(Input))
        assert len(fields) == 5, f"the effect form has {len(fields)} fields"
        for field in fields:
            assert field.value == "", f"{field.id} holds {field.value!r}"
            assert field.placeholder.startswith("например: "), field.placeholder
            assert len(field.placeholder) <= field.content_region.width, field.placeholder
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("3")
        await pilot.pause()
        enter = lambda: dict(bar(app)).get("⏎")  # noqa: E731
        start = app.query_one("#ide4-base").value
        assert enter() == "Бросить d100", bar(app)
        assert "Развёрнутая" in dict(bar(app)).values(), bar(app)
        await choose(pilot, "ide4-base", 0)  # [0]
        await pilot.pause()
        assert enter() == "Записать успех [0]", bar(app)
        await choose(pilot, "ide4-base", 8)  # [00]
        await pilot.pause()
        assert enter() == "Записать «невозможно»", bar(app)
        app.query_one("#ide4-reason").focus()  # Enter in the reason field does the same
        await pilot.pause()
        assert enter() == "Записать «невозможно»", f"in the reason field: {bar(app)}"

        await choose(pilot, "ide4-base", start)
        await pilot.pause()
        assert enter() == "Бросить d100", f"back at the start: {bar(app)}"
        await choose(pilot, "ide4-level", "expanded")
        await pilot.pause()
        assert "Развёрнутая" not in dict(bar(app)).values(), f"at expanded: {bar(app)}"
        assert dict(bar(app)).get("p") == "Требует игрок", bar(app)
        await pilot.press("p")
        await pilot.pause()
        assert app.query_one("#check-pane").player_demand, "«p» recorded no demand"
        assert "p" not in dict(bar(app)), f"the demand offered again: {bar(app)}"

        app.query_one("#ide4-character").focus()
        await pilot.press("enter")  # roll: the focus is on the result box
        await pilot.pause()
        app.screen.set_focus(None)  # what a hidden focused box leaves behind
        app.post_message(events.Key("k", "k"))  # the builder's «Риск» card
        await pilot.pause()
        assert type(app.screen).__name__ == "CardScreen", f"«k» with no focus: {app.screen}"


def test_the_short_spelling_differs_only_for_enter_and_ctrl() -> None:
    from tui.screens.keys import key_label

    assert key_label("ctrl+q", short=True) == "^Q" and key_label("ctrl+q") == "Ctrl+Q"
    assert key_label("enter", short=True) == "⏎" and key_label("enter") == "Enter"
    for key in ("space", "escape", "tab", "pagedown", "delete", "shift+tab", "question_mark"):
        assert key_label(key, short=True) == key_label(key), key
    assert key_label("space") == "Пробел" and key_label("escape") == "Esc"


async def test_ctrl_z_names_what_it_will_undo_and_the_damage_stage_offers_every_fate_key(
    make_test_app,
) -> None:
    """Issue 30: Ctrl+Z on Проверка after a plain roll undid the last fight exchange, unseen.
    The bar names this window's next undo wherever the GM is; with nothing to undo, no ^Z.
    After damage the bar showed only «1 −1 уровень» while 2 (two points of Судьба) worked
    too. Issue 30: the digits are the tabs («1» meant for «Партия» spent a point), so one
    key, «f», offers every level Судьба can take off, and a digit goes to its tab.

    Replaces the pilot tests `tests/tui/test_keybar.py::
    test_ctrl_z_names_what_it_will_undo_on_every_tab` and
    `…::test_the_damage_stage_offers_every_fate_key` (the same fight of seed 3, one run: the
    exchange rolled for the first is accepted for the second)."""
    app = make_test_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        assert "^Z" not in dict(bar(app)), f"nothing to undo: {bar(app)}"
        await pilot.press("2")
        await app.ensure_pane("combat")
        await pilot.press("i")  # initiative: a step of this window
        await pilot.pause()
        assert dict(bar(app)).get("^Z") == "«инициатива»", bar(app)
        await declare_blows(pilot, app)  # the dice: the Бой tab's fullest bar
        await pilot.press("enter")  # the roll: «схватка 1»
        await pilot.pause()
        for tab in "2134562":
            await pilot.press(tab)
            await pilot.pause()
            shown = app.query_one(KeyBar).render().plain
            assert "^Z «схватка 1»" in shown, f"tab {tab} at 80 columns: {shown!r}"

        await pilot.press("enter")  # «принять» the outcome
        await pilot.pause()
        text = " ".join(str(s.render()) for s in app.query("Static")).replace("\n", " ")
        # (the exchange box holds its lines broken for its width: keep_whole)
        assert "−2 — до царапины" in text, "not at the damage stage"
        keys = dict(bar(app))
        assert keys.get("f") == "Судьба −уровень", keys
        assert not any(k[:1].isdigit() for k in keys), keys
        fate = {c.id: c.drevo.fate for c in app.store.characters()}
        await pilot.press("1")  # the Партия tab: nothing spent
        await pilot.pause()
        assert {c.id: c.drevo.fate for c in app.store.characters()} == fate, "«1» spent Судьба"
        await pilot.press("2", "f")
        await pilot.pause()
        assert [c.value for c in app.screen.choices] == [1, 2], "«f»: not every level"
        await pilot.press("down", "enter")
        await pilot.pause()
        shown = " ".join(str(s.render()) for s in app.query("Static"))
        assert "Царапина" in shown, "two levels off: no «Царапина»"

        await pilot.press("1", "g")  # a longer name: Судьба +1 on the sheet
        await pilot.pause()
        hint = dict(bar(app))["^Z"]
        assert len(hint) > len("«схватка 1»"), hint
        for tab in "1234562":
            await pilot.press(tab)
            await pilot.pause()
            shown = app.query_one(KeyBar).render().plain
            assert "^Z «" in shown, f"tab {tab} at 80 columns: {shown!r}"
            assert shown.split("^Z «", 1)[1].split("»")[0][:6] == hint[1:7], shown


def test_the_undo_name_puts_what_first() -> None:
    """At 80 columns the name is cut to a dozen cells: «Проверка (Б…» said nothing. A check's
    step is named by what it did, then whose («бросок 4dF, Богдан Сыч»), as a fight's is
    («схватка 2»)."""
    from tui import registry
    from tui.services.history import short_label

    name = registry.load(registry.get("drevo").undo_name or "")  # a fight's steps: Древо's
    for label, hint in [
        ("Проверка (Богдан Сыч): бросок 4dF", "бросок 4dF, Богдан Сыч"),
        ("Раунд 2, схватка 3: Судьба +1 (Горан)", "схватка 3"),
        ("Бой: заявка Волк", "заявка Волк"),
    ]:
        shown = short_label(label, name)
        assert shown.rstrip("…") in hint, (label, shown)
        assert shown[:6] == hint[:6]


def test_a_fight_steps_name_is_its_systems() -> None:
    """Only a system that names its fight's steps (its ``undo_name``: Древо's exchanges) shortens
    them: the round tracker's «Раунд 2, ход: Гриша» stays what it did; a system without one
    keeps every label but a check's as it is."""
    from rules import systems
    from tui import registry
    from tui.services.history import short_label

    drevo = registry.load(registry.get("drevo").undo_name or "")
    assert drevo("Раунд 2, ход: Гриша") is None  # the round tracker's: no exchange
    assert drevo("Проверка (Гриша): бросок") is None  # a check's: the shared rule
    plain = [n for n in systems.names() if registry.get(n).undo_name is None]
    assert plain  # the systems of rounds
    assert short_label("Бой: заявка Волк") == "Бой: заявка Волк"
    assert short_label("Раунд 2, схватка 3: x").startswith("Раунд 2, схв")


async def test_ctrl_z_is_dimmed_while_another_window_built_on_its_step(
    make_test_app, campaign_path
) -> None:
    """A leftover: once another window (or `kubik`) changed what this window's last step
    changed, the bar still offered «^Z «…»» as if it would undo; Ctrl+Z was refused with the
    reason. The bar now dims it (the key still says why), and lights it again once what the
    step left is back."""
    from dataclasses import replace

    from tui.store import Store

    def keys() -> dict[str, tuple[str, bool]]:
        return {key: (text, on) for key, text, on in app.query_one(KeyBar)._keys}

    def notes_elsewhere(text: str) -> None:
        other = Store.open(campaign_path)  # another window
        c = next(c for c in other.characters() if c.id == vera.id)
        other.upsert_character(replace(c, notes=text))
        other.close()

    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        vera = app.store.characters()[0]
        app.store.upsert_character(replace(vera, notes="из этого окна"))  # this window's step
        await pilot.pause()
        assert keys()["^Z"][1], keys()
        notes_elsewhere("из другого окна")
        app._refresh_store()  # what the file watch (or the timer) does
        await pilot.pause()
        assert not keys()["^Z"][1], "dimmed: Ctrl+Z would be refused"
        await pilot.press("ctrl+z")
        await pilot.pause()
        await app.services.writes_done()
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any(m.startswith("Нельзя отменить") for m in said), said
        notes_elsewhere("из этого окна")  # what the step left, back
        app._refresh_store()
        await pilot.pause()
        assert keys()["^Z"][1], "lit again: Ctrl+Z undoes the step"


async def test_a_concluded_ide4_check_offers_n_at_80_columns(make_test_app) -> None:
    """Replay (7 Dec): once an IDE4 check was concluded the bar read «p Развёрнутая  t Шаблон
    y Копировать» at 80 columns, and nothing on the screen said «n» starts a new check (it
    was the builder's last key, the first to fall off)."""
    app = make_test_app(system="ide4")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "enter")  # the roll
        assert dict(bar(app)).get("⏎") == "Итог", bar(app)
        while app.screen.is_modal or dict(bar(app)).get("⏎") == "Итог":  # the conclusion
            await pilot.press("enter")
        shown = [key for key, _d, _on in app.query_one(KeyBar).fitted(80)]
        assert app.query_one("#check-pane").phase == "done", "the check is not concluded"
    assert shown[0] == "n", shown
