"""Helpers shared by the ``kubik`` subcommands: Russian argparse help and errors, JSON or text
output, the campaign argument, bounded numbers.

The conventions every command follows (docs/guide/command-line.md): ``-h`` in Russian; ``--json``;
exit 0 done, 1 refused by the campaign's state (a missing character, a file that exists, a
locked or damaged campaign), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from tui.numbers import MAX_NUMBER, read_typed_whole
from tui.sanitize import clean, clean_json

#: Exit statuses (docs/guide/command-line.md).
EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
#: The largest number a count or a modifier may have: beyond it no table means anything, and
#: 20-digit numbers only made the rules slow.
#: Arguments that take any integer (a seed picks a sequence, it counts nothing).
UNBOUNDED = ("seed", "port")

_TRANSLATIONS = [
    (r"the following arguments are required: (.*)", r"не хватает аргументов: \1"),
    (r"argument (\S+): invalid int value: '(.*)'", r"аргумент \1: «\2» — не целое число"),
    (r"argument (\S+): expected one argument", r"аргументу \1 нужно значение"),
    (r"argument (\S+): not allowed with argument (\S+)", r"аргумент \1 нельзя вместе с \2"),
    (r"one of the arguments (.*) is required", r"нужен один из аргументов: \1"),
    (r"unrecognized arguments: (.*)", r"неизвестные аргументы: \1"),
    (r"argument (\S+): invalid choice: (.*)", r"аргумент \1: недопустимое значение \2"),
    (r" \(choose from (.*)\)$", r" (можно: \1)"),
    (r"argument (\S+): ignored explicit argument (.*)", r"аргументу \1 не нужно значение (\2)"),
    (
        r"argument (\S+): expected at most one argument",
        r"аргументу \1 нужно не больше одного значения",
    ),
    (
        r"argument (\S+): expected at least one argument",
        r"аргументу \1 нужно хотя бы одно значение",
    ),
    (r"argument (\S+): expected (\d+) arguments?", r"аргументу \1 нужно значений: \2"),
    (r"argument (\S+): invalid (\S+) value: (.*)", r"аргумент \1: \3 — недопустимое значение"),
    (r"ambiguous option: (\S+) could match (.*)", r"неоднозначный параметр \1: подходят \2"),
    (r"^argument (\S+): ", r"аргумент \1: "),
]


class RussianHelp(argparse.HelpFormatter):
    """argparse's help with «использование:» for «usage:»."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "использование: " if prefix is None else prefix)


class RussianRawHelp(RussianHelp, argparse.RawDescriptionHelpFormatter):
    """``RussianHelp`` that keeps the description's line breaks."""


