"""The `?` screen: each key once, in the group where it works, its whole description shown."""

from __future__ import annotations

from tui.screens.keys import KeysScreen, key_label, key_rows


async def open_keys(app, pilot) -> KeysScreen:
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, KeysScreen)
    return app.screen


def rows_of(screen: KeysScreen) -> dict[str, list[tuple[str, str]]]:
    return {where: key_rows(bindings) for where, bindings in screen.groups}


async def test_each_key_is_listed_once_in_its_group_and_no_description_is_cut(
    make_test_app,
) -> None:
    """`?` listed ctrl+s twice (on and off are two bindings of one key). `t` (hide the
    highlighted NPC) works only on the Партия tab; `y` copies, it is no «Итог». «журнал в
    Markdo», «(ещ»: the table cut descriptions at the box's edge at 80 columns."""
    app = make_test_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_keys(app, pilot)
        await pilot.pause()
        groups = rows_of(screen)
        table = screen.query_one("#keys-table")
        lines = [strip.text for strip in table.render_lines(table.region.reset_offset)]
    for where, rows in groups.items():
        keys = [key for key, _text in rows]
        assert len(keys) == len(set(keys)), f"{where}: {keys}"
    assert [k for k, _t in groups["Везде"]].count("Ctrl+S") == 1
    everywhere = dict(groups["Везде"])
    assert "t" not in everywhere and "t" in dict(groups["Партия"])
    assert everywhere["y"] == "Копировать последнюю запись Журнала"
    assert "Tab, Shift+Tab" in everywhere and "Esc" in everywhere
    shown = " ".join(" ".join(line.split()) for line in lines)
    for rows in groups.values():
        for _key, text in rows:
            assert " ".join(text.split()) in shown, f"cut: {text!r}"


def test_key_labels_read_as_typed() -> None:
    assert key_label("ctrl+s") == "Ctrl+S"
    assert key_label("tab,shift+tab") == "Tab, Shift+Tab"
    assert key_label("f") == "f" and key_label("question_mark") == "?"


def test_every_key_of_every_system_reads_as_typed() -> None:
    """`?` listed the Бой tab's «исключение ведущего» as «exclamation_mark», Textual's name for
    `!`: every key the help lists is a character or a key's name as printed on the keyboard."""
    from tui.app import KubikApp
    from tui.appparts.dialogs import builder_class, combat_class
    from tui.widgets.common.quickroll import QuickRoll
    from tui.widgets.log.pane import LogPane
    from tui.widgets.party.pane import PartyPane

    bindings = [*KubikApp.BINDINGS, *PartyPane.BINDINGS, *QuickRoll.BINDINGS, *LogPane.BINDINGS]
    for system in ("drevo", "ide4", "starately", "wod"):
        bindings += [*combat_class(system).BINDINGS, *builder_class(system).BINDINGS]
    for binding in bindings:
        for shown in key_label(binding.key).split(", "):
            assert "_" not in shown and not (len(shown) > 1 and shown.islower()), shown
