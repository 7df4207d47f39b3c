"""A seat's key belongs to one campaign and one character, goes when the character goes or
when the GM makes a new one, and the keys file stays as small as the table (issue 35:
Богдан's key of one campaign opened another's socket, a removed character's key opened the
seat of a new one of that name, and one open of a 50,000-character file left 50,056 keys in
``tokens.json``).

The keys on the hub's socket are tested without the GM's app in
``tests/seats/test_keys_socket.py``."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace

import pytest

from tui.seats import tokens
from tui.seats.tokens import MAX_KEYS, SeatKeyError, keys_path, seat_key, seats_dir
from tui.store import Character, Store
from tui.store.models import new_id


def pc(name: str) -> Character:
    return Character(new_id(), name, "pc", {}, (), ())


def test_keys_are_made_when_asked_for_one_per_seat_and_bounded(tmp_path) -> None:
    folder = seats_dir(tmp_path)
    (folder / tokens.LEGACY).write_text('{"милава": "' + "x" * 32 + '"}')
    big = tmp_path / "big.json"
    store = Store.open(big)
    players = [pc(f"Игрок {i:05d}") for i in range(MAX_KEYS + 5)]
    store.apply("Партия", upsert=players)
    characters = store.characters()
    tokens.forget_stale(folder)  # what the GM's app does when it starts serving seats
    assert not (folder / tokens.LEGACY).exists()
    assert not keys_path(folder, store.path).exists()  # nobody sat down: no keys at all
    first = seat_key(folder, store.path, characters, "Игрок 00000")
    assert seat_key(folder, store.path, characters, "игрок 00000") == first  # the same seat
    for p in players[1:MAX_KEYS]:
        seat_key(folder, store.path, characters, p.name)
    path = keys_path(folder, store.path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(json.loads(path.read_text())["keys"]) == MAX_KEYS
    with pytest.raises(SeatKeyError, match="ключей мест"):
        seat_key(folder, store.path, characters, players[-1].name)
    with pytest.raises(SeatKeyError, match="нет игрока или персонажа"):
        seat_key(folder, store.path, characters, "Атаман Шкуро")  # an NPC has no seat
    tokens.keep_only(folder, store.path, [p.id for p in players[:3]])
    assert len(tokens.read_keys(folder, store.path)) == 3
    store.close()
    big.unlink()  # the campaign is gone: so are its keys, at the next start
    tokens.forget_stale(folder)
    assert not path.exists()


def test_a_player_with_two_characters_keeps_one_key(tmp_path) -> None:
    folder = seats_dir(tmp_path)
    store = Store.open(tmp_path / "c.json")
    mine = [replace(pc(name), extra={"player": "Оля"}) for name in ("Ведьма", "Кот")]
    store.apply("Оля", upsert=mine)
    key = seat_key(folder, store.path, store.characters(), "Оля")
    assert seat_key(folder, store.path, store.characters(), "оля") == key
    owner = tokens.character_of(folder, store.path, key)
    assert owner in {c.id for c in mine}
    tokens.revoke(folder, store.path, [owner])  # that character left: a new key, the other's
    again = seat_key(folder, store.path, store.characters(), "Оля")
    assert again != key
    store.close()


async def test_a_seat_server_refuses_a_revoked_key() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from tests.serve_helpers import free_port
    from tui.cli.serve_seat import seat_server

    key = {"now": "k" * 32}
    port = free_port()
    server = seat_server("Милава", lambda: key["now"], None, port)
    app = await server._make_app()
    async with TestClient(TestServer(app, port=port)) as client:
        assert (await client.get("/?token=" + "k" * 32)).status == 200
        key["now"] = None  # the GM revoked it
        assert (await client.get("/")).status == 403  # the cookie opens nothing now
        assert (await client.get("/?token=" + "k" * 32)).status == 403
