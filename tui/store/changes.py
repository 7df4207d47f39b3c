"""Changing a campaign's characters and documents: each change one undo step, made as a delta.

A changed character is merged into the document as it is now (only the fields the screen
changed), a document with a base key by key; a field changed here and in another window is
refused with :class:`StaleWrite` (see :mod:`tui.store.store`). :meth:`Changes.update_character`
runs its function on the current character under the lock. Also the Журнал's own append,
which is no undo step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from tinydb import TinyDB

from tui.sanitize import clean_json, clean_line

from . import history
from .codec import character_from_doc, character_to_doc
from .errors import ChangeRefused, StaleWrite
from .merge import field_list, merge3
from .migrations import CHARACTERS
from .models import Character, LogEntry
from .writes import WritePath


class Edit(NamedTuple):
    """What :meth:`Store.update_character`'s function makes of the current character."""

    character: Character
    #: The undo step's Russian label («Горан: Царапина»).
    label: str
    #: Журнал entries the change writes; they are marked «отменено» while it is undone.
    log: Sequence[LogEntry] = ()


class Changes(WritePath):
    """The store's changes: characters, app documents, the campaign's name, the Журнал."""

    def _by(self) -> dict[str, Any]:
        """Who makes a step: this window's origin and process (:mod:`tui.store.undo`)."""
        window = getattr(self, "_window", None)
        return {
            "origin": getattr(self, "origin", ""),
            "window": window() if window else None,
            "mine": getattr(self, "mine", None),
        }

    # -- changing (each one undo step) ----------------------------------------------------

    def apply(
        self,
        label: str,
        *,
        upsert: Iterable[Character] = (),
        delete: Iterable[str] = (),
        docs: Mapping[str, dict[str, Any] | None] | None = None,
        bases: Mapping[str, dict[str, Any] | None] | None = None,
        log: Iterable[LogEntry] = (),
        what: str = "изменение не записано",
    ) -> bool:
        """Make several changes as one write and one undo step; return whether any changed.

        Args:
            label: a short Russian description for the undo list («Конец раунда»).
            upsert: characters to insert, or changed copies of stored ones: a copy is merged
                into the current document (see :mod:`tui.store.store`); a character without
                :attr:`~Character.origin` replaces the stored one whole (import, the CLI).
            delete: ids of characters to remove.
            docs: app documents to set; None as a value removes the document.
            bases: for documents in ``docs``, the value the screen read: then only what it
                changed is applied to the current document (key by key), and a key another
                window changed too is refused. Without a base a document is set whole.
            log: Журнал entries this change writes (appended after the file is written);
                they carry the step's id, so undoing the step marks them «отменено».
            what: what is lost when the write is refused («рана не записана»).

        Raises:
            StaleWrite: a changed character was removed or changed in the same field by
                another window since it was read; nothing was written.
            StoreReadOnly, StoreBusy, CampaignCorrupt, StoreError: nothing was changed.
        """
        upsert, deleted = list(upsert), [str(i) for i in delete]
        doc_changes = [(_doc_name(n), _doc_value(v)) for n, v in (docs or {}).items()]
        keys = [("character", c.id) for c in upsert] + [("character", i) for i in deleted]
        keys += [("doc", n) for n, _ in doc_changes]
        if len(set(keys)) != len(keys):
            raise ValueError("one change touches the same character or document twice")
        entries = list(log)

        def change(db: TinyDB, step_id: str) -> tuple[None, bool]:
            mine = getattr(self, "mine", None)  # whose steps are this window's (Undo's)
            changes: list[history.Change] = [
                ("character", c.id, _merged(db, c, what, mine)) for c in upsert
            ]
            _refuse_taken_names(db, changes, set(deleted), what)
            changes += [("character", i, None) for i in deleted]
            changes += [("doc", n, _doc_merged(db, n, v, bases, what)) for n, v in doc_changes]
            by = self._by()
            return None, history.record(db, label, changes, step_id, force=bool(entries), **by)

        return self._transact(change, entries)[1]

    def update_character(
        self,
        id: str,  # noqa: A002 - the API's name
        edit: Callable[[Character], Edit | None],
        *,
        name: str,
        what: str = "изменение не записано",
    ) -> Edit | None:
        """Run ``edit`` on the character as it is now (under the lock) and save what it makes.

        This is how a change that still makes sense on another window's version is re-applied
        to it: ``edit`` gets the current character (a wound is added to the current track, a
        point of Судьба to the current count) and returns the new one with the step's label and
        its Журнал entries, or None to change nothing. Returns what was saved.

        Raises:
            StaleWrite: the character is gone («Персонаж Богдан Сыч удалён в другом окне —
                рана не записана»); ``name`` is the name the caller knows it by.
            rules.errors.RulesError (or anything ``edit`` raises): nothing was written.
            StoreReadOnly, StoreBusy, CampaignCorrupt, StoreError: nothing was changed.
        """
        done: list[Edit] = []

        def change(db: TinyDB, step_id: str) -> tuple[None, bool]:
            doc = history.get_value(db, "character", id)
            if doc is None:
                mine = getattr(self, "mine", None)  # whose steps are this window's (Undo's)
                where = history.removed_where(db.storage.read() or {}, id, mine)
                raise StaleWrite(f"{history.removed_words(name, where)} — {what}.")
            made = edit(character_from_doc(doc, self._campaign.system))
            if made is None:
                return None, False
            if made.character.id != id:
                raise ValueError("an edit must keep the character's id")
            done.append(made)
            changes = [("character", id, character_to_doc(made.character))]
            return None, history.record(
                db, made.label, changes, step_id, force=bool(made.log), **self._by()
            )

        self._transact(change, lambda: list(done[0].log) if done else [])
        return done[0] if done else None

    def upsert_character(
        self,
        c: Character,
        *,
        label: str | None = None,
        log: Iterable[LogEntry] = (),
        what: str = "изменение не записано",
    ) -> None:
        """Insert the character, or save a changed copy of a stored one (see :meth:`apply`)."""
        if label is None:
            verb = "Изменён" if c.id in self._characters else "Добавлен"
            label = f"{verb} персонаж «{c.name}»"
        self.apply(label, upsert=[c], log=log, what=what)

    def delete_character(self, id: str, *, label: str | None = None) -> bool:  # noqa: A002
        """Remove the character with this id; return whether there was one."""
        known = self._characters.get(id)
        label = label or f"Удалён персонаж «{known.name if known else id}»"
        return self.apply(label, delete=[id])

    def put_doc(self, name: str, value: dict[str, Any] | None, *, label: str) -> None:
        """Set (or, with None, remove) the app document ``name``; ``label`` names the step."""
        self.apply(label, docs={name: value})

    def rename(self, name: str) -> None:
        """Rename the campaign (an undo step)."""
        name = clean_line(name).strip()
        if not name:
            raise ValueError("empty campaign name")
        change = [("meta", "name", name)]
        label = f"Кампания переименована в «{name}»"
        self._transact(
            lambda db, step_id: (None, history.record(db, label, change, step_id, **self._by()))
        )

    def append_log(self, entry: LogEntry, *, step: str | None = None) -> None:
        """Add an entry to the end of the Журнал (appended and fsynced; never undone).

        ``step`` links the entry to the undo step that it tells of (:meth:`take_last_step`):
        while that step is undone, the entry is marked «отменено».
        """
        if step is not None:
            entry = replace(entry, data={**entry.data, "step": step})
        with self._writing():
            self._check_writable()
            with self._locked():
                self._append_journal([entry])
        self._notify()

    def take_last_step(self) -> str | None:
        """Return the id of the newest undo step this thread wrote here, and forget it.

        For a screen that writes a change and then, separately, its Журнал entry: pass the
        id to :meth:`append_log` so the entry is marked while the change is undone.
        """
        step: str | None = getattr(self._local, "step", None)
        self._local.step = None
        return step


