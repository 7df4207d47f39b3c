"""The GM's free-text modifier list (Древо seed, «Модификаторы»)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import modifiers
from rules.errors import RulesError
from rules.modifiers import parse_modifiers
from tests.every_case import assert_every_case


def test_signed_values_with_reasons():
    """Сид: «Модификатор имеет числовое значение (положительное или отрицательное) и
    складывается с результатом проверки»."""
    mods = parse_modifiers("+1 высота, -2 темнота; −1 ветер, 3")
    assert [(m.value, m.reason) for m in mods] == [
        (1, "высота"),
        (-2, "темнота"),
        (-1, "ветер"),
        (3, "ситуация"),
    ]


def test_empty_text_means_no_modifiers():
    assert parse_modifiers("  ") == ()
    assert parse_modifiers("+1,,") == parse_modifiers("+1")


AN_ITEM_WITHOUT_A_NUMBER_IS_NAMED_IN_THE_ERROR = ["темно", "+1 высота, ветер -1", "+", "1000"]


def test_an_item_without_a_number_is_named_in_the_error():
    def check(text) -> None:
        with pytest.raises(RulesError, match="Модификатор"):
            parse_modifiers(text)

    assert_every_case(AN_ITEM_WITHOUT_A_NUMBER_IS_NAMED_IN_THE_ERROR, check, star=False)


@pytest.mark.parametrize("text", ["5.5 x", "+1 высота, −2.5 темнота", "+0.5"])
def test_a_fraction_is_refused_not_read_as_its_whole_part(text):
    """Сид: «Модификатор имеет числовое значение … и складывается с результатом проверки» —
    the result is a whole number: «5.5 x» was read as +5 with the reason «.5 x»."""
    with pytest.raises(RulesError, match="целое число"):
        parse_modifiers(text)


@pytest.mark.parametrize("text", ["+1000 x", "+99999999999999999999 x", "−1234"])
def test_a_number_of_four_digits_or_more_is_called_too_big(text):
    """A modifier beyond ±999 is refused as too big (the message said «начните с числа»,
    though the item does start with one)."""
    with pytest.raises(RulesError, match="не больше 999") as err:
        parse_modifiers(text)
    assert "начните с числа" not in str(err.value)


THREE_DIGITS_ARE_ACCEPTED_UP_TO_999 = [
    ("+999 x", 999),
    ("-999", -999),
    ("−100 ветер", -100),
    ("0", 0),
]


def test_three_digits_are_accepted_up_to_999():
    """The documented limit is ±999: three digits are a modifier, only a fourth is refused
    (a `>` turned `>=` refused every three-digit modifier and no test noticed)."""

    def check(text, value) -> None:
        (modifier,) = parse_modifiers(text)
        assert modifier.value == value

    assert_every_case(THREE_DIGITS_ARE_ACCEPTED_UP_TO_999, check)


NOT_THE_DIGITS_0_TO_9 = ["+٣ темнота", "−３", "٢", "1_0 ветер", "+1٣ высота", "+2, 1_0"]


def test_a_number_not_of_the_digits_0_to_9_is_refused_as_a_word_is():
    """«\\d» read «٣» and «３» as 3; «1_0» was +1 for «_0», «+1٣» +1 for «٣ высота». Each is
    refused with the message «темно» gets: start with a number, for example «+1 высота»."""

    def check(text) -> None:
        with pytest.raises(RulesError, match="начните с числа, например «\\+1 высота»"):
            parse_modifiers(text)

    assert_every_case(NOT_THE_DIGITS_0_TO_9, check, star=False)


def test_a_refusal_counts_items_from_one():
    """The message names the item as the GM counts it: the second one is «Модификатор 2»."""
    with pytest.raises(RulesError, match=r"^Модификатор 2 \(«ветер»\)"):
        parse_modifiers("+1 высота, ветер")
    with pytest.raises(RulesError, match=r"^Модификатор 1 \(«1000»\)"):
        parse_modifiers("1000; +1")
    with pytest.raises(RulesError, match=r"^Модификатор 3 \(«2.5»\)"):
        parse_modifiers("+1 a; -1 b; 2.5")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("5" * 10_000, "не больше 999"),  # the tester's paste into Мир Тьмы's field
        ("5." + "5" * 10_000, "целое число"),
        ("Я" * 10_000, "начните с числа"),
        ("+1 высота, " + "темно " * 2_000, "начните с числа"),  # the second item, long
    ],
    ids=["too-big", "fraction", "no-number", "second-item"],
)
def test_a_long_item_is_quoted_by_its_first_characters(text, said):
    """10,000 «5» pasted into a modifier field: the message quoted all of them and filled the
    screen over the roll. It quotes the first 20 characters of the item and «…»."""
    with pytest.raises(RulesError, match=said) as err:
        parse_modifiers(text)
    message = str(err.value)
    assert len(message) < 160, message
    item = text.split(", ")[-1]
    assert f"«{item[:20].rstrip()}…»" in message, message


def test_a_short_item_is_quoted_whole():
    with pytest.raises(RulesError) as err:
        parse_modifiers("+1 высота, 5.5 ветер")
    assert str(err.value).startswith("Модификатор 2 («5.5 ветер»): нужно целое число")


@given(st.text(alphabet=st.sampled_from(list(" \t\n+-−0123456789_.,;aбв٣")), max_size=24))
def test_an_item_reads_as_the_pattern_that_skipped_spaces_read_it(text) -> None:
    """The item pattern is matched on the stripped item (the old one, which skipped the
    spaces itself, was quadratic in them): every list reads the same — the same modifiers,
    or the same refusal."""
    import re

    old = re.compile(r"^\s*([+\-−]?)\s*([0-9]+)(?![\d_])\s*(.*?)\s*$")
    for raw in re.split(r"[,;]", text):
        if raw.strip():
            new = modifiers._ITEM.match(raw.strip())
            was = old.match(raw)
            assert (new and new.groups()) == (was and was.groups()), raw
