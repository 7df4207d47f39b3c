"""The one family of errors the rules raise; every message is Russian and says what to do."""

from __future__ import annotations


class RulesError(Exception):
    """A request the rules cannot honour. ``str(err)`` is a Russian message for the GM."""


class DiceSyntaxError(RulesError):
    """A dice expression that cannot be parsed.

    Attributes:
        position: 0-based index in the expression where the problem starts.
    """

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.position = position


class DiceLimitError(RulesError):
    """An expression that is well-formed but breaks a limit (too many dice, faces, length...)."""


class DiceBoundsError(DiceLimitError, DiceSyntaxError):
    """A limit broken at a known place in the expression (dice count, faces, keep, length).

    Both a :class:`DiceLimitError` and a :class:`DiceSyntaxError`, so ``.position`` is set
    and either ``except`` clause catches it.
    """
