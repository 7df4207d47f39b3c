"""``kubik serve --seat``: loopback only, and nothing without the seat's key (the guard itself,
shared with ``kubik serve``, is tests/test_serve_guard.py's)."""

from __future__ import annotations

import pytest

from tests.serve_helpers import free_port
from tui.cli.serve_seat import HINT, seat_command
from tui.cli.serve_web import cookie_name

pytest.importorskip("textual_serve")

TOKEN = "k" * 32


def test_each_tab_runs_the_seat_and_nothing_else(tmp_path):
    command = seat_command("Милава", tmp_path / "c.json")
    assert command.startswith("exec ") and " seat 'Милава' --campaign " in command
    assert "--view" not in command


async def test_the_server_refuses_without_the_key_and_sets_the_cookie_with_it(tmp_path):
    from aiohttp.test_utils import TestClient, TestServer

    from tui.cli.serve_seat import seat_server

    port = free_port()
    server = seat_server("Милава", TOKEN, tmp_path / "c.json", port)
    assert server.host == "127.0.0.1"
    app = await server._make_app()
    async with TestClient(TestServer(app, port=port)) as client:
        refused = await client.get("/")
        assert refused.status == 403 and await refused.text() == HINT
        assert (await client.get("/ws")).status == 403
        assert (await client.get("/?token=" + "x" * 32)).status == 403
        page = await client.get("/?token=" + TOKEN, allow_redirects=False)
        assert page.status == 303
        cookie = page.cookies[cookie_name(port)]
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        assert (await client.get("/")).status == 200
