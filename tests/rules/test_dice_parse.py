"""Dice notation parser: every form, the canonical text and each error with its position."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.dice import ConstTerm, DiceTerm, Expression, Limits, parse
from rules.errors import DiceBoundsError, DiceLimitError, DiceSyntaxError, RulesError


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("2d6", DiceTerm(1, 2, 6)),
        ("d8", DiceTerm(1, 1, 8)),
        ("d%", DiceTerm(1, 1, 100)),
        ("3d%", DiceTerm(1, 3, 100)),
        ("4dF", DiceTerm(1, 4, None)),
        ("3d6!", DiceTerm(1, 3, 6, explode=True)),
        ("4d6kh3", DiceTerm(1, 4, 6, keep=("h", 3))),
        ("2d20kl1", DiceTerm(1, 2, 20, keep=("l", 1))),
        ("4d6!kh3", DiceTerm(1, 4, 6, explode=True, keep=("h", 3))),
        ("4dFkl2", DiceTerm(1, 4, None, keep=("l", 2))),
        ("1000d1000", DiceTerm(1, 1000, 1000)),
        ("007d06", DiceTerm(1, 7, 6)),
    ],
)
def test_every_dice_form(text: str, term: DiceTerm) -> None:
    """RULES §0: «Dice notation for the quick roller: `NdM`, `dM`, `d%` (= d100), `NdF`
    (fudge: −1/0/+1), `NdM!` …, `NdMkhK` / `NdMklK` (keep highest / lowest K)»."""
    assert parse(text).terms == (term,)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6", "2d6"),
        ("1d6", "d6"),
        ("d%", "d100"),
        ("4df", "4dF"),
        ("3d6!+2 vs 12", "3d6! + 2 vs 12"),
        ("4D6!KH3", "4d6!kh3"),
        ("2D20KL1-1", "2d20kl1 - 1"),
        ("-d6+3", "-d6 + 3"),
        ("5", "5"),
        ("d6 vs -3", "d6 vs -3"),
        ("d6 VS +3", "d6 vs 3"),
        ("  2d6  +  1d4  -  2  ", "2d6 + d4 - 2"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    """RULES §0: «Case-insensitive; spaces allowed between terms»."""
    expression = parse(text)
    assert str(expression) == canonical
    assert expression.text == text
    again = parse(canonical)
    assert again.target == expression.target
    assert again.terms == tuple(
        replace(term, position=moved.position)
        for term, moved in zip(expression.terms, again.terms, strict=True)
    )


def test_full_expression_terms_and_positions() -> None:
    """RULES §0: «`+`, `−` with integers and other dice terms, and an optional target `vs N`
    (success when total ≥ N)»."""
    expression = parse("3d6! + 2 - d4 vs 12")
    assert expression == Expression(
        "3d6! + 2 - d4 vs 12",
        (DiceTerm(1, 3, 6, explode=True), ConstTerm(1, 2, 7), DiceTerm(-1, 1, 4, position=11)),
        12,
    )


@pytest.mark.parametrize("text", ["2к6", "2К6", "2д6", "2Д6"])
def test_russian_letter_for_d(text: str) -> None:
    """RULES §0: «Russian `к` accepted for `d` (`2к6`)»."""
    assert parse(text).terms == (DiceTerm(1, 2, 6),)


@pytest.mark.parametrize("text", ["4кF", "4кФ", "4dф", "4КF"])
def test_russian_fudge(text: str) -> None:
    """RULES §0: «`NdF` (fudge: −1/0/+1)» — with Russian `к` and Cyrillic `Ф`."""
    assert parse(text).terms == (DiceTerm(1, 4, None),)


@pytest.mark.parametrize("minus", ["-", "\u2212"])
def test_minus_and_leading_minus(minus: str) -> None:
    """RULES §0: «a leading `−` negates the first term»."""
    expression = parse(f"{minus}2d6 {minus} 3 + d4")
    assert [term.sign for term in expression.terms] == [-1, -1, 1]
    assert str(expression) == "-2d6 - 3 + d4"


def test_leading_plus_is_harmless() -> None:
    """RULES §0: «`+`, `−` with integers and other dice terms»."""
    assert parse("+d6").terms == (DiceTerm(1, 1, 6, position=1),)


def test_target_may_be_negative() -> None:
    """RULES §0: «an optional target `vs N` (success when total ≥ N)»."""
    assert parse("4dF vs -1").target == -1
    assert parse("4dF vs\u22122").target == -2
    assert parse("4dF").target is None


@pytest.mark.parametrize(
    ("text", "error", "position", "fragment"),
    [
        ("", DiceSyntaxError, 0, "пустое выражение"),
        ("   ", DiceSyntaxError, 0, "пустое выражение"),
        ("2d", DiceSyntaxError, 2, "ожидалось число граней после «d»"),
        ("2к", DiceSyntaxError, 2, "ожидалось число граней после «к»"),
        ("2d6+", DiceSyntaxError, 4, "после «+» ожидалось число или кубик"),
        ("2d6 x", DiceSyntaxError, 4, "ожидалось «+», «-» или «vs N»"),
        ("2 d6", DiceSyntaxError, 2, "ожидалось «+», «-» или «vs N»"),
        ("d6kq", DiceSyntaxError, 3, "ожидалось «h»"),
        ("d6kh", DiceSyntaxError, 4, "сколько кубиков оставить"),
        ("2d6 vs", DiceSyntaxError, 6, "после «vs» ожидалось число"),
        ("2d6 vs 3 +1", DiceSyntaxError, 9, "ничего не должно быть"),
        ("2d6 ++1", DiceSyntaxError, 5, "ожидалось число или кубик"),
        ("--1", DiceSyntaxError, 1, "ожидалось число или кубик"),
        ("1d1!", DiceSyntaxError, 2, "бесконечно"),
        ("dF!", DiceSyntaxError, 1, "не взрываются"),
        ("0d6", DiceBoundsError, 0, "от 1 до 1000, а не 0"),
        ("1001d6", DiceBoundsError, 0, "от 1 до 1000, а не 1001"),
        ("d1", DiceBoundsError, 1, "от 2 до 1000, а не 1"),
        ("2d1001", DiceBoundsError, 2, "от 2 до 1000, а не 1001"),
        ("4d6kh5", DiceBoundsError, 5, "можно оставить от 1 до 4, а не 5"),
        ("4d6kl0", DiceBoundsError, 5, "а не 0"),
        ("d6 + 4d6!kh0", DiceBoundsError, 11, "а не 0"),
        ("600d6 + 401d6", DiceBoundsError, 8, "больше 1000 кубиков"),
        ("1234567890", DiceBoundsError, 0, "слишком большое число"),
        ("d" + "6" * 199, DiceBoundsError, 1, "слишком большое число"),
        ("1+" * 100 + "1", DiceBoundsError, 200, "длиннее 200 символов"),
    ],
)
def test_errors_name_position(text: str, error: type, position: int, fragment: str) -> None:
    """RULES §0: «A parse error names the position and what was expected»; «`1d1!`, `0d6` and
    a keep of 0 or of more dice than rolled (`4d6kh5`) are errors»; «expression ≤ 200
    characters; dice per term 1…1000; faces 2…1000 (F aside); dice rolled per expression ≤
    1000»."""
    with pytest.raises(error) as caught:
        parse(text)
    assert caught.value.position == position
    assert str(caught.value).startswith(f"позиция {position + 1}: ")
    assert fragment in str(caught.value)


def test_bounds_errors_are_limit_errors() -> None:
    """RULES §0: «Bounds against abuse, each a clear error, never a hang»."""
    with pytest.raises(DiceLimitError):
        parse("2000d6")
    with pytest.raises(RulesError):
        parse("d6kh2")


def test_exactly_at_the_limits() -> None:
    """RULES §0: «expression ≤ 200 characters; dice per term 1…1000; faces 2…1000»."""
    text = "1+" * 99 + "10"
    assert len(text) == 200
    assert len(parse(text).terms) == 100
    assert parse("500d2 + 500d1000").terms[1].count == 500


def test_custom_limits() -> None:
    """RULES §0: «Bounds against abuse, each a clear error» — one limits object per evaluation."""
    tight = Limits(max_length=5, max_faces=20, max_dice_total=3)
    assert parse("2d20", tight).terms == (DiceTerm(1, 2, 20),)
    with pytest.raises(DiceBoundsError, match="длиннее 5"):
        parse("2d6 + 1", tight)
    with pytest.raises(DiceBoundsError, match="от 2 до 20"):
        parse("d100", tight)
    with pytest.raises(DiceBoundsError, match="больше 3 кубиков"):
        parse("2d6+2d6", Limits(max_dice_total=3))
