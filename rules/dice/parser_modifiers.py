"""The dice parser's modifiers: a point (``=5``, ``>=8``), ``!``, ``r``, ``k``/``d``, success.

Mixed into the parser (:mod:`rules.dice.parser`); each reads one modifier at the position and
returns its model object (:mod:`rules.dice.model`).
"""

from __future__ import annotations

from rules.dice.model import Compare, Explode, Reroll, Select, Target
from rules.dice.parser_tokens import _DIGITS, _SIGNS, Scanner, _bounds_error


class ModifierMixin(Scanner):
    """Reading one modifier of a pool or a group (mixed into the parser)."""

    def put(self, mods: dict[str, object], key: str, value: object, at: int) -> None:
        if key in mods:
            raise self.error(
                f"модификатор «{self.text[at : self.i]}» уже задан — оставьте один", at
            )
        mods[key] = value

    def point(self, what: str, default_ok: bool = True) -> Compare | None:
        at = self.i
        for op in ("!=", "<>", "<=", ">=", "=", "<", ">"):
            if self.text.startswith(op, self.i):
                self.i += len(op)
                if self.shown() not in _SIGNS and self.shown() not in _DIGITS:
                    raise self.error(f"после «{op}» ожидалось число, например «{op}5»")
                return Compare("!=" if op == "<>" else op, self.signed_number(op))
        if self.shown() in _DIGITS:
            value = self.number()
            assert value is not None
            return Compare("=", value)
        if not default_ok:
            raise self.error(f"после «{what}» ожидалось условие, например «{what}<=1»", at)
        return None

    def explode(self) -> Explode:
        self.i += 1
        compound = self.shown() == "!"
        if compound:
            self.i += 1
        penetrate = self.peek() == "p"
        if penetrate:
            self.i += 1
        return Explode(compound, penetrate, self.point("!"))

    def reroll(self) -> Reroll:
        self.i += 1
        once = self.peek() == "o"
        if once:
            self.i += 1
        return Reroll(once, self.point("r"))

    def select(self) -> Select:
        keep = self.peek() == "k"
        letter = self.shown()
        self.i += 1
        end = self.peek()
        high = keep
        if end in ("h", "l"):
            high = end == "h"
            self.i += 1
            letter += self.text[self.i - 1]
        at = self.i
        count = self.number()
        if count is None:
            if letter.lower() == "d":
                raise self.error("после «d» ожидалось, сколько кубиков отбросить, например «d1»")
            count = 1
        if count < 1:
            raise _bounds_error(at, f"после «{letter}» нужно число от 1, а не {count}")
        return Select(keep, high, count)

    def target(self) -> Target:
        success = self.point("", default_ok=False)
        assert success is not None
        failure = None
        if self.peek() == "f":
            self.i += 1
            failure = self.point("f", default_ok=False)
        return Target(success, failure)
