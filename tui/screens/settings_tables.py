"""Campaign settings as data: which tables a GM may edit and how an edit is checked.

The campaign stores two documents: ``settings`` — ``{relpath: table}``, the parsed tables
the rules read (see :func:`rules.data.set_overrides`) — and ``settings_text`` — the same
tables as the TOML the GM typed, comments included, so the editor shows them back unchanged.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import tomllib
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules import data
from rules.errors import RulesError
from tui import registry

SETTINGS_DOC = "settings"
TEXT_DOC = "settings_text"


#: Keys whose packaged value is a number but which also accept a word (`again = "none"`).
NUMBER_OR_WORD = {"again"}


class SettingsError(ValueError):
    """An edited table is refused; the message says where and why, in Russian."""


def check_table(relpath: str, text: str) -> dict[str, Any]:
    """Parse the GM's TOML for ``relpath`` and check it the way the rules will read it.

    Returns:
        The parsed table.

    Raises:
        SettingsError: not TOML, keys or types unlike the packaged file, or refused by the
            rules' own loader (its message names the row).
    """
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"Ошибка TOML: {err}") from err
    _check_shape(data.packaged_table(relpath), table, "")
    _check_with_rules(relpath, table)
    return table


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, dict):
        return "table"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


KIND_NAMES = {
    "bool": "true/false",
    "number": "число",
    "str": "строка в кавычках",
    "table": "таблица",
    "list": "список",
}


def with_new_keys(default: Any, value: Any) -> Any:
    """Return ``value`` with the keys (and sections) a newer kubik added taken from ``default``.

    Only what is missing is added; every value the campaign has is kept as it is.
    """
    if not isinstance(default, dict) or not isinstance(value, dict):
        return value
    merged = {k: with_new_keys(default[k], v) if k in default else v for k, v in value.items()}
    for k, v in default.items():
        merged.setdefault(k, v)
    return merged


def _check_shape(default: Any, value: Any, where: str) -> None:
    """Refuse missing or unknown keys and values of another type than the packaged ones."""
    key = where.rsplit(".", 1)[-1].split("[")[0]
    want, got = _kind(default), _kind(value)
    if want != got and not (key in NUMBER_OR_WORD and {want, got} == {"number", "str"}):
        raise SettingsError(f"«{where or 'таблица'}»: нужно {KIND_NAMES.get(want, want)}.")
    if want == "table":
        missing = [k for k in default if k not in value]
        extra = [k for k in value if k not in default]
        if missing:
            raise SettingsError(f"Нет ключа «{_join(where, missing[0])}».")
        if extra:
            raise SettingsError(f"Неизвестный ключ «{_join(where, extra[0])}».")
        for k in default:
            _check_shape(default[k], value[k], _join(where, k))
    elif want == "list" and default:
        if all(isinstance(row, dict) for row in default):
            _check_rows(default, value, where)
        else:
            for i, item in enumerate(value):
                _check_shape(default[0], item, f"{where}[{i + 1}]")


def _check_rows(default: list[dict[str, Any]], rows: list[Any], where: str) -> None:
    """Rows of an array of tables: required keys are those every packaged row has."""
    required = set.intersection(*(set(row) for row in default))
    examples: dict[str, Any] = {}
    for row in default:
        for k, v in row.items():
            examples.setdefault(k, v)
    for i, row in enumerate(rows, start=1):
        here = f"{where}[{i}]"
        if not isinstance(row, dict):
            raise SettingsError(f"«{here}»: нужна таблица [[{where}]].")
        missing = sorted(required - set(row))
        extra = sorted(set(row) - set(examples))
        if missing:
            raise SettingsError(f"«{here}»: нет ключа «{missing[0]}».")
        if extra:
            raise SettingsError(f"«{here}»: неизвестный ключ «{extra[0]}».")
        for k, v in row.items():
            _check_shape(examples[k], v, f"{here}.{k}")


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _check_with_rules(relpath: str, table: dict[str, Any]) -> None:
    """Run every table loader of the system with ``table`` in place; restore afterwards."""
    before = data.overrides()
    trial = {**before, relpath: table}
    try:
        data.set_overrides(trial)
        for loader in _loaders(relpath.split("/", 1)[0]):
            loader()
    except RulesError as err:
        raise SettingsError(str(err)) from err
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise SettingsError(f"Правила не смогли прочитать таблицу: {err}") from err
    finally:
        data.set_overrides(before)


def usable_tables(
    tables: dict[str, dict[str, Any]],
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Split a campaign's stored tables into those the rules accept and those they refuse.

    A file can hold a table no editor would have saved (a hand edit, a newer kubik); the
    app then plays with kubik's default for it instead of stopping at the first check.

    Returns:
        ``(accepted, refused)``: the tables to put in place, and why each other one was
        refused (the message names the row).
    """
    known = {t.relpath for system in registry.all_systems() for t in system.tables}
    accepted: dict[str, dict[str, Any]] = {}
    refused: dict[str, str] = {}
    for relpath, table in tables.items():
        if relpath not in known:
            refused[relpath] = "такой таблицы kubik не знает."
            continue
        default = data.packaged_table(relpath)
        table = with_new_keys(default, table)  # a table saved before a key existed keeps working
        try:
            _check_shape(default, table, "")
            _check_with_rules(relpath, table)
        except SettingsError as err:
            refused[relpath] = str(err)
            continue
        accepted[relpath] = table
    return accepted, refused


