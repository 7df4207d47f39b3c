"""Both browser servers (``kubik serve``, its ``--view``, and ``kubik serve --seat``) open only
with the key of the link they print, answer only their own address, refuse a foreign page's
websocket and log no secret (issue 35: ``curl http://127.0.0.1:8000/`` got the GM's app with
write rights, ``Host: evil.example`` got 200, a websocket from ``Origin: http://evil.example``
got 101, and the seat's key stood in the access log)."""

from __future__ import annotations

import logging

import pytest

from tests.every_case import assert_every_case
from tests.serve_helpers import free_port
from tui.cli import serve, serve_web
from tui.cli.serve_web import Hosts, cookie_name, refusal, split_host

pytest.importorskip("textual_serve", reason="the serve extra is not installed")

KEY = "k" * 32
HINT = "Нужна ссылка с ключом"


A_HOST_HEADER_IS_READ_STRICTLY = [
    ("127.0.0.1:8000", ("127.0.0.1", 8000)),
    ("LOCALHOST:8000", ("localhost", 8000)),
    ("[::1]:8000", ("::1", 8000)),
    ("[::1]", ("::1", 80)),
    ("evil.example", ("evil.example", 80)),
    ("::1", None),
    ("127.0.0.1:80x", None),
    (":8000", None),
    ("[::1]x", None),
    # a port of the digits 0–9 only: isdigit() took «٨٠٠٠» (int() read 8000) and «²» (int()
    # raised: a traceback for one request)
    ("127.0.0.1:٨٠٠٠", None),
    ("127.0.0.1:²", None),
]


def test_a_host_header_is_read_strictly() -> None:
    def check(value, parts) -> None:
        assert split_host(value) == parts

    assert_every_case(A_HOST_HEADER_IS_READ_STRICTLY, check)


ONLY_THE_ADDRESS_SERVED_IS_ANSWERED = [
    ("127.0.0.1", "127.0.0.1:8000", True),
    ("127.0.0.1", "localhost:8000", True),
    ("127.0.0.1", "[::1]:8000", True),
    ("127.0.0.1", "evil.example:8000", False),  # DNS rebinding
    ("127.0.0.1", "127.0.0.1:8001", False),
    ("127.0.0.1", "127.0.0.1", False),
    ("127.0.0.1", None, False),
    ("127.0.0.1", "192.168.1.5:8000", False),
    ("0.0.0.0", "192.168.1.5:8000", True),  # the LAN: any IP of this computer
    ("0.0.0.0", "evil.example:8000", False),
    ("192.168.1.5", "192.168.1.5:8000", True),
    ("192.168.1.5", "127.0.0.1:8000", False),
]


def test_only_the_address_served_is_answered() -> None:
    def check(bound, host, ok) -> None:
        assert Hosts(bound, 8000).allows(host) is ok

    assert_every_case(ONLY_THE_ADDRESS_SERVED_IS_ANSWERED, check)


ONLY_A_PAGE_OF_THIS_SERVER_MAY_OPEN_ITS_WEBSOCKET = [
    ("http://127.0.0.1:8000", True),
    ("http://localhost:8000", True),
    ("http://evil.example", False),
    ("http://evil.example:8000", False),
    ("https://127.0.0.1:8000", False),
    ("null", False),
    ("http://127.0.0.1:8000/page", False),
]


def test_only_a_page_of_this_server_may_open_its_websocket() -> None:
    def check(origin, ok) -> None:
        assert Hosts("127.0.0.1", 8000).allows_origin(origin) is ok

    assert_every_case(ONLY_A_PAGE_OF_THIS_SERVER_MAY_OPEN_ITS_WEBSOCKET, check)


