"""``kubik serve`` ends, with every process below it, within seconds of Ctrl+C, SIGTERM or a
closed terminal, whatever its browser tabs are doing (issue 35: it stayed alive 25 minutes
after Ctrl+C once twenty sessions had come and gone, one still open).

Every tab here runs a process harder to stop than kubik (tests/serve_helpers.py): it ignores
the request to quit, SIGINT, SIGTERM and SIGHUP, and has a child that ignores SIGTERM. Twenty
sessions: fifteen leave within 0.4 s (many while their process starts), five stay open.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time

import pytest

from tests.serve_helpers import (
    browser_sessions,
    free_port,
    living,
    process_tree,
    read_link,
    start_server,
    wait_until_answering,
)

pytest.importorskip("textual_serve", reason="the serve extra is not installed")

#: The issue's bound: the whole process tree is gone this many seconds after the signal.
ENDS_WITHIN = 5.0


def serve_and_stop(tmp_path, how: signal.Signals, seed: int, *, stub: bool = True) -> float:
    """Serve, open twenty sessions, send ``how``; return how long the tree took to end."""
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path),
    }
    port = free_port()
    server = start_server(
        ["--port", str(port), "--campaign", str(tmp_path / f"c{seed}.json")], env, stub=stub
    )
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    tree: list[int] = [server.pid]
    tabs: list[asyncio.Task] = []
    try:
        link = read_link(server)
        wait_until_answering(port)
        tabs = asyncio.run_coroutine_threadsafe(browser_sessions(link, 20, 5, seed), loop).result(
            30
        )
        deadline = time.monotonic() + 20  # a loaded machine starts them late
        while len(tree := process_tree(server.pid)) <= 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(tree) > 5, "the tabs' processes did not start"
        time.sleep(0.2)  # more of them are still starting: the moment the issue met
        started = time.monotonic()
        server.send_signal(how)
        while living(tree) and time.monotonic() - started < ENDS_WITHIN + 10:
            time.sleep(0.05)
        took = time.monotonic() - started
        left = living(tree)
        assert not left, f"still running {took:.1f} s after {how.name}: {left}"
        return took
    finally:
        for pid in living(tree):
            os.kill(pid, signal.SIGKILL)
        server.wait(timeout=10)
        asyncio.run_coroutine_threadsafe(leave(tabs), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)


async def leave(tabs: list[asyncio.Task]) -> None:
    for tab in tabs:
        tab.cancel()
    await asyncio.gather(*tabs, return_exceptions=True)


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("how", "seed"),
    [(signal.SIGINT, 1), (signal.SIGINT, 2), (signal.SIGTERM, 3), (signal.SIGHUP, 4)],
    ids=["ctrl-c", "ctrl-c-again", "sigterm", "terminal-closed"],
)
def test_the_whole_tree_ends_within_seconds(tmp_path, how, seed) -> None:
    took = serve_and_stop(tmp_path, how, seed)
    assert took <= ENDS_WITHIN, f"{took:.1f} s"
