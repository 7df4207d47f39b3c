"""IDE4™ check inputs: the explicit object the whole procedure is driven by, and its difficulty.

Nothing here rolls dice; ``procedure`` does. ``resolve_difficulty`` and ``roll_need`` never
raise for an input still being filled in, so a builder can show them live.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.ide4.tables import DISTANCES, action, dice_of, energy_rules
from rules.modifiers import Modifier

OUTCOMES = ("triumph", "success", "middle", "failure", "tragedy")  # best first
OUTCOME_NAMES = {
    "triumph": "Триумф",
    "success": "Успех",
    "middle": "Средне",
    "failure": "Провал",
    "tragedy": "Трагедия",
}
#: Higher is better; opposed checks compare these first.
OUTCOME_RANK = {key: len(OUTCOMES) - i for i, key in enumerate(OUTCOMES)}

LEVELS = ("quick", "standard", "expanded")
LEVEL_NAMES = {"quick": "Быстрая", "standard": "Стандартная", "expanded": "Развёрнутая"}

#: [seed] «мастер может применить один из вариантов» of allies' help.
HELP_KINDS = {
    "difficulty": "снизить сложность на 1",
    "reroll": "+1 переброс",
    "possible": "сделать действие возможным",
    "risk": "передать союзнику часть риска",
}

AUTO, IMPOSSIBLE, PINNED = 0, 8, 7
BASE_ORDINARY = 3  # [seed] «[3] — обычная задача»
DIFFICULTY_NAMES = {
    0: "автоматический успех",
    3: "обычная задача",
    7: "Сюжетная броня",
    8: "невозможно",
}
#: A [7] the GM did not pin is not plot armour (the seed: «мастер может назначить [7]»).
SEVEN_BY_MODIFIERS = "по модификаторам, не Сюжетная броня"
SEVEN_OPENED = "назначена после исключения из [00]"


def difficulty_label(final: int) -> str:
    """Return ``"[0]"``, ``"[3]"`` or ``"[00]"`` for a final difficulty 0…8."""
    return "[00]" if final >= IMPOSSIBLE else f"[{max(final, 0)}]"


@dataclass(frozen=True)
class Difficulty:
    """A check's difficulty after the [0], [00] and [7] rules.

    Attributes:
        base: the base difficulty.
        modifiers: the modifiers that count (an ally's −1 included).
        raw: base + Σ modifiers, before the special rules.
        final: 0 (automatic success), 1…7 (rolled) or 8 ([00], impossible).
        pinned: the GM pinned [7]; modifiers do not move it.
        hidden_risk: a final ≤ 0 kept at [1] because of a hidden risk.
        made_possible: an explicit exception (the ally's «сделать действие возможным» or a
            named special rule) turned [00] into ``final``, a difficulty the GM set.
        opened_by: that exception in words (``""`` when none opened [00]).
    """

    base: int
    modifiers: tuple[Modifier, ...]
    raw: int
    final: int
    pinned: bool = False
    hidden_risk: bool = False
    made_possible: bool = False
    opened_by: str = ""

    @property
    def base_impossible(self) -> bool:
        """The base itself is [00]: a state no modifier or help moves."""
        return self.base >= IMPOSSIBLE

    @property
    def seven(self) -> str:
        """Which [7] this is: ``"pinned"`` (Сюжетная броня, the GM's), ``"opened"`` (the GM's
        difficulty after an exception opened [00]), ``"modifiers"`` (reached by arithmetic),
        or ``""`` when the final is not [7]."""
        if self.final != PINNED:
            return ""
        if self.pinned:
            return "pinned"
        return "opened" if self.made_possible else "modifiers"

    @property
    def kind(self) -> str:
        """``"auto"`` (no roll, Успех), ``"impossible"`` (no roll) or ``"roll"``."""
        if self.final == AUTO:
            return "auto"
        return "impossible" if self.final == IMPOSSIBLE else "roll"

    @property
    def label(self) -> str:
        """The difficulty as the seed writes it: ``[0]`` … ``[7]``, ``[00]``."""
        return difficulty_label(self.final)

    @property
    def name(self) -> str:
        """The seed's name of the level, or ``""`` when it has none; a [7] says which one."""
        if self.seven == "modifiers":
            return SEVEN_BY_MODIFIERS
        if self.seven == "opened":
            return SEVEN_OPENED
        return DIFFICULTY_NAMES.get(self.final, "")

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "base": self.base,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "raw": self.raw,
            "final": self.final,
            "label": self.label,
            "kind": self.kind,
            "pinned": self.pinned,
            "hidden_risk": self.hidden_risk,
            "made_possible": self.made_possible,
            "opened_by": self.opened_by,
            "seven": self.seven,
        }


