"""Старатели procedures built on one check: opposed rolls, the task chain, the group check, Risk.

Each takes frozen inputs and returns a result that keeps every roll it made, in the order the
dice were drawn (helpers first, then the main roll).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.starately.check import (
    Check,
    Modifier,
    Result,
    Roll,
    Side,
    make_roll,
    resolve,
    roll_dice,
)
from rules.starately.tables import chain_difficulty, settings

SIDES = ("a", "b")

# --- opposed --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opposed:
    """Two characters rolling against each other, no difficulty.

    Attributes:
        a, b: the two sides (``Side.pc`` tells a player character).
        initiator: ``"a"`` or ``"b"`` — who started the contest; ``None`` if nobody can be named.

    Raises:
        RulesError: no initiator and not exactly one player character, so a tie has no winner.
    """

    a: Side
    b: Side
    initiator: str | None = None

    def __post_init__(self) -> None:
        if self.initiator not in (None, *SIDES):
            raise RulesError(f"Инициатор — «a» или «b», а не «{self.initiator}».")
        if self.initiator is None and self.a.pc == self.b.pc:
            raise RulesError(
                "Встречный бросок: при ничьей побеждает инициатор, а если его не назвать — "
                "персонаж игрока. Здесь оба (или ни один) — персонажи игроков: укажите инициатора."
            )

    @property
    def tie_winner(self) -> str:
        """``"a"`` or ``"b"``: the initiator, else the player character."""
        if self.initiator is not None:
            return self.initiator
        return "a" if self.a.pc else "b"

    @property
    def tie_rule(self) -> str:
        """``"initiator"`` or ``"pc"``: which rule breaks a tie."""
        return "initiator" if self.initiator is not None else "pc"


@dataclass(frozen=True)
class OpposedResult:
    """A resolved opposed roll.

    Attributes:
        check: the inputs.
        a, b: each side's dice and total (natural 12 and 2 decide nothing here).
        winner: ``"a"`` or ``"b"``.
        tie: the totals were equal and ``check.tie_rule`` decided.
        margin: winner's total minus loser's (0 on a tie).
    """

    check: Opposed
    a: Roll
    b: Roll
    winner: str
    tie: bool
    margin: int

    @property
    def decided_by(self) -> str:
        """``"total"``, ``"tie"`` (the tie rule) or ``"natural"`` (naturals_decide)."""
        if self.tie:
            return "tie"
        return "natural" if _natural_winner(self.a, self.b) else "total"

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every die; natural 12 / 2 are flagged."""
        return {
            "system": "starately",
            "kind": "opposed",
            "a": {"side": self.check.a.to_dict(), **self.a.to_dict(), **_flags(self.a)},
            "b": {"side": self.check.b.to_dict(), **self.b.to_dict(), **_flags(self.b)},
            "initiator_wins": (
                None if self.check.initiator is None else self.winner == self.check.initiator
            ),
            "decided_by": self.decided_by,
            "naturals_decide": settings().naturals_decide,
            "initiator": self.check.initiator,
            "winner": self.winner,
            "tie": self.tie,
            "tie_rule": self.check.tie_rule if self.tie else None,
            "margin": self.margin,
        }


def _flags(roll: Roll) -> dict[str, bool]:
    table = settings()
    return {
        "natural_12": roll.natural == table.natural_success,
        "natural_2": roll.natural == table.natural_failure,
    }


def natural_edge(a_natural: int, b_natural: int) -> str | None:
    """With ``naturals_decide``: ``"a"`` / ``"b"`` when a natural 12 or 2 decides, else None."""
    table = settings()
    if not table.naturals_decide:
        return None
    for best, winner_if_a in ((table.natural_success, True), (table.natural_failure, False)):
        has_a, has_b = a_natural == best, b_natural == best
        if has_a != has_b:
            return "a" if has_a == winner_if_a else "b"
    return None


def _natural_winner(a: Roll, b: Roll) -> str | None:
    return natural_edge(a.natural, b.natural)


def resolve_opposed(check: Opposed, a_dice: Sequence[int], b_dice: Sequence[int]) -> OpposedResult:
    """Resolve an opposed roll: the higher total wins; a tie goes to the initiator, else the PC.
    Natural 12 and 2 are flagged and decide nothing (campaign setting ``naturals_decide``).

    Raises:
        RulesError: either set of dice does not fit its side.
    """
    a, b = make_roll(check.a, a_dice), make_roll(check.b, b_dice)
    edge = _natural_winner(a, b)
    if edge is not None:
        return OpposedResult(check, a, b, edge, tie=False, margin=abs(a.total - b.total))
    if a.total == b.total:
        return OpposedResult(check, a, b, check.tie_winner, tie=True, margin=0)
    winner = "a" if a.total > b.total else "b"
    return OpposedResult(check, a, b, winner, tie=False, margin=abs(a.total - b.total))


