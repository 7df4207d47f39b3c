"""A combat encounter as pure data: sides, initiative, rounds, declarations and exchanges.

System-independent: Древо resolves the exchanges with ``rules.drevo.plan_exchange``; other
systems reuse the rounds, the order and the pairing, and resolve with their own opposed check.

Phases of a round: ``declare`` (sides in order, each able combatant declares once), then
``resolve`` (the exchanges paired from the declarations, one by one), then the next round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.errors import RulesError
from rules.initiative import declaration_order

ATTACKS = ("melee", "throw", "shoot")
DEFENCES = ("dodge", "shield", "parry")
ACTION_KINDS = (*ATTACKS, *DEFENCES, "other", "none")
ACTION_NAMES = {
    "melee": "Ближний бой",
    "throw": "Метание",
    "shoot": "Стрельба",
    "shield": "Защита щитом",
    "dodge": "Уклонение",
    "parry": "Отбить",
    "other": "Другое действие",
    "none": "Ничего",
}
PHASES = ("setup", "declare", "resolve")
#: How an attacker engaged with another meets the rest (Declaration.others).
OTHERS = ("", "meet", "helpless")
#: The longest note a new declaration takes, as a player's seat sends it (a note stored longer
#: before this limit is still read): 10,000 characters typed into the GM's form were kept
#: whole in the fight and again in its exchange.
MAX_NOTE = 300


@dataclass(frozen=True)
class Combatant:
    """One participant: a character of the party on a side."""

    character_id: str
    name: str
    side: str


@dataclass(frozen=True)
class Declaration:
    """What a combatant declared for the round.

    ``turns`` > 1 marks an action lasting several turns (a spell, reloading): the combatant keeps
    it in the following rounds without declaring again. ``combined`` notes a second action that
    fits into the same turn (draw and strike), as the seed allows. ``exception`` is the reason
    the rules gave against the action when the GM allowed it anyway («исключения определяет
    ведущий»); empty for an ordinary declaration.
    """

    actor: str
    action: str
    target: str | None = None
    weapon: str | None = None
    distance: str = "close"
    turns: int = 1
    combined: str = ""
    note: str = ""
    exception: str = ""  # the rule the GM set aside for this action («исключение ведущего»)
    #: How an attacker engaged with his target meets other attackers this round (seed:
    #: «Ближний бой с несколькими противниками … одним из двух способов»): ``"meet"`` — his
    #: one roll also meets them (it defends, it deals them no damage); ``"helpless"`` — he
    #: is defenceless against them; ``""`` — a fight saved before the choice (defenceless).
    others: str = ""

    def __post_init__(self) -> None:
        if self.action not in ACTION_KINDS:
            raise RulesError(f"Неизвестное действие «{self.action}».")
        if self.turns < 1:
            raise RulesError("Действие длится хотя бы один ход.")
        if self.action in ATTACKS and not self.target:
            raise RulesError(f"{ACTION_NAMES[self.action]}: выберите цель.")
        if self.target is not None and self.target == self.actor:
            raise RulesError("Нельзя атаковать самого себя — выберите другую цель.")
        if self.others not in OTHERS:
            raise RulesError(f"Неизвестный способ против остальных «{self.others}».")


@dataclass(frozen=True)
class Pairing:
    """One exchange to resolve: an attack and the target's answer (None: not opposed)."""

    attack: Declaration
    answer: Declaration | None

    @property
    def key(self) -> str:
        """Return a stable id of the exchange within a round."""
        other = self.answer.actor if self.answer else "-"
        return f"{self.attack.actor}>{self.attack.target}/{other}"


def pair_exchanges(declarations: Sequence[Declaration]) -> list[Pairing]:
    """Pair the round's attacks with the targets' answers, in declaration order.

    * A attacks B and B attacks A: one exchange with both attacks (each side may hurt the other).
    * A attacks B and B declared a defence (dodge, shield, parry): the defence answers every
      attack against B, each exchange on its own (the seed: several opponents are resolved one
      by one).
    * A attacks B and B attacks C: when B declared that his one roll also meets other
      attackers (``others == "meet"``), his attack on C answers A's (it defends only);
      otherwise the answer is None.
    * Otherwise B's action is not opposed to A's: the answer is None — a one-sided check against
      a defenceless target.
    """
    by_actor = {d.actor: d for d in declarations}
    used: set[str] = set()
    pairings: list[Pairing] = []
    for attack in declarations:
        if attack.action not in ATTACKS or attack.actor in used:
            continue
        assert attack.target is not None
        answer = by_actor.get(attack.target)
        if answer is not None and answer.action in ATTACKS and answer.target == attack.actor:
            if answer.actor in used:
                continue
            used.update({attack.actor, answer.actor})
            pairings.append(Pairing(attack, answer))
            continue
        used.add(attack.actor)
        defence = answer if answer is not None and answer.action in DEFENCES else None
        if answer is not None and answer.action in ATTACKS and answer.others == "meet":
            defence = answer  # engaged with another, his one roll meets this attack too
        pairings.append(Pairing(attack, defence))
    return pairings


