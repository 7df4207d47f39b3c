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
