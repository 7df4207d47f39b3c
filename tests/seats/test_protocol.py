"""The seat protocol refuses every malformed line with a reason and accepts the good ones."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.every_case import assert_every_case
from tests.hypo import examples
from tui.seats import protocol as proto

GOOD = {
    "v": 1,
    "type": "request",
    "id": "r1",
    "kind": "declare",
    "character": "abc",
    "payload": {"action": "melee", "target": "npc1", "weapon": "Меч", "distance": "close"},
}


def test_a_good_declaration_parses():
    request = proto.parse_request(proto.decode(proto.encode(GOOD)))
    assert request.kind == "declare"
    assert request.payload["turns"] == 1 and request.payload["note"] == ""


BAD_REQUESTS_ARE_REFUSED_WITH_A_REASON = [
    ({"v": 2}, "версия"),
    ({"kind": "write_file"}, "Неизвестный вид"),
    ({"type": "write"}, "только посылать заявки"),
    ({"id": "../../etc"}, "идентификатор"),
    ({"character": ""}, "идентификатор"),
    ({"payload": {"action": "fly"}}, "недопустимое"),
    ({"payload": {**GOOD["payload"], "turns": 9}}, "от 1 до 4"),
    ({"payload": {**GOOD["payload"], "turns": True}}, "от 1 до 4"),
    ({"payload": {**GOOD["payload"], "note": "x" * 301}}, "не длиннее"),
    ({"payload": {**GOOD["payload"], "note": "\x1b[2J"}}, "управляющие"),
    ({"payload": {**GOOD["payload"], "hp": 1}}, "Лишние поля"),
    ({"extra": 1}, "Лишние поля"),
]


def test_bad_requests_are_refused_with_a_reason():
    def check(change, reason) -> None:
        with pytest.raises(proto.ProtocolError, match=reason):
            proto.parse_request(proto.decode(proto.encode({**GOOD, **change})))

    assert_every_case(BAD_REQUESTS_ARE_REFUSED_WITH_A_REASON, check)


def test_a_line_too_long_or_not_json_is_refused():
    with pytest.raises(proto.ProtocolError, match="длинное"):
        proto.decode(b"x" * (proto.MAX_LINE + 1))
    with pytest.raises(proto.ProtocolError, match="JSON"):
        proto.decode(b"\xff\xfe{")
    with pytest.raises(proto.ProtocolError, match="объект"):
        proto.decode(b"[1, 2]")
    with pytest.raises(proto.ProtocolError, match="JSON"):
        proto.decode(b"[" * 100_00)


EACH_KIND_HAS_ITS_SHAPE = [
    ("fate", {"use": "before"}),
    ("energy", {"when": "after", "amount": 2}),
    ("energy", {"when": "before", "amount": 3, "die": 6, "check": "c1"}),
    ("risk", {}),
    ("risk", {"price": "тратится аптечка", "check": "c1"}),
    ("reroll", {"check": "c1"}),
    ("expanded", {"note": "хочу подробно"}),
    ("note", {"text": "Милава ищет ловушки"}),
]


def test_each_kind_has_its_shape():
    def check(kind, payload) -> None:
        message = {**GOOD, "kind": kind, "payload": payload}
        request = proto.parse_request(proto.decode(proto.encode(message)))
        assert request.kind == kind
        assert proto.describe(kind, request.payload)

    assert_every_case(EACH_KIND_HAS_ITS_SHAPE, check)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"use": "shift", "points": 0}, "не 0"),
        ({"use": "before", "points": 1}, "не 0"),
        ({"use": "shift", "points": 4}, "от −3 до 3|от -3 до 3"),
    ],
)
def test_a_fate_shift_takes_signed_points_only(payload, reason):
    with pytest.raises(proto.ProtocolError, match=reason):
        proto.check_payload("fate", payload)


ENERGY_RISK_AND_THE_CHECK_THEY_NAME_ARE_CHECKED = [
    ("energy", {"when": "before", "amount": 11}, "от 1 до 10"),
    ("energy", {"when": "before", "amount": 1, "die": 7}, "d4, d6"),
    ("risk", {"amount": 2}, "Лишние поля"),
    ("risk", {"price": "  "}, "пусто"),
    ("reroll", {"check": "../x"}, "идентификатор"),
]


def test_energy_risk_and_the_check_they_name_are_checked():
    def check(kind, payload, reason) -> None:
        with pytest.raises(proto.ProtocolError, match=reason):
            proto.check_payload(kind, payload)

    assert_every_case(ENERGY_RISK_AND_THE_CHECK_THEY_NAME_ARE_CHECKED, check)


def test_energy_and_risk_say_what_they_ask():
    energy = proto.check_payload("energy", {"when": "after", "amount": 2, "die": 8})
    assert proto.describe("energy", energy) == "Энергия после броска: 2 куба d8"
    risk = proto.check_payload("risk", {"price": "сломан щуп"})
    assert proto.describe("risk", risk) == "Риск, цена: сломан щуп"


def test_a_fate_shift_with_points_says_them_and_the_gms_edit_sets_them():
    from tui.seats.rules_check import edited

    request = proto.Request("r", "fate", "abc", proto.check_payload("fate", {"use": "shift"}))
    request = edited(request, "−2")
    assert request.payload["points"] == -2
    assert proto.describe("fate", request.payload).endswith("(после броска) −2")
    with pytest.raises(proto.ProtocolError, match="числом"):
        edited(request, "много")


def test_hello_needs_a_name_and_a_token():
    hello = proto.parse_hello({"v": 1, "type": "hello", "seat": "Милава", "token": "t" * 32})
    assert hello.seat == "Милава"
    with pytest.raises(proto.ProtocolError, match="ключ"):
        proto.parse_hello({"v": 1, "type": "hello", "seat": "Милава", "token": "short"})
    with pytest.raises(proto.ProtocolError, match="представьтесь"):
        proto.parse_hello(GOOD)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "v": st.sampled_from([1, 1, 1, 2, "1", None]),
        "type": st.sampled_from(["request", "hello", "state", "stats", "x"]) | st.text(max_size=8),
        "id": st.sampled_from(["r1", "", "a" * 65, "../x"]) | json_values,
        "kind": st.sampled_from(proto.KINDS) | json_values,
        "character": st.sampled_from(["abc", ""]) | json_values,
        "payload": st.dictionaries(
            st.sampled_from(
                [
                    "action",
                    "target",
                    "weapon",
                    "distance",
                    "turns",
                    "note",
                    "use",
                    "when",
                    "amount",
                    "die",
                    "price",
                    "check",
                    "text",
                    "zz",
                ]
            ),
            json_values,
            max_size=6,
        )
        | json_values,
        "seat": json_values,
        "token": json_values,
    },
)


@settings(max_examples=examples(60), deadline=None)
@given(st.one_of(fields.map(proto.encode), st.binary(max_size=300)))
def test_fuzz_no_line_crashes_the_parser(line):
    """Whatever a seat sends is a request, a question about the luck stats, or a
    ProtocolError with a Russian reason."""
    try:
        message = proto.decode(line)
        if message.get("type") == "stats":
            asked = proto.parse_stats(message)
            assert set(message) <= {"v", "type", "id"} and asked == message["id"]
            return
        request = proto.parse_request(message)
    except proto.ProtocolError as err:
        assert str(err) and any("а" <= ch <= "я" for ch in str(err).lower())
        return
    assert request.kind in proto.KINDS
    assert json.loads(proto.encode(request.to_dict()))["id"] == request.id


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "sessions": st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "number": json_values,
                        "start": json_values,
                        "rolls": st.lists(st.lists(json_values, max_size=5), max_size=3)
                        | json_values,
                        "spent": st.dictionaries(st.text(max_size=5), json_values, max_size=2)
                        | json_values,
                    },
                ),
                max_size=3,
            )
            | json_values,
            "dists": st.lists(st.lists(json_values, max_size=3), max_size=3) | json_values,
        },
    )
)
def test_fuzz_a_seat_reads_any_stats_answer_or_says_why_not(answer):
    """Whatever the GM's app sends as the stats, the seat gets sessions or a Russian reason."""
    from tui.seats.stats import StatsError, sessions_from

    try:
        sessions = sessions_from(answer)
    except StatsError as err:
        assert any("а" <= ch <= "я" for ch in str(err).lower())
        return
    for s in sessions:
        assert isinstance(s.number, int) and isinstance(s.start, str)
        for r in s.rolls:
            assert isinstance(r.sample.percentile, float) and isinstance(r.who, str)


