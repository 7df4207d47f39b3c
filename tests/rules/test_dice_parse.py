"""Parsing: every form of the notation, its canonical text, and every error with its position."""

from __future__ import annotations

import pytest

from rules.dice import (
    Binary,
    Compare,
    Dice,
    Explode,
    Group,
    Limits,
    Negate,
    Number,
    Reroll,
    Select,
    Target,
    parse,
)
from rules.errors import DiceBoundsError, DiceLimitError, DiceSyntaxError, RulesError
from tests.every_case import assert_every_case

EVERY_DICE_FORM = [
    ("d6", Dice(1, 6)),
    ("3d6", Dice(3, 6)),
    ("d%", Dice(1, 100)),
    ("4dF", Dice(4, None)),
    ("2d6!", Dice(2, 6, explode=Explode())),
    ("d10!>=9", Dice(1, 10, explode=Explode(point=Compare(">=", 9)))),
    ("3d6!!", Dice(3, 6, explode=Explode(compound=True))),
    ("2d6!p", Dice(2, 6, explode=Explode(penetrate=True))),
    ("2d6!!p>4", Dice(2, 6, explode=Explode(True, True, Compare(">", 4)))),
    ("2d6r1", Dice(2, 6, reroll=Reroll(point=Compare("=", 1)))),
    ("4d6ro<3", Dice(4, 6, reroll=Reroll(once=True, point=Compare("<", 3)))),
    ("d6r", Dice(1, 6, reroll=Reroll())),
    ("4d6k3", Dice(4, 6, selects=(Select(True, True, 3),))),
    ("4d6kl1", Dice(4, 6, selects=(Select(True, False, 1),))),
    ("2d20kh", Dice(2, 20, selects=(Select(True, True, 1),))),
    ("4d6d1", Dice(4, 6, selects=(Select(False, False, 1),))),
    ("4d6dh1", Dice(4, 6, selects=(Select(False, True, 1),))),
    ("4d6dl2", Dice(4, 6, selects=(Select(False, False, 2),))),
    ("d6min2max5", Dice(1, 6, minimum=2, maximum=5)),
    ("10d10>=8", Dice(10, 10, target=Target(Compare(">=", 8)))),
    ("10d10>=8f<=1", Dice(10, 10, target=Target(Compare(">=", 8), Compare("<=", 1)))),
    ("10d10>=8f1", Dice(10, 10, target=Target(Compare(">=", 8), Compare("=", 1)))),
    ("3dF=1f=-1", Dice(3, None, target=Target(Compare("=", 1), Compare("=", -1)))),
    ("2d6<>3", Dice(2, 6, target=Target(Compare("!=", 3)))),
    # rpg-dice-roller runs modifiers in its own order, whatever order they are typed in
    (
        "4d6kh3r1",
        Dice(4, 6, reroll=Reroll(point=Compare("=", 1)), selects=(Select(True, True, 3),)),
    ),
]


def test_every_dice_form() -> None:
    """Issue 18: «compare points `= != < > <= >=`; success and failure counting; `r`, `ro` with
    or without a compare point; `!`, `!!`, `!p`, each with an optional compare point; `k`,
    `kh`, `kl`, `d`, `dh`, `dl`; `min`, `max`»."""

    def check(text: str, dice: Dice) -> None:
        root = parse(text).root
        assert root == Dice(**{**dice.__dict__, "position": 0})

    assert_every_case(EVERY_DICE_FORM, check)


CANONICAL_TEXT = [
    ("2D6 + 3", "2d6 + 3"),
    ("1d%", "d%"),
    ("4df-1", "4dF - 1"),
    ("2к6+1 vs 8", "2d6 + 1 vs 8"),
    ("(2d6+1)*3/2", "(2d6 + 1) * 3 / 2"),
    ("d6-(d4+1)", "d6 - (d4 + 1)"),
    ("-(d6+1)", "-(d6 + 1)"),
    ("{4d6+2,3d8}k1", "{4d6 + 2, 3d8}kh1"),
    ("6х 4d6dl1", "6x 4d6dl1"),
    ("2d6+3 #  топор ", "2d6 + 3 # топор"),
    ("10d10>=8f1", "10d10>=8f1"),
    ("10d10>=8f=1", "10d10>=8f1"),
    ("3dFr=-1", "3dFr=-1"),
    ("3dF=1f=-1", "3dF=1f=-1"),
    ("d10!=10>=8", "d10!10>=8"),
    ("2d6<>3", "2d6<>3"),
    ("d6!!<>3", "d6!!<>3"),
    ("4d6kh3r1", "4d6r1kh3"),
]


