"""What both browser servers share (``kubik serve`` and ``kubik serve --seat``).

* **A key on every page.** The link printed once at start carries it (``/?token=…``); that
  request gets an HttpOnly, SameSite=Strict cookie and is sent on to ``/``, so the key leaves
  the address bar, the history and the Referer of later requests. Without the key (the query
  or the cookie) the page and its websocket get 403 and nothing starts. Only ``/``, ``/ws``
  and the static files (textual-serve's own script, styles and font) exist.
* **Only the address it serves.** A request whose ``Host`` is another name is refused (DNS
  rebinding: a page of evil.example whose name is made to point at 127.0.0.1), and so is one
  whose ``Origin`` is another site (a websocket opened by a foreign page).
* **No secret in the log**: the access log has the address, the method, the path without its
  query, and the status — never the query, the cookie or the Referer.
* **An end within seconds**: Ctrl+C, SIGTERM and a closed terminal (SIGHUP) ask every tab's
  process to quit (SIGTERM to its process group: each tab is a session of its own, so a
  process it started goes too), kill what is left after :data:`GRACE` seconds, and end the
  server after :data:`DEADLINE` seconds whatever its loop is still waiting for.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: The query parameter of the link that carries the key.
KEY_PARAM = "token"
#: Seconds a tab's process gets to quit after the server was told to stop; then SIGKILL.
GRACE = 1.0
#: Seconds after the signal when the server ends whatever it still waits for.
DEADLINE = 3.0
#: Seconds a tab's kubik gets to quit after its browser left, before it is killed.
STOP_SECONDS = 3.0
#: The signals that stop the server: Ctrl+C, ``kill``, a closed terminal.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})
NO_REFERRER = {"Referrer-Policy": "no-referrer"}


def new_key() -> str:
    """Return a fresh key for a link (192 random bits)."""
    import secrets

    return secrets.token_urlsafe(24)


def cookie_name(port: int) -> str:
    """Return the cookie of the server on ``port``: a browser sends a cookie of 127.0.0.1 to
    every port there, so two servers (the GM's, a seat's) must not share one name."""
    return f"kubik_{port}"


def split_host(value: str) -> tuple[str, int] | None:
    """Return the name and port of a ``Host`` value (``[::1]:8000``), None when malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else "" if not rest else None
    else:
        name, colon, port_text = value.rpartition(":")
        if not colon:
            name, port_text = value, ""
        elif ":" in name:  # an IPv6 address without brackets: no port can be told apart
            return None
    if port_text is None or not name:
        return None
    if not port_text:
        return name, 80
    if not re.fullmatch("[0-9]{1,5}", port_text):  # isdigit() takes «٨» and «²» (int() raises)
        return None
    return name, int(port_text)


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Hosts:
    """The addresses a server answers to: the one it serves (and its loopback names).

    Bound to every address (``--host 0.0.0.0``), any IP address of this computer may be the
    one a player typed, so every IP literal passes, and this computer's own name; a DNS
    rebinding needs a name the attacker owns, and that never passes.
    """

    def __init__(self, host: str, port: int) -> None:
        host = host.strip("[]").lower()
        self.port = port
        self.wildcard = host in WILDCARDS
        self.names = {host}
        if host in LOOPBACK_NAMES or self.wildcard:
            self.names |= LOOPBACK_NAMES
        if self.wildcard:
            self.names.add(socket.gethostname().lower())

    def allows(self, value: str | None) -> bool:
        """Return whether a ``Host`` header names this server."""
        parts = split_host(value) if value else None
        if parts is None or parts[1] != self.port:
            return False
        name = parts[0]
        return name in self.names or (self.wildcard and is_ip(name))

    def allows_origin(self, origin: str) -> bool:
        """Return whether an ``Origin`` header is a page of this server."""
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return parts.scheme == "http" and not parts.path.strip("/") and self.allows(parts.netloc)


def key_matches(given: str | None, key: str) -> bool:
    return hmac.compare_digest((given or "").encode(), key.encode())


