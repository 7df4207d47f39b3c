"""«never reads a cut word» (issue 16): Мир Тьмы's «Продолж.» on the key bar and «5 усп.» in
the extended roll's target read as words cut short; there was room for the whole word."""

from __future__ import annotations

from pathlib import Path

from tui.widgets.common.keybar import KeyBar
from tui.widgets.common.stepper import Stepper

ROOT = Path(__file__).resolve().parents[2]


def test_no_success_count_is_abbreviated() -> None:
    found = [
        f"{p.relative_to(ROOT)}: {line.strip()}"
        for p in sorted((ROOT / "tui").rglob("*.py"))
        for line in p.read_text(encoding="utf-8").splitlines()
        if "усп." in line or "Продолж." in line
    ]
    assert not found


async def test_the_extended_roll_reads_whole_words(make_test_app, tmp_path) -> None:
    app = make_test_app(path=tmp_path / "w.json", system="wod")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await app.ensure_pane("check")
        await pilot.pause()
        bar = [description for _key, description, _on in app.query_one(KeyBar)._keys]
        assert "Продолжительное" in bar, bar
        await pilot.press("e")
        await pilot.pause()
        target = app.screen.query_one("#target-value", Stepper)
        labels = [label for label, _value in target._options]
        assert labels[:5] == ["1 успех", "2 успеха", "3 успеха", "4 успеха", "5 успехов"]
        assert labels[10] == "11 успехов" and labels[20] == "21 успех"
