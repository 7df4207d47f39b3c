"""What the systems' typed character sheets share: typed fields, checked values.

Each system's sheet is its own package's ``sheet`` module (``rules/drevo/sheet.py``, …); the
store reads every sheet before the first screen is drawn, so a system's package loads its
check procedure only on the first name asked of it (:mod:`rules.faces`).

A system's sheet (``rules/<system>/sheet.py``) is a frozen dataclass of the values a
character carries for that system's rules only — Древо's Судьба and wounds, IDE4's energy,
a Мир Тьмы health track. The common core (name, PC/NPC, notes, saved rolls, traits) is the
store's :class:`~tui.store.models.Character`; the sheet is read from it and written back.

A sheet is read from a flat mapping of stored values (:meth:`Sheet.from_values`, lenient:
what the campaign schema has already checked) and gives them back (:meth:`Sheet.values`).
:func:`check_values` finds the first value a sheet cannot hold and names its field
(:class:`SheetError`); the campaign schema turns that into its Russian message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from rules.errors import RulesError


class SheetError(RulesError):
    """A sheet value kubik cannot use: ``field`` names it, ``want`` says what is needed.

    ``shown`` — quote the value before ``want`` («−2 — нужно целое число…»); False when
    ``want`` already says what is wrong («неизвестная рана; бывают …»).
    """

    def __init__(self, field: str, value: Any, want: str, *, shown: bool = True) -> None:
        super().__init__(f"поле {field}: {want}")
        self.field, self.value, self.want, self.shown = field, value, want, shown


class Sheet(Protocol):
    """A system's typed sheet (see the module's doc)."""

    #: The system the sheet belongs to (``"drevo"``, ``"ide4"``, …).
    SYSTEM: ClassVar[str]
    #: Its stored fields, in the order a form shows them.
    FIELDS: ClassVar[tuple[str, ...]]
    #: The checks of its stored values (the campaign schema runs them).
    CHECKS: ClassVar[FieldChecks]

    def values(self) -> dict[str, Any]:
        """Return the stored values, JSON-ready (None: the field is not set)."""
        ...


def is_int(value: Any) -> bool:
    """Whether ``value`` is an int and not a bool (JSON's true is no number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def int_field(name: str, low: int, high: int) -> Callable[[Any], None]:
    """A check that the field ``name`` is a whole number from ``low`` to ``high``."""

    def check(value: Any) -> None:
        if not is_int(value) or not low <= value <= high:
            raise SheetError(name, value, f"нужно целое число от {_n(low)} до {_n(high)}")

    return check


def optional_int_field(name: str, low: int, high: int) -> Callable[[Any], None]:
    """A check that the field ``name`` is null or a whole number from ``low`` to ``high``."""
    inner = int_field(name, low, high)

    def check(value: Any) -> None:
        if value is not None:
            try:
                inner(value)
            except SheetError as err:
                raise SheetError(name, value, err.want + " или null") from None

    return check


def bool_field(name: str) -> Callable[[Any], None]:
    """A check that the field ``name`` is true or false."""

    def check(value: Any) -> None:
        if not isinstance(value, bool):
            raise SheetError(name, value, "нужно true или false")

    return check


def str_field(name: str) -> Callable[[Any], None]:
    """A check that the field ``name`` is a string (its length is the file's business)."""

    def check(value: Any) -> None:
        if not isinstance(value, str):
            raise SheetError(name, value, "нужна строка")

    return check


def strings_field(name: str) -> Callable[[Any], None]:
    """A check that the field ``name`` is a list of strings."""

    def check(value: Any) -> None:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SheetError(name, value, "нужен список строк")

    return check


@dataclass(frozen=True)
class FieldChecks:
    """The checks of one sheet's fields: name → check(value), raising :class:`SheetError`."""

    checks: Mapping[str, Callable[[Any], None]]

    def check(self, values: Mapping[str, Any]) -> None:
        """Check each of the sheet's fields present in ``values`` (others are not its own).

        Raises:
            SheetError: the first value the sheet cannot hold.
        """
        for name, check in self.checks.items():
            if name in values:
                check(values[name])


def int_or(value: Any, default: int) -> int:
    """``value`` as an int, ``default`` when it is none (or not a number: a damaged value)."""
    return int(value) if is_int(value) else default


def _n(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)