#: What reorders or hides text without a control code: a right-to-left override, an isolate,
#: a mark, zero-width joiners and spaces, a word joiner, a byte-order mark.
INVISIBLE = "\u202e\u2067\u200f\u200d\u200c\u200b\u2060\ufeff\u061c"
SPOOF = "Мила" + INVISIBLE + "ва"

#: Every text a seat sends: (kind or "hello", the field, the rest of a good payload).
TEXT_FIELDS = [
    ("declare", "weapon", {"action": "melee", "distance": "close"}),
    ("declare", "note", {"action": "melee", "distance": "close"}),
    ("fate", "note", {"use": "before"}),
    ("energy", "note", {"when": "before", "amount": 1}),
    ("risk", "price", {}),
    ("risk", "note", {}),
    ("reroll", "note", {}),
    ("expanded", "note", {}),
    ("note", "text", {}),
    ("hello", "seat", {}),
]


def test_bidi_and_zero_width_controls_are_stripped_from_every_seat_text():
    """Issue 35: a seat's note with U+202E showed reversed in the GM's Ctrl+P and the seat's
    list; the protocol stripped only C0/C1. Seat text passes the names' sanitiser."""

    def check(kind, field, rest) -> None:
        if kind == "hello":
            hello = {"v": 1, "type": "hello", "seat": SPOOF, "token": "k" * 32}
            assert proto.parse_hello(proto.decode(proto.encode(hello))).seat == "Милава"
            return
        message = {**GOOD, "kind": kind, "payload": {**rest, field: SPOOF}}
        request = proto.parse_request(proto.decode(proto.encode(message)))
        assert request.payload[field] == "Милава"
        described = proto.describe(kind, request.payload)
        assert "Милава" in described and not set(INVISIBLE) & set(described)

    assert_every_case(TEXT_FIELDS, check)


def test_the_names_sanitiser_strips_them_too():
    from tui.sanitize import clean, json_may_hold_controls

    assert clean(SPOOF) == "Милава"
    for ch in INVISIBLE:
        assert json_may_hold_controls(json.dumps({"n": ch}, ensure_ascii=False).encode())
        assert json_may_hold_controls(json.dumps({"n": ch}).encode())  # as \\uXXXX
