"""``kubik serve`` cannot run away, and its page loads nothing from outside (issue 15)."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.serve_helpers import read_link, wait_until_answering
from tui.cli import kubik as cli
from tui.cli import serve, serve_web

textual_serve = pytest.importorskip("textual_serve", reason="the serve extra is not installed")


def test_the_collector_comes_back_even_without_a_first_frame(monkeypatch) -> None:
    """Under ``kubik serve`` a browser gone during start-up meant no first frame, and the
    collector stayed off while memory grew ~20 MiB/s."""
    seen = []

    def never_drawn(args) -> int:  # an app whose first frame never comes
        deadline = time.monotonic() + 5
        while not gc.isenabled() and time.monotonic() < deadline:
            time.sleep(0.02)
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(cli, "GC_BACK_ON_SECONDS", 0.2)
    monkeypatch.setattr(cli, "_run_kubik", never_drawn)
    assert cli.run_app([]) == 0
    assert seen == [True] and gc.isenabled()


def test_the_page_loads_nothing_from_outside() -> None:
    source = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    assert "fonts.googleapis.com" in source.read_text()  # what textual-serve ships
    folder = serve.local_templates()
    page = (folder / "app_index.html").read_text()
    shutil.rmtree(folder)
    assert not re.search(serve.OUTSIDE, page)
    assert "fonts/RobotoMono-VariableFont_wght.ttf" in page
    font = Path(textual_serve.__file__).parent / "static" / "fonts"
    assert (font / "RobotoMono-VariableFont_wght.ttf").is_file()  # served by the server itself
    with pytest.raises(ValueError):
        serve.local_page('<script src="https://cdn.example/x.js"></script>')


STUBBORN = (
    'exec {python} -c "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);'
    " print('__GANGLION__', flush=True); time.sleep(600)\""
)


@pytest.mark.slow
def test_a_tab_whose_browser_left_is_stopped_within_seconds(monkeypatch) -> None:
    """A tab process that neither quits when asked nor on SIGTERM is killed.

    The stop waits :data:`serve_web.STOP_SECONDS` for the process to quit, then kills it: the
    test makes that wait 0.5 s (read when the stop runs, as the 3 s are), since what it proves
    is that the wait ends in a kill, not how long it is; 2.5 s less of the suite's wall."""
    from textual_serve.download_manager import DownloadManager

    monkeypatch.setattr(serve_web, "STOP_SECONDS", 0.5)

    async def scenario() -> tuple[float, int | None]:
        async def nothing(*args) -> None:
            return None

        service = serve_web.app_service_class(serve_web.Ending())(
            STUBBORN.format(python=sys.executable),
            write_bytes=nothing,
            write_str=nothing,
            close=nothing,
            download_manager=DownloadManager(),
        )
        await service.start(80, 24)
        await asyncio.sleep(0.5)
        started = time.monotonic()
        await service.stop()
        await service.stop()  # textual-serve calls it twice
        return time.monotonic() - started, service._process.returncode

    took, code = asyncio.run(scenario())
    assert code is not None and took < serve_web.STOP_SECONDS + 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tab_processes(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if marker.encode() in cmdline and b"-m\0tui" in cmdline and b"serve" not in cmdline:
            found.append(int(pid))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_browser_gone_during_start_up_leaves_no_process(tmp_path) -> None:
    """The real server: the page is local; a websocket closed at once leaves no kubik."""
    import aiohttp

    campaign = tmp_path / "serve-campaign.json"
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", str(port), "--campaign", str(campaign)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    link = ""
    try:
        link = read_link(server)
        wait_until_answering(port)
        url = f"http://127.0.0.1:{port}/"
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        page = browser.open(link, timeout=5).read().decode()  # the key becomes a cookie
        addresses = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert addresses and all(a.startswith(url) for a in addresses), addresses
        ws = f"ws://127.0.0.1:{port}/ws?width=80&height=24&{link.split('?')[1]}"

        async def leave_at_once() -> None:
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(ws):
                    await asyncio.sleep(0.3)  # the tab's kubik is starting

        for _ in range(3):
            threading.Thread(target=asyncio.run, args=(leave_at_once(),)).start()
        time.sleep(1.0)
        deadline = time.monotonic() + serve_web.STOP_SECONDS + 15
        while tab_processes(str(campaign)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert tab_processes(str(campaign)) == []
    finally:
        server.terminate()
        out, err = server.communicate(timeout=10)
    key = link.split("token=")[1]
    assert key.encode() not in out + err  # printed once, in the link: never in the log
    assert b'"GET /" 303' in out + err  # the log is there: the request of the link, without it
