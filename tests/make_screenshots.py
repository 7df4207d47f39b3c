"""Regenerate ``screenshots/*.svg``: ``python tests/make_screenshots.py``.

Uses the same deterministic setup as the snapshot tests (demo campaign in a temporary
folder, seeded dice, frozen clock) so the pictures change only when the UI does.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from tests.conftest import frozen_clock  # noqa: E402
from tui.app import make_app  # noqa: E402

#: name → (system of the demo campaign, keys pressed before the picture)
SHOTS = {
    "party": ("drevo", ["1"]),
    "combat": ("drevo", ["2", "i", "enter", "enter", "enter", "enter", "enter", "enter"]),
    "check": ("drevo", ["3", "down", "right", "enter"]),
    "log": ("drevo", ["3", "enter", "slash", *"3d6!+2", "enter", "escape", "4"]),
    "keys": ("drevo", ["question_mark"]),
    "check-ide4": ("ide4", ["3", "enter"]),
    "check-starately": ("starately", ["3", "enter"]),
    "check-wod": ("wod", ["3", "enter"]),
    "character-form": ("drevo", ["a"]),
    "settings": ("drevo", ["ctrl+t"]),
    "campaigns": ("drevo", ["ctrl+o"]),
    "bestiary": ("drevo", ["1", "l", "down"]),
    "encounter-chooser": ("drevo", ["2", "l"]),
}


async def shoot(name: str, system: str, keys: list[str], folder: Path) -> Path:
    app = make_app(folder / f"{name}.json", system=system, seed=7, clock=frozen_clock)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        target = ROOT / "screenshots" / f"{name}.svg"
        target.write_text(app.export_screenshot(title=f"kubik — {name}"), encoding="utf-8")
    return target


def main() -> None:
    # One fixed folder, so the campaign picker's picture names the same folder every time.
    folder = Path(tempfile.gettempdir()) / "kubik-screenshots"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    try:
        for name, (system, keys) in SHOTS.items():
            print(asyncio.run(shoot(name, system, keys, folder)).relative_to(ROOT))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