ONLY_THE_KEY_OPENS_A_PAGE = [
    ("/", "127.0.0.1:8000", None, KEY, None, True),
    ("/ws", "127.0.0.1:8000", "http://127.0.0.1:8000", None, KEY, True),
    ("/", "127.0.0.1:8000", None, None, None, False),
    ("/", "127.0.0.1:8000", None, "x" * 32, None, False),
    ("/ws", "127.0.0.1:8000", None, None, "wrong", False),
    ("/ws", "evil.example:8000", None, KEY, None, False),
    ("/ws", "127.0.0.1:8000", "http://evil.example", None, KEY, False),
    ("/download/abc", "127.0.0.1:8000", None, KEY, KEY, False),
    ("/static/js/textual.js", "127.0.0.1:8000", None, None, None, True),
    ("/static/js/textual.js", "evil.example:8000", None, None, None, False),
]


def test_only_the_key_opens_a_page() -> None:
    def check(path, host, origin, query, cookie, passes) -> None:
        why = refusal(path, host, origin, query, cookie, KEY, Hosts("127.0.0.1", 8000), hint=HINT)
        assert (why is None) is passes
        assert why is None or why.strip()

    assert_every_case(ONLY_THE_KEY_OPENS_A_PAGE, check)


def gm_server(tmp_path, port: int, *, view: bool = False):
    return serve_web.guarded_server(
        serve.app_command(tmp_path / "c.json", view=view),
        key=KEY,
        host="127.0.0.1",
        port=port,
        title="kubik",
        hint=HINT,
        templates=serve.local_templates(),
    )


@pytest.mark.parametrize("view", [False, True], ids=["gm", "view"])
async def test_the_gm_app_and_the_view_need_the_key(tmp_path, view) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    port = free_port()
    server = gm_server(tmp_path, port, view=view)
    app = await server._make_app()
    async with TestClient(TestServer(app, port=port)) as client:
        refused = await client.get("/")
        assert refused.status == 403 and HINT in await refused.text()
        assert (await client.get("/ws")).status == 403
        assert (await client.get("/?token=" + "x" * 32)).status == 403
        opened = await client.get("/?token=" + KEY, allow_redirects=False)
        assert opened.status == 303 and opened.headers["Location"] == "/"  # the key leaves
        cookie = opened.cookies[cookie_name(port)]
        assert cookie.value == KEY and cookie["httponly"] and cookie["samesite"] == "Strict"
        assert opened.headers["Referrer-Policy"] == "no-referrer"
        page = await client.get("/")  # the cookie, as a browser sends it
        assert page.status == 200 and page.headers["Referrer-Policy"] == "no-referrer"
        assert f"ws://127.0.0.1:{port}/ws" in await page.text()


async def test_a_foreign_host_or_origin_is_refused_even_with_the_key(tmp_path) -> None:
    from aiohttp import WSServerHandshakeError
    from aiohttp.test_utils import TestClient, TestServer

    port = free_port()
    app = await gm_server(tmp_path, port)._make_app()
    async with TestClient(TestServer(app, port=port)) as client:
        rebound = await client.get("/?token=" + KEY, headers={"Host": "evil.example"})
        assert rebound.status == 403 and "Host" in await rebound.text()
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect("/ws?token=" + KEY, headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403


async def test_no_key_reaches_the_access_log(tmp_path, caplog) -> None:
    """The page's later requests carried the link in their Referer, which the default access
    log writes: the server's own log now has the path alone."""
    from aiohttp.test_utils import TestClient, TestServer

    port = free_port()
    app = await gm_server(tmp_path, port)._make_app()
    server = TestServer(app, port=port)
    await server.start_server(**serve_web.runner_options())  # as the server runs it
    caplog.set_level(logging.INFO, logger="aiohttp.access")
    async with TestClient(server) as client:
        await client.get("/?token=" + KEY)
        referer = {"Referer": f"http://127.0.0.1:{port}/?token={KEY}"}
        await client.get("/static/css/xterm.css", headers=referer)
        await client.get("/?token=" + "y" * 32, headers=referer)
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(lines) >= 3 and any('"GET /static/css/xterm.css"' in line for line in lines)
    assert not any(KEY in line or "y" * 32 in line for line in lines)
