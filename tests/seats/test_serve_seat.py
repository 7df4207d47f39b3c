"""``kubik serve --seat``: loopback only, and nothing without the seat's token."""

from __future__ import annotations

import pytest

from tui.cli.serve_seat import COOKIE, allowed, seat_command

pytest.importorskip("textual_serve")

TOKEN = "k" * 32


@pytest.mark.parametrize(
    ("path", "query", "cookie", "ok"),
    [
        ("/", TOKEN, None, True),
        ("/", None, TOKEN, True),
        ("/ws", None, TOKEN, True),
        ("/", None, None, False),
        ("/", "x" * 32, None, False),
        ("/ws", None, "wrong", False),
        ("/download/abc", TOKEN, TOKEN, False),
        ("/static/js/textual.js", None, None, True),
    ],
)
def test_only_the_token_opens_the_seat(path, query, cookie, ok):
    assert allowed(path, query, cookie, TOKEN) is ok


def test_each_tab_runs_the_seat_and_nothing_else(tmp_path):
    command = seat_command("Милава", tmp_path / "c.json")
    assert command.startswith("exec ") and " seat 'Милава' --campaign " in command
    assert "--view" not in command


async def test_the_server_refuses_without_the_token_and_sets_the_cookie_with_it(tmp_path):
    from aiohttp.test_utils import TestClient, TestServer

    from tui.cli.serve_seat import seat_server

    server = seat_server("Милава", TOKEN, tmp_path / "c.json", 8123)
    assert server.host == "127.0.0.1"
    app = await server._make_app()
    async with TestClient(TestServer(app)) as client:
        refused = await client.get("/")
        assert refused.status == 403 and "ключом" in await refused.text()
        assert (await client.get("/ws")).status == 403
        assert (await client.get("/?token=" + "x" * 32)).status == 403
        page = await client.get("/?token=" + TOKEN)
        assert page.status == 200
        assert COOKIE in page.cookies and page.cookies[COOKIE]["httponly"]
