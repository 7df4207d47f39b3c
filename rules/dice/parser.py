"""Parse dice notation (rpg-dice-roller's syntax, ``к`` for ``d``) into an :class:`Expression`.

Grammar (case-insensitive; spaces between terms, not inside one)::

    input    := [INT "x"] expr ["vs" [sign] NUM] ["#" label | "//" label]
    expr     := term {("+" | "-" | "−") term}
    term     := unary {("*" | "/" | "%") unary}       ("/" keeps the fraction)
    unary    := ("+" | "-" | "−") unary | power
    power    := atom [("^" | "**") unary]               (right-associative)
    atom     := NUM | dice | "(" expr ")" | group | FUNC "(" expr ["," expr] ")"
    group    := "{" expr {"," expr} "}" {group-mod} [description]
    dice     := [INT | "(" const ")"] ("d" | "к" | "д") sides {modifier} [description]
    sides    := INT | "(" const ")" | "%" | "F" [".1" | ".2"]
    modifier := "min" INT | "max" INT | "!" ["!"] ["p"] [point] | "r" ["o"] [point]
              | "u" ["o"] [point] | "k" ["h" | "l"] [INT] | "d" ("h" | "l") [INT] | "d" INT
              | cp ["f" point] | "cs" [point] | "cf" [point] | "s" ["a" | "d"]
    group-mod:= "k…" | "d…" | cp ["f" point] | "s" ["a" | "d"]
    point    := cp | NUM                            (a bare number means "=NUM")
    cp       := ("=" | "!=" | "<>" | "<" | ">" | "<=" | ">=") [sign] NUM
    description := "[" text "]" | "/*" text "*/"
    NUM      := digits ["." digits]

``FUNC`` is one of rpg-dice-roller's maths functions (:data:`rules.dice.values.FUNCTIONS`). A
``const`` (the count or sides in parentheses, ``(4-2)d10``, ``3d(2*6)``) has no dice and must
come to a whole number. A sign typed twice (``3d6++2``) is read as one, and the expression says
so in :attr:`Expression.readings`.

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
    SELECT_ORDER,
    Binary,
    Call,
    Dice,
    Expression,
    Group,
    Limits,
    Negate,
    Node,
    Number,
    Reading,
    Select,
    walk,
)
from rules.dice.parser_checks import CheckMixin, _check
from rules.dice.parser_fast import fast_parse
from rules.dice.parser_modifiers import ModifierMixin
from rules.dice.parser_tokens import (
    _D,
    _DIGITS,
    _FUDGE,
    _REPEAT,
    _SIGNS,
    _bounds_error,
    label_start,
)
from rules.dice.values import FUNCTIONS, Value, apply, call, is_whole
from rules.errors import RulesError

__all__ = ["parse"]

_OPERATORS_TEXT = "«+», «-», «*», «/», «%», «^» или «vs N»"


def _selects(mods: dict[str, object]) -> tuple[Select, ...]:
    """The keep/drop slots of a pool or group, in canonical order."""
    out = []
    for keep, high in SELECT_ORDER:
        slot = ("k" if keep else "d") + ("h" if high else "l")
        if slot in mods:
            out.append(mods.pop(slot))
    return tuple(out)  # type: ignore[arg-type]


class _Parser(ModifierMixin, CheckMixin):
    """Recursive descent over the raw text (no lowering, so positions stay exact)."""

    # -- the grammar --------------------------------------------------------------------------

    def top(self) -> Expression:
        label_at = label_start(self.text)
        label = None
        if label_at < len(self.text):
            skip = 1 if self.text[label_at] == "#" else 2
            label = " ".join(self.text[label_at + skip :].split()) or None
            self.end = label_at
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
            target = self.signed_decimal("vs")
            self.skip_ws()
            if not self.at_end():
                raise self.error("после «vs N» ничего не должно быть — уберите лишнее")
        if not self.at_end():
            ch = self.shown()
            if ch in ")}":
                raise self.error(f"лишняя закрывающая скобка «{ch}» — уберите её")
            if ch == "[" or self.text.startswith("/*", self.i):
                raise self.error(
                    "описание в «[ ]» или «/* */» пишется сразу после кубиков или группы"
                )
            raise self.error(f"ожидалось {_OPERATORS_TEXT}, а встретилось «{ch}»")
        expression = Expression(self.text, root, target, label, repeat, tuple(self.readings))
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
            if ch not in ("*", "/", "%") or self.text.startswith("**", self.i):
                return node
            if self.text.startswith("/*", self.i) or self.text.startswith("//", self.i):
                return node  # a description (the checks above explain where it may go)
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
            if _SIGNS[ch] > 0:
                self.note_plus(at, after)
                return operand
            return Negate(operand, at)
        return self.power(after)

    def note_plus(self, at: int, after: str) -> None:
        """Say that a ``+`` with nothing to add to (``3d6++2``, ``+d6``) was left out."""
        signs = "+-\u2212"
        start = at
        while start > 0 and (self.text[start - 1] in signs or self.text[start - 1].isspace()):
            start -= 1
        while start < at and self.text[start].isspace():
            start += 1
        stop = at
        while stop < self.end and (self.text[stop] in signs or self.text[stop].isspace()):
            stop += 1
        typed = "".join(self.text[start:stop].split())
        if any(r.position == start for r in self.readings):
            return
        # the first sign joins two terms (if a term comes before it); the rest are leading
        # signs, of which a plus changes nothing
        binary = after in _SIGNS
        head, rest = (typed[:1], typed[1:]) if binary else ("", typed)
        read = head + rest.replace("+", "")
        self.readings.append(Reading(start, typed, read))

    def power(self, after: str) -> Node:
        base = self.atom(after)
        self.skip_ws()
        at = self.i
        if self.shown() == "^" or self.text.startswith("**", self.i):
            self.i += 1 if self.shown() == "^" else 2
            self.enter(at)
            exponent = self.unary("^")
            self.depth -= 1
            return Binary("^", base, exponent, at)
        return base

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
            node = self.parenthesised()
            if self.shown() in _D:
                return self.dice(self.constant(node, start, "кубиков"), start)
            return node
        if ch == "{":
            self.enter(start)
            group = self.group()
            self.depth -= 1
            return group
        if ch.isalpha() and ch not in _D:
            return self.function(start)
        count = self.decimal()
        if self.shown() in _D:
            if count is not None and not is_whole(count):
                raise self.error("число кубиков должно быть целым", start)
            return self.dice(1 if count is None else int(count), start)
        if count is None:
            raise self.error(
                f"ожидалось число, кубик (например, «2d6»), «(» или «{{», а встретилось «{ch}»"
            )
        return Number(count, start)

    def parenthesised(self) -> Node:
        start = self.i
        self.enter(start)
        self.i += 1
        node = self.expr()
        self.skip_ws()
        if self.shown() != ")":
            raise self.error(f"не закрыта скобка «(» с позиции {start + 1} — добавьте «)»")
        self.i += 1
        self.depth -= 1
        return node

    def constant(self, node: Node, start: int, what: str) -> int:
        """The whole positive number a parenthesised count or sides comes to."""
        if any(isinstance(n, (Dice, Group)) for n in walk(node)):
            raise self.error(
                f"число {what} в скобках считается без кубиков, например «(4-2)d10» или «3d(2*6)»",
                start,
            )
        try:
            value = _evaluate(node)
        except RulesError as err:
            raise self.error(f"число {what}: {err}", start) from None
        if not is_whole(value):
            raise self.error(f"число {what} в скобках должно выйти целым, а не {value}", start)
        typed = self.text[start : self.i]
        self.readings.append(Reading(start, typed, str(int(value))))
        return int(value)

    def function(self, start: int) -> Call:
        name_end = self.i
        while name_end < self.end and self.text[name_end].isalpha():
            name_end += 1
        name = self.text[self.i : name_end].lower()
        if name not in FUNCTIONS:
            known = ", ".join(FUNCTIONS)
            raise self.error(
                f"неизвестное слово «{self.text[self.i : name_end]}» — функции: {known}"
            )
        self.i = name_end
        if self.shown() != "(":
            raise self.error(f"после «{name}» ожидалась «(», например «{name}(4d10/3)»")
        self.enter(start)
        self.i += 1
        args = [self.expr()]
        self.skip_ws()
        while self.shown() == ",":
            self.i += 1
            args.append(self.expr())
            self.skip_ws()
        if self.shown() != ")":
            raise self.error(f"не закрыта скобка «{name}(» — добавьте «)»")
        self.i += 1
        self.depth -= 1
        wanted = FUNCTIONS[name]
        if len(args) != wanted:
            word = "одно значение" if wanted == 1 else "два значения через запятую"
            raise self.error(f"«{name}» принимает {word}", start)
        return Call(name, tuple(args), start)

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
        spans: dict[str, tuple[int, int]] = {}
        while True:
            at = self.i
            ch, second = self.peek(), self.peek(2)[1:]
            if ch == "k" or (ch == "d" and (second in ("h", "l") or second.isdigit())):
                slot, select = self.select()
                self.put(mods, spans, slot, select, at)
            elif ch in ("=", "<", ">"):
                self.put(mods, spans, "target", self.target(), at)
            elif ch == "s":
                self.put(mods, spans, "sort", self.sort(), at)
            elif ch in ("!", "r", "m", "d", "u", "c"):
                raise self.error(
                    "у группы бывают только k, d, условия успеха (например «>=10») и сортировка s"
                )
            else:
                break
        selects = _selects(mods)
        description = self.description()
        return Group(
            tuple(items),
            selects,
            position=start,
            description=description,
            **mods,  # type: ignore[arg-type]
        )

    def faces(self, letter: str) -> tuple[int | None, int]:
        """The sides after ``d``: a number, ``%``, ``F`` (``F.1``, ``F.2``) or ``(const)``."""
        start = self.i
        if self.shown() == "%":
            self.i += 1
            return 100, 2
        if self.shown() in _FUDGE:
            self.i += 1
            if self.shown() == "." and self.text[self.i + 1 : self.i + 2] in ("1", "2"):
                variant = int(self.text[self.i + 1])
                self.i += 2
                return None, variant
            if self.shown() == ".":
                raise self.error("у Fudge бывают «dF.1» и «dF.2» (как «dF»)")
            return None, 2
        if self.shown() == "(":
            node = self.parenthesised()
            return self.constant(node, start, "граней"), 2
        faces = self.number()
        if faces is None:
            raise self.error(
                f"ожидалось число граней после «{letter}» (например, «{letter}6»), «%» или «F»"
            )
        if self.shown() == "." and self.text[self.i + 1 : self.i + 2].isdigit():
            raise self.error("число граней должно быть целым")
        return faces, 2

    def dice(self, count: int, start: int) -> Dice:
        letter = self.shown()
        self.i += 1
        faces_at = self.i
        faces, fudge = self.faces(letter)
        if not 1 <= count <= self.limits.max_dice_per_term:
            raise _bounds_error(
                start,
                f"кубиков в одном броске может быть от 1 до {self.limits.max_dice_per_term}, "
                f"а не {count} — исправьте число перед «{letter}»",
            )
        if faces is not None and not self.limits.min_faces <= faces <= self.limits.max_faces:
            if faces == 1 and self.peek() in ("!", "r", "u"):
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
        spans: dict[str, tuple[int, int]] = {}
        while True:
            at = self.i
            ch = self.peek()
            if self.peek(3) in ("min", "max"):
                word = self.peek(3)
                self.i += 3
                key = "minimum" if word == "min" else "maximum"
                self.put(mods, spans, key, self.signed_number(word), at)
            elif ch == "!":
                self.put(mods, spans, "explode", self.explode(), at)
            elif ch == "r":
                self.put(mods, spans, "reroll", self.reroll(), at)
            elif ch == "u":
                self.put(mods, spans, "unique", self.unique(), at)
            elif ch in ("k", "d"):
                slot, select = self.select()
                self.put(mods, spans, slot, select, at)
            elif self.peek(2) in ("cs", "cf"):
                key = "crit_success" if self.peek(2) == "cs" else "crit_failure"
                self.put(mods, spans, key, self.mark(), at)
            elif ch == "s":
                self.put(mods, spans, "sort", self.sort(), at)
            elif ch in ("=", "<", ">"):
                self.put(mods, spans, "target", self.target(), at)
            elif ch == "f":
                raise self.error("провалы «f» пишутся после условия успеха, например «10d10>=8f1»")
            elif ch in ("к", "д"):
                raise self.error(
                    "русская буква здесь неоднозначна: оставить — латинская «k», "
                    "отбросить — латинская «d» (например «4d6kh3»)"
                )
            else:
                break
        positions = {key: span[0] for key, span in spans.items()}
        selects = _selects(mods)
        description = self.description()
        dice = Dice(
            count,
            faces,
            selects=selects,
            fudge=fudge,
            description=description,
            position=start,
            **mods,  # type: ignore[arg-type]
        )
        self.check_dice(dice, positions)
        return dice


def _evaluate(node: Node) -> Value:
    """The value of a tree without dice (a parenthesised count or sides)."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Negate):
        return -_evaluate(node.operand)
    if isinstance(node, Binary):
        return apply(node.op, _evaluate(node.left), _evaluate(node.right))
    assert isinstance(node, Call)
    return call(node.name, tuple(_evaluate(a) for a in node.args))


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Parse dice notation such as ``"4d6dl1"``, ``"10d10>=8f1"`` or ``"2к6+3 # топор"``.

    Args:
        text: the expression as typed.
        limits: the bounds to apply.

    Returns:
        The parsed expression (``str()`` of it is the canonical notation; ``readings`` says
        what was read differently from how it was typed).

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
