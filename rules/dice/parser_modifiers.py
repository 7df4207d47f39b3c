"""The dice parser's modifiers: a point (``=5``, ``>=8``), ``!``, ``r``, ``u``, ``k``/``d``,
success, ``cs``/``cf`` and ``s``.

Mixed into the parser (:mod:`rules.dice.parser`); each reads one modifier at the position and
returns its model object (:mod:`rules.dice.model`).
"""

from __future__ import annotations

from rules.dice.model import Compare, Explode, Mark, Reroll, Select, Target, Unique
from rules.dice.parser_tokens import _DIGITS, _SIGNS, Scanner, _bounds_error

#: What each modifier slot is called in a message about it being given twice.
SLOT_NAMES = {
    "minimum": "min",
    "maximum": "max",
    "explode": "взрыв",
    "reroll": "переброс",
    "unique": "уникальность",
    "kh": "оставить старшие",
    "kl": "оставить младшие",
    "dh": "отбросить старшие",
    "dl": "отбросить младшие",
    "target": "условие успеха",
    "crit_success": "критический успех",
    "crit_failure": "критический провал",
    "sort": "сортировка",
}


class ModifierMixin(Scanner):
    """Reading one modifier of a pool or a group (mixed into the parser)."""

    def put(
        self,
        mods: dict[str, object],
        spans: dict[str, tuple[int, int]],
        key: str,
        value: object,
        at: int,
    ) -> None:
        """Keep a modifier; the same kind given twice is refused, naming the first one."""
        if key in spans:
            first_at, first_end = spans[key]
            first = self.text[first_at:first_end]
            second = self.text[at : self.i]
            raise self.error(
                f"модификатор «{first}» ({SLOT_NAMES[key]}) уже задан в позиции {first_at + 1} — "
                f"«{second}» лишний; оставьте один",
                at,
            )
        mods[key] = value
        spans[key] = (at, self.i)

    def point(self, what: str, default_ok: bool = True) -> Compare | None:
        at = self.i
        for op in ("!=", "<>", "<=", ">=", "=", "<", ">"):
            if self.text.startswith(op, self.i):
                self.i += len(op)
                if self.shown() not in _SIGNS and self.shown() not in _DIGITS:
                    raise self.error(f"после «{op}» ожидалось число, например «{op}5»")
                return Compare("!=" if op == "<>" else op, self.signed_decimal(op))
        if self.shown() in _DIGITS:
            value = self.decimal()
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

    def unique(self) -> Unique:
        self.i += 1
        once = self.peek() == "o"
        if once:
            self.i += 1
        return Unique(once, self.point("u"))

    def mark(self) -> Mark:
        self.i += 2
        return Mark(self.point("cs"))

    def sort(self) -> str:
        self.i += 1
        direction = self.peek()
        if direction in ("a", "d"):
            self.i += 1
            if direction == "d" and self.shown() in _DIGITS:
                raise self.error(
                    "«sd» — сортировка по убыванию; чтобы отбросить кубики, пишите «dl1» "
                    "до сортировки (например «4d6dl1sd»)"
                )
            return direction
        return "a"

    def select(self) -> tuple[str, Select]:
        """``k``, ``kh``, ``kl``, ``d``, ``dh``, ``dl`` with a count: (its slot, the selection)."""
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
        if self.shown() == ".":
            raise self.error(f"после «{letter}» нужно целое число")
        if count < 1:
            raise _bounds_error(at, f"после «{letter}» нужно число от 1, а не {count}")
        slot = ("k" if keep else "d") + ("h" if high else "l")
        return slot, Select(keep, high, count)

    def target(self) -> Target:
        success = self.point("", default_ok=False)
        assert success is not None
        failure = None
        if self.peek() == "f":
            self.i += 1
            failure = self.point("f", default_ok=False)
        return Target(success, failure)
