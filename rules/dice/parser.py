"""Parse dice notation (rpg-dice-roller's syntax, ``к`` for ``d``) into an :class:`Expression`.

Grammar (case-insensitive; spaces between terms, not inside one)::

    input    := [INT "x"] expr ["vs" [sign] INT] ["#" label]
    expr     := term {("+" | "-" | "−") term}
    term     := unary {("*" | "/") unary}             ("/" rounds down)
    unary    := ("+" | "-" | "−") unary | atom
    atom     := INT | dice | "(" expr ")" | "{" expr {"," expr} "}" {group-mod}
    dice     := [INT] ("d" | "к" | "д") (INT | "%" | "F") {modifier}
    modifier := "min" INT | "max" INT | "!" ["!"] ["p"] [point] | "r" ["o"] [point]
              | "k" ["h" | "l"] [INT] | "d" ("h" | "l") [INT] | "d" INT | cp ["f" point]
    point    := cp | INT                            (a bare INT means "=INT")
    cp       := ("=" | "!=" | "<>" | "<" | ">" | "<=" | ">=") [sign] INT

Every error is a :class:`~rules.errors.DiceSyntaxError` (or :class:`DiceBoundsError` for a
number out of bounds) whose message names the 1-based position and what to do.

This module holds the grammar; the tokens are in :mod:`rules.dice.parser_tokens`, the
modifiers in :mod:`rules.dice.parser_modifiers` and the checks in
:mod:`rules.dice.parser_checks`.
"""

from __future__ import annotations

from dataclasses import replace

from rules.dice.model import (
    DEFAULT_LIMITS,
    Binary,
    Dice,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
)
from rules.dice.parser_checks import CheckMixin, _check
from rules.dice.parser_fast import fast_parse
from rules.dice.parser_modifiers import ModifierMixin
from rules.dice.parser_tokens import _D, _DIGITS, _FUDGE, _REPEAT, _SIGNS, _bounds_error

__all__ = ["parse"]


