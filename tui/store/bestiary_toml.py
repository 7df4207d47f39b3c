"""The bestiary's TOML: kubik's starter set (``data/bestiary/<system>.toml``) and files a GM
writes by hand, read and checked with Russian messages that name the field.

The format (``docs/guide/bestiary.md`` shows it whole)::

    system = "drevo"                      # the campaign's system; a file of another is refused

    [[templates]]
    name = "Разбойник"
    tags = ["разбойники"]
    qualities = { "Сила" = 1, "Ловкость" = 1 }
    skills = [{ name = "Драка", value = 1 }]
    weapons = ["Топор"]
    notes = "…"

    [[encounters]]
    name = "Засада у брода"
    hidden = true
    groups = [{ template = "Разбойник", count = 5, side = "Противники" }]

Both lists are optional; every field but ``name`` (and an encounter's ``groups``) too.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import systems
from rules.data import load_table

from .bestiary import (
    Bestiary,
    Prepared,
    Template,
    encounter_from_doc,
    merged,
    own_encounters,
    own_templates,
    template_from_doc,
)
from .errors import StoreError, os_reason
from .schema import SchemaError, _kind, _shown, check_depth
from .storage import open_regular

#: The largest bestiary file kubik reads (a hand-written one is a few kilobytes).
FILE_LIMIT = 1_000_000
FILE_FIELDS = frozenset({"system", "templates", "encounters"})


@dataclass(frozen=True)
class BestiaryFile:
    """What a bestiary file holds, checked."""

    system: str
    templates: tuple[Template, ...]
    encounters: tuple[Prepared, ...]


def parse(text: str, *, default: bool = False, where: str = "файл") -> BestiaryFile:
    """Read a bestiary file's text.

    Raises:
        SchemaError: not TOML, or a value kubik cannot use — the message names the field.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SchemaError(f"{where}: это не TOML ({_toml_where(err)})") from err
    check_depth(data, where)
    unknown = sorted(k for k in data if k not in FILE_FIELDS)
    if unknown:
        raise SchemaError(
            f"{where}: неизвестное поле «{unknown[0]}»; бывают: system, templates, encounters"
        )
    system = data.get("system")
    if not systems.known(system):
        raise SchemaError(
            f"{where}, поле system: {_shown(system)} — нужна одна из систем: "
            + ", ".join(systems.names())
        )
    templates = _list(data, "templates", where)
    encounters = _list(data, "encounters", where)
    prefix = f"default:{system}:" if default else "file:"
    made_t = tuple(
        template_from_doc(
            _id(prefix, doc, i),
            _doc(doc, f"{where}, templates[{i}]"),
            system=system,
            default=default,
            where=f"{where}, templates[{i}]",
        )
        for i, doc in enumerate(templates, 1)
    )
    made_e = tuple(
        encounter_from_doc(
            _id(prefix, doc, i),
            _doc(doc, f"{where}, encounters[{i}]"),
            default=default,
            where=f"{where}, encounters[{i}]",
        )
        for i, doc in enumerate(encounters, 1)
    )
    _unique([t.name for t in made_t], where, "шаблон")
    _unique([e.name for e in made_e], where, "сцена")
    return BestiaryFile(system, made_t, made_e)


def read_file(path: Path) -> BestiaryFile:
    """Read a bestiary file a GM wrote.

    Raises:
        StoreError: the file is missing, unreadable, too big, not UTF-8 TOML, or a value in it
            is refused (the message names the file and the field).
    """
    try:
        with open(open_regular(Path(path), "Файл"), "rb") as fh:  # a FIFO would block for ever
            raw = fh.read(FILE_LIMIT + 1)
    except OSError as err:
        raise StoreError(f"Не удалось прочитать {path}: {os_reason(err)}.") from err
    if len(raw) > FILE_LIMIT:
        raise StoreError(f"{path}: файл больше {FILE_LIMIT // 1000} КБ — это не бестиарий.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise StoreError(f"{path}: это не текст UTF-8.") from err
    try:
        return parse(text, where=str(path))
    except SchemaError as err:
        raise StoreError(f"{err}. Бестиарий не изменён.") from err


def starter(system: str) -> Bestiary:
    """kubik's starter bestiary of ``system`` (every entry a [default])."""
    from rules.data import packaged_text

    relpath = f"bestiary/{system}.toml"
    load_table(relpath)  # the packaged file exists (a KeyError-free check of the name)
    found = parse(packaged_text(relpath), default=True, where=f"data/{relpath}")
    return Bestiary(found.templates, found.encounters)


def campaign_bestiary(store: Any) -> Bestiary:
    """The campaign's bestiary: the starter set of its system with its own templates and
    encounters (one of the same name stands in the starter's place)."""
    from .bestiary import BESTIARY_DOC, ENCOUNTERS_DOC

    system = store.campaign.system
    return merged(
        starter(system),
        own_templates(store.get_doc(BESTIARY_DOC), system),
        own_encounters(store.get_doc(ENCOUNTERS_DOC)),
    )


def _list(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise SchemaError(
            f"{where}, поле {key}: нужен список таблиц ([[{key}]]), а не {_kind(value)}"
        )
    return value


def _doc(doc: Any, where: str) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise SchemaError(f"{where}: нужна таблица, а не {_kind(doc)}")
    return doc


def _id(prefix: str, doc: Any, i: int) -> str:
    name = doc.get("name") if isinstance(doc, dict) else None
    return (
        f"{prefix}{' '.join(name.split()).casefold()}" if isinstance(name, str) else f"{prefix}{i}"
    )


def _unique(names: list[str], where: str, what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise SchemaError(f"{where}: {what} «{name}» записан дважды — у каждого своё имя")
        seen.add(name.casefold())


_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _toml_where(err: tomllib.TOMLDecodeError) -> str:
    found = _AT.search(str(err))
    if found:
        return f"строка {found.group(1)}, столбец {found.group(2)}: проверьте кавычки и скобки"
    if "end of document" in str(err):
        return "файл оборвался: не закрыта скобка или кавычка"
    return "проверьте кавычки и скобки"
