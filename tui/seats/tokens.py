"""Where seats meet the GM's app: a private folder (0700) with the seats' keys (0600) and the
sockets.

The folder is ``seats/`` beside the default campaign, in the user's private data folder. The
socket of a campaign is named after its path, so two campaigns open at once do not meet; so is
its file of keys, ``<same name>.keys.json``: a key belongs to one campaign and one character
(its id, not its name). A key is made when a seat first asks for it (``kubik seat ИМЯ``,
``kubik serve --seat ИМЯ``), for the seat's first character; it is revoked when that character
leaves the party (the GM's app drops it at the next change) or when the GM asks for a new one.
So the file holds at most one key per character that has sat down, never more than
:data:`MAX_KEYS`, and a key of one campaign opens nothing in another.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: AF_UNIX paths are at most 107 bytes on Linux (103 on macOS).
MAX_SOCKET_PATH = 100
#: The most keys one campaign keeps (a table has a handful of players).
MAX_KEYS = 100
#: The file of kubik before keys were per campaign: keys by name, shared by every campaign.
LEGACY = "tokens.json"


class SeatKeyError(Exception):
    """No key can be given; ``str()`` is the Russian reason."""


def seats_dir(base: Path | None = None) -> Path:
    """Return the private seats folder (created 0700, its mode enforced)."""
    if base is None:
        from tui.store import default_campaign_path

        base = default_campaign_path().parent
    from tui.store.storage import private_mkdir

    private_mkdir(Path(base))  # the data folder, if new (each folder made 0700)
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
            from _sha256 import sha256  # type: ignore[import-not-found]  # 3.11
        except ImportError:  # a Python built without its own digests
            from hashlib import sha256
    return sha256(data).hexdigest()


def _campaign_name(campaign: Path) -> str:
    return _sha256_hex(str(Path(campaign).resolve()).encode())[:12]


def socket_path(folder: Path, campaign: Path) -> Path:
    """Return the socket of ``campaign`` in ``folder``."""
    return folder / f"{_campaign_name(campaign)}.sock"


def keys_path(folder: Path, campaign: Path) -> Path:
    """Return the file of ``campaign``'s seat keys in ``folder``."""
    return folder / f"{_campaign_name(campaign)}.keys.json"


def read_keys(folder: Path, campaign: Path) -> dict[str, str]:
    """Return character id → key of ``campaign``; an unreadable file reads as none."""
    try:
        data = json.loads(keys_path(folder, campaign).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict):
        return {}
    return {str(k): v for k, v in keys.items() if isinstance(v, str) and len(v) >= 16}


def _write_keys(folder: Path, campaign: Path, keys: dict[str, str]) -> None:
    path = keys_path(folder, campaign)
    if not keys:
        path.unlink(missing_ok=True)
        return
    data = {"campaign": str(Path(campaign).resolve()), "keys": keys}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _locked(folder: Path, campaign: Path) -> Any:
    """The lock of ``campaign``'s keys: a seat asking for a key and the GM's app dropping one
    never lose each other's change."""
    import filelock

    lock = f"{keys_path(folder, campaign)}.lock"
    return filelock.FileLock(lock, timeout=10, mode=0o600, thread_local=False)


def character_of(folder: Path, campaign: Path, key: str) -> str | None:
    """Return the id of the character ``key`` belongs to in ``campaign``, or None."""
    import hmac  # here, not at start: it loads hashlib (see _sha256_hex)

    found = None
    for character, known in read_keys(folder, campaign).items():
        if hmac.compare_digest(known.encode(), key.encode()):
            found = character
    return found


def key_for(folder: Path, campaign: Path, characters: list[str], *, new: bool = False) -> str:
    """Return the key of the first of ``characters`` (ids of one seat) that has one, or make
    one for the first; ``new``: revoke the seat's keys and make a new one.

    Raises:
        SeatKeyError: the campaign has :data:`MAX_KEYS` keys already.
    """
    with _locked(folder, campaign):
        keys = read_keys(folder, campaign)
        if not new:
            for character in characters:
                if character in keys:
                    return keys[character]
        for character in characters:
            keys.pop(character, None)
        if len(keys) >= MAX_KEYS:
            raise SeatKeyError(
                f"У кампании уже {MAX_KEYS} ключей мест: новых не выдать. Уберите из партии "
                "тех, кто не играет (их ключи уйдут с ними)."
            )
        import secrets  # only for a new key: it loads hashlib (see _sha256_hex)

        keys[characters[0]] = key = secrets.token_urlsafe(24)
        _write_keys(folder, campaign, keys)
    return key


def revoke(folder: Path, campaign: Path, characters: Iterable[str]) -> list[str]:
    """Revoke the keys of ``characters``; return the ids whose key went."""
    gone = set(characters)
    return _keep(folder, campaign, lambda c: c not in gone)


def keep_only(folder: Path, campaign: Path, characters: Iterable[str]) -> list[str]:
    """Revoke every key but those of ``characters`` (the party's players); return the ids."""
    kept = set(characters)
    return _keep(folder, campaign, kept.__contains__)


def _keep(folder: Path, campaign: Path, keep: Any) -> list[str]:
    keys = read_keys(folder, campaign)
    if all(keep(c) for c in keys):
        return []  # nothing to drop: no lock, no write (every change of the campaign asks)
    with _locked(folder, campaign):
        keys = read_keys(folder, campaign)
        gone = [c for c in keys if not keep(c)]
        if gone:
            _write_keys(folder, campaign, {c: k for c, k in keys.items() if keep(c)})
    return gone


def forget_stale(folder: Path) -> None:
    """Remove the old shared ``tokens.json`` (keys by name, for every campaign: a key of one
    campaign opened another) and the keys of campaigns whose file is gone."""
    (folder / LEGACY).unlink(missing_ok=True)
    for path in folder.glob("*.keys.json"):
        try:
            campaign = json.loads(path.read_text(encoding="utf-8")).get("campaign")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(campaign, str) and not os.path.lexists(campaign):
            path.unlink(missing_ok=True)


def seat_key(
    folder: Path, campaign: Path, characters: list[Any], seat: str, *, new: bool = False
) -> str:
    """Return the key of ``seat`` (a player's or a PC's name) in ``campaign`` whose party is
    ``characters``; see :func:`key_for`.

    Raises:
        SeatKeyError: no PC of the party is that seat, or no key can be made.
    """
    from tui.seats.state import own_characters

    mine = own_characters(characters, seat)
    if not mine:
        raise SeatKeyError(
            f"Места «{seat}» нет: в партии нет игрока или персонажа с таким именем. "
            "Проверьте имя (как у персонажа или в поле «игрок»)."
        )
    return key_for(folder, campaign, [c.id for c in mine], new=new)
