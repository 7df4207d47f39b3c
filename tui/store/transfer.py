"""Export and import of a whole campaign as one JSON file; the Журнал as Markdown."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from rules import systems
from tui.sanitize import clean_json

from . import core_marks, sheet_fields
from .codec import character_from_doc, character_to_doc, log_from_doc, log_to_doc
from .errors import StoreError, os_reason
from .models import Campaign, Character, LogEntry
from .restack import BESTIARY
from .schema import DOC_CHECKS, SchemaError, check_depth, validate_character
from .storage import open_regular, russian_reason

FORMAT = "kubik-campaign"
FORMAT_VERSION = 1

KIND_NAMES = {
    "roll": "бросок",
    "check": "проверка",
    "note": "заметка",
    "session": "сессия",
    "combat": "бой",
}


@dataclass(frozen=True)
class Exported:
    """The content of an export file, checked and converted."""

    name: str
    system: str
    characters: list[Character]
    docs: dict[str, dict[str, Any]]
    #: Oldest first; an entry whose change was undone has ``undone=True``.
    log: list[LogEntry]
    #: Whether the file says which entries were undone (exports before that did not).
    marks: bool = True

    def note(self) -> str | None:
        """A Russian note for the GM when the import could not keep what the Журнал showed."""
        if self.marks or not self.log:
            return None
        return (
            "В файле экспорта нет отметок «отменено» (его записала старая версия kubik): "
            "записи Журнала перенесены все, но отменённые действия в нём не отмечены."
        )


@dataclass(frozen=True)
class Imported(Campaign):
    """What :meth:`tui.store.Store.import_json` made, with a note for the GM (or None)."""

    note: str | None = None


def export_payload(
    campaign: Campaign,
    characters: list[Character],
    docs: dict[str, dict[str, Any]],
    log: list[LogEntry],
    exported_at: str,
) -> dict[str, Any]:
    """Return the export document; ``log`` oldest first, as :meth:`Store.log` marks it.

    An entry whose change was undone carries ``"undone": true``, so an import shows the
    Журнал with the same «отменено» marks; ``"log_marks": true`` says the file has them.
    """
    return clean_json(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "schema_version": campaign.schema_version,
            "exported_at": exported_at,
            "campaign": {"name": campaign.name, "system": campaign.system},
            "characters": [character_to_doc(c) for c in characters],
            "docs": docs,
            "log_marks": True,
            "log": [_entry_doc(e) for e in log],
        }
    )


def _entry_doc(e: LogEntry) -> dict[str, Any]:
    doc = log_to_doc(e)
    return {**doc, "undone": True} if e.undone else doc


def _entry(doc: Any) -> LogEntry:
    e = log_from_doc(doc)
    return replace(e, undone=True) if doc.get("undone") is True else e


def read_export(source: Path) -> Exported:
    """Read and check an export file.

    Raises:
        StoreError: the file is missing, unreadable or not a valid kubik export; the message
            names the reason.
    """
    try:
        with open(open_regular(source, "Файл"), "rb") as fh:  # a FIFO would block for ever
            raw = fh.read()
    except OSError as err:
        raise StoreError(f"Не удалось прочитать {source}: {os_reason(err)}.") from err
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise StoreError(_bad(source, "это не текст UTF-8")) from err
    except json.JSONDecodeError as err:
        where = f"строка {err.lineno}, столбец {err.colno}"
        raise StoreError(_bad(source, f"это не JSON ({where})")) from err
    except RecursionError as err:
        raise StoreError(_bad(source, "JSON вложен слишком глубоко")) from err
    if not isinstance(data, dict):
        raise StoreError(_bad(source, "ожидался объект JSON"))
    data = clean_json(data)  # names with control codes are carried over harmless
    if data.get("format") != FORMAT:
        if "meta" in data and "characters" in data:
            raise StoreError(
                _bad(source, "это файл кампании, а не экспорт; откройте его через --campaign")
            )
        raise StoreError(_bad(source, f"нет отметки формата «{FORMAT}»"))
    version = data.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise StoreError(
            _bad(source, f"версия формата {version!r} не поддерживается; обновите kubik")
        )
    try:
        campaign = data["campaign"]
        name, system = campaign["name"], campaign["system"]
        if not isinstance(name, str) or not name.strip():
            raise SchemaError("campaign.name: нужно непустое название кампании")
        if not systems.known(system):
            raise SchemaError(
                f"campaign.system: неизвестная система; нужна одна из: {', '.join(systems.names())}"
            )
        docs_in = data.get("characters", [])
        if not isinstance(docs_in, list):
            raise SchemaError("раздел characters должен быть списком")
        written = data.get("schema_version")
        written = written if isinstance(written, int) else 0
        for step, since in ((sheet_fields, 4), (core_marks, 5)):  # sheet fields, marks in extra
            if written >= since:
                continue
            docs_in = [step.character(doc) for doc in docs_in]
            if isinstance(data.get("docs"), dict) and BESTIARY in data["docs"]:
                data["docs"] = {**data["docs"], BESTIARY: step.bestiary(data["docs"][BESTIARY])}
        for i, doc in enumerate(docs_in, 1):
            validate_character(doc, f"персонаж {i}")
        characters = [character_from_doc(doc, system) for doc in docs_in]
        docs = data.get("docs", {})
        if not isinstance(docs, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) for k, v in docs.items()
        ):
            raise SchemaError("раздел docs должен быть объектом объектов")
        check_depth(docs, "раздел docs")
        for doc_name, check in DOC_CHECKS.items():  # the GM's own bestiary, checked as on load
            if doc_name in docs:
                check(docs[doc_name], f"раздел docs, {doc_name}")
        check_depth(data.get("log", []), "раздел log")
        log = [_entry(doc) for doc in data.get("log", [])]
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        why = russian_reason(err) if not isinstance(err, KeyError) else f"нет поля {err}"
        raise StoreError(_bad(source, f"неверные данные: {why}")) from err
    ids = [c.id for c in characters]
    if len(set(ids)) != len(ids):
        raise StoreError(_bad(source, "у двух персонажей один id"))
    return Exported(name, system, characters, docs, log, marks=data.get("log_marks") is True)


def _bad(source: Path, why: str) -> str:
    return f"Нельзя импортировать {source}: {why}. Кампания не изменена."


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def md_escape(text: str) -> str:
    """Escape characters Markdown would read as formatting."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def log_markdown(campaign_name: str, entries: list[LogEntry]) -> str:
    """Render the Журнал (``entries`` oldest first) as Markdown, one heading per day."""
    lines = [f"# Журнал: {md_escape(campaign_name)}", ""]
    if not entries:
        lines.append("_Записей пока нет._")
    day = None
    for e in entries:
        try:
            at = datetime.fromisoformat(e.at)
            this_day, clock = at.date().isoformat(), at.strftime("%H:%M")
        except ValueError:
            this_day, clock = "", e.at
        if this_day != day:
            day = this_day
            if lines[-1] != "":
                lines.append("")
            lines += [f"## {this_day or 'Без даты'}", ""]
        who = f" **{md_escape(e.actor)}**" if e.actor else ""
        kind = KIND_NAMES.get(e.kind, e.kind)
        text = md_escape(e.text)
        if e.undone:  # the change was undone: the entry stays, struck through
            text = f"~~{text}~~ _(отменено)_"
        lines.append(f"- {md_escape(clock)}{who} ({kind}): {text}")
    return "\n".join(lines) + "\n"
