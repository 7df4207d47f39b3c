"""Helpers shared by the ``kubik`` subcommands: Russian argparse errors, JSON or text output."""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from tui.sanitize import clean, clean_json

_TRANSLATIONS = [
    (r"the following arguments are required: (.*)", r"не хватает аргументов: \1"),
    (r"argument (\S+): invalid int value: '(.*)'", r"аргумент \1: «\2» — не целое число"),
    (r"argument (\S+): expected one argument", r"аргументу \1 нужно значение"),
    (r"argument (\S+): not allowed with argument (\S+)", r"аргумент \1 нельзя вместе с \2"),
    (r"one of the arguments (.*) is required", r"нужен один из аргументов: \1"),
    (r"unrecognized arguments: (.*)", r"неизвестные аргументы: \1"),
    (r"argument (\S+): invalid choice: (.*)", r"аргумент \1: недопустимое значение \2"),
    (r"^argument (\S+): ", r"аргумент \1: "),
]


class Parser(argparse.ArgumentParser):
    """argparse with Russian error messages; bad arguments exit 2."""

    def error(self, message: str) -> NoReturn:
        for pattern, replacement in _TRANSLATIONS:
            message = re.sub(pattern, replacement, message)
        message = clean(message)  # it may quote an argument
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: ошибка: {message}\n")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a Russian error to stderr and exit."""
    print(f"kubik: ошибка: {clean(message)}", file=sys.stderr)
    raise SystemExit(code)


def missing_campaign(path: Path) -> str:
    """Return the error of a command given a campaign file that does not exist."""
    return f"нет такой кампании: {path}. Проверьте путь (новую кампанию создаёт запуск kubik)."


def say(text: str) -> None:
    """Print a line for people; names in it never carry a control code to the terminal."""
    print(clean(text))


def emit(data: dict[str, Any], text: str, as_json: bool) -> None:
    """Print ``data`` as JSON or ``text`` for people; no control code reaches the terminal."""
    if as_json:
        print(json.dumps(clean_json(data), ensure_ascii=False, indent=2))
    else:
        print(clean(text))


def fraction_text(p: Fraction) -> str:
    """Return a Fraction as ``"a/b"``."""
    return f"{p.numerator}/{p.denominator}"


def signed_int(text: str) -> int:
    """Parse ``+1``, ``-2`` or ``−2`` (argparse type)."""
    cleaned = text.strip().replace("−", "-")
    if not re.fullmatch(r"[+-]?\d+", cleaned):
        raise argparse.ArgumentTypeError(f"«{text}» — не целое число")
    return int(cleaned)


def odds_payload(outcomes: dict[str, Fraction]) -> dict[str, Any]:
    """Return ``{"outcomes": floats, "exact": "a/b" strings}`` for an outcome distribution."""
    return {
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "exact": {k: fraction_text(v) for k, v in outcomes.items()},
    }