def refusal(
    path: str,
    host: str | None,
    origin: str | None,
    query_key: str | None,
    cookie: str | None,
    key: str | None,
    hosts: Hosts,
    *,
    hint: str,
) -> str | None:
    """Return why a request is refused (Russian), or None when it may pass.

    ``key``: the key now (None: revoked, nothing opens); ``hint``: what to do without it
    (where the link comes from).
    """
    if not hosts.allows(host):
        return "Чужой адрес в запросе (Host): этот сервер отвечает только на свой адрес."
    if origin is not None and not hosts.allows_origin(origin):
        return "Запрос со страницы другого сайта (Origin) отклонён."
    if path.startswith("/static/"):
        return None  # textual-serve's script, styles and font: nothing of the campaign
    if path not in ("/", "/ws"):
        return "Такой страницы нет."
    if key and (key_matches(query_key, key) or key_matches(cookie, key)):
        return None
    return hint


def secret_free_access_log() -> type:
    """Return aiohttp's access logger without the query, the cookie or the Referer (a key
    travels in them): the address, the method, the path and the status."""
    from aiohttp.abc import AbstractAccessLogger

    class SecretFreeAccessLog(AbstractAccessLogger):
        def log(self, request: Any, response: Any, time: float) -> None:
            self.logger.info(
                '%s "%s %s" %s', request.remote, request.method, request.path, response.status
            )

    return SecretFreeAccessLog


def runner_options() -> dict[str, Any]:
    """Return the options of aiohttp's runner: a short shutdown, the log without secrets."""
    return {"shutdown_timeout": GRACE, "access_log_class": secret_free_access_log()}


class Ending:
    """Every tab's process, and the end of the server within :data:`DEADLINE` seconds."""

    def __init__(self) -> None:
        self._processes: set[Any] = set()
        self._lock = threading.Lock()
        self.begun = False
        #: Run before the server ends by force (the page's folder is removed).
        self.cleanups: list[Callable[[], None]] = []

    def add(self, process: Any) -> None:
        with self._lock:
            self._processes.add(process)
        if self.begun:  # started while the server stops: it goes at once
            kill_group(process, signal.SIGKILL)

    def discard(self, process: Any) -> None:
        with self._lock:
            self._processes.discard(process)

    def kill_all(self, how: int) -> None:
        """Send ``how`` to every tab's process group (and any child of ours left)."""
        with self._lock:
            processes = list(self._processes)
        for process in processes:
            kill_group(process, how)
        for pid in own_children():
            with contextlib.suppress(OSError):
                if os.getpgid(pid) == pid:
                    os.killpg(pid, how)
                else:
                    os.kill(pid, how)

    def begin(self) -> None:
        """Stop: every tab is asked (SIGTERM), killed after :data:`GRACE` s; the server ends
        by :data:`DEADLINE` s. A second signal kills the tabs at once."""
        if self.begun:
            self.kill_all(signal.SIGKILL)
            return
        self.begun = True
        self.kill_all(signal.SIGTERM)
        threading.Thread(target=self._watch, name="kubik-serve-end", daemon=True).start()

    def _watch(self) -> None:
        time.sleep(GRACE)
        self.kill_all(signal.SIGKILL)
        time.sleep(max(DEADLINE - GRACE, 0))
        self.finish()
        os._exit(0)  # the loop still waits for something: the server ends anyway

    def finish(self) -> None:
        """Kill every tab left and run the cleanups (once each)."""
        self.kill_all(signal.SIGKILL)
        while self.cleanups:
            with contextlib.suppress(Exception):
                self.cleanups.pop()()


def kill_group(process: Any, how: int) -> None:
    """Send ``how`` to a tab's process group (its process and whatever it started)."""
    if process.returncode is not None:
        return  # reaped: its number may be another process's now
    try:
        os.killpg(process.pid, how)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(how)


def own_children() -> list[int]:
    """Return the processes whose parent is this one (Linux: /proc; elsewhere none)."""
    me = str(os.getpid())
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[1] == me and fields[0] != "Z":
            found.append(int(entry))
    return found


