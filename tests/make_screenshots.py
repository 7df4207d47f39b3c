"""Regenerate ``screenshots/*.svg``: ``python tests/make_screenshots.py``.

Uses the same deterministic setup as the snapshot tests (demo campaign in a temporary
folder, seeded dice, frozen clock) so the pictures change only when the UI does.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from tests.conftest import frozen_clock  # noqa: E402
from tui.app import make_app  # noqa: E402

SHOTS = {
    "party": ["1"],
    "combat": ["2", "i"],
    "check": ["3", "down", "right", "enter"],
    "log": ["3", "enter", "slash", *"3d6!+2", "enter", "escape", "4"],
    "keys": ["question_mark"],
}


async def shoot(name: str, keys: list[str], folder: Path) -> Path:
    app = make_app(folder / f"{name}.json", seed=7, clock=frozen_clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        target = ROOT / "screenshots" / f"{name}.svg"
        target.write_text(app.export_screenshot(title=f"kubik — {name}"), encoding="utf-8")
    return target


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, keys in SHOTS.items():
            print(asyncio.run(shoot(name, keys, Path(folder))).relative_to(ROOT))


if __name__ == "__main__":
    main()
