"""Which skill or quality a Древо action uses (``data/drevo/actions.toml``).

[seed] «навыки предпочитаются качествам»; «если у персонажа есть два навыка которые
соотносятся между собой как часть и целое — предпочтение отдаётся части». The action's list
of skills is ordered most specific first (the weapon's own skill, its base skill, the
general one); on top of that a skill whose ``parent`` (on the sheet, transitively) is another
candidate goes before it. No skill on the sheet: the skill counts as the campaign's
``absent_skill`` (default 0), or the action's quality when the campaign says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rules.data import load_table
from rules.drevo.settings import DrevoSettings, settings
from rules.drevo.weapons import BARE_HANDS, Weapon
from rules.errors import RulesError

ACTIONS_FILE = "drevo/actions.toml"
TRAIT_SOURCES = ("skill", "quality", "absent")


class SheetLike(Protocol):
    """Anything with ``qualities`` and ``skills`` (a store's ``Character`` will do)."""

    @property
    def qualities(self) -> Mapping[str, int]: ...

    @property
    def skills(self) -> Iterable[Any]: ...


@dataclass(frozen=True)
class Sheet:
    """The part of a character sheet that trait choice reads.

    Attributes:
        qualities: quality name → value.
        skills: ``(name, value, parent or None)`` triples; objects with ``name``, ``value``
            and ``parent`` attributes are accepted too.
    """

    qualities: Mapping[str, int]
    skills: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "qualities", dict(self.qualities))
        object.__setattr__(self, "skills", tuple(self.skills))

    def __hash__(self) -> int:
        return hash((tuple(self.qualities.items()), self.skills))


@dataclass(frozen=True)
class ActionDef:
    """A standard combat action and the traits that serve it.

    Attributes:
        id: ``"melee"``, ``"throw"``, ``"shoot"``, ``"shield"``, ``"dodge"``, ``"parry"``,
            ``"other"``.
        name: Russian name («Ближний бой»).
        skills: preferred skills, most specific first; ``"@weapon.skill"`` and
            ``"@weapon.base_skill"`` stand for the weapon's.
        weapon_kinds: weapon kinds whose own skills serve this action.
        quality: the quality used when no skill serves [default]; empty for «Другое».
        attack: whether the action attacks (and can deal damage).
    """

    id: str
    name: str
    skills: tuple[str, ...]
    weapon_kinds: tuple[str, ...]
    quality: str
    attack: bool


def _load_actions() -> dict[str, ActionDef]:
    actions: dict[str, ActionDef] = {}
    for row in load_table(ACTIONS_FILE).get("action", []):
        key, name = row.get("id"), row.get("name")
        if not isinstance(key, str) or not isinstance(name, str):
            raise RulesError(f"{ACTIONS_FILE}: у каждого действия нужны «id» и «name».")
        actions[key] = ActionDef(
            id=key,
            name=name,
            skills=tuple(str(s) for s in row.get("skills", [])),
            weapon_kinds=tuple(str(k) for k in row.get("weapon_kinds", [])),
            quality=str(row.get("quality", "")),
            attack=bool(row.get("attack", False)),
        )
    return actions


#: The standard actions by id, in file order.
ACTIONS: dict[str, ActionDef] = _load_actions()


@dataclass(frozen=True)
class TraitChoice:
    """A skill or quality to roll with, and why.

    Attributes:
        name: the skill or quality name.
        value: its value (``absent_skill`` for a skill the character lacks).
        source: ``"skill"``, ``"quality"`` or ``"absent"``.
        reason: one Russian line for the UI.
    """

    name: str
    value: int
    source: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "name": self.name,
            "value": self.value,
            "source": self.source,
            "reason": self.reason,
        }


def action_def(action: str) -> ActionDef:
    """Return the action called ``action`` (an id).

    Raises:
        RulesError: no such action.
    """
    found = ACTIONS.get(action)
    if found is None:
        raise RulesError(f"Неизвестное действие {action!r}: выберите одно из {', '.join(ACTIONS)}.")
    return found


def action_skills(action: str, weapon: Weapon | None = None) -> tuple[str, ...]:
    """Return the skills that serve ``action`` with ``weapon``, most specific first.

    Melee without a weapon is fought with bare hands («Бой без оружия», then Драка).
    """
    spec = action_def(action)
    if weapon is None and action == "melee":
        weapon = BARE_HANDS
    own = weapon is not None and weapon.kind in spec.weapon_kinds
    result: list[str] = []
    for token in spec.skills:
        if token == "@weapon.skill":
            name = weapon.skill if own and weapon is not None else ""
        elif token == "@weapon.base_skill":
            name = weapon.base_skill if own and weapon is not None else ""
        else:
            name = token
        if name and name not in result:
            result.append(name)
    return tuple(result)


def _sheet_skills(sheet: SheetLike) -> dict[str, tuple[int, str | None]]:
    """Return skill name → (value, parent) for tuples or skill-like objects."""
    found: dict[str, tuple[int, str | None]] = {}
    for entry in sheet.skills:
        if isinstance(entry, tuple | list):
            name, value = entry[0], entry[1]
            parent = entry[2] if len(entry) > 2 else None
        else:
            name, value, parent = entry.name, entry.value, getattr(entry, "parent", None)
        found[str(name)] = (int(value), parent or None)
    return found


