"""IDE4™ (d100, five outcomes): the full check procedure, exact odds, opposed checks, templates.

Its public names live in ``rules.ide4.face``, loaded on the first name asked of the package
(:mod:`rules.faces`): its sheet (``sheet``) loads without the procedure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import faces

if TYPE_CHECKING:  # the names for type checkers; at run time the face loads on first use
    from rules.ide4.face import *  # noqa: F403


def __getattr__(name: str) -> Any:
    return faces.attribute(__name__, name)