class Parser(argparse.ArgumentParser):
    """argparse in Russian (help and errors); bad arguments exit 2; integers are bounded."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raw = issubclass(
            kwargs.get("formatter_class", RussianHelp), argparse.RawDescriptionHelpFormatter
        )
        kwargs["formatter_class"] = RussianRawHelp if raw else RussianHelp
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "аргументы"
        self._optionals.title = "параметры"
        self.add_argument(
            "-h",
            "--help",
            action="help",
            default=argparse.SUPPRESS,
            help="показать эту справку и выйти",
        )

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        """Add an argument; a plain ``int`` one refuses digits other than 0–9 and numbers
        beyond ``MAX_NUMBER`` (a seed or a port excepted), and a valued option without a
        placeholder gets a Russian one (not argparse's «TRAIT»)."""
        names = [a.lstrip("-").replace("-", "_") for a in args]
        if kwargs.get("type") is int:
            kwargs["type"] = whole_int if set(names) & set(UNBOUNDED) else bounded_int
        return super().add_argument(*args, **russian_metavar(args, kwargs))

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        group = super().add_argument_group(*args, **kwargs)
        group.add_argument = _bounding(group.add_argument)  # type: ignore[method-assign]  # argparse has no hook for a group's arguments
        return group

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        group = super().add_mutually_exclusive_group(**kwargs)
        group.add_argument = _bounding(group.add_argument)  # type: ignore[method-assign]  # as above
        return group

    def error(self, message: str) -> NoReturn:
        for pattern, replacement in _TRANSLATIONS:
            message = re.sub(pattern, replacement, message)
        message = clean(message)  # it may quote an argument
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: ошибка: {message}\n")


#: The placeholder of a valued option in `-h`, by its name (``vs_`` options as their own).
METAVARS = {
    "action": "ДЕЙСТВИЕ",
    "actor": "ИМЯ",
    "after_die": "КУБ",
    "again": "N",
    "ally_difficulty": "СЛОЖНОСТЬ",
    "ally_note": "ТЕКСТ",
    "attribute": "АТРИБУТ",
    "campaign": "ФАЙЛ",
    "character": "ИМЯ",
    "characteristic": "ЗНАЧЕНИЕ",
    "die": "КУБ",
    "difficulty": "СЛОЖНОСТЬ",
    "distance": "ДИСТАНЦИЯ",
    "dm": "DM",
    "energy_after": "КУБОВ",
    "energy_dice": "КУБОВ",
    "host": "АДРЕС",
    "intent": "ТЕКСТ",
    "level": "УРОВЕНЬ",
    "mastery": "N",
    "mod": "МОД",
    "pool": "ЗАПАС",
    "port": "ПОРТ",
    "reason": "ТЕКСТ",
    "seed": "ЗЕРНО",
    "skill": "НАВЫК",
    "special_rule": "ПРАВИЛО",
    "technique": "ТЕХНИКА",
    "tie_price": "ТЕКСТ",
    "trait": "ЧЕРТА",
    "vs": "ЗНАЧЕНИЕ",
}


def russian_metavar(args: Sequence[str], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Return ``kwargs`` with a Russian ``metavar`` for a valued option that has none (an
    option with choices keeps showing them; a flag takes no value)."""
    if "metavar" in kwargs or "choices" in kwargs or not args or not args[0].startswith("-"):
        return kwargs
    if kwargs.get("action") not in (None, "store", "append"):
        return kwargs
    long = next((a for a in args if a.startswith("--")), args[0])  # argparse's dest
    name = (kwargs.get("dest") or long.lstrip("-")).replace("-", "_")
    if name.startswith("vs_"):
        name = name[3:]
    return {**kwargs, "metavar": METAVARS.get(name, "ЗНАЧЕНИЕ")}


def _bounding(add: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a group's ``add_argument`` as ``Parser.add_argument`` bounds plain integers (and
    names the placeholder)."""

    def add_argument(*args: Any, **kwargs: Any) -> Any:
        names = [a.lstrip("-").replace("-", "_") for a in args]
        if kwargs.get("type") is int:
            kwargs["type"] = whole_int if set(names) & set(UNBOUNDED) else bounded_int
        return add(*args, **russian_metavar(args, kwargs))

    return add_argument


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print a Russian error to stderr and exit."""
    print(f"kubik: ошибка: {clean(message)}", file=sys.stderr)
    raise SystemExit(code)


def missing_campaign(path: Path) -> str:
    """Return the error of a command given a campaign file that does not exist."""
    return f"нет такой кампании: {path}. Проверьте путь (новую кампанию создаёт запуск kubik)."


def some_of(names: Sequence[str], shown: int = 5, width: int = 40) -> str:
    """Return a few of ``names`` for a message: the first ``shown``, each cut to ``width``
    characters with «…», then «и ещё N» (a party of thousands, or a 10,000-character name,
    made one line of 20 KB)."""
    from tui.sanitize import cell

    listed = ", ".join(cell(name, width) for name in names[:shown])
    rest = len(names) - shown
    return f"{listed} и ещё {rest}" if rest > 0 else listed


#: Ctrl+Q, kubik's quit key: at a question it ends the line and says «нет».
CTRL_Q = "\x11"


def ask(question: str) -> bool:
    """Ask a yes/no question on the terminal; True only for «д», «да», «y» or «yes».

    Enter, Ctrl+D and Ctrl+Q say no. Ctrl+Q is kubik's quit key, but a terminal's flow control
    (IXON) swallows it as «resume output»: while the question waits it is off, and Ctrl+Q ends
    the line like Enter. The terminal is as it was afterwards.
    """
    saved = _quit_key_ends_the_line()  # before the question: a key typed at once counts
    try:
        print(clean(question), end="", flush=True)
        answer = sys.stdin.readline() if saved is None else _terminal_line()
    finally:
        if saved is not None:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
    if CTRL_Q in answer or not answer.endswith("\n"):
        print()  # Ctrl+Q or Ctrl+D left the cursor after the question
    return CTRL_Q not in answer and answer.strip().lower() in ("д", "да", "y", "yes")


def _terminal_line() -> str:
    """Return a line read from the terminal: up to Enter, Ctrl+Q or Ctrl+D at its start
    (Python's own ``readline`` waits for a newline that a line ended by Ctrl+Q never has)."""
    import os

    data = b""
    while not data.endswith((b"\n", CTRL_Q.encode())):
        chunk = os.read(sys.stdin.fileno(), 1024)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace")


def _quit_key_ends_the_line() -> list[Any] | None:
    """Turn off flow control and make Ctrl+Q end a line; return the settings to restore."""
    try:
        import termios
    except ImportError:  # Windows
        return None
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError, AttributeError):
        return None  # not a terminal (a pipe, a test's stream): nothing to change
    changed = [*saved[:6], list(saved[6])]
    changed[0] &= ~termios.IXON
    changed[6][termios.VEOL] = CTRL_Q.encode()
    try:
        termios.tcsetattr(fd, termios.TCSANOW, changed)
    except termios.error:
        return None
    return saved


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
    """Parse ``+1``, ``-2`` or ``−2`` (argparse type), at most ``MAX_NUMBER`` either way; only
    the digits 0–9 (``int()`` reads «٢» or «２» as 2, which no GM typed as a number)."""
    value = read_typed_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"«{text}» — не целое число")
    if abs(value) > MAX_NUMBER:
        raise argparse.ArgumentTypeError(
            f"«{text}» — слишком большое число (допустимо от −{MAX_NUMBER} до {MAX_NUMBER})"
        )
    return value


def whole_int(text: str) -> int:
    """Parse an integer argument of any size as ``int`` does, of the digits 0–9 only (a seed,
    a port: see ``UNBOUNDED``)."""
    cleaned = text.strip().replace("−", "-")
    if not re.fullmatch(r"[+-]?[0-9]+", cleaned):
        raise argparse.ArgumentTypeError(f"«{text}» — не целое число")
    return int(cleaned)


def bounded_int(text: str) -> int:
    """Parse an integer argument as ``int`` does, refusing absurd sizes (``signed_int``)."""
    return signed_int(text)


def campaign_arg(text: str) -> Path:
    """Return the campaign file an argument names (argparse type).

    A bare name («ide4.json», «ide4») is a campaign in the data folder, beside the default
    one; a path with a folder in it («./c.json», «~/c.json», «/tmp/c.json») is that file.
    """
    from tui.store import default_campaign_path

    path = Path(text).expanduser()
    if text.strip() in ("", ".", ".."):
        raise argparse.ArgumentTypeError("укажите имя или путь файла кампании")
    if len(Path(text).parts) == 1 and not text.startswith(("~", ".")):
        path = default_campaign_path().parent / (text if path.suffix else f"{text}.json")
    return path


#: What ``--campaign`` says in the commands that read or write a campaign.
CAMPAIGN_HELP = "файл кампании (по умолчанию — кампания пользователя; просто имя — в папке данных)"


def campaign_option(parser: Parser) -> None:
    """Add ``--campaign ФАЙЛ`` (the user's campaign when left out)."""
    parser.add_argument("--campaign", type=campaign_arg, metavar="ФАЙЛ", help=CAMPAIGN_HELP)


def json_option(parser: Parser, what: str = "вывод в JSON") -> None:
    """Add ``--json``."""
    parser.add_argument("--json", action="store_true", help=what)


def fold_rare(
    rows: Sequence[tuple[str, Fraction]], floor: Fraction
) -> list[tuple[str, Fraction, int]]:
    """Fold the rows below ``floor`` at either end into one row each.

    Returns (label, probability, how many rows it holds): a folded row's label is «≤ a» or
    «≥ b» and its probability the sum of the rows it holds.
    """
    keep = [i for i, (_label, p) in enumerate(rows) if p >= floor]
    if not keep:
        return [(label, p, 1) for label, p in rows]
    first, last = keep[0], keep[-1]
    out: list[tuple[str, Fraction, int]] = []
    if first > 0:
        out.append(
            (f"≤ {rows[first - 1][0]}", sum((p for _l, p in rows[:first]), Fraction(0)), first)
        )
    out += [(label, p, 1) for label, p in rows[first : last + 1]]
    tail = rows[last + 1 :]
    if tail:
        out.append((f"≥ {tail[0][0]}", sum((p for _l, p in tail), Fraction(0)), len(tail)))
    return out


def outcome_rows(names: dict[str, str], outcomes: dict[str, Fraction]) -> list[str]:
    """Return one line per outcome, its Russian name padded and its chance: ``Успех    72,2%``."""
    from tui.present.rolls import percent

    width = max(len(names[k]) for k in outcomes)
    return [f"{names[k]:<{width}} {percent(p):>7}" for k, p in outcomes.items()]


def bar_row(label: str, p: Fraction | float, top: Fraction | float, width: int) -> str:
    """Return a histogram line: the label, the chance, a bar as long as ``p`` is to ``top``."""
    from tui.present.rolls import bar, percent

    return f"{label:>6} {percent(p):>7} {bar(p / top, width)}"


def odds_payload(outcomes: dict[str, Fraction]) -> dict[str, Any]:
    """Return ``{"outcomes": floats, "exact": "a/b" strings}`` for an outcome distribution."""
    return {
        "outcomes": {k: float(v) for k, v in outcomes.items()},
        "exact": {k: fraction_text(v) for k, v in outcomes.items()},
    }