def test_canonical_text() -> None:
    """The canonical notation re-parses to the same tree (the odds are cached by it)."""

    def check(text: str, canonical: str) -> None:
        expression = parse(text)
        assert str(expression) == canonical
        assert str(parse(canonical)) == canonical

    assert_every_case(CANONICAL_TEXT, check)


def test_precedence_and_positions() -> None:
    """Issue 18: «`+ - * /` (floor) and parentheses»."""
    root = parse("1 + 2*d6 - -3").root
    assert root == Binary(
        "-",
        Binary("+", Number(1, 0), Binary("*", Number(2, 4), Dice(1, 6, position=6), 5), 2),
        Negate(Number(3, 12), 11),
        9,
    )


def test_group_label_repeat_target() -> None:
    """Issue 18: «groups», «`# label`», «`Nx EXPR` repeats», «`vs N` stays»."""
    expression = parse("3x {d6, d8}k1 vs 5 # урон")
    assert expression.repeat == 3
    assert expression.target == 5
    assert expression.label == "урон"
    assert isinstance(expression.root, Group)
    assert expression.root.selects == (Select(True, True, 1),)


RUSSIAN_LETTER_FOR_D = ["2к6", "2К6", "2д6", "2Д6", "2кф", "2дФ"]


def test_russian_letter_for_d() -> None:
    """Issue 18: «in Russian as well (`к` for `d`)»."""

    def check(text: str) -> None:
        assert isinstance(parse(text).root, Dice)

    assert_every_case(RUSSIAN_LETTER_FOR_D, check, star=False)