def _merged(
    db: TinyDB, c: Character, what: str, mine: Callable[[str], bool] | None = None
) -> dict[str, Any]:
    """Return the document to store for ``c``: its changes applied to the current document.

    Raises:
        StaleWrite: ``c`` was read from a document that is gone now, or a field it changed
            was changed to something else by another window.
    """
    new = character_to_doc(c)
    if c.origin is None or c.origin.get("id") != c.id:
        return new  # a new character (a copy too), or a whole replace (import, the CLI)
    current = history.get_value(db, "character", c.id)
    if current is None:
        where = history.removed_where(db.storage.read() or {}, c.id, mine)
        raise StaleWrite(f"{history.removed_words(c.name, where)} — {what}.")
    system = c.sheet.SYSTEM
    base = character_to_doc(character_from_doc(c.origin, system))
    now = character_to_doc(character_from_doc(current, system))
    merged, conflicts = merge3(base, new, now)
    if conflicts:
        raise StaleWrite(
            f"Персонаж {c.name} изменён в другом окне ({field_list(conflicts)}) — {what}. "
            "Откройте его заново."
        )
    return dict(merged)


def _refuse_taken_names(
    db: TinyDB, changes: list[history.Change], deleted: set[str], what: str
) -> None:
    """Refuse a new character or a new name that another character has (letter case aside),
    checked under the lock against the file as it is now: two windows or two commands that
    each found the name free cannot both take it.

    Raises:
        ChangeRefused: the name is taken; nothing is written.
    """
    naming: dict[str, str] = {}  # id -> the name it takes
    for _kind, cid, doc in changes:
        current = history.get_value(db, "character", cid)
        if current is None or str(current.get("name", "")).casefold() != doc["name"].casefold():
            naming[cid] = doc["name"]
    if not naming:
        return  # no name changes (a wound, a note): the common write costs nothing here
    others = {
        str(doc.get("name", "")).casefold(): str(doc.get("name", ""))
        for doc in db.table(CHARACTERS).all()
        if doc.get("id") not in naming and doc.get("id") not in deleted
    }
    for name in naming.values():
        fold = name.casefold()
        if fold in others:
            raise ChangeRefused(
                f"В партии уже есть «{others[fold]}» — {what}. Выберите другое имя."
            )
        others[fold] = name


def _doc_merged(
    db: TinyDB,
    name: str,
    value: dict[str, Any] | None,
    bases: Mapping[str, dict[str, Any] | None] | None,
    what: str,
) -> dict[str, Any] | None:
    """Return the document to store: ``value``'s changes from its base applied to the current one.

    Raises:
        StaleWrite: a key the screen changed was changed to something else meanwhile.
    """
    if bases is None or name not in bases:
        return value
    current = history.get_value(db, "doc", name)
    merged, conflicts = merge3(bases[name] or {}, value or {}, current or {})
    if conflicts:
        raise StaleWrite(
            f"В другом окне изменили то же самое ({', '.join(conflicts)}) — {what}. "
            "Откройте заново."
        )
    return dict(merged) or None


def _doc_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"bad document name {name!r}")
    return name


def _doc_value(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """Copy a document through JSON, so only JSON-ready values are stored."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError(f"a document is a dict, not {type(value).__name__}")
    import json

    return clean_json(json.loads(json.dumps(value, ensure_ascii=False)))