@dataclass(frozen=True)
class Encounter:
    """The state of one fight; every change returns a new Encounter."""

    combatants: tuple[Combatant, ...] = ()
    sides: tuple[str, ...] = ()  # in initiative order once it is set, best first
    initiative: tuple[dict[str, Any], ...] = ()  # how it was set, for the log and the screen
    round: int = 0
    phase: str = "setup"
    declarations: tuple[Declaration, ...] = ()
    resolved: tuple[str, ...] = ()  # Pairing.key of exchanges resolved this round
    carried: tuple[Declaration, ...] = field(default=())  # multi-turn actions still running
    id: str = ""  # this fight's id: exchanges are named by it, round and key
    exchange: dict[str, Any] | None = None  # the exchange in progress (dice, Судьба, damage)
    outcomes: tuple[dict[str, Any], ...] = ()  # what each resolved exchange did this round
    #: Each fighter's one roll of this round (character id → the 4dF, or None: Судьба «+4 без
    #: броска»), compared with every opponent he meets (seed: «каждый участник делает один
    #: бросок 4dF»).
    rolled: dict[str, list[int] | None] = field(default_factory=dict)
    #: The fighters' wounds when the round's dice began (character id → counts with
    #: ``dead``): with simultaneous rounds a wound taken in the round weighs from the next.
    round_wounds: dict[str, dict[str, int]] = field(default_factory=dict)
    #: Last round's declarations (each fighter's own last choice, to start his form on and
    #: to repeat: «как в прошлом раунде»).
    previous: tuple[Declaration, ...] = ()
    #: Fighters taken out of the fight, each ``{"id", "name", "side", "reason"}`` (the order
    #: still names them and why).
    left: tuple[dict[str, str], ...] = ()

    # -- setup -------------------------------------------------------------------------------

    def with_combatant(self, combatant: Combatant) -> Encounter:
        """Add a combatant (or move them to another side) during setup."""
        self._require("setup", "добавлять участников")
        others = tuple(c for c in self.combatants if c.character_id != combatant.character_id)
        return replace(self, combatants=(*others, combatant), sides=self._sides(others, combatant))

    def with_combatants(self, combatants: Sequence[Combatant]) -> Encounter:
        """Add several combatants at once during setup: what ``with_combatant`` one by one
        makes, in one step (a 5,000-character campaign's default fight took seconds that way:
        each step copies and scans every combatant so far)."""
        self._require("setup", "добавлять участников")
        added: dict[str, Combatant] = {}
        for c in combatants:  # as one by one: an id added again moves to the end
            added.pop(c.character_id, None)
            added[c.character_id] = c
        kept = [c for c in self.combatants if c.character_id not in added]
        order = [*kept, *added.values()]
        return replace(self, combatants=tuple(order), sides=self._sides(order))

    def without(self, character_id: str) -> Encounter:
        """Remove a combatant during setup."""
        self._require("setup", "убирать участников")
        rest = tuple(c for c in self.combatants if c.character_id != character_id)
        return replace(self, combatants=rest, sides=self._sides(rest))

    def _sides(self, combatants: Sequence[Combatant], extra: Combatant | None = None) -> tuple:
        names = [c.side for c in (*combatants, *([extra] if extra else []))]
        return tuple(dict.fromkeys(names))

    def with_initiative(
        self, order: Sequence[str], how: Sequence[dict[str, Any]] = ()
    ) -> Encounter:
        """Fix the side order (rolled, or set by the GM for an ambush) and start round 1."""
        self._require("setup", "задавать инициативу")
        present = set(self.sides)
        if set(order) != present or len(order) != len(present):
            raise RulesError("Порядок инициативы должен перечислить каждую сторону ровно один раз.")
        if len(present) < 2:
            raise RulesError("Для боя нужны хотя бы две стороны.")
        return replace(self, sides=tuple(order), initiative=tuple(how), round=1, phase="declare")

    # -- declarations ------------------------------------------------------------------------

    def side_order(self) -> list[str]:
        """Return the sides in the order they declare this round."""
        return declaration_order(self.sides, max(self.round, 1))

    def declaring_order(self, can_act: Callable[[str], bool]) -> list[Combatant]:
        """Return the combatants who declare this round, side by side in the round's order."""
        busy = {d.actor for d in self.carried}
        ordered: list[Combatant] = []
        for side in self.side_order():
            ordered += [
                c
                for c in self.combatants
                if c.side == side and can_act(c.character_id) and c.character_id not in busy
            ]
        return ordered

    def next_declarer(self, can_act: Callable[[str], bool]) -> Combatant | None:
        """Return who declares next, or None when everyone has."""
        done = {d.actor for d in self.declarations}
        return next((c for c in self.declaring_order(can_act) if c.character_id not in done), None)

    def declare(self, declaration: Declaration, can_act: Callable[[str], bool]) -> Encounter:
        """Record the next declarer's declaration (declarations go strictly in side order)."""
        self._require("declare", "объявлять действия")
        expected = self.next_declarer(can_act)
        if expected is None:
            raise RulesError("Все уже объявили действия — переходите к броскам.")
        if declaration.actor != expected.character_id:
            raise RulesError(f"Сейчас объявляет {expected.name}: заявки идут по порядку сторон.")
        if declaration.target is not None and declaration.target not in self.ids():
            raise RulesError("Цель не участвует в бою: выберите цель из участников.")
        return replace(self, declarations=(*self.declarations, declaration))

    def redeclare(self, declaration: Declaration) -> Encounter:
        """Replace a fighter's declaration of this round in place (the GM corrects one; the
        later ones stay). Only before the round's first dice."""
        if self.phase not in ("declare", "resolve"):
            self._require("declare", "менять заявки")
        if self.phase == "resolve" and (self.resolved or self.exchange or self.rolled):
            raise RulesError("Кости этого раунда уже брошены: заявки не меняют.")
        if not any(d.actor == declaration.actor for d in self.declarations):
            raise RulesError("Этот участник ещё не заявлял в этом раунде.")
        if declaration.target is not None and declaration.target not in self.ids():
            raise RulesError("Цель не участвует в бою: выберите цель из участников.")
        return replace(
            self,
            declarations=tuple(
                declaration if d.actor == declaration.actor else d for d in self.declarations
            ),
        )

    def start_resolution(self, can_act: Callable[[str], bool]) -> Encounter:
        """Close the declarations and move on to the dice."""
        self._require("declare", "переходить к броскам")
        if self.next_declarer(can_act) is not None:
            raise RulesError("Не все объявили действия: сначала заявки, потом кубики.")
        return replace(self, phase="resolve")

    def all_declarations(self) -> tuple[Declaration, ...]:
        """Return this round's declarations, multi-turn actions still running included."""
        return (*self.carried, *self.declarations)

    # -- resolution --------------------------------------------------------------------------

    def pairings(self) -> list[Pairing]:
        """Return the round's exchanges in order."""
        return pair_exchanges(self.all_declarations())

    def pending(self) -> list[Pairing]:
        """Return the exchanges not resolved yet."""
        return [p for p in self.pairings() if p.key not in self.resolved]

    def mark_resolved(self, pairing: Pairing, outcome: dict[str, Any] | None = None) -> Encounter:
        """Record that an exchange is done (a tie that is not rerolled is done too).

        ``outcome`` says what it did (for the round's summary); the exchange in progress is
        cleared.
        """
        self._require("resolve", "разрешать схватки")
        if pairing.key in self.resolved:
            raise RulesError("Эта схватка уже разрешена.")
        done = {"key": pairing.key, **(outcome or {})}
        return replace(
            self,
            resolved=(*self.resolved, pairing.key),
            exchange=None,
            outcomes=(*self.outcomes, done),
        )

    def with_exchange(self, exchange: dict[str, Any] | None) -> Encounter:
        """Return the encounter with the exchange in progress set (its dice, Судьба, damage).

        The data is the caller's (JSON-ready); it must name the first pending exchange.
        """
        self._require("resolve", "бросать кубики")
        pending = self.pending()
        if exchange is not None and (not pending or exchange.get("key") != pending[0].key):
            raise RulesError("Эта схватка уже не на очереди.")
        return replace(self, exchange=exchange)

    def remove_fallen(self, character_id: str, reason: str = "") -> Encounter:
        """Take a fallen combatant out of the order, with their declarations and the attacks
        on them (the GM's choice, in any phase); ``reason`` is kept with his name."""
        if character_id not in self.ids():
            raise RulesError("Такого участника в бою нет.")
        gone = self.combatant(character_id)
        assert gone is not None
        note = {"id": gone.character_id, "name": gone.name, "side": gone.side, "reason": reason}

        def keep(d: Declaration) -> bool:
            return character_id not in (d.actor, d.target)

        rest = tuple(c for c in self.combatants if c.character_id != character_id)
        return replace(
            self,
            combatants=rest,
            declarations=tuple(filter(keep, self.declarations)),
            carried=tuple(filter(keep, self.carried)),
            exchange=None,
            rolled={k: v for k, v in self.rolled.items() if k != character_id},
            left=(*self.left, note),
        )

    def next_round(self) -> Encounter:
        """Start the next round: the declaration order reverses; long actions tick down."""
        self._require("resolve", "начинать новый раунд")
        carried = tuple(
            replace(d, turns=d.turns - 1) for d in self.all_declarations() if d.turns > 1
        )
        return replace(
            self,
            round=self.round + 1,
            phase="declare",
            declarations=(),
            resolved=(),
            carried=carried,
            exchange=None,
            outcomes=(),
            rolled={},
            round_wounds={},
            previous=self.all_declarations(),
        )

    # -- helpers -----------------------------------------------------------------------------

    def ids(self) -> set[str]:
        """Return the character ids of all combatants."""
        return {c.character_id for c in self.combatants}

    def combatant(self, character_id: str) -> Combatant | None:
        """Return the combatant with that character id."""
        return next((c for c in self.combatants if c.character_id == character_id), None)

    def _require(self, phase: str, what: str) -> None:
        if self.phase != phase:
            names = {"setup": "подготовке", "declare": "заявках", "resolve": "бросках"}
            raise RulesError(f"Сейчас нельзя {what}: это делается при {names[phase]}.")

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready form (the store keeps it)."""
        return {
            "combatants": [vars(c) for c in self.combatants],
            "sides": list(self.sides),
            "initiative": [dict(i) for i in self.initiative],
            "round": self.round,
            "phase": self.phase,
            "declarations": [vars(d) for d in self.declarations],
            "resolved": list(self.resolved),
            "carried": [vars(d) for d in self.carried],
            "id": self.id,
            "exchange": self.exchange,
            "outcomes": [dict(o) for o in self.outcomes],
            "rolled": {k: (list(v) if v is not None else None) for k, v in self.rolled.items()},
            "round_wounds": {k: dict(v) for k, v in self.round_wounds.items()},
            "previous": [vars(d) for d in self.previous],
            "left": [dict(x) for x in self.left],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Encounter:
        """Rebuild an encounter saved with :meth:`to_dict`.

        Raises:
            RulesError: the saved phase is none of :data:`PHASES`.
        """
        if str(data.get("phase", "setup")) not in PHASES:
            raise RulesError(
                f"Сохранённый бой в неизвестной фазе «{data.get('phase')}»: начните бой заново."
            )
        return cls(
            combatants=tuple(Combatant(**c) for c in data.get("combatants", [])),
            sides=tuple(data.get("sides", [])),
            initiative=tuple(data.get("initiative", [])),
            round=int(data.get("round", 0)),
            phase=str(data.get("phase", "setup")),
            declarations=tuple(Declaration(**d) for d in data.get("declarations", [])),
            resolved=tuple(data.get("resolved", [])),
            carried=tuple(Declaration(**d) for d in data.get("carried", [])),
            id=str(data.get("id", "")),
            exchange=data.get("exchange") if isinstance(data.get("exchange"), dict) else None,
            outcomes=tuple(o for o in data.get("outcomes", []) if isinstance(o, dict)),
            rolled={
                str(k): ([int(x) for x in v] if v is not None else None)
                for k, v in (data.get("rolled") or {}).items()
            },
            round_wounds={
                str(k): {str(n): int(c) for n, c in v.items()}
                for k, v in (data.get("round_wounds") or {}).items()
                if isinstance(v, dict)
            },
            previous=tuple(Declaration(**d) for d in data.get("previous", [])),
            left=tuple(
                {str(k): str(v) for k, v in x.items()}
                for x in data.get("left", [])
                if isinstance(x, dict)
            ),
        )