ERRORS_NAME_POSITION = [
    ("", DiceSyntaxError, 0, "пустое выражение"),
    ("   ", DiceSyntaxError, 0, "пустое выражение"),
    ("# одна метка", DiceSyntaxError, 0, "пустое выражение"),
    ("2d", DiceSyntaxError, 2, "ожидалось число граней после «d»"),
    ("2к", DiceSyntaxError, 2, "ожидалось число граней после «к»"),
    ("2d6+", DiceSyntaxError, 4, "после «+» ожидалось число или кубик"),
    ("2d6 x", DiceSyntaxError, 4, "ожидалось «+», «-», «*», «/», «%», «^» или «vs N»"),
    ("2 d6", DiceSyntaxError, 2, "ожидалось «+», «-», «*», «/», «%», «^» или «vs N»"),
    ("2d6)", DiceSyntaxError, 3, "лишняя закрывающая скобка"),
    ("(2d6", DiceSyntaxError, 4, "не закрыта скобка «(» с позиции 1"),
    ("*3", DiceSyntaxError, 0, "ожидалось число, кубик"),
    ("{d6", DiceSyntaxError, 3, "не закрыта группа"),
    ("{d6 d4}", DiceSyntaxError, 4, "ожидалось «,» или «}»"),
    ("{d6}!", DiceSyntaxError, 4, "у группы бывают только"),
    ("{d6,d6}k1k1", DiceSyntaxError, 9, "уже задан"),
    ("4d6k1k2", DiceSyntaxError, 5, "уже задан"),
    ("2d6 vs", DiceSyntaxError, 6, "после «vs» ожидалось число"),
    ("2d6 vs 3 +1", DiceSyntaxError, 9, "ничего не должно быть"),
    ("6x", DiceSyntaxError, 2, "после «6x» ожидалось выражение"),
    ("0x d6", DiceBoundsError, 0, "хотя бы 1"),
    ("1001x d6", DiceBoundsError, 0, "не больше 1000"),
    ("(" * 31 + "1" + ")" * 31, DiceBoundsError, 30, "слишком глубокая вложенность"),
    ("d6min", DiceSyntaxError, 5, "после «min» ожидалось число"),
    ("d6min7", DiceBoundsError, 2, "«min» у d6 может быть от 1 до 6"),
    ("d6max0", DiceBoundsError, 2, "«max» у d6 может быть от 1 до 6"),
    ("d6min4max3", DiceBoundsError, 2, "«min» больше «max»"),
    ("d6f1", DiceSyntaxError, 2, "провалы «f» пишутся после условия успеха"),
    ("4d6кh3", DiceSyntaxError, 3, "русская буква здесь неоднозначна"),
    ("d6>", DiceSyntaxError, 3, "после «>» ожидалось число"),
    ("d6>3f", DiceSyntaxError, 5, "после «f» ожидалось условие"),
    ("4d6d", DiceSyntaxError, 4, "сколько кубиков отбросить"),
    ("4d6k0", DiceBoundsError, 4, "нужно число от 1, а не 0"),
    ("d6r<=6", DiceSyntaxError, 2, "переброс не остановился бы никогда"),
    ("d6!>=1", DiceSyntaxError, 2, "взрыв не остановился бы никогда"),
    ("dF!>-2", DiceSyntaxError, 2, "взрыв не остановился бы никогда"),
    ("d1!", DiceSyntaxError, 2, "не остановился бы никогда"),
    ("d1r", DiceSyntaxError, 2, "не остановился бы никогда"),
    ("4d6kh5", DiceBoundsError, 3, "нельзя оставить 5"),
    ("4d6d5", DiceBoundsError, 3, "нельзя отбросить 5"),
    ("{d6,d6}k3", DiceBoundsError, 0, "в группе 2 выражения"),
    ("{2d6}k3", DiceBoundsError, 0, "в группе 2 кубиков"),
    ("{d6*2d4k1}k1", DiceSyntaxError, 0, "не могут сами оставлять"),
    ("{d6+{d4}}k1", DiceSyntaxError, 0, "не бывает вложенных групп"),
    ("d6/(d6-1)", DiceSyntaxError, 2, "может оказаться нулём"),
    ("d6/0", DiceSyntaxError, 2, "может оказаться нулём"),
    ("0d6", DiceBoundsError, 0, "от 1 до 1000, а не 0"),
    ("1001d6", DiceBoundsError, 0, "от 1 до 1000, а не 1001"),
    ("d1", DiceBoundsError, 1, "от 2 до 1000, а не 1"),
    ("2d1001", DiceBoundsError, 2, "от 2 до 1000, а не 1001"),
    ("600d6 + 401d6", DiceBoundsError, 8, "больше 1000 кубиков"),
    ("2x 501d6", DiceBoundsError, 3, "больше 1000 кубиков"),
    ("1234567890", DiceBoundsError, 0, "слишком большое число"),
    ("1+" * 100 + "1", DiceBoundsError, 200, "длиннее 200 символов"),
]


def test_errors_name_position() -> None:
    """RULES §0: «A parse error names the position and what was expected»; issue 18: «a reroll
    or explosion that can never stop (`d6r<=6`, `d1!`) is an error before rolling»; «Limits
    stay (200 characters, 1000 dice …), each a clear Russian error naming the position»."""

    def check(text: str, error: type, position: int, fragment: str) -> None:
        with pytest.raises(error) as caught:
            parse(text)
        assert caught.value.position == position
        assert str(caught.value).startswith(f"позиция {position + 1}: ")
        assert fragment in str(caught.value)

    assert_every_case(ERRORS_NAME_POSITION, check)


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
    parse(text)
    parse("500d2 + 500d1000")
    parse("(" * 30 + "1" + ")" * 30)
    parse("1000x 1")


def test_custom_limits() -> None:
    """RULES §0: «Bounds against abuse, each a clear error» — one limits object per evaluation."""
    tight = Limits(max_length=5, max_faces=20, max_dice_total=3)
    assert parse("2d20", tight).root == Dice(2, 20)
    with pytest.raises(DiceBoundsError, match="длиннее 5"):
        parse("2d6 + 1", tight)
    with pytest.raises(DiceBoundsError, match="от 2 до 20"):
        parse("d100", tight)
    with pytest.raises(DiceBoundsError, match="больше 3 кубиков"):
        parse("2d6+2d6", Limits(max_dice_total=3))
