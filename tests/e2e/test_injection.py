"""No escape sequence from a name or a file reaches the terminal (issue 15).

The real ``kubik`` and ``kubik --view`` run on a pseudo-terminal (80×24) and every byte they
write is kept. The campaign holds OSC 52 (clipboard), OSC 2 (window title), CSI and DCS
sequences and a C1 CSI in every text field a file can hold: the campaign's name, each
character's name, notes, skills, weapons and extras, a Журнал entry's actor and text; a
second campaign's *file name* carries one too (Ctrl+O lists file names). The keys then
show every sheet, open the edit form, the campaign picker and the Журнал, and copy the
last entry with «y» (OSC 52).

What Textual itself writes is known: CSI sequences ending in H, h, l, m, p or u, OSC 22
(the pointer shape) and OSC 52 for a copy. Anything else — an OSC 2, a DCS, a CSI «J»
or «n», a C1 control, an OSC 52 whose text holds a control code — came from the file.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tui.store import Store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pseudo-terminal"),
]

OSC52 = "\x1b]52;c;cm0gLXJmIH4gIyBnb3RjaGE=\x07"  # "rm -rf ~ # gotcha"
OSC2 = "\x1b]2;PWNED\x07"
CSI = "\x1b[2J\x1b[6n"
DCS = "\x1bP+q544e\x1b\\"
C1 = "\x9b31m"
PAYLOAD = OSC52 + OSC2 + CSI + DCS + C1

TEXTUAL_CSI_FINALS = set(b"Hhlmpu")
TEXTUAL_OSC = {b"22", b"52"}


def hostile_campaign(folder: Path) -> Path:
    path = folder / "c.json"
    Store.open(path).close()
    t = json.loads(path.read_text(encoding="utf-8"))
    (meta,) = t["meta"].values()
    meta["name"] = f"Кампания{PAYLOAD}"
    for doc in t["characters"].values():
        doc["name"] += PAYLOAD
        doc["notes"] = PAYLOAD
        doc["weapons"] = [w + PAYLOAD for w in doc["weapons"]]
        for skill in doc["skills"]:
            skill["name"] += PAYLOAD
        doc["extra"] = {**doc["extra"], "title": PAYLOAD}
    path.write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    entry = {"id": "e1", "at": "2026-11-29T20:00:00+03:00", "kind": "roll"}
    entry |= {"actor": f"Волк{PAYLOAD}", "text": f"2d6 = 7{PAYLOAD}", "data": {"x": PAYLOAD}}
    (folder / "c.log.jsonl").write_text(json.dumps(entry) + "\n", encoding="utf-8")
    other = folder / f"вторая{OSC2}.json"  # a file name is text from outside too
    Store.open(other).close()
    return path


#: Output quiet this long after a key's echo on the screen: the app has drawn that key.
QUIET = 0.25


def run_on_pty(argv: list[str], keys: list[tuple[bytes, float]], home: Path) -> bytes:
    """Run ``argv`` on an 80×24 pseudo-terminal, type ``keys`` once the first screen is up,
    and return every byte the program wrote.

    Each key waits for the screen to answer it (output after the key, then ``QUIET``
    seconds without output), at most its pause: a key the screen does not redraw for waits
    the whole pause, and a key never goes out while the app still draws the one before.
    """
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "TEXTUAL_ANIMATIONS": "none",
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.execve(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = bytearray()
    queue = list(keys)
    started = time.monotonic()
    sent_at = None  # when the last key went out (the screen's start counts as one)
    answered = False  # output came after it
    last_output = started
    pause = 3.0  # the first screen: at most this long to settle
    while time.monotonic() - started < 60:
        ready, _, _ = select.select([fd], [], [], 0.05)
        now = time.monotonic()
        if ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break  # the program ended
            if not data:
                break
            out += data
            last_output = now
            answered = sent_at is not None
        if sent_at is None:
            if b"\x1b[?1049h" in out:  # the app's screen is up
                sent_at, answered = now, True
            continue
        settled = answered and now - last_output >= QUIET
        if queue and (settled or now - sent_at >= pause):  # after the last, read to the end
            key, pause = queue.pop(0)
            os.write(fd, key)
            sent_at, answered = time.monotonic(), False
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    return bytes(out)


def foreign_sequences(out: bytes) -> list[bytes]:
    """Return every control sequence in ``out`` that Textual does not write itself."""
    found = []
    for m in re.finditer(rb"\x1b\](\d*);([^\x07\x1b]*)(?:\x07|\x1b\\)", out):
        if m.group(1) not in TEXTUAL_OSC:
            found.append(m.group())
        elif m.group(1) == b"52":
            copied = base64.b64decode(m.group(2).split(b";")[-1]).decode("utf-8")
            if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", copied):
                found.append(m.group())
    for m in re.finditer(rb"\x1b\[[0-9;?<>=]*[ -/]*([@-~])", out):
        if m.group(1)[0] not in TEXTUAL_CSI_FINALS:
            found.append(m.group())
    found += re.findall(rb"\x1b[^\[\]]", out)  # DCS (ESC P), ESC \, any other escape
    found += re.findall(rb"\xc2[\x80-\x9f]", out)  # C1 controls in UTF-8
    return found


def test_the_app_writes_no_sequence_from_the_file(tmp_path) -> None:
    path = hostile_campaign(tmp_path)
    # Every character's sheet: the first is shown at the start, each «down» shows the next.
    # (Seven «up» keys back to the first showed the same sheets again: the form below is
    # named after the last character, whose name and fields carry the same payload.)
    keys = [(b"\x1b[B", 0.3)] * 7
    keys += [(b"e", 1.5), (b"\x1b", 1.0)]  # the edit form, named after the character
    keys += [(b"\x0f", 2.0), (b"\x1b", 1.0)]  # Ctrl+O: campaign names and file names
    keys += [(b"4", 1.5), (b"y", 1.0)]  # the Журнал, then copy its last entry (OSC 52)
    keys += [(b"\x11", 2.0)]  # Ctrl+Q
    out = run_on_pty([sys.executable, "-m", "tui", "--campaign", str(path)], keys, tmp_path)
    assert b"\x1b[?1049h" in out  # it ran
    assert foreign_sequences(out) == []
    assert "␛]2;PWNED".encode() in out  # the names are shown, their escapes visible
    assert re.search(rb"\x1b\]52;c;", out)  # the copy happened


def test_the_view_writes_no_sequence_from_the_file(tmp_path) -> None:
    path = hostile_campaign(tmp_path)
    argv = [sys.executable, "-m", "tui", "--view", "--campaign", str(path)]
    out = run_on_pty(argv, [(b"q", 2.0)], tmp_path)
    assert b"\x1b[?1049h" in out
    assert foreign_sequences(out) == []
    assert "␛]2;PWNED".encode() in out
