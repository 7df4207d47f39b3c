"""Helpers of the ``kubik serve`` tests: a real server in a subprocess, its link, its process
tree, and browser sessions over its websocket (what a browser tab does)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import selectors
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_link(server: subprocess.Popen, timeout: float = 20.0) -> str:
    """Return the first http:// address the server prints (its link)."""
    assert server.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(server.stdout, selectors.EVENT_READ)
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not selector.select(max(deadline - time.monotonic(), 0.01)):
            continue
        chunk = os.read(server.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        found = re.search(rb"http://[^\s\xe2]+", seen)
        if found and b"\n" in seen[found.end() :]:
            return found.group().decode()
    raise AssertionError(f"kubik serve printed no link: {seen!r} {server.stderr}")


def wait_until_answering(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("kubik serve did not listen")


def process_tree(root: int) -> list[int]:
    """Return ``root`` and every process below it (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def living(pids: list[int]) -> list[int]:
    """Return the ones of ``pids`` that still run (a zombie has ended)."""
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


async def browser_sessions(link: str, count: int, keep: int, seed: int) -> list[asyncio.Task]:
    """Open ``count`` websocket sessions as browser tabs do; all but ``keep`` leave again
    within 0.4 s (many while their tab's process is still starting). Returns the open ones."""
    import aiohttp

    rng = random.Random(seed)
    base = link.split("?")[0].rstrip("/")
    query = link.split("?", 1)[1] if "?" in link else ""
    ws = (
        base.replace("http://", "ws://") + "/ws?width=80&height=24" + (f"&{query}" if query else "")
    )
    origin = base

    async def tab(stay: bool, delay: float) -> None:
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(ws, headers={"Origin": origin}) as socket_:
                    await asyncio.sleep(600 if stay else delay)
                    await socket_.close()
            except (aiohttp.ClientError, OSError):
                pass

    tasks = [asyncio.create_task(tab(i < keep, rng.uniform(0.0, 0.4))) for i in range(count)]
    await asyncio.sleep(0.6)
    return tasks
