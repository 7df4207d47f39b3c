"""The seat protocol: one JSON object per line, versioned, checked strictly on both sides.

A seat sends ``hello`` (its name and token) once, then ``request`` lines; the GM's app sends
``welcome`` or ``refused``, then ``state`` lines (what the seat may read, and the state of
its requests). A seat may also ask for the luck stats the players' view shows: a ``stats``
line with an ``id``, answered by a ``stats`` line with the same ``id`` (the players' sessions,
:mod:`tui.seats.stats`) or an ``error`` line with that ``id`` and the reason. (Added within
version 1: an older GM's app answers a ``stats`` line with an ``error``, no ``id``.)
Anything a seat sends that is not exactly one of these shapes gets a :class:`ProtocolError`
with a Russian reason — never a crash, never a write.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rules import systems as rules_systems
from rules.encounter import ACTION_KINDS
from rules.encounter import MAX_NOTE as DECLARATION_NOTE
from tui import registry
from tui.sanitize import clean
from tui.words import plural, signed

if TYPE_CHECKING:
    from rules.encounter import Declaration
    from tui.store import Character

VERSION = 1
#: The longest line the GM's app reads from a seat (bytes); a longer one is refused unread.
MAX_LINE = 16_384
#: The longest line a seat reads from the GM's app: the players' state, whose Журнал lines
#: (a quick roll of a thousand dice) and party are the GM's own and may be long.
MAX_STATE_LINE = 1 << 22
#: A player's note or Risk price: the fight's own limit, so a declaration the seat takes is
#: one the fight's step takes too.
MAX_NOTE = DECLARATION_NOTE
MAX_NAME = 60
MAX_ID = 64

#: One request kind per choice the rules give a player.
KIND_NAMES = {
    "declare": "заявка",
    "fate": "Судьба",
    "energy": "энергия",
    "reroll": "переброс",
    "expanded": "развёрнутая проверка",
    "risk": "Риск",
    "note": "заметка ведущему",
}
KINDS = tuple(KIND_NAMES)


def system_kinds(system: str) -> tuple[str, ...]:
    """Return the kinds a seat offers in ``system`` (its ``System.seat_kinds``; a note to the
    GM everywhere, an unknown system too)."""
    return registry.get(system).seat_kinds if registry.names().count(system) else ("note",)


def check_kinds(system: str) -> tuple[str, ...]:
    """Return the kinds that apply to the GM's open check of the character (the Проверка
    tab's builder; ``System.check_kinds``: Древо's Судьба there only when the request names
    the check, else in the fight)."""
    return registry.get(system).check_kinds if registry.names().count(system) else ()


FATE_USES = {"before": "+4 к броску (до броска)", "shift": "сдвиг результата (после броска)"}
ENERGY_WHEN = {"before": "до броска", "after": "после броска"}
#: IDE4 energy: the most dice one request may name (the rules' own limits are checked when
#: it applies: 10 before the roll, 3 after), and the die sizes by name.
MAX_ENERGY_DICE = 10
ENERGY_DIE_NAMES = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20"}
STATUSES = ("pending", "accepted", "refused", "undone")
STATUS_NAMES = {
    "pending": "ждёт ведущего",
    "accepted": "принято",
    "refused": "отказано",
    "undone": "принято, потом отменено ведущим",
}

_ID = re.compile(r"^[0-9a-zA-Z_-]{1,64}$")


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``str()`` is the Russian reason the seat sees."""


@dataclass(frozen=True)
class Request:
    """One player's choice, waiting for the GM: about ``character`` (an id of their own)."""

    id: str
    kind: str
    character: str
    payload: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "type": "request",
            "id": self.id,
            "kind": self.kind,
            "character": self.character,
            "payload": dict(self.payload),
        }


@dataclass(frozen=True)
class Hello:
    seat: str
    token: str


