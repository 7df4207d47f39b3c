"""Issue 30, the shared table: a seat's requests by round, the distance in the GM's Ctrl+P,
no hidden NPC's weapon and no GM key in what the players read."""

from __future__ import annotations

from dataclasses import replace

from rules.drevo.sheet import DrevoSheet
from tui.bridge.public import Masker
from tui.seats.protocol import describe
from tui.seats.seat_draw import shown_requests
from tui.store import Character, new_id
from tui.systems.drevo.fight.steps import public_reason


def test_a_seat_shows_this_rounds_requests_not_last_rounds_accepted_one() -> None:
    old = {"id": "a", "status": "accepted", "round": 1, "text": "Заявка: Уклонение"}
    new = {"id": "b", "status": "pending", "round": 2, "text": "Заявка: Уклонение"}
    assert shown_requests([old, new], 2) == [new]
    assert shown_requests([old, new], 0) == [old, new]  # no fight: the last three


def test_the_gms_request_line_names_the_distance_and_the_turns_in_words() -> None:
    """The distance sets the difficulty; Ctrl+P showed «Стрельба, Лук → Лыко» without it."""
    payload = {"action": "shoot", "weapon": "Лук", "target": "x", "distance": "medium", "turns": 5}
    text = describe("declare", payload, {"x": "Лыко"})
    assert text == "Заявка: Стрельба, Лук, 5 ходов → Лыко, средне"


def test_a_hidden_npcs_weapon_is_masked_unless_someone_seen_carries_it() -> None:
    """«??? … МУ (Булава)» named the hidden NPC by his weapon."""
    wolf = Character(new_id(), "Вышата", "npc", {}, (), ("Булава", "Нож"), hidden=True)
    goran = Character(new_id(), "Горан", "pc", {}, (), ("Нож",), sheet=DrevoSheet(fate=3))
    mask = Masker([wolf, goran])
    line = "Урон — Горан: разница +1, МУ (Булава) +1 = 2; Вышата: Нож"
    assert mask(line) == "Урон — Горан: разница +1, МУ (???) +1 = 2; ???: Нож"
    seen = replace(wolf, hidden=False)
    assert Masker([seen, goran])(line) == line


def test_no_gm_key_reaches_the_players_log() -> None:
    """«пропустите схватку (s)», «выберите другого» reached the players' Журнал."""
    reason = "Лыко не может ничего делать (Тяжёлая рана): выберите другого."
    assert public_reason(reason) == "Лыко не может ничего делать (Тяжёлая рана)."
