"""Старатели (2d6): checks, boons and banes, Effect, opposed rolls, task chains, group checks,
Risk, and their exact odds.

Its public names live in ``rules.starately.face``, loaded on the first name asked of the package
(:mod:`rules.faces`): its sheet (``sheet``) loads without the procedure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import faces

if TYPE_CHECKING:  # the names for type checkers; at run time the face loads on first use
    from rules.starately.face import *  # noqa: F403


def __getattr__(name: str) -> Any:
    return faces.attribute(__name__, name)
