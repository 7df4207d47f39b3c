"""Where seats meet the GM's app: a private folder (0700) with the tokens (0600) and the socket.

The folder is ``seats/`` beside the default campaign, in the user's private data folder.
Each seat has its own token there, made by the GM's app for each player of the party; the
socket of a campaign is named after its path, so two campaigns open at once do not meet.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: AF_UNIX paths are at most 107 bytes on Linux (103 on macOS).
MAX_SOCKET_PATH = 100


def seats_dir(base: Path | None = None) -> Path:
    """Return the private seats folder (created 0700, its mode enforced)."""
    if base is None:
        from tui.store import default_campaign_path

        base = default_campaign_path().parent
    Path(base).mkdir(parents=True, exist_ok=True, mode=0o700)  # the data folder, if new
    folder = Path(base) / "seats"
    folder.mkdir(exist_ok=True, mode=0o700)
    os.chmod(folder, 0o700)
    return folder


def seats_dir_or_none() -> Path | None:
    """Return the seats folder, or None where it cannot be made (kubik runs without seats)."""
    try:
        return seats_dir()
    except OSError:
        return None


def _sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` from Python's own implementation where there is one: ``hashlib``
    loads OpenSSL's digests, ~0.5 MiB of every GM's start for this one name."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  # 3.11
        except ImportError:  # a Python built without its own digests
            from hashlib import sha256
    return sha256(data).hexdigest()


def socket_path(folder: Path, campaign: Path) -> Path:
    """Return the socket of ``campaign`` in ``folder``."""
    digest = _sha256_hex(str(Path(campaign).resolve()).encode())[:12]
    return folder / f"{digest}.sock"


def _tokens_file(folder: Path) -> Path:
    return folder / "tokens.json"


def read_tokens(folder: Path) -> dict[str, str]:
    """Return seat name (casefolded) → token; an unreadable file reads as none."""
    try:
        data = json.loads(_tokens_file(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, str)}


def ensure_tokens(folder: Path, seats: list[str]) -> dict[str, str]:
    """Give every seat in ``seats`` a token (keeping the ones it has); return them all."""
    tokens = read_tokens(folder)
    missing = [s.casefold() for s in seats if s.casefold() not in tokens]
    if missing:
        import secrets  # only for new tokens: it loads hashlib (see _sha256_hex)

        for seat in missing:
            tokens[seat] = secrets.token_urlsafe(24)
        path = _tokens_file(folder)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(tokens, f, ensure_ascii=False)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    return tokens


def token_for(folder: Path, seat: str) -> str | None:
    """Return the token of ``seat``, or None when the GM's app made none for it."""
    return read_tokens(folder).get(seat.casefold())