@dataclass(frozen=True)
class CheckInput:
    """Everything a GM and a player settle before the d100, in the seed's order.

    Attributes:
        intent: what the character wants («Намерение»).
        actor: who acts (a character's name).
        action: an action of ``data/ide4/actions.toml``, or ``""`` (straight through an attribute).
        attribute: the main attribute; attribute_level: its level (sets the energy die).
        skill: the skill used, or ``""``; mastery: its mastery 0…100.
        skill_distances: a combat skill's distances (П/Д/Б/К); distance: the current one.
        base: base difficulty; ``None`` takes the action's, else [3].
        modifiers: situational modifiers.
        pinned_seven: the GM pinned [7] (Сюжетная броня).
        hidden_risk: keep a final ≤ 0 at [1] and roll (trap, ambush, poison, pressure).
        impossible_reason: why [00] (required when the final is [00]); alternative: another way.
        energy_pool: the character's energy now (0…100).
        energy_dice, energy_die: dice declared before the d100 and their size (0: nominal).
        technique: the named technique declared for the mastery-20 bonus, or ``""``.
        help: one of ``HELP_KINDS`` or ``""``; help_difficulty: the difficulty the GM sets
            when an exception opens [00] (``"possible"`` or ``special_rule``); help_note:
            which part of the risk an ally takes (``"risk"``).
        special_rule: a named special rule that opens [00] («если специальное правило прямо
            не предусматривает исключение»), or ``""``.
        level: ``"quick"``, ``"standard"`` or ``"expanded"``; always_expanded: the character's
            setting (the player always demands the expanded check).
        daily_triumph_used: this character already raised Успех → Триумф today.
        reroll_cap: all rerolls per check; ``None`` takes ``data/ide4/energy.toml``.
        roll_reasons: ticked ids of ``ROLL_REASONS``; player_demand: the player demands a roll.
        circumstances, risk: the clear-risk card's obvious circumstances and possible harm.
    """

    intent: str = ""
    actor: str = ""
    action: str = ""
    attribute: str = ""
    attribute_level: int = 3
    skill: str = ""
    mastery: int = 0
    skill_distances: tuple[str, ...] = ()
    distance: str = ""
    base: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    pinned_seven: bool = False
    hidden_risk: bool = False
    impossible_reason: str = ""
    alternative: str = ""
    energy_pool: int = 100
    energy_dice: int = 0
    energy_die: int = 0
    technique: str = ""
    help: str = ""
    help_difficulty: int | None = None
    help_note: str = ""
    special_rule: str = ""
    level: str = "expanded"
    always_expanded: bool = False
    daily_triumph_used: bool = False
    reroll_cap: int | None = None
    roll_reasons: tuple[str, ...] = ()
    player_demand: bool = False
    circumstances: str = ""
    risk: str = ""

    @property
    def nominal(self) -> int:
        """The energy die size for the main attribute's level."""
        return energy_rules().nominal(self.attribute_level)

    @property
    def before_die(self) -> int:
        """The size of the energy dice declared before the roll (the nominal unless smaller)."""
        return self.energy_die or self.nominal

    @property
    def cap(self) -> int:
        """All rerolls allowed for this check."""
        return energy_rules().reroll_cap if self.reroll_cap is None else self.reroll_cap

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of every field."""
        data: dict[str, Any] = dict(self.__dict__)
        data["modifiers"] = [m.to_dict() for m in self.modifiers]
        data["skill_distances"] = list(self.skill_distances)
        data["roll_reasons"] = list(self.roll_reasons)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckInput:
        """Read :meth:`to_dict`'s form back (unknown keys are ignored).

        Raises:
            RulesError: a field of the wrong type.
        """
        known = {f: data[f] for f in cls.__dataclass_fields__ if f in data}
        try:
            known["modifiers"] = tuple(
                Modifier(int(m["value"]), str(m["reason"])) for m in known.get("modifiers", ())
            )
            known["skill_distances"] = tuple(str(d) for d in known.get("skill_distances", ()))
            known["roll_reasons"] = tuple(str(r) for r in known.get("roll_reasons", ()))
            made = cls(**known)
        except (KeyError, TypeError, ValueError) as err:
            raise RulesError(f"Сохранённая проверка IDE4 повреждена: {err}.") from err
        for name, kind in (("attribute_level", int), ("energy_pool", int), ("actor", str)):
            if not isinstance(getattr(made, name), kind):
                raise RulesError(f"Сохранённая проверка IDE4 повреждена: {name}.")
        return made


def resolve_difficulty(inp: CheckInput) -> Difficulty:
    """Apply the seed's difficulty rules to an input (never raises for a missing reason).

    Final = base + Σ modifiers (an ally's «−1» included); ≤ 0 is [0], an automatic Успех, unless
    a hidden risk keeps it at [1]; ≥ 8 is [00]. [00] is a state, not a number: a base [00]
    stays [00] whatever the modifiers and help; only an explicit exception (the ally's «сделать
    действие возможным» or a named special rule) opens it, at the difficulty the GM sets. A
    pinned [7] ignores every modifier.

    Args:
        inp: the check's inputs.

    Returns:
        The difficulty.

    Raises:
        RulesError: the action is unknown, or the ally's help does not fit the difficulty.
    """
    base = inp.base
    if base is None:
        base = action(inp.action).base if inp.action else BASE_ORDINARY
    mods = inp.modifiers
    if inp.help == "difficulty":
        mods = (*mods, Modifier(-1, "помощь союзника"))
    raw = base + sum(m.value for m in mods)
    if inp.pinned_seven:
        return Difficulty(base, mods, raw, PINNED, pinned=True)
    impossible = base >= IMPOSSIBLE or raw >= IMPOSSIBLE
    opened_by = _exception(inp)
    if opened_by:
        if not impossible:
            raise RulesError(
                f"{opened_by[0].upper()}{opened_by[1:]} — только для [00]; здесь "
                f"{difficulty_label(raw)}: "
                "исключение не нужно (выберите другой вид помощи или уберите правило)."
            )
        target = inp.help_difficulty
        if target is None or not 1 <= target <= PINNED:
            raise RulesError(
                f"[00] открыто исключением ({opened_by}): мастер назначает новую сложность "
                "от [1] до [7] (в форме — строка «Новая сложн.», в командной строке — "
                "--open-difficulty)."
            )
        return Difficulty(base, mods, raw, target, made_possible=True, opened_by=opened_by)
    if impossible:
        return Difficulty(base, mods, raw, IMPOSSIBLE)
    if raw <= AUTO:
        if inp.hidden_risk:
            return Difficulty(base, mods, raw, 1, hidden_risk=True)
        return Difficulty(base, mods, raw, AUTO)
    return Difficulty(base, mods, raw, raw)


def _exception(inp: CheckInput) -> str:
    """Name the explicit exception that opens [00], or ``""``."""
    if inp.help == "possible":
        return f"помощь союзника «{HELP_KINDS['possible']}»"
    if inp.special_rule.strip():
        return f"особое правило «{inp.special_rule.strip()}»"
    return ""


def validate(inp: CheckInput) -> Difficulty:
    """Check an input against every rule that applies before the roll.

    Returns:
        The resolved difficulty.

    Raises:
        RulesError: a rule forbids the input; the message names it.
    """
    rules = energy_rules()
    nominal = inp.nominal
    difficulty = resolve_difficulty(inp)
    if inp.level not in LEVELS:
        raise RulesError(
            f"Уровень проверки — «quick», «standard» или «expanded», а не «{inp.level}»."
        )
    if inp.help and inp.help not in HELP_KINDS:
        raise RulesError(f"Помощь союзника — одно из: {', '.join(HELP_KINDS)}.")
    if not 0 <= inp.mastery <= 100:
        raise RulesError("Мастерство навыка — от 0 до 100.")
    if inp.action:
        allowed = action(inp.action).attributes
        if allowed and inp.attribute and inp.attribute not in allowed:
            raise RulesError(
                f"Действие «{inp.action}» проверяется через: {', '.join(allowed)} — "
                f"не через «{inp.attribute}»."
            )
    _check_distance(inp)
    if difficulty.kind == "impossible" and not inp.impossible_reason.strip():
        raise RulesError(
            "[00]: невозможно — мастер должен объяснить, почему этим способом сейчас нельзя "
            "(укажите причину) и, если очевидно, назвать другой подход."
        )
    if not 0 <= inp.energy_pool <= rules.pool_max:
        raise RulesError(f"Запас энергии — от 0 до {rules.pool_max}, а не {inp.energy_pool}.")
    if not 0 <= inp.energy_dice <= rules.before_max_dice:
        raise RulesError(f"До броска — не больше {dice_of(rules.before_max_dice)} энергии.")
    check_die(inp.before_die, nominal, inp.attribute_level)
    cost = inp.energy_dice * inp.before_die
    if cost > inp.energy_pool:
        raise RulesError(
            f"Не хватает энергии: {inp.energy_dice}×d{inp.before_die} стоят {cost}, "
            f"в запасе {inp.energy_pool}."
        )
    return difficulty


def check_die(die: int, nominal: int, attribute_level: int) -> None:
    """Refuse an energy die larger than the nominal or not in the table.

    Raises:
        RulesError: the die is not allowed.
    """
    sizes = energy_rules().sizes
    if die not in sizes:
        raise RulesError(f"Кубы энергии — {', '.join(f'd{s}' for s in sizes)}, а не d{die}.")
    if die > nominal:
        raise RulesError(
            f"Номинал атрибута уровня {attribute_level} — d{nominal}: кубы энергии больше "
            f"d{nominal} нельзя."
        )


def _check_distance(inp: CheckInput) -> None:
    if not inp.distance:
        return
    if inp.distance not in DISTANCES:
        raise RulesError(f"Дистанция — одна из {' / '.join(DISTANCES)}, а не «{inp.distance}».")
    if inp.skill and inp.skill_distances and inp.distance not in inp.skill_distances:
        raise RulesError(
            f"Боевой навык «{inp.skill}» работает на дистанциях "
            f"{' / '.join(inp.skill_distances)}, не на {inp.distance}."
        )
    if inp.action:
        listed = action(inp.action).distances
        if listed and inp.distance not in listed:
            raise RulesError(
                f"Действие «{inp.action}» работает на дистанциях {' / '.join(listed)}, "
                f"не на {inp.distance}."
            )