def roll_opposed(check: Opposed, rng: random.Random) -> OpposedResult:
    """Roll side a, then side b, with ``rng`` (see ``resolve_opposed``)."""
    return resolve_opposed(check, roll_dice(check.a, rng), roll_dice(check.b, rng))


# --- task chain ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskChain:
    """A helper rolls another skill one step lower so the main check gets the helper's Effect.

    Attributes:
        helper: who prepares the way (e.g. the boat's pilot).
        main: the check that matters (e.g. the jump at 12+).
        helper_difficulty: override; by default one step below ``main`` (12→10→8→6).
    """

    helper: Side
    main: Check
    helper_difficulty: int | None = None

    @property
    def helper_check(self) -> Check:
        """The helper's check."""
        if self.helper_difficulty is not None:
            return Check(self.helper, self.helper_difficulty)
        return Check(self.helper, chain_difficulty(self.main.difficulty))


@dataclass(frozen=True)
class ChainResult:
    """A resolved task chain.

    Attributes:
        chain: the inputs.
        helper: the helper's result; its Effect, negative too, is carried.
        main: the main result; its side carries the Effect as the last modifier.
    """

    chain: TaskChain
    helper: Result
    main: Result

    @property
    def carried(self) -> int:
        """The Effect carried into the main roll."""
        return self.helper.effect

    @property
    def outcome(self) -> str:
        """The main check's outcome."""
        return self.main.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both rolls."""
        return {
            "system": "starately",
            "kind": "chain",
            "helper": self.helper.to_dict(),
            "carried": self.carried,
            "main": self.main.to_dict(),
            "outcome": self.outcome,
        }


def chain_modifier(helper: Result) -> Modifier:
    """Return the modifier a chain helper's result gives the main roll: its Effect."""
    who = helper.check.side.name
    return Modifier(helper.effect, f"Эффект помощника ({who})" if who else "Эффект помощника")


def resolve_chain(
    chain: TaskChain, helper_dice: Sequence[int], main_dice: Sequence[int]
) -> ChainResult:
    """Resolve a task chain: the helper's Effect becomes a modifier of the main check.

    Raises:
        RulesError: either set of dice does not fit its check.
    """
    helper = resolve(chain.helper_check, helper_dice)
    main = resolve(chain.main.with_modifier(chain_modifier(helper)), main_dice)
    return ChainResult(chain, helper, main)


def roll_chain(chain: TaskChain, rng: random.Random) -> ChainResult:
    """Roll the helper, then the main check, with ``rng`` (see ``resolve_chain``)."""
    helper_dice = roll_dice(chain.helper, rng)
    return resolve_chain(chain, helper_dice, roll_dice(chain.main.side, rng))


# --- group check -----------------------------------------------------------------------------


def helper_refusal(helper: Side, main: Side) -> str | None:
    """Say why ``helper`` cannot join ``main``'s group check, or ``None`` if it can.

    A helper needs the same skill at level 1 or more (the level is a campaign table value).
    """
    need = settings().min_helper_skill
    who = helper.name or "Помощник"
    if helper.skill is None or helper.skill < need:
        skill = main.skill_name or helper.skill_name or "этот навык"
        return f"{who} не может помочь: для помощи нужен навык «{skill}» хотя бы {need}-го уровня."
    if helper.skill_name and main.skill_name and helper.skill_name != main.skill_name:
        return (
            f"{who} не может помочь: в групповой проверке помогают тем же навыком "
            f"(«{main.skill_name}»), а не «{helper.skill_name}»."
        )
    return None


@dataclass(frozen=True)
class GroupCheck:
    """One main roll plus helpers rolling the same skill at the same difficulty.

    Raises:
        RulesError: a helper lacks the skill at level 1 (the message names the helper).
    """

    main: Check
    helpers: tuple[Side, ...]

    def __post_init__(self) -> None:
        for helper in self.helpers:
            refusal = helper_refusal(helper, self.main.side)
            if refusal is not None:
                raise RulesError(refusal)

    @property
    def helper_checks(self) -> tuple[Check, ...]:
        """Each helper's check, at the main check's difficulty."""
        return tuple(Check(h, self.main.difficulty) for h in self.helpers)