def app_service_class(ending: Ending) -> type:
    """Return textual-serve's AppService whose processes ``ending`` knows, each a session of
    its own, and whose stop never waits for ever.

    textual-serve asks a tab's process to quit when its browser leaves and then waits for it
    without a limit; a kubik that never got to read the request (a browser gone during
    start-up) ran on. This one waits :data:`STOP_SECONDS` (none once the server stops), then
    kills the process's group.
    """
    from textual_serve.app_service import AppService

    class StoppingAppService(AppService):
        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            environment = self._build_environment(width=width, height=height)
            self._process = process = await asyncio.create_subprocess_shell(
                self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=environment,
                start_new_session=True,  # its group is its own: stopped with what it started
            )
            ending.add(process)
            self._stdin = process.stdin
            return process

        async def stop(self) -> None:
            process = self._process
            if not ending.begun:
                try:
                    await asyncio.wait_for(super().stop(), STOP_SECONDS)
                except (TimeoutError, asyncio.TimeoutError, OSError):
                    self._task = None  # cancelled with the wait: a second stop has nothing to await
            if process is None:
                return
            if process.returncode is None:
                kill_group(process, signal.SIGKILL)  # it did not quit when asked
                with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), GRACE)
            if process.returncode is not None:
                ending.discard(process)

    return StoppingAppService


def guarded_server(
    command: str,
    *,
    key: str | Callable[[], str | None],
    host: str,
    port: int,
    title: str,
    hint: str,
    templates: Path,
) -> Any:
    """Return a textual-serve Server of ``command`` behind ``key`` (see the module).

    ``key``: the key, or a function that says what it is now (a seat's may be revoked).
    """
    import textual_serve.server as served
    from aiohttp import web
    from aiohttp.web_runner import GracefulExit

    ending = Ending()
    served.AppService = app_service_class(ending)  # type: ignore[misc, assignment]  # the server looks it up here
    hosts = Hosts(host, port)
    cookie = cookie_name(port)

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        now = key() if callable(key) else key
        why = refusal(
            request.path,
            request.headers.get("Host"),
            request.headers.get("Origin"),
            request.query.get(KEY_PARAM),
            request.cookies.get(cookie),
            now,
            hosts,
            hint=hint,
        )
        if why:
            return web.Response(status=403, text=why, headers=NO_REFERRER)
        if request.path == "/" and KEY_PARAM in request.query:
            # The key goes into the cookie and out of the address (history, Referer).
            rest = {k: v for k, v in request.query.items() if k != KEY_PARAM}
            target = str(request.rel_url.with_query(rest))
            response = web.Response(status=303, headers={"Location": target, **NO_REFERRER})
            response.set_cookie(cookie, now or "", httponly=True, samesite="Strict", path="/")
            return response
        answer = await handler(request)
        if not answer.prepared:
            answer.headers.update(NO_REFERRER)
        return answer

    class GuardedServer(served.Server):
        ending: Ending

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(guard)
            return app

        async def on_startup(self, app: web.Application) -> None:
            """Say nothing: kubik printed its link (textual-serve printed the command)."""

        async def handle_index(self, request: web.Request) -> Any:
            # The page's addresses are the one the browser used (checked by the guard): the
            # server's own (0.0.0.0, say) means nothing to a browser on another machine.
            self.public_url = f"http://{request.host}"
            return await super().handle_index(request)

        def serve(self, debug: bool = False) -> None:
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)

            def stop() -> None:
                self.ending.begin()
                raise GracefulExit()

            for how in STOP_SIGNALS:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(how, stop)
            try:
                web.run_app(
                    self._make_app(),
                    host=self.host,
                    port=self.port,
                    handle_signals=False,
                    loop=loop,
                    print=lambda *args: None,
                    **runner_options(),
                )
            finally:
                self.ending.finish()

    server = GuardedServer(command, host=host, port=port, title=title, templates_path=templates)
    server.ending = ending
    return server
