"""Helpers shared by the builder tests (Старатели, Мир Тьмы)."""

from __future__ import annotations


def errors(app) -> list[str]:
    """Return the messages of the error notifications shown so far."""
    return [n.message for n in app._notifications if n.severity == "error"]


async def open_builder(pilot, prefix: str, mods: str = "", **rows) -> None:
    """Open the Проверка tab; set the modifier field and the rows ``#<prefix>-<row>`` directly
    (keys: first test)."""
    await pilot.press("3")  # the Проверка tab, focus on the character row
    if mods:
        pilot.app.query_one("#check-mods").value = mods
    for row, value in rows.items():
        pilot.app.query_one(f"#{prefix}-{row}").select(value)
    await pilot.pause()


async def rig_d100(pilot, natural: int) -> None:
    """Make the open IDE4 check's d100 ``natural`` (its energy dice kept): the rolled check
    as the campaign keeps it, written as a step of its own (a move's undo comes back to it)."""
    from dataclasses import replace

    app = pilot.app
    state = app.services.check_table.state
    assert state.rolled is not None, "roll first"
    rigged = replace(state, rolled=replace(state.rolled, natural=natural))
    app.store.put_doc("check", rigged.to_doc(), label="тест: d100")
    await pilot.pause()
