"""Effects with a duration (RULES.md §5): «Оглушён на 2 раунда», «патруль каждые 3 минуты».

An effect sits on a combatant, a character or the scene (target ``""``). It may carry a
modifier to its target's checks (+ helps, − hinders; a scene effect's modifier counts for
everyone), a duration and a repeat. Time moves in two ways, and :func:`tick` takes both:

* a combat boundary (:class:`Boundary`): the start or end of a combatant's turn, of a round;
* the scene clock (:class:`ClockStep`): minutes the GM advances outside combat.

Each effect stores the boundary it expires at, worked out when it is added, so a tick is a
comparison; :func:`tick` returns the effects left and the notices (expired, repeat due) the
log shows. Everything is immutable and JSON-ready (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.data import load_table
from rules.errors import RulesError
from rules.modifiers import Modifier, signed

#: Duration kinds: N rounds; until the start / end of a named combatant's next turn;
#: N minutes of scene time; until the GM removes it.
DURATIONS = ("rounds", "turn_start", "turn_end", "minutes", "removed")
DURATION_NAMES = {
    "rounds": "раунды",
    "turn_start": "до начала хода",
    "turn_end": "до конца хода",
    "minutes": "минуты сцены",
    "removed": "пока не снимут",
}
#: Repeat units: every N rounds (at the target's turn start, or the round's start), every N
#: minutes of the scene clock.
REPEAT_UNITS = ("round", "minute")
BOUNDARIES = ("round_start", "round_end", "turn_start", "turn_end")
MAX_AMOUNT = 10_000


@dataclass(frozen=True)
class Boundary:
    """A moment of combat: ``kind`` of ``BOUNDARIES``; ``combatant`` for turn boundaries."""

    kind: str
    round: int
    combatant: str = ""


@dataclass(frozen=True)
class ClockStep:
    """The scene clock moved from ``before`` to ``after`` minutes."""

    before: int
    after: int


@dataclass(frozen=True)
class Effect:
    """One effect. ``expires`` is the boundary (kind, combatant, earliest round) that ends a
    combat duration; ``until_minute`` ends a scene-time one.

    Attributes:
        id: unique within the campaign; name: what the GM typed («Оглушён»).
        target: a character id, or ``""`` for the scene.
        modifier: to the target's checks, 0 for none; reason: shown with it (default: name).
        duration: one of ``DURATIONS``; amount: rounds or minutes; anchor: the combatant whose
            turn ends it (``turn_start`` / ``turn_end``), or whose turn it was when a
            ``rounds`` effect began.
        repeat_every / repeat_unit / repeat_text: «каждые 3 минуты: патруль»; 0 = no repeat.
        hidden: the players' view does not show it.
        started_round / started_minute: when it was added; last_repeat: the round or minute
            its repeat was last due.
    """

    id: str
    name: str
    target: str = ""
    modifier: int = 0
    reason: str = ""
    duration: str = "removed"
    amount: int = 0
    anchor: str = ""
    repeat_every: int = 0
    repeat_unit: str = "round"
    repeat_text: str = ""
    hidden: bool = False
    started_round: int = 0
    started_minute: int = 0
    expires: tuple[str, str, int] | None = None
    until_minute: int | None = None
    last_repeat: int = 0

    @property
    def label(self) -> str:
        """«Оглушён −1» or «Оглушён»."""
        return f"{self.name} {signed(self.modifier)}" if self.modifier else self.name

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {
            k: getattr(self, k) for k in self.__dataclass_fields__ if k != "expires"
        }
        out["expires"] = list(self.expires) if self.expires else None
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Effect:
        """Rebuild an effect saved by :meth:`to_dict` (raises RulesError if malformed)."""
        try:
            expires = d.get("expires")
            fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d and k != "expires"}
            effect = cls(**fields, expires=tuple(expires) if expires else None)
        except (TypeError, KeyError) as err:
            raise RulesError(f"Эффект в кампании повреждён: {err}.") from err
        return effect


@dataclass(frozen=True)
class Notice:
    """What a tick tells the GM: ``kind`` is ``"expired"`` or ``"due"`` (a repeat)."""

    kind: str
    effect: Effect

    @property
    def text(self) -> str:
        """The log line: «Эффект «Оглушён» закончился» or «Пора: патруль (Оглушён)»."""
        if self.kind == "expired":
            return f"Эффект «{self.effect.name}» закончился"
        what = self.effect.repeat_text or self.effect.name
        return f"Пора: {what} (эффект «{self.effect.name}»)"


@dataclass(frozen=True)
class Now:
    """Where time stands when an effect is added: the round (0 outside combat), whose turn
    it is (``""`` for none) and the scene clock."""

    round: int = 0
    actor: str = ""
    minute: int = 0


@dataclass(frozen=True)
class EffectSet:
    """The campaign's effects and its scene clock (the store document ``effects``)."""

    effects: tuple[Effect, ...] = ()
    minute: int = 0
    counter: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "minute": self.minute,
            "counter": self.counter,
            "effects": [e.to_dict() for e in self.effects],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> EffectSet:
        """Rebuild from the store document (``None``: no effects yet)."""
        if not d:
            return cls()
        try:
            return cls(
                tuple(Effect.from_dict(e) for e in d.get("effects", [])),
                int(d.get("minute", 0)),
                int(d.get("counter", 0)),
            )
        except (TypeError, ValueError, AttributeError) as err:
            raise RulesError(f"Эффекты кампании повреждены: {err}.") from err

    def on(self, target: str) -> tuple[Effect, ...]:
        """Return the effects on ``target`` (``""``: the scene's)."""
        return tuple(e for e in self.effects if e.target == target)

    def without(self, effect_id: str) -> EffectSet:
        """Return the set without the effect ``effect_id``."""
        return replace(self, effects=tuple(e for e in self.effects if e.id != effect_id))

    def add(self, spec: EffectSpec, now: Now) -> tuple[EffectSet, Effect]:
        """Add an effect built from ``spec`` at ``now``; return the new set and the effect."""
        effect = make_effect(spec, now, f"e{self.counter + 1}")
        return replace(self, effects=(*self.effects, effect), counter=self.counter + 1), effect