@cache
def _loaders(system: str) -> tuple[Any, ...]:
    """Return the cached, argument-free functions of ``rules.<system>``: the table loaders.

    Found once per system (the package and its modules are imported by then): each typed
    value is checked with them, and scanning the modules each time cost as much as the check.
    """
    package = importlib.import_module(f"rules.{system}")
    modules = [package] + [
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(package.__path__, prefix=f"rules.{system}.")
    ]
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if not callable(getattr(value, "cache_clear", None)):
                continue
            if getattr(value, "__module__", "") != module.__name__:
                continue
            try:
                params = inspect.signature(value).parameters.values()
            except (TypeError, ValueError):
                continue
            if all(p.default is not p.empty for p in params):
                found[id(value)] = value
    return tuple(found.values())


def list_mark(*, refused: bool, edited: bool, overridden: bool) -> str:
    """Return a table's mark in the list: ✗ refused, ● edited here and not saved, * the
    campaign's own table, else a space."""
    if refused:
        return "✗"
    if edited:
        return "●"
    return "*" if overridden else " "


def is_edited(
    relpath: str, texts: Mapping[str, str], saved_texts: Mapping[str, str], saved: Mapping[str, Any]
) -> bool:
    """Whether the table ``relpath`` as the screen has it (``texts``; none: as saved) differs
    from the one the campaign has (``saved_texts``, ``saved``: its two documents).

    Compared by value: the form writes the TOML anew, without the file's comments, and that
    alone is no edit; a text that is not TOML is an edit.
    """
    before = current_text(relpath, saved_texts, saved)
    text = texts.get(relpath, before)
    if text == before:
        return False
    try:
        return tomllib.loads(text) != tomllib.loads(before)
    except tomllib.TOMLDecodeError:
        return True


def docs_to_save(
    parsed: Mapping[str, dict[str, Any]],
    texts: Mapping[str, str],
    saved_texts: Mapping[str, str],
    saved: Mapping[str, Any],
) -> dict[str, dict[str, Any] | None]:
    """Return the campaign's two documents with the tables ``parsed`` (as typed: ``texts``).

    Only those tables change: every other table the campaign has (``saved_texts``, ``saved``)
    stays. A table equal to kubik's default is dropped (the default needs no override); a
    document left empty is None (removed).
    """
    tables = dict(saved)
    kept_texts = dict(saved_texts)
    for relpath, table in parsed.items():
        if table == data.packaged_table(relpath):
            tables.pop(relpath, None)
            kept_texts.pop(relpath, None)
        else:
            tables[relpath] = table
            kept_texts[relpath] = texts[relpath]
    return {SETTINGS_DOC: tables or None, TEXT_DOC: kept_texts or None}


def current_text(relpath: str, texts: Mapping[str, str], tables: Mapping[str, Any]) -> str:
    """Return the TOML the editor shows: the GM's text, else the packaged table's."""
    if relpath in texts:
        return texts[relpath]
    if relpath in tables:
        return dump_toml(tables[relpath])
    return default_text(relpath)


@cache
def default_text(relpath: str) -> str:
    """Return kubik's default of a table as the editor shows it: its values without the
    packaged file's comments, which are English notes for developers.

    Made once per table (the packaged file does not change): the screen compares every
    table with it each time its list is drawn, each typed value.
    """
    return dump_toml(data.packaged_table(relpath))


def dump_toml(table: dict[str, Any]) -> str:
    """Write a table of kubik's shape (scalars, sub-tables, arrays of tables) as TOML."""
    lines: list[str] = []
    scalars = {k: v for k, v in table.items() if not _is_section(v)}
    lines += [f"{_key(k)} = {_value(v)}" for k, v in scalars.items()]
    for k, v in table.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]"]
            lines += [f"{_key(sk)} = {_value(sv)}" for sk, sv in v.items()]
        elif _is_section(v):
            for row in v:
                lines += ["", f"[[{_key(k)}]]"]
                lines += [f"{_key(rk)} = {_value(rv)}" for rk, rv in row.items()]
    return "\n".join(lines).strip() + "\n"


def _is_section(value: Any) -> bool:
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and bool(value) and all(isinstance(r, dict) for r in value)


def _key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isascii() and key.replace("_", "a").isalnum()
    return key if bare else _value(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
