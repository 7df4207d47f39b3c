"""``keep_whole``: a line is broken at ordinary spaces only; a term tied with no-break spaces
(«Кинжал МУ 0») moves whole to the next line (Textual alone breaks at any space)."""

from __future__ import annotations

from textual.content import Content

from tui.widgets.common.text import TIE, keep_whole


def _lines(markup: str, width: int) -> list[str]:
    return keep_whole(Content.from_markup(markup), width).plain.split("\n")


def test_a_tied_term_moves_whole_and_no_line_is_longer_than_the_width() -> None:
    mu = TIE.join(["Кинжал", "МУ", "0"])
    lines = _lines(f"[b]Богдан[/b]: Драка 0 (навыка нет), {mu}\nвторая строка", 30)
    assert lines == ["Богдан: Драка 0 (навыка нет),", mu, "вторая строка"]
    assert all(len(line) <= 30 for line in lines)


def test_a_line_that_fits_is_kept_and_a_term_longer_than_the_width_stands_alone() -> None:
    assert _lines("коротко", 30) == ["коротко"]
    long = TIE.join(["очень"] * 8)  # 47 columns: Textual folds it; here it only moves
    assert _lines(f"до {long} после", 20) == ["до", long, "после"]