@dataclass(frozen=True)
class EffectSpec:
    """What the GM fills in to add an effect (see :class:`Effect` for the fields)."""

    name: str
    target: str = ""
    modifier: int = 0
    duration: str = "removed"
    amount: int = 0
    anchor: str = ""
    repeat_every: int = 0
    repeat_unit: str = "round"
    repeat_text: str = ""
    hidden: bool = False
    reason: str = field(default="")


def rounds_rule() -> str:
    """Return when an N-round effect ends: ``"same_turn"`` or ``"round_end"`` [default]."""
    rule = str(load_table("rounds/effects.toml")["rounds"]["ends"])
    if rule not in ("same_turn", "round_end"):
        raise RulesError(
            f"Настройка rounds/effects.toml [rounds] ends = «{rule}» неизвестна: "
            "укажите «same_turn» или «round_end»."
        )
    return rule


def make_effect(spec: EffectSpec, now: Now, effect_id: str) -> Effect:
    """Build an effect from the GM's spec, working out the boundary it expires at.

    Args:
        spec: the form's values.
        now: the round, whose turn it is and the scene clock at this moment.
        effect_id: the new effect's id.

    Raises:
        RulesError: an empty name, an unknown duration or repeat unit, a count out of range,
            or a turn duration without the combatant whose turn ends it.
    """
    name = spec.name.strip()
    if not name:
        raise RulesError("Назовите эффект, например «Оглушён» или «Патруль».")
    if spec.duration not in DURATIONS:
        raise RulesError(f"Длительность «{spec.duration}» неизвестна: выберите из списка.")
    if spec.repeat_unit not in REPEAT_UNITS:
        raise RulesError(f"Повтор «{spec.repeat_unit}» неизвестен: раунды или минуты.")
    counted = spec.duration in ("rounds", "minutes")
    if counted and not 1 <= spec.amount <= MAX_AMOUNT:
        raise RulesError(f"Сколько длится эффект: целое число от 1 до {MAX_AMOUNT}.")
    if not 0 <= spec.repeat_every <= MAX_AMOUNT:
        raise RulesError(f"Повтор: каждые 1…{MAX_AMOUNT} (0 — без повтора).")
    if spec.duration in ("turn_start", "turn_end") and not spec.anchor:
        raise RulesError("Выберите участника боя, чей ход закончит эффект.")
    expires: tuple[str, str, int] | None = None
    until: int | None = None
    if spec.duration == "rounds":
        if now.actor and rounds_rule() == "same_turn":
            # N full rounds of turns: ends as the turn it began in comes round N times later.
            expires = ("turn_start", now.actor, now.round + spec.amount)
        else:  # added outside a turn, or the campaign counts whole rounds
            last = max(now.round, 1) + spec.amount - 1
            expires = ("round_end", "", last)
    elif spec.duration == "turn_start":
        expires = ("turn_start", spec.anchor, now.round)
    elif spec.duration == "turn_end":
        # «Until the end of X's next turn» said during X's turn: not this turn, the next one.
        first = now.round + 1 if spec.anchor == now.actor and now.round else now.round
        expires = ("turn_end", spec.anchor, first)
    elif spec.duration == "minutes":
        until = now.minute + spec.amount
    return Effect(
        id=effect_id,
        name=name,
        target=spec.target,
        modifier=spec.modifier,
        reason=spec.reason.strip() or name,
        duration=spec.duration,
        amount=spec.amount if counted else 0,
        anchor=now.actor if spec.duration == "rounds" else spec.anchor,
        repeat_every=spec.repeat_every,
        repeat_unit=spec.repeat_unit,
        repeat_text=spec.repeat_text.strip(),
        hidden=spec.hidden,
        started_round=now.round,
        started_minute=now.minute,
        expires=expires,
        until_minute=until,
        last_repeat=now.minute if spec.repeat_unit == "minute" else now.round,
    )


