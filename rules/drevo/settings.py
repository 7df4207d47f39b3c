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


FIGHT_FILE = "drevo/fight.toml"
WOUND_TIMINGS = ("next_round", "at_once")
OTHERS_MODES = ("meet", "helpless")


@dataclass(frozen=True)
class FightSettings:
    """How a Древо round is resolved where the seed reads one way and a table may want
    another [default] (``data/drevo/fight.toml``).

    Attributes:
        wounds: ``"next_round"`` — the round is simultaneous (seed: «действия совершаются
            одновременно»): wounds taken in a round weigh from the next one, and a fighter
            struck down still resolves what he declared; ``"at_once"`` — a wound weighs
            from the next exchange (the order of the exchanges then matters).
        others: what an attacker engaged with one enemy does against other attackers unless
            the GM chooses otherwise for him: ``"meet"`` — his one roll also meets them;
            ``"helpless"`` — he is defenceless against them.
    """

    wounds: str = "next_round"
    others: str = "meet"

    def __post_init__(self) -> None:
        if self.wounds not in WOUND_TIMINGS:
            raise RulesError(
                f"{FIGHT_FILE}: «wounds» — «next_round» или «at_once», а не {self.wounds!r}."
            )
        if self.others not in OTHERS_MODES:
            raise RulesError(
                f"{FIGHT_FILE}: «others» — «meet» или «helpless», а не {self.others!r}."
            )

    @property
    def simultaneous(self) -> bool:
        """Whether wounds of a round weigh only from the next round."""
        return self.wounds == "next_round"


@cache
def fight_settings() -> FightSettings:
    """Return the campaign's fight settings from ``data/drevo/fight.toml``.

    Raises:
        RulesError: a value is none of the allowed words.
    """
    table = load_table(FIGHT_FILE)
    return FightSettings(
        wounds=str(table.get("wounds", "next_round")), others=str(table.get("others", "meet"))
    )
