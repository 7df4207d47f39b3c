"""Numbers typed at a seat or in the GM's edit of a seat's request are read as the command line
reads them: ASCII digits 0–9 with a sign (the minus «−» too), nothing else. Python's ``int()``
reads any script's digits («٢» is 2) and underscores («1_0» is 10); a seat's energy prompt took
them as numbers (a playtest's leftover; `kubik` options were fixed in issue 29)."""

from __future__ import annotations

import pytest

from tests.every_case import assert_every_case
from tui.numbers import MAX_NUMBER, read_typed_whole
from tui.seats import protocol as proto
from tui.seats.rules_check import edited

ASCII_DIGITS_WITH_A_SIGN_ARE_A_NUMBER = [
    ("2", 2),
    (" +1 ", 1),
    ("−2", -2),
    ("-0", 0),
    ("0012", 12),
    ("9" * 30, MAX_NUMBER + 1),
]


def test_ascii_digits_with_a_sign_are_a_number() -> None:
    def check(typed: str, value: int) -> None:
        assert read_typed_whole(typed) == value

    assert_every_case(ASCII_DIGITS_WITH_A_SIGN_ARE_A_NUMBER, check)


ANYTHING_ELSE_IS_NO_NUMBER = ["٢", "２", "1_0", "²", "", "+", "2 3", "--1", "два", "1.5"]


def test_anything_else_is_no_number() -> None:
    def check(typed: str) -> None:
        assert read_typed_whole(typed) is None

    assert_every_case(ANYTHING_ELSE_IS_NO_NUMBER, check, star=False)


@pytest.mark.parametrize("typed", ["٢", "1_0"])
def test_the_gms_edit_of_a_seats_shift_or_energy_refuses_other_digits(typed: str) -> None:
    shift = proto.Request("r", "fate", "abc", proto.check_payload("fate", {"use": "shift"}))
    with pytest.raises(proto.ProtocolError, match="сдвиг числом"):
        edited(shift, typed)
    payload = proto.check_payload("energy", {"when": "after", "amount": 1, "die": 8})
    energy = proto.Request("r", "energy", "abc", payload)
    with pytest.raises(proto.ProtocolError, match="Введите число"):
        edited(energy, typed)
    assert edited(energy, "2").payload["amount"] == 2
