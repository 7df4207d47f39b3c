"""Campaign settings of Древо where the seed is silent (``data/drevo/settings.toml``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.data import load_table
from rules.errors import RulesError

SETTINGS_FILE = "drevo/settings.toml"
ABSENT_SKILL_MODES = ("value", "quality")


@dataclass(frozen=True)
class DrevoSettings:
    """A campaign's Древо settings [default].

    Attributes:
        absent_skill: what a skill the character lacks counts as (default 0).
        absent_skill_mode: ``"value"`` — a lacking skill counts as ``absent_skill``;
            ``"quality"`` — the action's quality is used instead (the seed's rule for a
            setting that has no such skills).
    """

    absent_skill: int = 0
    absent_skill_mode: str = "value"

    def __post_init__(self) -> None:
        if self.absent_skill_mode not in ABSENT_SKILL_MODES:
            raise RulesError(
                f"{SETTINGS_FILE}: «absent_skill_mode» — «value» или «quality», "
                f"а не {self.absent_skill_mode!r}."
            )


@cache
def settings() -> DrevoSettings:
    """Return the default settings from ``data/drevo/settings.toml``.

    Raises:
        RulesError: a value has the wrong type.
    """
    table = load_table(SETTINGS_FILE)
    absent = table.get("absent_skill", 0)
    if not isinstance(absent, int) or isinstance(absent, bool):
        raise RulesError(f"{SETTINGS_FILE}: «absent_skill» должно быть целым числом.")
    return DrevoSettings(
        absent_skill=absent, absent_skill_mode=str(table.get("absent_skill_mode", "value"))
    )