@dataclass(frozen=True)
class GroupResult:
    """A resolved group check.

    Attributes:
        group: the inputs.
        helpers: each helper's result, in order.
        bonus: +1 per successful helper; failures cost nothing.
        main: the main result; with a bonus its side carries it as the last modifier.
    """

    group: GroupCheck
    helpers: tuple[Result, ...]
    bonus: int
    main: Result

    @property
    def outcome(self) -> str:
        """The main check's outcome."""
        return self.main.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with every roll."""
        return {
            "system": "starately",
            "kind": "group",
            "helpers": [h.to_dict() for h in self.helpers],
            "bonus": self.bonus,
            "main": self.main.to_dict(),
            "outcome": self.outcome,
        }


def resolve_group(
    group: GroupCheck, helper_dice: Sequence[Sequence[int]], main_dice: Sequence[int]
) -> GroupResult:
    """Resolve a group check: each helper's success adds +1 to the main roll.

    Raises:
        RulesError: not one set of dice per helper, or dice that do not fit.
    """
    if len(helper_dice) != len(group.helpers):
        raise RulesError(
            f"Помощников {len(group.helpers)}, а наборов кубиков для них {len(helper_dice)}."
        )
    helpers = tuple(
        resolve(check, dice) for check, dice in zip(group.helper_checks, helper_dice, strict=True)
    )
    bonus = settings().group_bonus * sum(h.success for h in helpers)
    main = group.main
    if bonus:
        main = main.with_modifier(Modifier(bonus, "помощь группы"))
    return GroupResult(group, helpers, bonus, resolve(main, main_dice))


def roll_group(group: GroupCheck, rng: random.Random) -> GroupResult:
    """Roll each helper in order, then the main check, with ``rng`` (see ``resolve_group``)."""
    helper_dice = [roll_dice(h, rng) for h in group.helpers]
    return resolve_group(group, helper_dice, roll_dice(group.main.side, rng))


# --- Risk ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RiskResult:
    """A check rolled again after a failure; the price is paid whatever the retry gives.

    Attributes:
        first: the failed check.
        retry: the same check rolled again (dice flagged ``rerolled``).
        price: what the GM said it costs.
    """

    first: Result
    retry: Result
    price: str

    @property
    def outcome(self) -> str:
        """The retry's outcome: it replaces the first."""
        return self.retry.outcome

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict with both rolls."""
        return {
            "system": "starately",
            "kind": "risk",
            "first": self.first.to_dict(),
            "retry": self.retry.to_dict(),
            "price": self.price,
            "outcome": self.outcome,
        }


def risk_refusal(first: Result, price: str, *, forbidden: bool = False) -> str | None:
    """Say why Risk cannot be declared on ``first``, or ``None`` if it can.

    Args:
        first: the check the player wants to retry.
        price: the price the GM set (required text).
        forbidden: the GM forbids Risk here (no meaningful price fits the situation).
    """
    if forbidden:
        return "Ведущий запретил Риск: в этой ситуации у повторной попытки нет значимой цены."
    if first.success:
        return "Риск заявляют только после провала, а эта проверка удалась."
    if first.risk:
        return "Риск уже заявлен: повторная проверка даёт ещё один шанс, а не бесконечно много."
    if not price.strip():
        return (
            "Ведущий должен назначить цену Риска (потеря снаряжения, урон…) до повторного броска."
        )
    return None


def resolve_risk(
    first: Result, price: str, dice: Sequence[int], *, forbidden: bool = False
) -> RiskResult:
    """Roll the failed check again (Risk) with given dice; the price stands whatever happens.

    Raises:
        RulesError: the check succeeded, Risk was already taken, the price is empty, the GM
            forbids it, or the dice do not fit.
    """
    refusal = risk_refusal(first, price, forbidden=forbidden)
    if refusal is not None:
        raise RulesError(refusal)
    return RiskResult(first, resolve(first.check, dice, risk=True), price.strip())


def roll_risk(
    first: Result, price: str, rng: random.Random, *, forbidden: bool = False
) -> RiskResult:
    """Roll Risk with ``rng`` (see ``resolve_risk``); nothing is drawn when it is refused."""
    refusal = risk_refusal(first, price, forbidden=forbidden)
    if refusal is not None:
        raise RulesError(refusal)
    return resolve_risk(first, price, roll_dice(first.check.side, rng))