def encode(message: dict[str, Any]) -> bytes:
    """Return one line of the protocol."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes, limit: int = MAX_LINE) -> dict[str, Any]:
    """Return the JSON object of one line; raises ProtocolError for anything else.

    ``limit``: the longest line accepted (a seat reading the GM's state: MAX_STATE_LINE).
    """
    if len(line) > limit:
        raise ProtocolError("Слишком длинное сообщение.")
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("Это не сообщение kubik (ожидался JSON).") from None
    if not isinstance(message, dict):
        raise ProtocolError("Это не сообщение kubik (ожидался объект JSON).")
    if message.get("v") != VERSION:
        raise ProtocolError(f"Другая версия протокола (нужна {VERSION}): обновите kubik.")
    return message


def _text(value: object, what: str, limit: int, *, empty: bool = True) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{what}: ожидался текст.")
    if len(value) > limit:
        raise ProtocolError(f"{what}: не длиннее {limit} знаков.")
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in value):
        raise ProtocolError(f"{what}: управляющие символы не принимаются.")
    value = clean(value).strip()  # the names' sanitiser: no bidi or zero-width marks
    if not empty and not value:
        raise ProtocolError(f"{what}: пусто.")
    return value


def _ident(value: object, what: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ProtocolError(f"{what}: неверный идентификатор.")
    return value


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError(f"{what}: целое число от {low} до {high}.")
    return value


def _choice(value: object, what: str, allowed: Collection[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ProtocolError(f"{what}: недопустимое значение.")
    return value


def _check(payload: dict[str, Any]) -> dict[str, Any]:
    """The open check a request is about (the id the seat was shown), when it names one."""
    check = payload.get("check")
    return {} if check is None else {"check": _ident(check, "Проверка")}


def _only(payload: dict[str, Any], keys: set[str]) -> None:
    extra = set(payload) - keys
    if extra:
        raise ProtocolError("Лишние поля в заявке: " + ", ".join(sorted(map(str, extra)))[:80])


def check_payload(kind: str, payload: object) -> dict[str, Any]:
    """Return the payload of a ``kind`` request, checked field by field."""
    if not isinstance(payload, dict):
        raise ProtocolError("Заявка: ожидался объект с полями.")
    if kind == "declare":
        _only(payload, {"action", "target", "weapon", "distance", "turns", "note"})
        target = payload.get("target")
        weapon = payload.get("weapon")
        return {
            "action": _choice(payload.get("action"), "Действие", ACTION_KINDS),
            "target": None if target is None else _ident(target, "Цель"),
            "weapon": None if weapon is None else _text(weapon, "Оружие", MAX_NAME, empty=False),
            # The fight of exchanges' distances (its system's, by the registry's string).
            "distance": _choice(
                payload.get("distance", "close"), "Дистанция", registry.fight_readers().DISTANCES
            ),
            "turns": _int(payload.get("turns", 1), "Ходов", 1, 4),
            "note": _text(payload.get("note", ""), "Заметка", MAX_NOTE),
        }
    if kind == "fate":
        _only(payload, {"use", "points", "note", "check"})
        checked = {
            "use": _choice(payload.get("use"), "Судьба", FATE_USES),
            "note": _text(payload.get("note", ""), "Заметка", MAX_NOTE),
            **_check(payload),
        }
        if payload.get("points") is not None:  # a shift's points, signed
            points = _int(payload["points"], "Очки Судьбы", -3, 3)
            if not points or checked["use"] != "shift":
                raise ProtocolError("Очки Судьбы: сдвиг от −3 до +3, не 0.")
            checked["points"] = points
        return checked
    if kind == "energy":  # IDE4: dice of the nominal (or of ``die``, no larger)
        _only(payload, {"when", "amount", "die", "note", "check"})
        checked = {
            "when": _choice(payload.get("when"), "Когда", ENERGY_WHEN),
            "amount": _int(payload.get("amount"), "Кубов энергии", 1, MAX_ENERGY_DICE),
            "note": _text(payload.get("note", ""), "Заметка", MAX_NOTE),
            **_check(payload),
        }
        if payload.get("die") is not None:
            die = _int(payload["die"], "Куб энергии", 4, 20)
            if die not in ENERGY_DIE_NAMES:
                raise ProtocolError("Куб энергии: d4, d6, d8, d10, d12 или d20.")
            checked["die"] = die
        return checked
    if kind == "risk":  # Старатели: the price is the GM's (required before the retry)
        _only(payload, {"price", "note", "check"})
        checked = {"note": _text(payload.get("note", ""), "Заметка", MAX_NOTE), **_check(payload)}
        if payload.get("price") is not None:
            checked["price"] = _text(payload["price"], "Цена Риска", MAX_NOTE, empty=False)
        return checked
    if kind == "reroll":  # IDE4: the source, if named (else the first the rules allow)
        _only(payload, {"source", "note", "check"})
        checked = {"note": _text(payload.get("note", ""), "Заметка", MAX_NOTE), **_check(payload)}
        if payload.get("source") is not None:
            sources = registry.reroll_sources()  # not at start: all of rules.ide4
            checked["source"] = _choice(payload["source"], "Источник переброса", sources)
        return checked
    if kind == "expanded":
        _only(payload, {"note", "check"})
        return {"note": _text(payload.get("note", ""), "Заметка", MAX_NOTE), **_check(payload)}
    if kind == "note":
        _only(payload, {"text"})
        return {"text": _text(payload.get("text"), "Заметка", MAX_NOTE, empty=False)}
    raise ProtocolError("Неизвестный вид заявки.")


def parse_hello(message: dict[str, Any]) -> Hello:
    """Return the seat's greeting; raises ProtocolError for anything else."""
    if message.get("type") != "hello":
        raise ProtocolError("Сначала представьтесь: kubik seat ИМЯ.")
    if set(message) - {"v", "type", "seat", "token"}:
        raise ProtocolError("Лишние поля в приветствии.")
    seat = _text(message.get("seat"), "Имя места", MAX_NAME, empty=False)
    token = message.get("token")
    if not isinstance(token, str) or not 16 <= len(token) <= 128:
        raise ProtocolError("Неверный ключ места.")
    return Hello(seat, token)


def parse_stats(message: dict[str, Any]) -> str:
    """Return the id of a seat's ``stats`` question; raises ProtocolError for anything else."""
    if set(message) - {"v", "type", "id"}:
        raise ProtocolError("Лишние поля в вопросе об удаче.")
    return _ident(message.get("id"), "Номер вопроса")


def parse_request(message: dict[str, Any]) -> Request:
    """Return the request in ``message``; raises ProtocolError for anything else."""
    if message.get("type") != "request":
        raise ProtocolError("Место может только посылать заявки.")
    if set(message) - {"v", "type", "id", "kind", "character", "payload"}:
        raise ProtocolError("Лишние поля в заявке.")
    kind = message.get("kind")
    if not isinstance(kind, str) or kind not in KIND_NAMES:
        raise ProtocolError("Неизвестный вид заявки.")
    return Request(
        id=_ident(message.get("id"), "Номер заявки"),
        kind=kind,
        character=_ident(message.get("character"), "Персонаж"),
        payload=check_payload(kind, message.get("payload", {})),
    )


def describe(kind: str, payload: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """Return the request in words, as the GM and the player read it (plain text).

    ``names``: the names of the characters by id (the players' names for a seat: «???» for
    a hidden NPC), for a declaration's target.
    """
    note = payload.get("note") or ""
    tail = f" — {note}" if note else ""
    if kind == "declare":
        from rules.encounter import ACTION_NAMES

        parts = [ACTION_NAMES.get(payload.get("action", ""), "?")]
        if payload.get("weapon"):
            parts.append(str(payload["weapon"]))
        turns = payload.get("turns", 1)
        if isinstance(turns, int) and turns > 1:
            parts.append(plural(turns, "ход", "хода", "ходов"))
        target = ""
        if payload.get("target"):
            target = " → " + (names or {}).get(str(payload["target"]), "?")
            # The distance sets the difficulty and what may answer: the GM sees it too.
            distances = registry.fight_readers().DISTANCE_NAMES
            distance = distances.get(str(payload.get("distance", "")))
            if distance:
                target += f", {distance}"
        return "Заявка: " + ", ".join(parts) + target + tail
    if kind == "fate":
        points = payload.get("points")
        shift = f" {signed(points)}" if isinstance(points, int) else ""
        return "Судьба: " + FATE_USES.get(payload.get("use", ""), "?") + shift + tail
    if kind == "energy":
        when = ENERGY_WHEN.get(payload.get("when", ""), "?")
        count = payload.get("amount")
        dice = plural(count, "куб", "куба", "кубов") if isinstance(count, int) else "?"
        size = f" d{payload['die']}" if payload.get("die") else ""
        return f"Энергия {when}: {dice}{size}{tail}"
    if kind == "risk":
        price = f", цена: {payload['price']}" if payload.get("price") else ""
        return f"Риск{price}{tail}"
    if kind == "reroll":
        source = registry.reroll_sources().get(payload.get("source", ""), "")
        return "Прошу переброс" + (f" ({source})" if source else "") + tail
    if kind == "expanded":
        return "Требую развёрнутую проверку" + tail
    if kind == "note":
        return "Заметка: " + str(payload.get("text", ""))
    return KIND_NAMES.get(kind, kind)


class SeatForm(Protocol):
    """What a seat uses of the form its system's players declare with in a fight of exchanges
    (:attr:`~tui.registry.System.declaration_form`: Древо's Бой pane's form, the same legality
    checks as the GM's)."""

    display: bool

    def prepare(self, actor: Character, weapons: list[str], targets: list[tuple[str, str]]) -> None:
        """Show the form for ``actor`` with its weapons and the targets ``(name, id)``."""
        ...

    def declaration(self, actor_id: str) -> Declaration:
        """Return the declaration in the form (``RulesError``: an impossible one)."""
        ...

    def problem(self) -> tuple[str, bool]:
        """Return why the declaration breaks a rule, and whether the GM may allow it."""
        ...

    def show_problem(self, problem: str, may_allow: bool) -> None:
        """Show why the declaration is refused."""
        ...


def declaration_form(system: object) -> Callable[..., SeatForm] | None:
    """Return the form class a seat of a ``system`` campaign declares with (its
    ``System.declaration_form``, imported on the first call), or None: the system fights in
    rounds (or the seat has no campaign's state yet). Called as ``form(id=…, ask_others=False)``:
    a player's seat does not ask «Против других»."""
    if not rules_systems.known(system):
        return None
    target = registry.get(system).declaration_form
    form: Callable[..., SeatForm] | None = registry.load(target) if target else None
    return form
