"""Whole campaign files: load (upgrade and check in memory), write with a backup, lock.

The store's write path is built from these: :func:`locked` around a fresh :func:`load`, then
:func:`write_file`, whose replaced version becomes a backup.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import filelock  # imported where a lock is taken: it costs 10 ms of every start


from . import backups as bk
from .codec import character_from_doc, character_to_doc, log_from_doc
from .demo import demo_campaign
from .errors import (
    CampaignCorrupt,
    CampaignExists,
    StoreBusy,
    StoreError,
    write_error_message,
)
from .journal import journal_path, write_journal
from .migrations import CHARACTERS, DOCS, HISTORY, META, SCHEMA_VERSION, Upgrade, upgrade
from .models import Character, LogEntry, new_id, sheet_kind
from .schema import SchemaError, validate
from .storage import (
    FILE_MODE,
    FileSig,
    atomic_write_bytes,
    corrupt_message,
    dump_tables,
    parse_tables,
    private_copy,
    read_bytes,
    refuse_too_big,
)
from .transfer import Exported

Tables = dict[str, dict[str, Any]]


class Loaded:
    """A file read, upgraded in memory and checked."""

    def __init__(
        self,
        up: Upgrade,
        sig: FileSig | None,
        characters: dict[str, Character],
        raw: bytes | None = None,
    ):
        self.up = up
        self.sig = sig
        self.characters = characters
        #: The file's bytes when ``up.tables`` is exactly what they parse to (None after an
        #: upgrade in memory): a writer that finds these bytes on disk need not parse them again.
        self.raw = raw

    @property
    def rev(self) -> int:
        (meta,) = self.up.tables[META].values()
        rev = meta.get("rev", 0)
        return rev if isinstance(rev, int) else 0


def load(path: Path, *, offer_backups: bool = True, check: bool = True) -> Loaded | None:
    """Read, upgrade (in memory) and check a campaign file; None if it does not exist.

    Raises:
        CampaignCorrupt: damaged; with ``offer_backups``, ``err.backups`` lists good ones.
        StoreError: unreadable, or from a newer kubik.
    """
    got = read_bytes(path)
    if got is None:
        return None
    return decode(*got, path, offer_backups=offer_backups, check=check)


def decode(
    raw: bytes, sig: FileSig, path: Path, *, offer_backups: bool = True, check: bool = True
) -> Loaded:
    """Parse, upgrade in memory and check ``raw``, the bytes of ``path``; see :func:`load`."""
    try:
        up = upgrade(parse_tables(raw, path), path)
        loaded = check_tables(up.tables, path, up) if check or up.changed else Loaded(up, None, {})
        if loaded.characters:
            one_name_each(loaded)
    except CampaignCorrupt as err:
        if not offer_backups:
            raise
        good = good_backups(path)
        hint = (
            f" Последняя целая резервная копия: {good[0].name} (kubik может её восстановить, "
            "а повреждённый файл сохранит рядом)."
            if good
            else " Целых резервных копий нет."
        )
        raise CampaignCorrupt(str(err) + hint, backups=good) from err
    loaded.sig = sig
    loaded.raw = None if up.changed else raw
    return loaded


def check_tables(
    tables: Tables,
    path: Path,
    up: Upgrade | None = None,
    *,
    known: tuple[Tables, dict[str, Character]] | None = None,
) -> Loaded:
    """Convert every character and check meta, so a damaged file fails now, not mid-session.

    ``known`` — tables already checked and their characters — lets a document equal to the
    one checked before keep its character instead of being converted again (a write on a
    big campaign then checks only what it changed; an unchanged document is usually the very
    object checked before, which the identity test finds without comparing).
    """
    old_docs, old_characters = known if known else ({}, {})
    old_docs = old_docs.get(CHARACTERS, {})
    try:
        validate(tables, known=known[0] if known else None)
    except SchemaError as err:
        raise CampaignCorrupt(corrupt_message(path, err), reason=str(err)) from err
    try:
        (meta,) = tables[META].values()
        if not isinstance(meta["name"], str) or not isinstance(meta["system"], str):
            raise TypeError("имя и система кампании должны быть строками")
        characters = {}
        for key, doc in tables.get(CHARACTERS, {}).items():
            old = old_docs.get(key)
            known_c = old_characters.get(doc.get("id", "")) if old is doc or old == doc else None
            c = known_c or character_from_doc(doc, _system(meta["system"]))
            characters[c.id] = c
        for doc in tables.get(DOCS, {}).values():
            if not isinstance(doc.get("name"), str):
                raise TypeError("документ без имени")
        for doc in up.moved_log if up else ():
            log_from_doc(doc)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise CampaignCorrupt(corrupt_message(path, err)) from err
    return Loaded(up or Upgrade(tables, SCHEMA_VERSION), None, characters)


def one_name_each(loaded: Loaded) -> None:
    """Give each character a name of its own, letter case aside (in place).

    The app's form, ``party add`` and the store refuse a name the party has, but a file edited
    by hand, an import or an older kubik may repeat one, and then a name (``roll
    --character``, a seat) names two characters. The later ones in the file get « (2)»,
    « (3)»…; the file is written so at the next change (the version before among the backups).
    """
    docs = loaded.up.tables[CHARACTERS]
    taken = {c.name.casefold() for c in loaded.characters.values()}
    seen: set[str] = set()
    for key, doc in list(docs.items()):
        character = loaded.characters[str(doc["id"])]
        fold = character.name.casefold()
        if fold not in seen:
            seen.add(fold)
            continue
        n = 2
        while f"{character.name} ({n})".casefold() in taken:
            n += 1
        name = f"{character.name} ({n})"
        taken.add(name.casefold())
        seen.add(name.casefold())
        docs[key] = {**doc, "name": name}
        loaded.characters[character.id] = character_from_doc(docs[key], character.sheet.SYSTEM)
        loaded.up.mended = True


def _system(name: str) -> str:
    """The system whose sheet the campaign's characters hold (Древо's for a name kubik does
    not know: the schema names that)."""
    return sheet_kind(name).SYSTEM


def good_backups(path: Path) -> list[Path]:
    """Return the backups of ``path`` that load, newest first."""
    good = []
    for candidate in bk.all_backups(path):
        try:
            if load(candidate, offer_backups=False) is not None:
                good.append(candidate)
        except StoreError:
            continue
    return good


def backup_hook(
    path: Path, old_rev: int | None, old_schema: int = SCHEMA_VERSION
) -> Callable[[], None] | None:
    """Return what keeps the file about to be replaced: a rotating backup, or, when it was
    written at an older ``old_schema``, the copy before a migration (never pruned)."""
    if old_rev is None or not path.exists():
        return None

    def keep() -> None:
        if old_schema < SCHEMA_VERSION:
            bk.keep_before_migration(path, old_schema)
            return
        bk.prune(path, bk.KEEP - 1)  # first make room, so a kill never leaves KEEP + 1
        bk.keep_version(path, old_rev)

    return keep


def write_file(
    path: Path,
    tables: Tables,
    *,
    old_rev: int | None,
    old_schema: int = SCHEMA_VERSION,
    encode: Callable[[Tables], bytes] = dump_tables,
) -> bytes:
    """Write ``tables`` atomically; the replaced version becomes a backup (the copy before a
    migration when it was written at an older ``old_schema``). Return the bytes.

    Raises:
        OSError: nothing was replaced.
    """
    data = encode(tables)
    refuse_too_big(len(data))  # a file kubik could not open again is never written
    atomic_write_bytes(path, data, before_replace=backup_hook(path, old_rev, old_schema))
    return data


def link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        private_copy(src, dst)


def file_lock(path: Path, timeout: float) -> filelock.BaseFileLock:
    """Return the lock that guards writes to the campaign at ``path``."""
    import filelock  # lazy: 10 ms of every start, and only a write takes the lock

    return filelock.FileLock(f"{path}.lock", timeout=timeout, mode=FILE_MODE, thread_local=False)


@contextmanager
def locked(
    path: Path,
    timeout: float,
    lock: filelock.BaseFileLock | None = None,
    waits: Callable[[bool], object] | None = None,
) -> Iterator[None]:
    """Hold the campaign's lock; ``waits(True)`` while another kubik holds it and this one
    waits for it, ``waits(False)`` once that wait is over (got or given up)."""
    import filelock

    lock = lock or file_lock(path, timeout)
    try:
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            if waits is None:
                lock.acquire(timeout=timeout)
            else:
                waits(True)
                try:
                    lock.acquire(timeout=timeout)
                finally:
                    waits(False)
    except filelock.Timeout as err:
        raise StoreBusy(
            f"Кампанию {path.name} сейчас сохраняет другая копия kubik (ждали {timeout:g} с). "
            "Повторите через несколько секунд."
        ) from err
    except OSError as err:  # the lock file cannot be created: a read-only folder
        raise StoreError(write_error_message(path, err)) from err
    try:
        yield
    finally:
        lock.release()


def new_tables(name: str, system: str, *, rev: int = 0) -> Tables:
    meta = {"schema_version": SCHEMA_VERSION, "name": name, "system": system, "rev": rev}
    return {META: {"1": meta}, CHARACTERS: {}, DOCS: {}, HISTORY: {}}


def new_campaign_tables(system: str) -> Tables:
    """Build the whole new file in memory, so it reaches disk in one atomic write."""
    name, system, characters = demo_campaign(system)
    tables = new_tables(name, system)
    tables[CHARACTERS] = {str(n): character_to_doc(c) for n, c in enumerate(characters, 1)}
    return tables


def restore_backup(path: Path, backup: Path, lock_timeout: float) -> Path | None:
    """See :meth:`tui.store.Store.restore_backup`."""
    try:
        good = load(backup, offer_backups=False)
    except CampaignCorrupt as err:  # its words are for a damaged campaign: say it of the copy
        why = f" ({err.reason})" if err.reason else ""
        raise StoreError(
            f"Резервная копия {backup} не годится: она повреждена{why}; кампания не изменена. "
            "Выберите другую копию (kubik restore — список)."
        ) from err
    except StoreError as err:
        raise StoreError(f"Резервная копия {backup} не годится: {err}") from err
    if good is None:
        raise StoreError(f"Резервная копия {backup} не найдена.")
    raw = backup.read_bytes()
    aside = None
    with locked(path, lock_timeout):
        try:
            current = load(path, offer_backups=False)
        except StoreError:
            current = None
            aside = bk.aside_name(path, "corrupt")
        try:
            if aside is not None:
                link_or_copy(path, aside)
            rev = current.rev if current is not None else None
            atomic_write_bytes(path, raw, before_replace=backup_hook(path, rev))
        except OSError as err:
            raise StoreError(write_error_message(path, err)) from err
    return aside


def import_campaign(exported: Exported, target: Path, *, force: bool, lock_timeout: float) -> None:
    """Write ``exported`` as the campaign ``target``; see :meth:`tui.store.Store.import_json`."""
    with locked(target, lock_timeout):
        rev = None
        schema = SCHEMA_VERSION
        if target.exists():
            if not force:
                raise CampaignExists(
                    f"Кампания {target} уже существует. Чтобы заменить её, добавьте --force "
                    "(старая версия останется в резервных копиях)."
                )
            try:
                current = load(target, offer_backups=False)
                rev = current.rev if current is not None else None
                schema = current.up.from_version if current is not None else schema
            except StoreError:
                link_or_copy(target, bk.aside_name(target, "corrupt"))
        tables = new_tables(exported.name, exported.system, rev=(rev or 0) + 1)
        tables[CHARACTERS] = {
            str(n): character_to_doc(c) for n, c in enumerate(exported.characters, 1)
        }
        tables[DOCS] = {
            str(n): {"name": name, "value": value}
            for n, (name, value) in enumerate(exported.docs.items(), 1)
        }
        entries, undone = _marks_as_steps(exported.log)
        if undone:  # the marks of the export, kept as undone steps nothing can redo
            tables[HISTORY] = {"1": {"undo": [], "redo": [], "undone": undone}}
        log = journal_path(target)
        try:
            if log.exists():
                bk.backup_dir(target).mkdir(exist_ok=True, mode=0o700)
                stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
                os.replace(log, bk.backup_dir(target) / f"{target.stem}.log-{stamp}.jsonl")
            write_journal(log, entries)
            write_file(target, tables, old_rev=rev, old_schema=schema)
        except OSError as err:
            raise StoreError(write_error_message(target, err)) from err


def _marks_as_steps(log: list[LogEntry]) -> tuple[list[LogEntry], list[str]]:
    """Return the entries to write and the step ids to list as undone for their marks.

    A marked entry is marked again through its step's id (an entry without one gets one),
    as every «отменено» is: the Журнал file stays the entries alone.
    """
    entries, undone = [], []
    for e in log:
        if e.undone:
            step = e.data.get("step")
            if not isinstance(step, str):
                step = new_id()
                e = replace(e, data={**e.data, "step": step})
            if step not in undone:
                undone.append(step)
        entries.append(replace(e, undone=False))
    return entries, undone