def _expires_at(effect: Effect, event: Boundary) -> bool:
    if effect.expires is None:
        return False
    kind, who, first_round = effect.expires
    return event.kind == kind and event.combatant == who and event.round >= first_round


def _round_repeat_due(effect: Effect, event: Boundary, in_order: set[str]) -> bool:
    """A round repeat comes at its target's turn start, or at the round's start."""
    if effect.repeat_every <= 0 or effect.repeat_unit != "round":
        return False
    at_turn = effect.target in in_order
    matches = (
        event.kind == "turn_start" and event.combatant == effect.target
        if at_turn
        else event.kind == "round_start"
    )
    return matches and event.round - effect.last_repeat >= effect.repeat_every


def tick(
    effects: EffectSet, event: Boundary | ClockStep, in_order: Iterable[str] = ()
) -> tuple[EffectSet, list[Notice]]:
    """Move ``effects`` past one boundary or clock step.

    Args:
        effects: the campaign's effects.
        event: a combat boundary, or the scene clock's step (which also sets the clock).
        in_order: the combatants in the fight now (a round repeat on one of them comes at
            its turn start, on anyone else at the round's start).

    Returns:
        The effects left, and the notices in order: repeats due first, then expiries.

    Raises:
        RulesError: a clock step backwards.
    """
    order = set(in_order)
    kept: list[Effect] = []
    due: list[Notice] = []
    expired: list[Notice] = []
    if isinstance(event, ClockStep):
        if event.after < event.before:
            raise RulesError("Время сцены не идёт назад: отмените шаг (Ctrl+Z).")
        for e in effects.effects:
            if e.repeat_every > 0 and e.repeat_unit == "minute":
                last = e.started_minute + (
                    (event.after - e.started_minute) // e.repeat_every * e.repeat_every
                )
                if last > e.last_repeat and last > e.started_minute:
                    due.append(Notice("due", e))
                    e = replace(e, last_repeat=last)
            if e.until_minute is not None and event.after >= e.until_minute:
                expired.append(Notice("expired", e))
                continue
            kept.append(e)
        return replace(effects, effects=tuple(kept), minute=event.after), due + expired
    for e in effects.effects:
        if _round_repeat_due(e, event, order):
            due.append(Notice("due", e))
            e = replace(e, last_repeat=event.round)
        if _expires_at(e, event):
            expired.append(Notice("expired", e))
            continue
        kept.append(e)
    return replace(effects, effects=tuple(kept)), due + expired


def tick_all(
    effects: EffectSet, events: Sequence[Boundary], in_order: Iterable[str] = ()
) -> tuple[EffectSet, list[Notice]]:
    """Tick through several boundaries in order (one turn change is end, [round], start)."""
    notices: list[Notice] = []
    order = tuple(in_order)
    for event in events:
        effects, more = tick(effects, event, order)
        notices += more
    return effects, notices


def active_modifiers(effects: EffectSet, character_id: str) -> tuple[Modifier, ...]:
    """Return the modifiers of the active effects on ``character_id`` and on the scene.

    Each is listed with its reason, «эффект «Оглушён»», as the wound penalty is.
    """
    return tuple(
        Modifier(e.modifier, f"эффект «{e.reason or e.name}»")
        for e in effects.effects
        if e.modifier and e.target in (character_id, "")
    )


def remaining_text(effect: Effect, round_now: int, minute_now: int, names: dict[str, str]) -> str:
    """Return what is left of an effect, in words: «ещё 2 р.», «до конца хода: Гриша»."""
    if effect.duration == "removed":
        return "пока не снимут"
    if effect.duration == "minutes" and effect.until_minute is not None:
        return f"ещё {max(effect.until_minute - minute_now, 0)} мин"
    assert effect.expires is not None
    kind, who, first = effect.expires
    whose = names.get(who, who)
    if effect.duration == "rounds":
        return f"ещё {rounds_left(effect, round_now)} р."
    return f"{'до начала' if kind == 'turn_start' else 'до конца'} хода: {whose}"


def rounds_left(effect: Effect, round_now: int) -> int:
    """Return how many rounds an effect of ``duration="rounds"`` has left (0 when due)."""
    assert effect.expires is not None
    kind, _who, first = effect.expires
    left = first - max(round_now, 1) + 1 if kind == "round_end" else first - round_now
    return max(left, 0)
