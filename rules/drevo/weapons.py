"""Древо weapons and their damage modifiers (МУ), read from ``data/drevo/weapons.toml``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.data import load_table
from rules.errors import RulesError

WEAPONS_FILE = "drevo/weapons.toml"
WEAPON_KINDS = ("melee", "thrown", "bow", "firearm", "shield")
BARE_HANDS_NAME = "Без оружия"


@dataclass(frozen=True)
class Weapon:
    """One weapon of the catalogue.

    Attributes:
        name: as on the character sheet, e.g. ``"Меч"``.
        damage_mod: МУ, the damage modifier (bare hands −1).
        kind: ``"melee"``, ``"thrown"``, ``"bow"``, ``"firearm"`` or ``"shield"``.
        skill: the narrowest skill it is used with (``"Фехтование"``).
        base_skill: the wider skill when the narrow one is absent (``"Драка"``).
    """

    name: str
    damage_mod: int
    kind: str
    skill: str
    base_skill: str

    @property
    def bare_hands(self) -> bool:
        """Whether this is «Без оружия»."""
        return self.name == BARE_HANDS_NAME


@cache
def weapons() -> dict[str, Weapon]:
    """Return the weapon catalogue keyed by name, in file order.

    Raises:
        RulesError: an entry lacks a field, has an unknown kind, or repeats a name.
    """
    catalogue: dict[str, Weapon] = {}
    for i, row in enumerate(load_table(WEAPONS_FILE).get("weapons", []), start=1):
        name, mod, kind = row.get("name"), row.get("damage_mod"), row.get("kind")
        skill = row.get("skill")
        if not isinstance(name, str) or not isinstance(mod, int) or not isinstance(skill, str):
            raise RulesError(f"{WEAPONS_FILE}: у оружия №{i} нужны «name», «damage_mod», «skill».")
        if kind not in WEAPON_KINDS:
            raise RulesError(
                f"{WEAPONS_FILE}: у оружия «{name}» поле «kind» — одно из "
                f"{', '.join(WEAPON_KINDS)}."
            )
        if name in catalogue:
            raise RulesError(f"{WEAPONS_FILE}: оружие «{name}» записано дважды.")
        base = row.get("base_skill", skill)
        catalogue[name] = Weapon(name, mod, kind, skill, base if isinstance(base, str) else skill)
    if BARE_HANDS_NAME not in catalogue:
        raise RulesError(f"{WEAPONS_FILE}: верните запись «{BARE_HANDS_NAME}» (МУ −1).")
    return catalogue


def weapon(name: str) -> Weapon:
    """Return the weapon called ``name``.

    Raises:
        RulesError: no such weapon in the catalogue.
    """
    found = weapons().get(name)
    if found is None:
        raise RulesError(
            f"Оружия «{name}» нет в каталоге: выберите из списка или добавьте его в {WEAPONS_FILE}."
        )
    return found


#: «Без оружия»: [seed] «Модификатор урона у персонажа, сражающегося без оружия, равен «-1»».
BARE_HANDS: Weapon = weapon(BARE_HANDS_NAME)