def _ancestors(name: str, skills: Mapping[str, tuple[int, str | None]]) -> list[str]:
    """Return the skill's wholes on the sheet, nearest first (cycles are cut)."""
    chain: list[str] = []
    parent = skills.get(name, (0, None))[1]
    while parent and parent not in chain and parent != name:
        chain.append(parent)
        parent = skills.get(parent, (0, None))[1]
    return chain


def _part_before_whole(names: list[str], skills: Mapping[str, tuple[int, str | None]]) -> list[str]:
    """Reorder so that every part stands before each of its wholes; otherwise keep order."""
    ordered: list[str] = []
    for name in names:
        wholes = set(_ancestors(name, skills))
        at = next((i for i, placed in enumerate(ordered) if placed in wholes), len(ordered))
        ordered.insert(at, name)
    return ordered


def _best_skill_reason(
    best: str,
    others: list[str],
    skills: Mapping[str, tuple[int, str | None]],
    quality: str | None,
) -> str:
    wholes = [w for w in _ancestors(best, skills) if w in others]
    if wholes:
        return f"{best} — часть навыка {wholes[0]}: часть важнее целого"
    if others:
        return f"{best} точнее подходит к действию, чем {others[0]}"
    if quality:
        return f"навык предпочтён качеству ({quality})"
    return f"навык {best}"


def rank_traits(
    sheet: SheetLike,
    action: str,
    weapon: Weapon | None = None,
    *,
    campaign: DrevoSettings | None = None,
) -> tuple[TraitChoice, ...]:
    """Return every trait that could serve ``action``, best first (for a stepper).

    Args:
        sheet: the character's qualities and skills.
        action: an action id from ``ACTIONS``.
        weapon: the weapon used (melee without one means bare hands).
        campaign: the campaign's settings; ``data/drevo/settings.toml`` when omitted.

    Returns:
        Skills that serve the action (part before whole), then the absent skill's value and
        the action's quality in the order the campaign's ``absent_skill_mode`` sets. For
        «Другое», every skill and quality of the sheet (the GM picks).

    Raises:
        RulesError: an unknown action.
    """
    opts = campaign or settings()
    spec = action_def(action)
    skills = _sheet_skills(sheet)
    qualities = dict(sheet.qualities)
    if action == "other":
        picks = [
            TraitChoice(n, v, "skill", "действие «Другое»: навык выбирает ведущий")
            for n, (v, _) in skills.items()
        ]
        picks += [
            TraitChoice(n, int(v), "quality", "действие «Другое»: качество выбирает ведущий")
            for n, v in qualities.items()
        ]
        if not picks:
            picks = [
                TraitChoice(
                    "—",
                    opts.absent_skill,
                    "absent",
                    f"в листе нет черт: считается {opts.absent_skill:+d}",
                )
            ]
        return tuple(picks)
    wanted = action_skills(action, weapon)
    serving = _part_before_whole([s for s in wanted if s in skills], skills)
    quality = spec.quality if spec.quality in qualities else None
    ranked: list[TraitChoice] = []
    for i, name in enumerate(serving):
        if i == 0:
            reason = _best_skill_reason(name, serving[1:], skills, quality)
        elif name in _ancestors(serving[0], skills):
            reason = f"{name} — целое, в него входит {serving[0]}: часть важнее"
        else:
            reason = f"запасной навык: {serving[0]} подходит точнее"
        ranked.append(TraitChoice(name, skills[name][0], "skill", reason))
    fallbacks: list[TraitChoice] = []
    if not serving:
        absent_name = wanted[-1] if wanted else spec.name
        fallbacks.append(
            TraitChoice(
                absent_name,
                opts.absent_skill,
                "absent",
                f"навыка нет: считается {opts.absent_skill} по настройке кампании",
            )
        )
    if quality is not None:
        if serving:
            text = f"качество {quality}: навыки предпочитаются качествам"
        elif opts.absent_skill_mode == "quality":
            text = f"навыка нет — берётся качество {quality}"
        else:
            text = f"качество {quality} — если в сеттинге нет такого навыка"
        q_choice = TraitChoice(quality, int(qualities[quality]), "quality", text)
        if not serving and opts.absent_skill_mode == "quality":
            fallbacks.insert(0, q_choice)
        else:
            fallbacks.append(q_choice)
    return tuple(ranked + fallbacks)


def choose_trait(
    sheet: SheetLike,
    action: str,
    weapon: Weapon | None = None,
    *,
    campaign: DrevoSettings | None = None,
) -> TraitChoice:
    """Return the trait a character uses for ``action`` (the first of ``rank_traits``).

    A skill beats a quality; of a part and its whole the part wins (Щиты over Драка for a
    shield); with no serving skill the campaign's setting decides (absent skill = 0 by
    default). ``reason`` says which rule chose it, in one Russian line.

    Raises:
        RulesError: an unknown action.
    """
    return rank_traits(sheet, action, weapon, campaign=campaign)[0]