class _Parser(ModifierMixin, CheckMixin):
    """Recursive descent over the raw text (no lowering, so positions stay exact)."""

    # -- the grammar --------------------------------------------------------------------------

    def top(self) -> Expression:
        hash_at = self.text.find("#")
        label = None
        if hash_at >= 0:
            label = self.text[hash_at + 1 :].strip() or None
            self.end = hash_at
        self.skip_ws()
        if self.at_end():
            raise self.error("пустое выражение — введите бросок, например «2d6+3»", 0)
        repeat = self.repeat()
        root = self.expr()
        self.skip_ws()
        target = None
        if self.peek(2) == "vs":
            self.i += 2
            self.skip_ws()
            if self.shown() not in _SIGNS and self.shown() not in _DIGITS:
                raise self.error("после «vs» ожидалось число — цель броска, например «vs 12»")
            target = self.signed_number("vs")
            self.skip_ws()
            if not self.at_end():
                raise self.error("после «vs N» ничего не должно быть — уберите лишнее")
        if not self.at_end():
            ch = self.shown()
            if ch in ")}":
                raise self.error(f"лишняя закрывающая скобка «{ch}» — уберите её")
            raise self.error(f"ожидалось «+», «-», «*», «/» или «vs N», а встретилось «{ch}»")
        expression = Expression(self.text, root, target, label, repeat)
        _check(expression, self.limits)
        return expression

    def repeat(self) -> int:
        start = self.i
        count = self.number()
        if count is None:
            return 1
        self.skip_ws()
        if self.i < self.end and self.text[self.i] in _REPEAT:
            self.i += 1
            self.skip_ws()
            if count < 1:
                raise _bounds_error(start, "повторов «Nx» должно быть хотя бы 1")
            if count > self.limits.max_dice_total:
                raise _bounds_error(
                    start, f"повторов «Nx» может быть не больше {self.limits.max_dice_total}"
                )
            if self.at_end():
                raise self.error(
                    f"после «{count}x» ожидалось выражение, например «{count}x 4d6dl1»"
                )
            return count
        self.i = start
        return 1

    def enter(self, position: int) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise _bounds_error(
                position,
                f"слишком глубокая вложенность (больше {self.limits.max_depth}) — упростите",
            )

    def expr(self) -> Node:
        node = self.term()
        while True:
            self.skip_ws()
            ch = self.shown()
            if ch not in _SIGNS:
                return node
            at = self.i
            self.i += 1
            right = self.term(after=ch)
            node = Binary("+" if _SIGNS[ch] > 0 else "-", node, right, at)

    def term(self, after: str = "") -> Node:
        node = self.unary(after)
        while True:
            self.skip_ws()
            ch = self.shown()
            if ch not in ("*", "/"):
                return node
            at = self.i
            self.i += 1
            node = Binary(ch, node, self.unary(ch), at)

    def unary(self, after: str = "") -> Node:
        self.skip_ws()
        ch = self.shown()
        if ch in _SIGNS:
            at = self.i
            self.enter(at)
            self.i += 1
            operand = self.unary(ch)
            self.depth -= 1
            return operand if _SIGNS[ch] > 0 else Negate(operand, at)
        return self.atom(after)

    def atom(self, after: str) -> Node:
        self.skip_ws()
        start = self.i
        if self.at_end():
            where_ = f"после «{after}» " if after else ""
            raise self.error(
                f"выражение обрывается: {where_}ожидалось число или кубик, например «d6»"
            )
        ch = self.shown()
        if ch == "(":
            self.enter(start)
            self.i += 1
            node = self.expr()
            self.skip_ws()
            if self.shown() != ")":
                raise self.error(f"не закрыта скобка «(» с позиции {start + 1} — добавьте «)»")
            self.i += 1
            self.depth -= 1
            return node
        if ch == "{":
            self.enter(start)
            group = self.group()
            self.depth -= 1
            return group
        count = self.number()
        if self.shown() in _D:
            return self.dice(1 if count is None else count, start)
        if count is None:
            raise self.error(
                f"ожидалось число, кубик (например, «2d6»), «(» или «{{», а встретилось «{ch}»"
            )
        return Number(count, start)

    def group(self) -> Group:
        start = self.i
        self.i += 1
        items = [self.expr()]
        while True:
            self.skip_ws()
            ch = self.shown()
            if ch == ",":
                self.i += 1
                items.append(self.expr())
            elif ch == "}":
                self.i += 1
                break
            elif not ch:
                raise self.error(f"не закрыта группа «{{» с позиции {start + 1} — добавьте «}}»")
            else:
                raise self.error(f"в группе ожидалось «,» или «}}», а встретилось «{ch}»")
        mods: dict[str, object] = {}
        while True:
            at = self.i
            ch, second = self.peek(), self.peek(2)[1:]
            if ch == "k" or (ch == "d" and (second in ("h", "l") or second.isdigit())):
                self.put(mods, "keep" if ch == "k" else "drop", self.select(), at)
            elif ch in ("=", "<", ">"):
                self.put(mods, "target", self.target(), at)
            elif ch in ("!", "r", "m", "d"):
                raise self.error("у группы бывают только k, d и условия успеха (например «>=10»)")
            else:
                break
        return Group(tuple(items), position=start, **mods)  # type: ignore[arg-type]

    def dice(self, count: int, start: int) -> Dice:
        letter = self.shown()
        self.i += 1
        faces_at = self.i
        faces: int | None
        if self.shown() == "%":
            faces = 100
            self.i += 1
        elif self.shown() in _FUDGE:
            faces = None
            self.i += 1
        else:
            faces = self.number()
            if faces is None:
                raise self.error(
                    f"ожидалось число граней после «{letter}» (например, «{letter}6»), «%» или «F»"
                )
        if not 1 <= count <= self.limits.max_dice_per_term:
            raise _bounds_error(
                start,
                f"кубиков в одном броске может быть от 1 до {self.limits.max_dice_per_term}, "
                f"а не {count} — исправьте число перед «{letter}»",
            )
        if faces is not None and not self.limits.min_faces <= faces <= self.limits.max_faces:
            if faces == 1 and self.peek() in ("!", "r"):
                raise self.error(
                    "у кубика с одной гранью каждый бросок одинаков — "
                    f"«{self.shown()}» не остановился бы никогда; возьмите больше граней",
                    self.i,
                )
            raise _bounds_error(
                faces_at,
                f"граней у кубика может быть от {self.limits.min_faces} до "
                f"{self.limits.max_faces}, а не {faces} — исправьте число после «{letter}»",
            )
        mods: dict[str, object] = {}
        positions: dict[str, int] = {}
        while True:
            at = self.i
            ch = self.peek()
            if self.peek(3) in ("min", "max"):
                word = self.peek(3)
                self.i += 3
                self.put(
                    mods, "minimum" if word == "min" else "maximum", self.signed_number(word), at
                )
            elif ch == "!":
                self.put(mods, "explode", self.explode(), at)
            elif ch == "r":
                self.put(mods, "reroll", self.reroll(), at)
            elif ch == "k":
                self.put(mods, "keep", self.select(), at)
            elif ch == "d":
                self.put(mods, "drop", self.select(), at)
            elif ch in ("=", "<", ">"):
                self.put(mods, "target", self.target(), at)
            elif ch == "f":
                raise self.error("провалы «f» пишутся после условия успеха, например «10d10>=8f1»")
            elif ch in ("к", "д"):
                raise self.error(
                    "русская буква здесь неоднозначна: оставить — латинская «k», "
                    "отбросить — латинская «d» (например «4d6kh3»)"
                )
            else:
                break
            positions[next(reversed(mods))] = at
        dice = Dice(count, faces, position=start, **mods)  # type: ignore[arg-type]
        self.check_dice(dice, positions)
        return dice


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Parse dice notation such as ``"4d6dl1"``, ``"10d10>=8f1"`` or ``"2к6+3 # топор"``.

    Args:
        text: the expression as typed.
        limits: the bounds to apply.

    Returns:
        The parsed expression (``str()`` of it is the canonical notation).

    Raises:
        DiceSyntaxError: malformed text, or a reroll/explosion that could never stop, or a
            divisor that may be zero; ``.position`` is the 0-based index.
        DiceBoundsError: a number out of bounds, or text longer than ``limits.max_length``.
    """
    if len(text) > limits.max_length:
        raise _bounds_error(
            limits.max_length, f"выражение длиннее {limits.max_length} символов — сократите его"
        )
    return fast_parse(text, limits) or _Parser(text, limits).top()


def with_repeat(expression: Expression, repeat: int) -> Expression:
    """Return the expression rolled ``repeat`` times (used by saved rolls)."""
    return replace(expression, repeat=repeat)
